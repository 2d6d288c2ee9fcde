"""One evening: read it, poll its version, record, correct, undo, cut, end, result."""

from __future__ import annotations

from typing import Any

from flask import request
from werkzeug.wrappers import Response

from ..models import Circle
from ..scoring.final import Cut
from ..services import evenings as svc
from ..services.read import outlook as outlook_svc
from .blueprint import (
    PATH_EVENING,
    QUERY_VERSION,
    answer,
    evening_answer,
    hand_from_body,
    load_evening,
    read_evening,
    routes,
    snapshot_answer,
)
from .registry import parameter
from .serialize import cut_dict, entries_dict, log_dict, outlook_dict, slate_dict, standing_dict, tie_dict

E = "/evenings/<evening_id>"
PATH_INDEX = parameter(
    "index", "path", {"type": "integer", "minimum": 0}, "Position of the hand on the slate, 0-based (hand number - 1)."
)
WRITE = {
    409: ("Stale `expected_version`: nothing written; the current version and the fresh slate", "StaleError"),
    422: ("A rule forbids it, or `request_id_reused`: the request id came before with another body", "Error"),
}
HAND_EXAMPLE = {
    "expected_version": 0,
    "request_id": "4f7c0d0e-hand-1",
    "declarer_seat": 1,
    "row_key": "suit_C",
    "played_as": None,
    "declarer_points": 100,
    "defender_points": 57,
    "match": False,
    "countermatch": False,
}
ACTION_EXAMPLE = {"expected_version": 0}


@routes.operation(
    E,
    "GET",
    summary="The evening: rule set, seats, slate, cuts, result and money",
    tag="evenings",
    responses={200: ("The evening", "Evening")},
    query=(PATH_EVENING,),
)
def evening(circle: Circle, evening_id: str) -> Response:
    snap = read_evening(circle, evening_id)
    return snapshot_answer(snap)


@routes.operation(
    E + "/version",
    "GET",
    summary="Poll the version",
    tag="evenings",
    description="204 (no body) while `If-None-Match` or `?v=` names the current version, else 200 with an ETag.",
    responses={200: ("The current version", "Version"), 204: ("Unchanged", None)},
    query=(PATH_EVENING, QUERY_VERSION),
    headers=(
        parameter("If-None-Match", "header", {"type": "string"}, 'The ETag of the version the client has, e.g. `"7"`.'),
    ),
)
def version(circle: Circle, evening_id: str) -> Response:
    ev = load_evening(circle, evening_id)
    etag = f'"{ev.version}"'
    seen = request.args.get("v", type=int)
    if seen == ev.version or request.if_none_match.contains_weak(str(ev.version)):
        return answer_empty(etag)
    return answer({"version": ev.version}, 200, ETag=etag)


def answer_empty(etag: str) -> Response:
    response = Response(status=204)
    response.headers["ETag"] = etag
    return response


@routes.operation(
    E + "/slate",
    "GET",
    summary="The slate: cells, totals, open rows, turn guide",
    tag="slate",
    responses={200: ("The slate as it stands", "Slate")},
    query=(PATH_EVENING,),
)
def slate(circle: Circle, evening_id: str) -> Response:
    return answer(slate_dict(read_evening(circle, evening_id)))


@routes.operation(
    E + "/entries",
    "GET",
    summary="The hands on the slate, in order",
    tag="slate",
    responses={200: ("Entries (corrections applied, undone hands gone)", "Entries")},
    query=(PATH_EVENING,),
)
def entries(circle: Circle, evening_id: str) -> Response:
    return answer(entries_dict(read_evening(circle, evening_id)))


@routes.operation(
    E + "/hands",
    "POST",
    summary="Record a hand",
    tag="slate",
    auth="write",
    body="HandInput",
    description="Idempotent by `request_id`: a repeat records nothing and answers the evening. The hand that "
    "fills the last cell ends the evening (`status` `ended`), unless a tie still waits for its cut.",
    responses={200: ("The evening with the hand on its slate", "Evening"), **WRITE},
    query=(PATH_EVENING,),
    example=HAND_EXAMPLE,
)
def record_hand(circle: Circle, evening_id: str, body: dict[str, Any]) -> Response:
    ev = load_evening(circle, evening_id)
    entry = hand_from_body(body)
    ev = svc.record_hand(
        ev,
        entry,
        expected_version=body["expected_version"],
        request_id=body["request_id"],
        author=body.get("author"),
        queued_after=body.get("queued_after"),
    )
    return evening_answer(ev)


