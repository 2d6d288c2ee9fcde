"""Small helpers the blueprints share: open a circle or evening by link, show an error."""

from __future__ import annotations

from collections.abc import Sequence

from flask import abort, flash

from ..game.contracts import Contract
from ..game.errors import RuleError
from ..game.rulesets import RuleSet
from ..i18n import translate_error
from ..models import Circle, Evening
from ..services import circles as circle_service
from ..services import evenings as evening_service
from ..services.errors import NotFound
from .labels import contract_label, row_label


def open_or_404(token: str) -> tuple[Circle, bool]:
    """The circle of a link and whether it may write; an unknown link is a plain 404."""
    try:
        return circle_service.open_circle(token)
    except NotFound:
        abort(404)


def require_write(can_write: bool) -> None:
    if not can_write:
        abort(403)


def evening_or_404(circle: Circle, evening_id: str) -> Evening:
    try:
        return evening_service.get_evening(circle, evening_id)
    except NotFound:
        abort(404)


def ruleset_of(evening: Evening) -> RuleSet:
    return RuleSet.from_dict(evening.ruleset)


def seat_names(evening: Evening) -> list[str]:
    return [p.name for p in evening.players]


def error_text(err: RuleError, ruleset: RuleSet | None = None, names: Sequence[str] | None = None) -> str:
    """The error in the user's language; rows, seats and contracts by their names."""
    shown: dict[str, str] = {}
    deck = ruleset.deck if ruleset is not None else "swiss"
    params = err.params
    if ruleset is not None and isinstance(params.get("row"), str):
        try:
            shown["row"] = row_label(ruleset.row(params["row"]), ruleset.deck)
        except KeyError:
            pass
    if names is not None and isinstance(params.get("seat"), int) and 0 <= params["seat"] < len(names):
        shown["seat"] = names[params["seat"]]
    if isinstance(params.get("contract"), str):
        try:
            shown["contract"] = contract_label(Contract.parse(params["contract"]), deck)
        except ValueError:
            pass
    return translate_error(err, deck, shown)


def flash_error(err: RuleError, ruleset: RuleSet | None = None, names: Sequence[str] | None = None) -> None:
    flash(error_text(err, ruleset, names), "error")
