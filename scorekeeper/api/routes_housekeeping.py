"""Housekeeping (issue 9.12): rename a player, merge two players, delete a test evening,
undo any of these; every change an appended event (``services.housekeeping``)."""

from __future__ import annotations

from typing import Any

from werkzeug.wrappers import Response

from ..history.records import Housekeeping
from ..models import Circle
from ..services import housekeeping as hk
from ..services.read import who_is_who
from .blueprint import answer, routes
from .errors import ApiError

CHANGE_EXAMPLE = {"kind": "rename", "player": 2, "name": "Vreni Schmid-Kalbermatten", "request_id": "hk-1"}


def change_dict(e: Housekeeping, *, in_force: bool = True, undone_by: int | None = None) -> dict[str, Any]:
    return {
        "seq": e.seq,
        "kind": e.kind.value,
        "player": None if e.player is None else int(e.player),
        "into": None if e.into is None else int(e.into),
        "name": e.name,
        "evening": e.evening,
        "undoes": e.undoes,
        "author": e.author,
        "created_at": None if e.created_at is None else e.created_at.isoformat(),
        "in_force": in_force,
        "undone_by": undone_by,
    }


def _need(body: dict[str, Any], field: str) -> Any:
    if body.get(field) is None:
        raise ApiError("missing_field", field=field)
    return body[field]


@routes.operation(
    "/housekeeping",
    "GET",
    summary="The circle's housekeeping: renames, merges, deleted evenings, undos",
    tag="housekeeping",
    responses={200: ("Every change, newest first, and whether it is still in force", "HousekeepingLog")},
)
def housekeeping_log(circle: Circle) -> Response:
    state = who_is_who.folded(circle)
    items = [change_dict(c.event, in_force=c.in_force, undone_by=c.undone_by) for c in who_is_who.changes(state)]
    return answer({"changes": items})


@routes.operation(
    "/housekeeping",
    "POST",
    summary="Rename a player, merge two players, delete a test evening, or undo a change",
    tag="housekeeping",
    auth="write",
    body="HousekeepingInput",
    description="`rename`: `player` is called `name`. `merge`: `player` is the same person as `into` (her "
    "evenings, money and ratings become `into`'s). `delete_evening`: `evening` (its public id) was a test and "
    "counts nowhere (it is left out of every list, and every read and write of it answers 410 "
    "`evening_deleted`). `undo`: takes back the change `undoes` (an undone delete brings the evening back "
    "as it was). Nothing is erased; a repeated `request_id` answers the change already written, the same "
    "`request_id` with another body is 422 `request_id_reused`.",
    responses={
        201: ("The change as written", "HousekeepingChange"),
        400: ("A field the kind needs is missing", "Error"),
        422: (
            "The change breaks a rule (name taken, players of one table, ...), or `request_id_reused`",
            "Error",
        ),
    },
    example=CHANGE_EXAMPLE,
)
def housekeeping_change(circle: Circle, body: dict[str, Any]) -> Response:
    kind, rid, author = body["kind"], body["request_id"], body.get("author")
    if kind == "rename":
        e = hk.rename_player(circle, _need(body, "player"), _need(body, "name"), request_id=rid, author=author)
    elif kind == "merge":
        e = hk.merge_players(circle, _need(body, "player"), _need(body, "into"), request_id=rid, author=author)
    elif kind == "delete_evening":
        e = hk.delete_evening(circle, _need(body, "evening"), request_id=rid, author=author)
    else:
        e = hk.undo_change(circle, _need(body, "undoes"), request_id=rid, author=author)
    return answer(change_dict(e), 201)
