"""The digital table over JSON: open a table, hand out a seat, join it, read the seat's
view, choose, play a card. Another client (or an agent) can take a seat this way.

A seat is held by its seat token, sent as ``X-Seat-Token`` (never in a URL); the
circle's write token opens tables and issues seat tokens. What a seat reads is the
engine's ``SeatView`` of that seat (``view.to_dict()``), nothing else: the same one
function the pages and the computer players use.

Errors: 403 ``seat_token`` (no, unknown or replaced seat token), 404 unknown table,
409 ``stale`` (``expected_seq`` is not the number of actions so far: nothing changed),
422 out of turn / illegal card or choice, with the engine's reason.
"""

from __future__ import annotations

from typing import Any

from flask import current_app, request
from werkzeug.wrappers import Response

from ..engine import parse_action
from ..game.errors import N_, RuleError
from ..hosting import absolute_url
from ..models import Circle, DigitalTable
from ..present.errors import error_text
from ..services import digital_table as svc
from ..services import seats as seat_svc
from ..services.digital_table import StaleTable, TableState
from ..services.errors import Forbidden
from ..services.read.replay import ruleset_of
from .blueprint import PATH_EVENING, QUERY_VERSION, answer, load_evening, routes
from .errors import error_body, rule_error_response
from .registry import parameter
from .serialize import Json, seat_state_dict, seat_token_dict, table_dict
from .shapes_requests import LEVEL

SEAT_HEADER = "X-Seat-Token"
SEAT_TOKEN_PARAM = parameter(
    SEAT_HEADER,
    "header",
    {"type": "string"},
    "The seat token (from a seat link `/s/<token>` or `POST .../table/seats/{seat}/token`).",
    required=True,
)
PATH_TABLE = parameter("table_id", "path", {"type": "string"}, "The table's public id.")
PATH_SEAT = parameter("seat", "path", {"type": "integer", "minimum": 0}, "Seat number, 0-based, in playing order.")
QUERY_LEVEL = parameter("level", "query", LEVEL)
SEAT_ERRORS = {
    403: ("No, unknown or replaced seat token", "Error"),
    404: ("No such table", "Error"),
    409: ("Stale `expected_seq`: nothing changed", "Error"),
    422: ("Out of turn, or an illegal card or choice (the engine's reason)", "Error"),
}


def _table(st: TableState) -> Json:
    return table_dict(st, seat_svc.seats(st.table), list(st.names))


def seat_state(st: TableState, seat: int) -> Json:
    return seat_state_dict(st, seat, list(st.names))


def _error(err: RuleError, table: DigitalTable | None = None) -> Response:
    if isinstance(err, Forbidden):
        return answer(error_body("seat_token", error_text(err), {}), 403)
    if table is None:
        return rule_error_response(err)
    now = svc.load(table)
    response = rule_error_response(err, now.ruleset, list(now.names))
    if isinstance(err, StaleTable):
        response.status_code = 409
    return response


def _seat() -> tuple[DigitalTable, int]:
    """The table and seat of the request's seat token (Forbidden / NotFound otherwise)."""
    table = svc.get_table(request.view_args["table_id"] if request.view_args else "")
    return table, seat_svc.seat_of_token(table, request.headers.get(SEAT_HEADER))


# --- the circle's write token: open a table, issue seat tokens -------------------------------
@routes.operation(
    "/evenings/<evening_id>/table",
    "GET",
    summary="The evening's open digital table (or null)",
    tag="table",
    responses={200: ("The open table, or null", "EveningTable")},
    query=(PATH_EVENING,),
)
def evening_table(circle: Circle, evening_id: str) -> Response:
    ev = load_evening(circle, evening_id)
    table = svc.open_table_of(ev)
    if table is None:
        return answer({"table": None})
    return answer({"table": _table(svc.load(table))})


@routes.operation(
    "/evenings/<evening_id>/table",
    "POST",
    summary="Deal digitally: open a table for the next hand",
    tag="table",
    auth="write",
    body="TableOpen",
    description="Same players, dealer and open rows as the slate; an open table is returned as it is. "
    "Computer seats play at once when it is their turn.",
    responses={200: ("The table", "EveningTable"), 422: ("The evening is over or complete", "Error")},
    query=(PATH_EVENING,),
    example={"computers": [1, 2]},
)
def open_table(circle: Circle, evening_id: str, body: dict[str, Any]) -> Response:
    ev = load_evening(circle, evening_id)
    n = ruleset_of(ev).n_players
    computers = set(body.get("computers", []))
    if any(not 0 <= c < n for c in computers):
        raise RuleError(N_("There is no seat %(seat)s at this table."), "seat_unknown", seat=max(computers))
    table = svc.open_table(
        ev, computers=computers, level=body.get("level") or current_app.config["TABLE_COMPUTER_LEVEL"]
    )
    return answer({"table": _table(svc.load(table))})


@routes.operation(
    "/evenings/<evening_id>/table/seats/<int:seat>/token",
    "POST",
    tag="table",
    auth="write",
    summary="A new seat token (hand the seat to another phone or client)",
    description="The seat's previous token stops working; a computer seat becomes a human seat.",
    responses={200: ("The new token, shown once", "SeatTokenIssued"), 422: ("No open table, or no such seat", "Error")},
    query=(PATH_EVENING, PATH_SEAT),
)
def seat_token(circle: Circle, evening_id: str, seat: int) -> Response:
    ev = load_evening(circle, evening_id)
    table = svc.open_table_of(ev)
    if table is None:
        raise RuleError(N_("No digital table is open for this evening."), "no_table")
    token = seat_svc.issue_seat_token(table, seat)
    return answer(seat_token_dict(seat, token, absolute_url(f"/s/{token}")))


