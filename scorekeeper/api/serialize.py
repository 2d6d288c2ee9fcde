"""Plain JSON data for the API: the services' values and an evening's snapshot as dicts.

The shapes are ``shapes``' (the OpenAPI document shows them, the tests hold real
answers against them). Words shown to a person (row names, side names, the barrel
rule) come from ``scorekeeper.present``, as on the pages.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ..game.hand_entry import HandEntry
from ..models import Circle, Player
from ..present.labels import barrel_rule_text, row_label, side_labels
from ..scoring.final import Cut, Result, Tie
from ..services import housekeeping
from ..services.housekeeping import PlayerNow
from ..services.outlook import EveningOutlook
from ..services.records import EveningSummary, PlayerRecord
from ..services.replay import LogItem
from ..services.snapshot import EveningSnapshot

Json = dict[str, Any]


def when(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def circle_dict(circle: Circle) -> Json:
    return {"id": circle.public_id, "name": circle.name, "created_at": when(circle.created_at)}


def player_dict(player: Player | PlayerNow) -> Json:
    return {"id": player.id, "name": player.name}


def players_of(circle: Circle) -> list[Json]:
    """The players in force under their names now (housekeeping applied), by name."""
    return [player_dict(p) for p in housekeeping.players_now(housekeeping.folded(circle))]


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


def turn_dict(snap: EveningSnapshot) -> Json | None:
    turn = snap.turn
    if turn is None:
        return None
    rs = snap.ruleset
    return {
        "dealer": turn.dealer,
        "forehand": turn.forehand,
        "speaking": list(turn.speaking),
        "full_sides": list(turn.full_sides),
        "barrel_seat": turn.barrel_seat,
        "barrel_rule": rs.barrel.value + ": " + barrel_rule_text(rs),
        "seich_available": None if turn.seich_available is None else list(turn.seich_available),
    }


def slate_dict(snap: EveningSnapshot) -> Json:
    slate, rs = snap.slate, snap.ruleset
    rows = []
    for row in rs.rows:
        cells: list[Json | None] = []
        for side in range(rs.n_sides):
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
                "label": row_label(row, rs.deck),
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
        "n_cells": rs.n_sides * len(rs.rows),
        "rows": rows,
        "totals": list(slate.totals),
        "match_marks": [list(m) for m in slate.match_marks],
        "open_rows": [slate.open_rows(side) for side in range(rs.n_sides)],
        "seich_used": sorted(slate.seich_used),
        "turn": turn_dict(snap),
    }


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
    """Everything about one evening: rule set, seats, slate, cuts, result and money."""
    rs, names = snap.ruleset, snap.names
    standing = standing_dict(snap)
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
        "players": [{"seat": seat, "name": name, "side": rs.side_of(seat)} for seat, name in enumerate(names)],
        "sides": [
            {"side": side, "seats": list(rs.seats_of(side)), "name": label}
            for side, label in enumerate(side_labels(rs, names))
        ],
        "slate": slate_dict(snap),
        "cuts": [cut_dict(c) for c in snap.cuts],
        "pending_ties": standing["pending_ties"],
        "result": standing["result"],
        "payout": standing["payout"],
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


def outlook_dict(eo: EveningOutlook, variant: str) -> Json:
    """The outlook as ``scoring.outlook`` defines it (``{"sides": [...], "rows": [...], ...}``);
    the seed as 16 hex digits (it does not fit a JavaScript number)."""
    if eo.hidden or eo.outlook is None:
        body: Json = {"variant": variant, "sides": [], "rows": [], "shared": None, "simulations": 0, "seed": None}
    else:
        body = eo.outlook.to_dict()
        body["seed"] = None if eo.outlook.seed is None else f"{eo.outlook.seed:016x}"
    return {"version": eo.version, "hidden": eo.hidden, **body, "history_hands": eo.history_hands}
