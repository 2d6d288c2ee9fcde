"""Plain JSON data for the API, every body built here: the services' values, an evening's
snapshot, the circle's memory (a player's statistics, the purse's ledger and settlements) and
the digital table (a table, a seat's state, a seat token issued) as dicts.

The shapes are ``shapes``' (the OpenAPI document shows them, the tests hold real
answers against them). Words shown to a person (row names, side names, the barrel
rule) come from ``scorekeeper.present``, as on the pages.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from ..engine import format_action
from ..game.hand_entry import HandEntry
from ..history.purse import Purse, settlements_in_force
from ..history.ratings import Ladder, LadderRatings
from ..history.records import Settlement
from ..history.stats import CircleStats, HandRef, PlayerStats
from ..models import Circle, Player, TableSeat
from ..present.labels import EveningWords
from ..present.seat import rows_open_now
from ..present.slate import words_of
from ..scoring.final import Cut, Result, Tie
from ..scoring.slate import Slate
from ..services.digital_table import TableState
from ..services.read import who_is_who
from ..services.read.listings import EveningSummary, PlayerRecord
from ..services.read.memory import Memory
from ..services.read.outlook import EveningOutlook
from ..services.read.replay import LogItem
from ..services.read.snapshot import EveningSnapshot
from ..services.read.who_is_who import PlayerNow

Json = dict[str, Any]


def when(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def circle_dict(circle: Circle) -> Json:
    return {"id": circle.public_id, "name": circle.name, "created_at": when(circle.created_at)}


def player_dict(player: Player | PlayerNow) -> Json:
    return {"id": player.id, "name": player.name}


def players_of(circle: Circle) -> list[Json]:
    """The players in force under their names now (housekeeping applied), by name."""
    return [player_dict(p) for p in who_is_who.players_now(who_is_who.folded(circle))]


def hand_dict(entry: HandEntry) -> Json:
    return {
        "declarer_seat": entry.declarer_seat,
        "row_key": entry.row_key,
        "played_as": entry.contract.code if entry.contract is not None else None,
        "declarer_points": entry.declarer_points,
        "defender_points": entry.defender_points,
        "match": entry.match,
        "countermatch": entry.countermatch,
        "seich": entry.seich,
    }


def tie_dict(tie: Tie) -> Json:
    return {"row_key": tie.row_key, "end": tie.end, "sides": list(tie.sides)}


def cut_dict(cut: Cut) -> Json:
    return cut.to_dict()


def summary_dict(s: EveningSummary) -> Json:
    return {
        "id": s.public_id,
        "created_at": when(s.created_at),
        "ended_at": when(s.ended_at),
        "status": s.status,
        "ended_early": s.ended_early,
        "variant": s.variant,
        "players": list(s.players),
        "hands": s.hands,
        "score": None if s.score is None else list(s.score),
        "totals": list(s.totals),
        "winners": list(s.winners),
        "money": None if s.money is None else list(s.money),
        "stake_rappen": s.stake_rappen,
        "counts_in_money": s.counts_in_money,
        "deleted": s.deleted,
    }


def record_dict(r: PlayerRecord) -> Json:
    return {
        "player_id": r.player_id,
        "name": r.name,
        "evenings": r.evenings,
        "wins": r.wins,
        "net_rappen": r.net_rappen,
    }


def turn_dict(snap: EveningSnapshot, words: EveningWords) -> Json | None:
    turn = snap.turn
    if turn is None:
        return None
    return {
        "dealer": turn.dealer,
        "forehand": turn.forehand,
        "speaking": list(turn.speaking),
        "full_sides": list(turn.full_sides),
        "barrel_seat": turn.barrel_seat,
        "barrel_rule": snap.ruleset.barrel.value + ": " + words.barrel_rule,
        "seich_available": None if turn.seich_available is None else list(turn.seich_available),
    }


def slate_dict(snap: EveningSnapshot) -> Json:
    """The slate as it stands (``slate_in``, in the evening's words)."""
    return slate_in(snap, words_of(snap))


def slate_in(snap: EveningSnapshot, words: EveningWords) -> Json:
    """The slate of ``snap``, its rows named in ``words``."""
    slate, facts = snap.slate, snap.facts
    n_sides = len(facts.side_seats)
    rows = []
    for rf in facts.rows:
        row = rf.row
        cells: list[Json | None] = []
        for side in range(n_sides):
            c = slate.cell(row.key, side)
            cells.append(
                None
                if c is None
                else {
                    "value": c.value,
                    "index": c.index,
                    "played_as": c.entry.contract.code if c.entry.contract is not None else None,
                    "match": c.entry.match,
                    "countermatch": c.entry.countermatch,
                    "imported": c.imported,
                }
            )
        rows.append(
            {
                "key": row.key,
                "label": words.rows[row.key],
                "factor": row.factor,
                "choice": row.is_choice,
                "kinds": [k.value for k in row.kinds],
                "suit": None if row.suit is None else row.suit.letter,
                "cells": cells,
            }
        )
    return {
        "version": snap.version,
        "complete": slate.complete,
        "hands_dealt": slate.hands_dealt,
        "cells_filled": len(slate.cells),
        "n_cells": n_sides * len(facts.rows),
        "rows": rows,
        "totals": list(slate.totals),
        "match_marks": [list(m) for m in slate.match_marks],
        "open_rows": [slate.open_rows(side) for side in range(n_sides)],
        "seich_used": sorted(slate.seich_used),
        "seich_hands": [_seich_hand(slate, side) for side in range(n_sides)],
        "seich_calls": [
            [_seich_at(slate, index) for index in slate.seich_all.get(side, ())] for side in range(n_sides)
        ],
        "turn": turn_dict(snap, words),
    }


def _seich_at(slate: Slate, index: int) -> Json:
    return {"hand": index + 1, "seat": slate.entries[index].declarer_seat}


def _seich_hand(slate: Slate, side: int) -> Json | None:
    """Where the side's first Seich went (``Slate.seich_hands``), as the slate page shows it."""
    index = slate.seich_hands.get(side)
    return None if index is None else _seich_at(slate, index)


def result_dict(result: Result) -> Json:
    out = result.to_dict()
    sides = range(len(result.totals))
    out["sticks"] = [result.sticks(s) for s in sides]
    out["potatoes"] = [result.potatoes(s) for s in sides]
    return out


def standing_dict(snap: EveningSnapshot) -> Json:
    """Totals as they stand, and the result and money once decided."""
    return {
        "version": snap.version,
        "decided": snap.result is not None,
        "totals": list(snap.slate.totals),
        "match_marks": [list(m) for m in snap.slate.match_marks],
        "pending_ties": [tie_dict(t) for t in snap.pending],
        "result": None if snap.result is None else result_dict(snap.result),
        "payout": None if snap.payout is None else snap.payout.to_dict(),
    }


def evening_dict(snap: EveningSnapshot, *, can_write: bool) -> Json:
    """Everything about one evening: rule set, seats, slate, cuts, result and money; its words
    (``present``) worked out once."""
    rs, names, facts = snap.ruleset, snap.names, snap.facts
    words = words_of(snap)
    return {
        "id": snap.public_id,
        "status": snap.status,
        "ended_early": snap.ended_early,
        "counts_in_money": snap.counts_in_money,
        "created_at": when(snap.created_at),
        "ended_at": when(snap.ended_at),
        "version": snap.version,
        "variant": rs.variant.value,
        "can_write": can_write and snap.is_open,
        "ruleset": rs.to_dict(),
        "rules": rs.rules_dict(),
        "players": [
            {"seat": seat, "name": name, "short": short, "side": facts.seat_side[seat]}
            for seat, (name, short) in enumerate(zip(names, words.short, strict=True))
        ],
        "sides": [
            {"side": side, "seats": list(seats), "name": label}
            for side, (seats, label) in enumerate(zip(facts.side_seats, words.sides, strict=True))
        ],
        "slate": slate_in(snap, words),
        "cuts": [cut_dict(c) for c in snap.cuts],
        "pending_ties": [tie_dict(t) for t in snap.pending],
        "result": None if snap.result is None else result_dict(snap.result),
        "payout": None if snap.payout is None else snap.payout.to_dict(),
    }


def log_dict(item: LogItem) -> Json:
    return {
        "seq": item.seq,
        "kind": item.kind,
        "at": when(item.created_at),
        "index": item.index,
        "old": None if item.previous is None else hand_dict(item.previous),
        "new": None if item.entry is None else hand_dict(item.entry),
        "author": item.author,
    }


def entries_dict(snap: EveningSnapshot) -> Json:
    entries = snap.slate.entries
    return {"version": snap.version, "entries": [{"index": i, "hand": hand_dict(e)} for i, e in enumerate(entries)]}


def outlook_dict(eo: EveningOutlook, variant: str, *, odds_known: bool = True) -> Json:
    """The outlook as ``scoring.outlook`` defines it (``{"sides": [...], "rows": [...], ...}``);
    the seed as 16 hex digits (it does not fit a JavaScript number). ``odds_known``: whether a
    shipped table fits the rule set (``forecast.odds_known``), said also while hidden."""
    if eo.hidden or eo.outlook is None:
        body: Json = {
            "variant": variant,
            "sides": [],
            "rows": [],
            "shared": None,
            "simulations": 0,
            "seed": None,
            "odds_known": odds_known,
        }
    else:
        body = eo.outlook.to_dict()
        body["seed"] = None if eo.outlook.seed is None else f"{eo.outlook.seed:016x}"
    return {"version": eo.version, "hidden": eo.hidden, **body, "history_hands": eo.history_hands}


# --- the circle's memory -------------------------------------------------------------------------
def hand_ref_dict(ref: HandRef) -> Json:
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


def player_stats_dict(
    player_id: int, me: PlayerStats, st: CircleStats, ladders: Mapping[Ladder, LadderRatings], shown: Json
) -> Json:
    """A player's statistics, ratings, partners and opponents (``st`` holds her contract figures)."""
    key = me.player

    def other(pair: tuple[str, str]) -> int:
        return int(pair[1] if pair[0] == key else pair[0])

    return {
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
                "best": hand_ref_dict(c.best),
                "worst": hand_ref_dict(c.worst),
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


# --- the digital table ----------------------------------------------------------------------------
def table_dict(st: TableState, seats: Sequence[TableSeat], names: list[str]) -> Json:
    """A digital table: its hand, who moves, and its seats (``seats``: the table's, in order)."""
    t = st.table
    return {
        "id": t.public_id,
        "status": t.status,
        "version": t.version,
        "hand": 0 if st.hand is None else st.hand.number,
        "dealer": None if st.hand is None else st.hand.dealer,
        "to_move": st.to_move(),
        "hand_over": st.hand_over,
        "seats": [
            {
                "seat": s.seat,
                "name": names[s.seat],
                "computer": s.computer,
                "joined": s.joined_at is not None,
                "level": s.level if s.computer else None,
                "failed": s.seat in st.failed,
            }
            for s in seats
        ],
    }


def seat_state_dict(st: TableState, seat: int, names: list[str]) -> Json:
    """What one seat sees of the table: its own view only (the engine's ``SeatView``)."""
    view = st.view(seat)
    return {
        "table_id": st.table.public_id,
        "status": st.table.status,
        "version": st.table.version,
        "seq": st.seq,
        "seat": seat,
        "names": names,
        "choices": [] if view is None else [format_action(a, st.ruleset) for a in view.legal_actions],
        "view": {} if view is None else {**view.to_dict(), "open_rows": rows_open_now(st.ruleset, view)},
        "failed_computers": sorted(st.failed),
    }


def seat_token_dict(seat: int, token: str, link: str) -> Json:
    return {"seat": seat, "token": token, "link": link}
