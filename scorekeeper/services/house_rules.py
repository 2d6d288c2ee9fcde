"""A circle's own Coiffeur (issue 24): its house rules, the rules of its last evening, and
"same again".

The house rules are a ``RuleSet.to_dict()`` snapshot on the circle, checked by the core
(``RuleSet.check``) before they are written: a bad rule set changes nothing. They are only a
default: each evening keeps the snapshot it was started with, so saving new house rules
rewrites no evening.
"""

from __future__ import annotations

from sqlalchemy import select

from ..game.errors import N_, RuleError
from ..game.rulesets import RuleSet, stored_or_none
from ..game.turns import next_first_dealer
from ..models import Circle, Evening
from . import evenings as evening_service
from .read.replay import ruleset_of
from .store import tx

__all__ = ["house_rules", "last_rules", "save_house_rules", "start_same_again"]


def house_rules(circle: Circle) -> RuleSet | None:
    """The circle's house rules, or None when it has not saved any."""
    return stored_or_none(circle.house_rules)


def save_house_rules(circle: Circle, ruleset: RuleSet) -> RuleSet:
    """The circle's house rules from now on (RuleError, nothing written, unless the core
    would start an evening with them). Saving the same rules again changes nothing."""
    ruleset.check()
    snapshot = ruleset.to_dict()
    circle_id = circle.id
    with tx.write() as s:
        row = s.get(Circle, circle_id)
        if row is None:  # pragma: no cover - the circle was opened by this request
            raise RuleError(N_("This link does not open any circle."), "circle_not_found")
        if row.house_rules != snapshot:
            row.house_rules = snapshot
    circle.house_rules = snapshot
    return ruleset


def last_rules(circle: Circle) -> RuleSet | None:
    """The rules of the circle's most recent evening (not one deleted as a test), or None."""
    ev = (
        tx.session()
        .execute(
            select(Evening)
            .where(Evening.circle_id == circle.id, Evening.deleted.is_(False))
            .order_by(Evening.created_at.desc(), Evening.id.desc())
            .limit(1)
        )
        .scalar_one_or_none()
    )
    return None if ev is None else stored_or_none(ev.ruleset)


def start_same_again(circle: Circle, evening: Evening, *, request_id: str) -> Evening:
    """The next evening of a finished one: the same players in the same seats (under the names
    they go by now), the same rules, the next first dealer. The request id makes a double tap
    start one evening only (``evenings.start_evening``)."""
    if evening.is_open:
        raise RuleError(N_("This evening is still being played: finish it first."), "again_open")
    return evening_service.start_evening(
        circle,
        ruleset=ruleset_of(evening),
        player_names=list(evening_service.names_of(evening)),
        first_dealer=next_first_dealer(ruleset_of(evening), evening.first_dealer),
        request_id=request_id,
    )