@routes.operation(
    E + "/entries/<int:index>",
    "PUT",
    summary="Correct a past hand",
    tag="corrections",
    auth="write",
    body="HandInput",
    description="The old value is kept (see corrections); every total is recomputed.",
    responses={200: ("The evening with the corrected slate", "Evening"), **WRITE},
    query=(PATH_EVENING, PATH_INDEX),
    example={**HAND_EXAMPLE, "declarer_points": 90, "defender_points": 67, "request_id": "4f7c-fix-1"},
)
def correct_entry(circle: Circle, evening_id: str, index: int, body: dict[str, Any]) -> Response:
    ev = load_evening(circle, evening_id)
    entry = hand_from_body(body)
    ev = svc.correct_entry(
        ev,
        index,
        entry,
        expected_version=body["expected_version"],
        request_id=body["request_id"],
        author=body.get("author"),
    )
    return evening_answer(ev)


@routes.operation(
    E + "/corrections",
    "GET",
    summary="Corrections and undos: when, old and new",
    tag="corrections",
    responses={200: ("Oldest first", "Corrections")},
    query=(PATH_EVENING,),
)
def corrections(circle: Circle, evening_id: str) -> Response:
    snap = read_evening(circle, evening_id)
    return answer({"version": snap.version, "items": [log_dict(item) for item in snap.corrections]})


@routes.operation(
    E + "/undo",
    "POST",
    summary="Take back the last hand",
    tag="corrections",
    auth="write",
    body="Action",
    responses={200: ("The evening without its last hand", "Evening"), **WRITE},
    query=(PATH_EVENING,),
    example={**ACTION_EXAMPLE, "request_id": "4f7c0d0e-undo-1"},
)
def undo(circle: Circle, evening_id: str, body: dict[str, Any]) -> Response:
    ev = load_evening(circle, evening_id)
    ev = svc.undo_last(
        ev, expected_version=body["expected_version"], request_id=body["request_id"], author=body.get("author")
    )
    return evening_answer(ev)


@routes.operation(
    E + "/cuts",
    "GET",
    summary="Ties and how they were cut",
    tag="cuts",
    responses={200: ("Cuts that decide a tie, and ties still waiting for one", "Cuts")},
    query=(PATH_EVENING,),
)
def cuts(circle: Circle, evening_id: str) -> Response:
    snap = read_evening(circle, evening_id)
    return answer(
        {
            "version": snap.version,
            "cuts": [cut_dict(c) for c in snap.cuts],
            "pending": [tie_dict(t) for t in snap.pending],
        }
    )


@routes.operation(
    E + "/cuts",
    "POST",
    summary="Record a real cut at the table",
    tag="cuts",
    auth="write",
    body="CutInput",
    responses={200: ("The evening with the cut", "Evening"), **WRITE},
    query=(PATH_EVENING,),
    example={"expected_version": 0, "request_id": "4f7c-cut-1", "row_key": "suit_C", "end": "high", "winner": 0},
)
def set_cut(circle: Circle, evening_id: str, body: dict[str, Any]) -> Response:
    ev = load_evening(circle, evening_id)
    cut = Cut(body["row_key"], body["end"], body["winner"], False, tuple(body.get("order", ())))
    ev = svc.set_cut(ev, cut, expected_version=body["expected_version"], request_id=body["request_id"])
    return evening_answer(ev)


@routes.operation(
    E + "/cuts/draw",
    "POST",
    summary="Let the app cut every undecided tie",
    tag="cuts",
    auth="write",
    body="Action",
    responses={200: ("The evening with the drawn cuts", "Evening"), **WRITE},
    query=(PATH_EVENING,),
    example={**ACTION_EXAMPLE, "request_id": "4f7c0d0e-draw-1"},
)
def draw_cuts(circle: Circle, evening_id: str, body: dict[str, Any]) -> Response:
    ev = load_evening(circle, evening_id)
    ev = svc.draw_cuts(ev, expected_version=body["expected_version"], request_id=body["request_id"])
    return evening_answer(ev)