@routes.operation(
    "/evenings/<evening_id>/table/seats/<int:seat>/computer",
    "POST",
    tag="table",
    auth="write",
    summary="Give a seat to a computer player",
    description="The phone or client holding the seat is shut out; the computer plays at once "
    "when it is its turn, at the `level` given (a computer seat given again changes "
    "its level; one that failed tries again).",
    responses={
        200: ("The table", "EveningTable"),
        422: ("No open table, no such seat, or an unknown level (`level_unknown`)", "Error"),
    },
    query=(PATH_EVENING, PATH_SEAT, QUERY_LEVEL),
)
def seat_computer(circle: Circle, evening_id: str, seat: int) -> Response:
    ev = load_evening(circle, evening_id)
    table = svc.open_table_of(ev)
    if table is None:
        raise RuleError(N_("No digital table is open for this evening."), "no_table")
    seat_svc.set_computer(table, seat, request.args.get("level") or current_app.config["TABLE_COMPUTER_LEVEL"])
    return answer({"table": _table(svc.run_computers(table))})


# --- the seat token: join, read, choose, play ---------------------------------------------------
@routes.operation(
    "/tables/join",
    "POST",
    summary="Join a seat with its seat token",
    tag="table",
    auth="none",
    body="SeatJoin",
    responses={200: ("The seat's state", "SeatState"), 403: ("Unknown or replaced seat token", "Error")},
    example={"token": "the-seat-token-from-the-link"},
)
def join(body: dict[str, Any]) -> Response:
    try:
        table, seat = seat_svc.table_of_token(body["token"])
    except Forbidden as err:
        return _error(err)
    seat_svc.mark_joined(table, seat)
    return answer(seat_state(svc.run_computers(table), seat))


@routes.operation(
    "/tables/<table_id>/seat",
    "GET",
    summary="The seat's view: its own hand, the table, its choices",
    tag="table",
    auth="none",
    description="Poll with `?v=<version>`: 204 while nothing changed.",
    responses={
        200: ("The seat's state", "SeatState"),
        204: ("Unchanged", None),
        **{k: v for k, v in SEAT_ERRORS.items() if k in (403, 404)},
    },
    query=(PATH_TABLE, QUERY_VERSION),
    headers=(SEAT_TOKEN_PARAM,),
)
def seat_view(table_id: str) -> Response:
    try:
        table, seat = _seat()
    except RuleError as err:
        return _error(err)
    st = svc.load(table)  # a read: the computers moved in the write that made it their turn
    if request.args.get("v", type=int) == st.table.version:
        return Response(status=204)
    return answer(seat_state(st, seat))


def _act(action_of: Any, body: dict[str, Any]) -> Response:
    try:
        table, seat = _seat()
    except RuleError as err:
        return _error(err)
    try:
        action = action_of(svc.load(table))
        st = svc.act(table, seat, action, expected_seq=body["expected_seq"])
    except RuleError as err:
        return _error(err, table)
    return answer(seat_state(st, seat))


def _parse(text: Any, st: TableState, cards: bool) -> int:
    try:
        action = text if isinstance(text, int) else parse_action(str(text), st.ruleset)
    except (ValueError, KeyError):
        raise RuleError(N_("That is not an action: %(text)s."), "not_an_action", text=str(text)) from None
    if cards != (0 <= action < 36):
        if cards:
            raise RuleError(N_("That is not a card: %(text)s."), "not_a_card", text=str(text))
        raise RuleError(N_("Play a card with /play."), "play_a_card")
    return action


@routes.operation(
    "/tables/<table_id>/choose",
    "POST",
    summary="Choose: pass, a row and contract, Seich, a Komisch block",
    tag="table",
    auth="none",
    body="TableChoice",
    responses={200: ("The seat's state after the choice (and the computers' moves)", "SeatState"), **SEAT_ERRORS},
    query=(PATH_TABLE,),
    headers=(SEAT_TOKEN_PARAM,),
    example={"expected_seq": 0, "action": "pass"},
)
def choose(table_id: str, body: dict[str, Any]) -> Response:
    return _act(lambda st: _parse(body["action"], st, cards=False), body)


@routes.operation(
    "/tables/<table_id>/play",
    "POST",
    summary="Play a card",
    tag="table",
    auth="none",
    body="TablePlay",
    responses={200: ("The seat's state after the card (and the computers' moves)", "SeatState"), **SEAT_ERRORS},
    query=(PATH_TABLE,),
    headers=(SEAT_TOKEN_PARAM,),
    example={"expected_seq": 1, "card": "H9"},
)
def play(table_id: str, body: dict[str, Any]) -> Response:
    return _act(lambda st: _parse(body["card"], st, cards=True), body)


@routes.operation(
    "/tables/<table_id>/next",
    "POST",
    summary="Deal the next hand at this table",
    tag="table",
    auth="none",
    description="Only once the hand is over; a repeat while a hand is in play deals nothing.",
    responses={
        200: ("The seat's state in the new hand", "SeatState"),
        **{k: v for k, v in SEAT_ERRORS.items() if k != 409},
    },
    query=(PATH_TABLE,),
    headers=(SEAT_TOKEN_PARAM,),
)
def next_hand(table_id: str) -> Response:
    try:
        table, seat = _seat()
    except RuleError as err:
        return _error(err)
    try:
        st = svc.deal_next(table)
    except RuleError as err:
        return _error(err, table)
    return answer(seat_state(st, seat))
