"""The plain, frozen records of a circle's history: what a service reads from the
database (or an export file holds) and hands to the pure functions of this package.

Inputs only, as stored: an evening's rule set snapshot, its seats (stable player ids),
its append-only log of hands, corrections and undos, its recorded cuts, and its
digital hands; the settlements of the purse; the housekeeping events. Everything
shown (slates, results, money, statistics, ratings, balances) is derived from them.

``replay`` is the one rule for an append-only log with corrections (a ``hand`` or
``payment`` is appended, a ``correction`` replaces the entry it supersedes, an
``undo``/``void`` takes one back); it works on any row with ``seq``, ``kind`` and
``supersedes`` (these records, or database rows).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from typing import Protocol, TypeVar

from ..game.hand_entry import HandEntry
from ..game.rulesets import RuleSet
from ..scoring.final import Cut
from .summary import Summary

PlayerId = str  # stable within a circle (a service passes its database id as text)
EveningId = str  # the evening's public id


class LogKind(str, Enum):
    HAND = "hand"  # a new hand (appended)
    CORRECTION = "correction"  # replaces the entry whose row has seq ``supersedes``
    UNDO = "undo"  # takes back the last entry on the slate (seq ``supersedes``)


class LogRow(Protocol):
    @property
    def seq(self) -> int: ...

    @property
    def kind(self) -> str: ...

    @property
    def supersedes(self) -> int | None: ...


Row = TypeVar("Row", bound=LogRow)

_APPEND = frozenset({"hand", "payment"})
_REPLACE = frozenset({"correction"})
_TAKE_BACK = frozenset({"undo", "void"})


def replay(rows: Sequence[Row], *, last_only: bool = True) -> list[Row]:
    """The rows in force, in order: appended rows, corrections in place of what they
    supersede, without what was taken back. ``last_only``: an undo may take back only
    the last row in force (the slate); a purse's void may take back any.

    Raises ValueError for a broken log (an unknown kind, a reference to a row not in force).
    """
    in_force: list[Row] = []
    seen: set[int] = set()
    for row in sorted(rows, key=lambda r: r.seq):
        if row.seq in seen:
            raise ValueError(f"row #{row.seq} appears twice")
        seen.add(row.seq)
        kind = str(getattr(row.kind, "value", row.kind))
        if kind in _APPEND:
            in_force.append(row)
            continue
        if kind not in _REPLACE and kind not in _TAKE_BACK:
            raise ValueError(f"row #{row.seq}: unknown kind {kind!r}")
        where = [i for i, r in enumerate(in_force) if r.seq == row.supersedes]
        if not where:
            raise ValueError(f"row #{row.seq} refers to #{row.supersedes}, which is not in force")
        if kind in _REPLACE:
            in_force[where[0]] = row
        elif last_only and where[0] != len(in_force) - 1:
            raise ValueError(f"row #{row.seq} does not take back the last entry")
        else:
            in_force.pop(where[0])
    return in_force


def when_key(when: datetime | None) -> tuple[int, float]:
    """Sort key for optional times: unknown first, then by the instant."""
    return (0, 0.0) if when is None else (1, when.timestamp())


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One row of an evening's slate log (``hand``, ``correction`` or ``undo``)."""

    seq: int  # 1, 2, 3... per evening
    kind: LogKind
    supersedes: int | None  # correction / undo: the seq it replaces or takes back
    entry: HandEntry | None  # the hand (None on an undo)
    digital: bool = False  # played at the digital table
    author: str | None = None  # who entered it, as the phone said
    created_at: datetime | None = None

    def __post_init__(self) -> None:
        if (self.entry is None) != (self.kind is LogKind.UNDO):
            raise ValueError("an undo carries no hand; a hand or correction carries one")
        if (self.supersedes is None) != (self.kind is LogKind.HAND):
            raise ValueError("only corrections and undos supersede a row")


@dataclass(frozen=True, slots=True)
class CutEntry:
    """A recorded cut of the cards (three players), in the order recorded."""

    cut: Cut
    created_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class DigitalAction:
    seq: int
    seat: int
    action: int  # engine action id
    computer: bool = False
    created_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class DigitalHand:
    """One hand dealt at a digital table. Only hands that are over may leave the server
    (an export drops the others: their cards are private)."""

    table: str  # the table's public id
    number: int  # 1, 2, 3... per table
    dealer: int
    deck: tuple[int, ...]  # the order of the 36 cards
    open_rows: tuple[tuple[str, ...], ...]  # per side, when dealt
    seich_used: tuple[int, ...]
    slate_version: int
    actions: tuple[DigitalAction, ...]
    finished: bool  # the hand is over (written on the slate, or thrown in)
    created_at: datetime | None = None


