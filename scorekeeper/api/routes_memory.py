"""The circle's memory: a player's statistics, the purse (season ledger), settlements.

The same figures as the pages: the circle's memory (``services.read.memory.memory_of``)
through ``scorekeeper.history``, with the same filters as query arguments (``from``,
``to``: days, both included, in the circle's time zone; ``variant``).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from flask import request
from werkzeug.wrappers import Response

from ..game.rulesets import Variant
from ..history.purse import settlements_in_force
from ..history.records import PaymentKind
from ..history.stats import Filter
from ..models import Circle
from ..present.memory import paid_at, season_filter
from ..services import purse as purse_service
from ..services.purse import Payment
from ..services.read import memory as memory_service
from ..services.read.circle_record import player_key
from .blueprint import answer, routes
from .errors import ApiError
from .registry import parameter
from .serialize import ledger_dict, player_stats_dict, settlement_dict

Json = dict[str, Any]
DAY = {"type": "string", "format": "date"}
FILTER_QUERY = (
    parameter("from", "query", DAY, "First day of the season (included), e.g. 2026-03-01."),
    parameter("to", "query", DAY, "Last day of the season (included)."),
    parameter(
        "variant",
        "query",
        {"type": "string", "enum": [*(v.value for v in Variant), "own"]},
        "One preset of RULES 6 only (its evenings, not those of a circle's own rules of its shape), "
        "or `own`: the evenings of the circle's own rules.",
    ),
)
PATH_PLAYER = parameter("player_id", "path", {"type": "integer"}, "The player's id (as in `GET /players`).")
SETTLEMENT_EXAMPLE = {
    "kind": "payment",
    "payer_id": 1,
    "payee_id": 2,
    "rappen": 1250,
    "paid_at": "2026-11-30",
    "entered_by": "Anna",
    "request_id": "4f7c0d0e-pay-1",
}


def _day(name: str) -> date | None:
    raw = request.args.get(name)
    if raw is None or raw == "":
        return None
    try:
        return date.fromisoformat(raw)
    except ValueError:
        raise ApiError("invalid_value", field=name) from None


def _filter() -> tuple[Filter, Json]:
    start, end = _day("from"), _day("to")
    if start and end and end < start:
        raise ApiError("invalid_value", field="to")
    raw = request.args.get("variant") or None
    own = raw == "own"  # the evenings of the circle's own rules; a variant: its preset's only
    try:
        variant = Variant(raw) if raw and not own else None
    except ValueError:
        raise ApiError("invalid_value", field="variant", allowed=[*(v.value for v in Variant), "own"]) from None
    shown = {
        "from": start.isoformat() if start else None,
        "to": end.isoformat() if end else None,
        "variant": "own" if own else variant.value if variant else None,
    }
    return season_filter(start, end, variant, own=own), shown


@routes.operation(
    "/players/<int:player_id>/stats",
    "GET",
    summary="A player's statistics and ratings",
    tag="statistics",
    query=(PATH_PLAYER, *FILTER_QUERY),
    responses={
        200: ("Evenings, wins, money, sticks and potatoes, per contract, ratings, partners, opponents", "PlayerStats"),
        400: ("A filter that cannot be read", "Error"),
        404: ("No such player in this circle", "Error"),
    },
)
def player_stats(circle: Circle, player_id: int) -> Response:
    flt, shown = _filter()
    mem = memory_service.memory_of(circle)
    key = player_key(player_id)
    st = mem.stats(flt, of=key)  # her contract figures only
    try:
        me = st.player(key)
    except KeyError:
        raise ApiError("not_found") from None
    return answer(player_stats_dict(player_id, me, st, mem.ratings(flt), shown))


# --- the purse -------------------------------------------------------------------------------------
@routes.operation(
    "/ledger",
    "GET",
    summary="The purse: balances, the fewest transfers, settlements, the running ledger",
    tag="purse",
    query=FILTER_QUERY,
    responses={
        200: ("Positive balance: is owed; negative: owes; the balances add up to 0", "Ledger"),
        400: ("A filter that cannot be read", "Error"),
    },
)
def ledger(circle: Circle) -> Response:
    flt, shown = _filter()
    mem = memory_service.memory_of(circle)
    return answer(ledger_dict(mem, mem.purse(flt), shown))


def _paid_at(raw: str | None) -> datetime | None:
    if raw is None:
        return None
    try:
        if len(raw) == 10:
            return paid_at(date.fromisoformat(raw))
        instant = datetime.fromisoformat(raw)
    except ValueError:
        raise ApiError("invalid_value", field="paid_at") from None
    if instant.tzinfo is None:
        raise ApiError("invalid_value", field="paid_at")
    return instant


@routes.operation(
    "/ledger/settlements",
    "POST",
    summary="Record a payment, correct one, or take one back",
    description="Append-only: a `correction` replaces the payment (or correction) `supersedes` with new values; "
    "a `void` takes it back (it never happened). A repeated `request_id` records nothing and answers the "
    "row it wrote the first time.",
    tag="purse",
    auth="write",
    body="SettlementInput",
    responses={
        201: ("The row written and the purse after it", "SettlementWritten"),
        422: ("Refused: unknown player or payment, same player twice, amount or day missing", "Error"),
    },
    example=SETTLEMENT_EXAMPLE,
)
def settle(circle: Circle, body: dict[str, Any]) -> Response:
    kind = PaymentKind(body.get("kind", "payment"))
    payment = Payment(
        kind,
        supersedes=body.get("supersedes"),
        payer_id=body.get("payer_id"),
        payee_id=body.get("payee_id"),
        rappen=body.get("rappen"),
        paid_at=_paid_at(body.get("paid_at")),
    )
    row = purse_service.append(circle, payment, request_id=body["request_id"], entered_by=body.get("entered_by"))
    mem = memory_service.memory_of(circle)
    shown = {"from": None, "to": None, "variant": None}
    p = mem.purse()
    in_force = {s.seq for s in settlements_in_force(mem.view.settlements)}
    return answer({"settlement": settlement_dict(row, in_force), "ledger": ledger_dict(mem, p, shown)}, 201)
