"""Replaying an evening's append-only rows into what the slate shows: the hands on the
slate, the audit trail, which hands were dealt digitally, the cuts that still count.

Rows are read in ``seq`` order: a ``hand`` is appended; a ``correction`` replaces
the entry whose current row has seq ``supersedes``; an ``undo`` takes back the last
entry (seq ``supersedes``). Cuts count only while their tie still exists.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import cast

from ...game.contracts import Contract
from ...game.hand_entry import HandEntry
from ...game.rulesets import RuleSet
from ...models import Evening
from ...scoring.final import Cut, End, Tie
from ...scoring.final import effective_cuts as scoring_effective_cuts
from ...scoring.slate import Slate


@dataclass(frozen=True, slots=True)
class EntryRecord:
    """An entry row as read (``models.EntryRow``'s columns a replay needs): plain and frozen, so a
    worker may keep the rows of an evening's version (``snapshot``)."""

    seq: int
    kind: str
    supersedes: int | None
    row_key: str | None
    declarer_seat: int | None
    contract: str | None
    declarer_points: int | None
    defender_points: int | None
    match: bool
    countermatch: bool
    seich: bool
    cell: int | None
    digital: bool
    request_id: str
    author: str | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class CutRecord:
    """A cut row as read (``models.CutRow``'s columns a replay needs)."""

    id: int
    row_key: str
    end: str
    ranking: str
    winner: int
    drawn: bool


def to_hand(row: EntryRecord) -> HandEntry:
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
        cell=row.cell,
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
        "cell": entry.cell,
    }


def _position(effective: list[EntryRecord], seq: int | None, row: EntryRecord) -> int:
    for i, r in enumerate(effective):
        if r.seq == seq:
            return i
    raise RuntimeError(f"entry row #{row.seq} supersedes #{seq}, which is not on the slate")


def replay(rows: Sequence[EntryRecord]) -> list[EntryRecord]:
    """The rows whose hands are on the slate now, in slate order."""
    effective: list[EntryRecord] = []
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


_RULESETS: dict[tuple[int, str], RuleSet] = {}  # an evening's rule set never changes once stored
_RULESETS_MAX = 4096


def ruleset_of(evening: Evening) -> RuleSet:
    """The rule set the evening is played with (its stored snapshot), parsed once per worker."""
    key = (evening.id, evening.public_id)
    found = _RULESETS.get(key) if key[0] is not None else None
    if found is None:
        found = RuleSet.from_dict(evening.ruleset)
        if key[0] is not None:
            if len(_RULESETS) >= _RULESETS_MAX:
                _RULESETS.clear()
            _RULESETS[key] = found
    return found


def hands_of(rows: Sequence[EntryRecord]) -> list[HandEntry]:
    """The hands on the slate now, in slate order."""
    return [to_hand(r) for r in replay(rows)]


def build_slate(ruleset: RuleSet, first_dealer: int, rows: Sequence[EntryRecord]) -> Slate:
    return Slate.build(ruleset, first_dealer, hands_of(rows))


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


def audit_trail(rows: Sequence[EntryRecord]) -> list[LogItem]:
    """Every row with the old and new values it stands for, oldest first."""
    effective: list[EntryRecord] = []
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


def digital_positions(trail: Sequence[LogItem]) -> frozenset[int]:
    """Positions in ``slate.entries`` of the hands dealt digitally, by replaying the audit trail
    (a correction keeps the flag of the hand it corrects; an undo takes the entry out)."""
    flags: list[bool] = []
    for item in trail:
        if item.kind == "hand":
            flags.append(item.digital)
        elif item.kind == "correction":
            flags[item.index] = item.digital
        else:
            flags.pop(item.index)
    return frozenset(i for i, digital in enumerate(flags) if digital)


def cut_of(row: CutRecord) -> Cut:
    order = tuple(int(s) for s in row.ranking.split(",") if s != "")
    end = cast(End, row.end)  # the column's CHECK constraint allows only high, low, all
    return Cut(row.row_key, end, row.winner, row.drawn, order)


def ranking_text(order: Sequence[int]) -> str:
    return ",".join(str(s) for s in order)


def cuts_of(rows: Sequence[CutRecord]) -> list[Cut]:
    """Every cut made, oldest first (the latest cut of a tie counts)."""
    return [cut_of(row) for row in sorted(rows, key=lambda r: r.id)]


def effective_cuts(slate: Slate, rows: Sequence[CutRecord]) -> tuple[list[Cut], list[Tie]]:
    """(cuts that decide a current tie, in tie order; ties still without a cut): the stored cut
    rows through ``scoring.effective_cuts``."""
    return scoring_effective_cuts(slate, cuts_of(rows))
