"""Small helpers the blueprints share: open a circle or evening by link, show an error."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from flask import abort, flash, request, url_for

from ..game.errors import RuleError
from ..game.rulesets import RuleSet
from ..models import Circle, Evening
from ..present.errors import error_text
from ..services import circles as circle_service
from ..services import evenings as evening_service
from ..services.errors import NotFound

T = TypeVar("T")


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
    """The circle's evening, or a plain 404; an evening deleted as a test raises ``EveningDeleted``,
    answered by its own page (410, ``slate.deleted_page``) wherever it is asked for."""
    try:
        return evening_service.get_evening(circle, evening_id)
    except NotFound:
        abort(404)


def seat_names(evening: Evening) -> list[str]:
    """The players in seat order under the names they go by now (housekeeping applied)."""
    return list(evening_service.names_of(evening))


def flash_error(err: RuleError, ruleset: RuleSet | None = None, names: Sequence[str] | None = None) -> None:
    flash(error_text(err, ruleset, names), "error")


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    """One page of a list that grows (history, ledger, pairings): ``number`` is 1-based."""

    items: list[T]
    number: int
    pages: int
    total: int

    @property
    def previous(self) -> int | None:
        return self.number - 1 if self.number > 1 else None

    @property
    def next(self) -> int | None:
        return self.number + 1 if self.number < self.pages else None


def page_of(items: Sequence[T], arg: str = "page", per_page: int = 20) -> Page[T]:
    """The page the query string asks for (``?page=2``); anything else, or past the end, is the nearest page."""
    pages = max(1, -(-len(items) // per_page))
    raw = request.args.get(arg, "1")
    number = int(raw) if raw.isdigit() and len(raw) < 7 else 1
    number = min(max(number, 1), pages)
    start = (number - 1) * per_page
    return Page(list(items[start : start + per_page]), number, pages, len(items))


def page_url(number: int, arg: str = "page", anchor: str | None = None) -> str:
    """This page's URL with ``arg`` set to ``number`` (the other query arguments kept)."""
    values: dict[str, Any] = {**(request.view_args or {}), **request.args.to_dict(), arg: str(number)}
    if anchor:
        values["_anchor"] = anchor
    assert request.endpoint is not None
    return url_for(request.endpoint, **values)
