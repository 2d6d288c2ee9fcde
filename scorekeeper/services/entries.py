"""Replaying an evening's append-only rows into what the slate shows.

Rows are read in ``seq`` order: a ``hand`` is appended; a ``correction`` replaces
the entry whose current row has seq ``supersedes``; an ``undo`` takes back the last
entry (seq ``supersedes``). Cuts count only while their tie still exists.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from ..game.contracts import Contract
from ..game.hand_entry import HandEntry
from ..game.rulesets import RuleSet
from ..models import CutRow, EntryRow
from ..scoring.final import Cut, Tie, ties
from ..scoring.slate import Slate


def to_hand(row: EntryRow) -> HandEntry:
    if row.kind == "undo" or row.declarer_seat is None:
        raise ValueError(f"entry row #{row.seq} ({row.kind}) holds no hand")
    return HandEntry(
        row_key=row.row_key,
        declarer_seat=row.declarer_seat,
        contract=Contract.parse(row.contract) if row.contract else None,
        declarer_points=row.declarer_points or 0,
        defender_points=row.defender_points or 0,
        match=row.match,
        countermatch=row.countermatch,
        seich=row.seich,
    )


def hand_fields(entry: HandEntry) -> dict[str, object]:
    """The columns of an EntryRow that hold a HandEntry."""
    return {
        "row_key": entry.row_key,
        "declarer_seat": entry.declarer_seat,
        "contract": entry.contract.code if entry.contract is not None else None,
        "declarer_points": entry.declarer_points,
        "defender_points": entry.defender_points,
        "match": entry.match,
        "countermatch": entry.countermatch,
        "seich": entry.seich,
    }


def _position(effective: list[EntryRow], seq: int | None, row: EntryRow) -> int:
    for i, r in enumerate(effective):
        if r.seq == seq:
            return i
    raise RuntimeError(f"entry row #{row.seq} supersedes #{seq}, which is not on the slate")


def replay(rows: Sequence[EntryRow]) -> list[EntryRow]:
    """The rows whose hands are on the slate now, in slate order."""
    effective: list[EntryRow] = []
    for row in sorted(rows, key=lambda r: r.seq):
        if row.kind == "hand":
            effective.append(row)
        elif row.kind == "correction":
            effective[_position(effective, row.supersedes, row)] = row
        elif row.kind == "undo":
            i = _position(effective, row.supersedes, row)
            if i != len(effective) - 1:
                raise RuntimeError(f"undo #{row.seq} does not take back the last entry")
            effective.pop()
        else:
            raise RuntimeError(f"unknown entry kind {row.kind!r}")
    return effective


def build_slate(ruleset: RuleSet, first_dealer: int, rows: Sequence[EntryRow]) -> Slate:
    return Slate.build(ruleset, first_dealer, [to_hand(r) for r in replay(rows)])


@dataclass(frozen=True, slots=True)
class LogItem:
    """One line of an evening's audit trail."""

    seq: int
    kind: str  # hand | correction | undo
    created_at: datetime
    index: int  # position of the affected entry on the slate (0-based; hand number - 1)
    entry: HandEntry | None  # the new value (None for an undo)
    previous: HandEntry | None  # the value replaced (correction) or taken back (undo)
    digital: bool
    author: str | None


def audit_trail(rows: Sequence[EntryRow]) -> list[LogItem]:
    """Every row with the old and new values it stands for, oldest first."""
    effective: list[EntryRow] = []
    out: list[LogItem] = []
    for row in sorted(rows, key=lambda r: r.seq):
        author = row.author
        if row.kind == "hand":
            effective.append(row)
            out.append(
                LogItem(row.seq, row.kind, row.created_at, len(effective) - 1, to_hand(row), None, row.digital, author)
            )
        elif row.kind == "correction":
            i = _position(effective, row.supersedes, row)
            out.append(
                LogItem(row.seq, row.kind, row.created_at, i, to_hand(row), to_hand(effective[i]), row.digital, author)
            )
            effective[i] = row
        else:
            i = _position(effective, row.supersedes, row)
            out.append(LogItem(row.seq, row.kind, row.created_at, i, None, to_hand(effective[i]), row.digital, author))
            effective.pop(i)
    return out


def cut_of(row: CutRow) -> Cut:
    order = tuple(int(s) for s in row.ranking.split(",") if s != "")
    return Cut(row.row_key, row.end, row.winner, row.drawn, order)  # type: ignore[arg-type]


def ranking_text(order: Sequence[int]) -> str:
    return ",".join(str(s) for s in order)


def effective_cuts(slate: Slate, rows: Sequence[CutRow]) -> tuple[list[Cut], list[Tie]]:
    """(cuts that decide a current tie, in tie order; ties still without a cut)."""
    current = ties(slate)
    by_key = {(t.row_key, t.end): t for t in current}
    chosen: dict[tuple[str, str], Cut] = {}
    for row in sorted(rows, key=lambda r: r.id):
        tie = by_key.get((row.row_key, row.end))
        cut = cut_of(row)
        if tie is not None and sorted(cut.order) == sorted(tie.sides):
            chosen[(row.row_key, row.end)] = cut  # the latest cut for a tie counts
    cuts = [chosen[k] for k in by_key if k in chosen]
    pending = [t for k, t in by_key.items() if k not in chosen]
    return cuts, pending