class InputsNotRead(LookupError):
    """An evening's inputs were asked of a record read with its stored outcome only."""


class Status(str, Enum):
    OPEN = "open"
    ENDED = "ended"


@dataclass(frozen=True, slots=True)
class EveningRecord:
    id: EveningId
    ruleset: RuleSet
    first_dealer: int
    seats: tuple[PlayerId, ...]  # player ids in seat order
    log: tuple[LogEntry, ...]
    cuts: tuple[CutEntry, ...] = ()
    status: Status = Status.ENDED
    created_at: datetime | None = None
    ended_at: datetime | None = None
    counts_in_money: bool = True  # an evening ended early counts in money only if the table said so
    digital: tuple[DigitalHand, ...] = ()
    # The evening's change counter (the database bumps it on every change of its log, cuts
    # or status): with it, (id, version) names the content, a cheap cache key. None: unknown.
    version: int | None = None
    # Derived, never an input (not compared, never exported): the evening's outcome as a
    # service found it stored and current for ``version`` (``outcome.summary_of`` returns it).
    stored: Summary | None = field(default=None, compare=False, repr=False)
    # False: the log, cuts and digital hands were not read (left empty) because ``stored``
    # stands for them; only the summary may be asked then, never the entries or an export.
    inputs: bool = field(default=True, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.inputs and (self.stored is None or self.log or self.cuts or self.digital):
            raise ValueError("an evening read without its inputs carries its stored outcome and nothing else")

    @property
    def ended(self) -> bool:
        return self.status is Status.ENDED

    def require_inputs(self) -> None:
        """Raise ``InputsNotRead`` for an evening read with its stored outcome only."""
        if not self.inputs:
            raise InputsNotRead(f"evening {self.id}: its log was not read (only its stored outcome)")

    @property
    def entries(self) -> tuple[HandEntry, ...]:
        """The hands on the slate now (corrections applied, undone hands gone)."""
        self.require_inputs()
        return tuple(row.entry for row in replay(self.log) if row.entry is not None)

    @property
    def recorded_cuts(self) -> tuple[Cut, ...]:
        self.require_inputs()
        return tuple(c.cut for c in self.cuts)


@dataclass(frozen=True, slots=True)
class Player:
    id: PlayerId
    name: str  # as stored (renames are housekeeping events on top)
    created_at: datetime | None = None


class PaymentKind(str, Enum):
    PAYMENT = "payment"  # who paid whom, how much
    CORRECTION = "correction"  # replaces the payment (or correction) it supersedes
    VOID = "void"  # takes a payment back (it never happened)


@dataclass(frozen=True, slots=True)
class Settlement:
    """One row of the purse's append-only log."""

    seq: int
    kind: PaymentKind
    supersedes: int | None = None
    payer: PlayerId | None = None  # None on a void
    payee: PlayerId | None = None
    rappen: int | None = None  # > 0
    paid_at: datetime | None = None  # when the money changed hands
    entered_by: str | None = None
    created_at: datetime | None = None


class HousekeepingKind(str, Enum):
    RENAME = "rename"  # ``player`` is called ``name`` from now on
    MERGE = "merge"  # ``player`` is the same person as ``into``
    DELETE_EVENING = "delete_evening"  # ``evening`` was a test: it counts nowhere
    UNDO = "undo"  # takes back the event with seq ``undoes``


@dataclass(frozen=True, slots=True)
class Housekeeping:
    seq: int
    kind: HousekeepingKind
    player: PlayerId | None = None
    into: PlayerId | None = None
    name: str | None = None
    evening: EveningId | None = None
    undoes: int | None = None
    author: str | None = None
    created_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class CircleRecord:
    """A whole circle as stored: what statistics, the purse and an export start from."""

    name: str
    players: tuple[Player, ...]
    evenings: tuple[EveningRecord, ...]
    settlements: tuple[Settlement, ...] = ()
    housekeeping: tuple[Housekeeping, ...] = ()
    created_at: datetime | None = None
    house_rules: RuleSet | None = None  # the circle's saved default rules (issue 24), None until saved