@routes.operation(
    E + "/end",
    "POST",
    summary="End the evening (complete, or early)",
    tag="evenings",
    auth="write",
    body="EndInput",
    description="Ties still without a cut are cut by a recorded random draw. An evening is also over without "
    "this call once its last cell is filled and every tie cut (the write that did it ended it): ending it "
    "again changes nothing and answers the evening. `counts_in_money` (ending early) is part of the request: "
    "the same `request_id` saying otherwise is 422 `request_id_reused`.",
    responses={200: ("The ended evening with its result and money", "Evening"), **WRITE},
    query=(PATH_EVENING,),
    example={**ACTION_EXAMPLE, "request_id": "4f7c0d0e-end-1", "early": True},
)
def end(circle: Circle, evening_id: str, body: dict[str, Any]) -> Response:
    ev = load_evening(circle, evening_id)
    ev = svc.end_evening(
        ev,
        early=bool(body.get("early", False)),
        expected_version=body["expected_version"],
        request_id=body["request_id"],
        counts_in_money=bool(body.get("counts_in_money", True)),
    )
    return evening_answer(ev)


@routes.operation(
    E + "/reopen",
    "POST",
    summary="Reopen an ended evening to correct it",
    tag="evenings",
    auth="write",
    body="Action",
    description="Back to open (version + 1); entries and cuts stay. A correction that leaves every cell filled "
    "(and every tie cut) ends it again; otherwise end it again afterwards.",
    responses={200: ("The evening, open again", "Evening"), **WRITE},
    query=(PATH_EVENING,),
    example={**ACTION_EXAMPLE, "request_id": "4f7c0d0e-reopen-1"},
)
def reopen(circle: Circle, evening_id: str, body: dict[str, Any]) -> Response:
    ev = load_evening(circle, evening_id)
    ev = svc.reopen_evening(ev, expected_version=body["expected_version"], request_id=body["request_id"])
    return evening_answer(ev)


@routes.operation(
    E + "/result",
    "GET",
    summary="Standing, result (sticks, potatoes, winners) and money",
    tag="evenings",
    responses={200: ("Totals so far; result and payout once decided", "Standing")},
    query=(PATH_EVENING,),
)
def result(circle: Circle, evening_id: str) -> Response:
    return answer(standing_dict(read_evening(circle, evening_id)))


@routes.operation(
    E + "/outlook",
    "GET",
    summary="The outlook: ranges, catch-up and clinch lines, win probabilities",
    tag="outlook",
    description="Per side `total`, `min`, `max`, `decided`, `catch_up`, `clinch` and the probabilities `win` and "
    "`shared`; per row its cells (`match_enough`, the shares of the lines) and, for three players, who can still "
    "get the sticks or the potatoes. Simulated once per version (seeded by the evening and its version), so "
    "every client gets the same figures. `hidden`: the table hid it.",
    responses={200: ("The outlook at the evening's version", "Outlook")},
    query=(PATH_EVENING,),
)
def outlook(circle: Circle, evening_id: str) -> Response:
    snap = read_evening(circle, evening_id)
    return answer(
        outlook_dict(
            outlook_svc.outlook_of(snap, circle), snap.ruleset.variant.value, odds_known=snap.ruleset.is_preset
        )
    )


@routes.operation(
    E + "/settings",
    "GET",
    summary="The evening's settings (whether the outlook is hidden)",
    tag="outlook",
    responses={200: ("The settings", "Settings")},
    query=(PATH_EVENING,),
)
def settings(circle: Circle, evening_id: str) -> Response:
    return answer({"outlook_hidden": load_evening(circle, evening_id).outlook_hidden})


@routes.operation(
    E + "/settings",
    "POST",
    summary="Change the evening's settings (hide or show the outlook)",
    tag="outlook",
    auth="write",
    body="SettingsInput",
    description="Remembered for the evening, also once it ended; every phone follows with its next poll. "
    "Does not change the slate's version.",
    responses={200: ("The settings now", "Settings")},
    query=(PATH_EVENING,),
    example={"outlook_hidden": True},
)
def change_settings(circle: Circle, evening_id: str, body: dict[str, Any]) -> Response:
    ev = load_evening(circle, evening_id)
    if "outlook_hidden" in body:
        ev = outlook_svc.set_hidden(ev, body["outlook_hidden"])
    return answer({"outlook_hidden": ev.outlook_hidden})
