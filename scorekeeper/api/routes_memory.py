"""The circle's memory: a player's statistics, the purse (season ledger), settlements.

The same figures as the pages: the circle's memory (``services.memory.memory_of``)
through ``scorekeeper.history``, with the same filters as query arguments (``from``,
``to``: days, both included, in the circle's time zone; ``variant``).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from flask import request
from werkzeug.wrappers import Response

from ..game.rulesets import Variant
from ..history.purse import Purse, settlements_in_force
from ..history.records import PaymentKind, Settlement
from ..history.stats import Filter, HandRef
from ..models import Circle
from ..present.memory import paid_at, season_filter
from ..services import memory as memory_service
from ..services import purse as purse_service
from ..services.memory import Memory
from ..services.purse import Payment
from ..services.record_rows import player_key
from .blueprint import answer, routes
from .errors import ApiError
from .registry import parameter
from .serialize import when

Json = dict[str, Any]
DAY = {"type": "string", "format": "date"}
FILTER_QUERY = (
    parameter("from", "query", DAY, "First day of the season (included), e.g. 2026-03-01."),
    parameter("to", "query", DAY, "Last day of the season (included)."),
    parameter("variant", "query", {"type": "string", "enum": [v.value for v in Variant]}, "One variant only."),
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
    try:
        variant = Variant(raw) if raw else None
    except ValueError:
        raise ApiError("invalid_value", field="variant", allowed=[v.value for v in Variant]) from None
    shown = {
        "from": start.isoformat() if start else None,
        "to": end.isoformat() if end else None,
        "variant": variant.value if variant else None,
    }
    return season_filter(start, end, variant), shown


def _hand(ref: HandRef) -> Json:
    return {
        "evening": ref.evening,
        "ended_at": when(ref.ended_at),
        "hand": ref.hand,
        "row_key": ref.row_key,
        "contract": ref.contract,
        "points": ref.points,
        "scored": ref.scored,
        "value": ref.value,
        "match": ref.match,
        "countermatch": ref.countermatch,
    }


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
    ladders = mem.ratings(flt)

    def other(pair: tuple[str, str]) -> int:
        return int(pair[1] if pair[0] == key else pair[0])

    return answer(
        {
            "player": {"id": player_id, "name": me.name},
            "filter": shown,
            "evenings": me.evenings,
            "wins": me.wins,
            "net_rappen": me.net_rappen,
            "money_evenings": me.money_evenings,
            "sticks": me.sticks,
            "potatoes": me.potatoes,
            "hands": me.hands,
            "paper_cells": me.paper_cells,
            "contracts": [
                {
                    "kind": c.kind.value,
                    "hands": c.hands,
                    "points": c.points,
                    "average": c.average,
                    "matches": c.matches,
                    "countermatches": c.countermatches,
                    "match_rate": c.match_rate,
                    "countermatch_rate": c.countermatch_rate,
                    "best": _hand(c.best),
                    "worst": _hand(c.worst),
                }
                for c in st.contracts_of(key)
            ],
            "ratings": [
                {
                    "ladder": ladder.value,
                    "mu": r.rating.mu,
                    "sigma": r.rating.sigma,
                    "ordinal": r.rating.ordinal,
                    "evenings": r.evenings,
                }
                for ladder, lr in ladders.items()
                for r in lr.players
                if r.player == key
            ],
            "pairings": [
                {
                    "partner_id": other(p.players),
                    "evenings": p.evenings,
                    "wins": p.wins,
                    "net_rappen": p.net_rappen,
                    "points": p.points,
                }
                for p in st.pairings
                if key in p.players
            ],
            "head_to_head": [
                {
                    "opponent_id": other(h.players),
                    "evenings": h.evenings,
                    "ahead": h.ahead[h.players.index(key)],
                    "behind": h.ahead[1 - h.players.index(key)],
                    "level": h.level,
                }
                for h in st.head_to_head
                if key in h.players
            ],
        }
    )


# --- the purse -------------------------------------------------------------------------------------
def settlement_dict(s: Settlement, in_force: set[int]) -> Json:
    return {
        "seq": s.seq,
        "kind": s.kind.value,
        "supersedes": s.supersedes,
        "payer_id": None if s.payer is None else int(s.payer),
        "payee_id": None if s.payee is None else int(s.payee),
        "rappen": s.rappen,
        "paid_at": when(s.paid_at),
        "entered_by": s.entered_by,
        "created_at": when(s.created_at),
        "in_force": s.seq in in_force,
    }


def ledger_dict(mem: Memory, p: Purse, shown: Json) -> Json:
    name = mem.view.player_name
    in_force = {s.seq for s in settlements_in_force(mem.view.settlements)}
    return {
        "filter": shown,
        "balances": [{"player_id": int(pid), "name": name(pid), "rappen": p.balances[pid]} for pid in p.players],
        "transfers": [{"payer_id": int(t.payer), "payee_id": int(t.payee), "rappen": t.rappen} for t in p.transfers],
        "fewest_proven": p.exact,
        "settlements": [settlement_dict(s, in_force) for s in mem.view.settlements],
        "lines": [
            {
                "when": when(line.when),
                "evening": line.evening,
                "payment": line.payment,
                "change": [{"player_id": int(pid), "rappen": amount} for pid, amount in line.change],
            }
            for line in p.lines
        ],
    }


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
