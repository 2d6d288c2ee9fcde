"""Small helpers the blueprints share: open a circle or evening by link, show an error."""

from __future__ import annotations

from collections.abc import Sequence

from flask import abort, flash

from ..game.errors import RuleError
from ..game.rulesets import RuleSet
from ..models import Circle, Evening
from ..present.errors import error_text
from ..services import circles as circle_service
from ..services import evenings as evening_service
from ..services.errors import NotFound


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


def seat_names(evening: Evening) -> list[str]:
    """The players in seat order under the names they go by now (housekeeping applied)."""
    return list(evening_service.names_of(evening))


def flash_error(err: RuleError, ruleset: RuleSet | None = None, names: Sequence[str] | None = None) -> None:
    flash(error_text(err, ruleset, names), "error")
