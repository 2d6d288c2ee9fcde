"""The read model: one frozen snapshot of an evening, loaded with a fixed number of queries.

``load_snapshot(evening)`` reads the seats, the circle's housekeeping (the names players
go by now), the entry rows, the cut rows and the evening's open digital table (five
statements, however many hands the slate holds)
and derives the rest in memory: the slate, the audit trail, which hands were dealt
digitally, the cuts that count and the ties still waiting, the result and the money,
the turn guide. The slate page, its live fragment, the picture and the JSON API all
render from it, so they cannot disagree and none of them queries again.

Kept per worker (issue 15), so that a snapshot usually takes one statement: an evening's entry
and cut rows at a version (rows are only ever appended, and every change that appends bumps the
version, so the rows of (evening, version) never change), read with the version in the same
statement (a consistent pair on every database) or handed over by the write that made the version
(``keep_rows``); and the names of its seats folded from the circle's first n naming events
(``named``: seats never change and events are only appended). The open table and the number of
naming events are read every time, in one statement.

Whether a hand is being dealt digitally is read without replaying it: a digital
hand is over exactly when its result is on the slate, written under the request id
``digital_hand_request_id(table, number)`` in the same transaction as its last action.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Collection, Hashable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar

from sqlalchemy import Executable, bindparam, func, select
from sqlalchemy.orm import Session, aliased

from ...game.rule_facts import RuleFacts, rule_facts
from ...game.rulesets import RuleSet
from ...history.housekeeping import fold_stored
from ...history.records import Housekeeping, HousekeepingKind
from ...history.records import Player as HistoryPlayer
from ...models import CutRow, DigitalTable, EntryRow, Evening, HousekeepingRow, Player, Seat, TableHand
from ...scoring.final import Cut, Result, Tie
from ...scoring.payouts import Payout
from ...scoring.slate import Slate
from ...scoring.standing import Outcome, Standing, TurnGuide, stand
from ..store import tx
from .replay import (
    CutRecord,
    EntryRecord,
    LogItem,
    audit_trail,
    cuts_of,
    digital_positions,
    hands_of,
    ruleset_of,
)


@dataclass(frozen=True, slots=True)
class EveningSnapshot:
    """An evening as it stands, for reading: no database object, nothing lazy."""

    public_id: str
    version: int
    status: str  # open | ended
    ended_early: bool
    created_at: datetime
    ended_at: datetime | None
    ruleset: RuleSet
    names: tuple[str, ...]  # players in seat order
    facts: RuleFacts  # tonight's rules as a table (``game.rule_facts``)
    standing: Standing  # the slate, what it decides, whose turn it is (``scoring.standing``)
    trail: tuple[LogItem, ...]  # every hand, correction and undo, oldest first
    digital: frozenset[int]  # positions in ``slate.entries`` dealt at the digital table
    table_open: bool  # a digital table is open for the evening
    hand_in_play: bool  # ... and one of its hands is being played
    counts_in_money: bool = True  # False: ended early, and the table said it does not count in money
    evening_id: int = 0  # the database id (what the stored outlook is keyed by)
    outlook_hidden: bool = False  # the table asked not to see the outlook (issue 13)
    table_key: str = ""  # the open table and its latest hand, as read (services.read.stamp)
    name_events: int = 0  # the circle's housekeeping events that name players, as read (services.read.stamp)

    @property
    def is_open(self) -> bool:
        return self.status == "open"

    @property
    def slate(self) -> Slate:
        return self.standing.slate

    @property
    def outcome(self) -> Outcome:
        return self.standing.outcome

    @property
    def turn(self) -> TurnGuide | None:
        """None once every cell is filled or the evening ended."""
        return self.standing.turn

    @property
    def cuts(self) -> tuple[Cut, ...]:
        return self.outcome.cuts

    @property
    def pending(self) -> tuple[Tie, ...]:
        return self.outcome.pending

    @property
    def result(self) -> Result | None:
        return self.outcome.result

    @property
    def payout(self) -> Payout | None:
        return self.outcome.payout

    @property
    def corrections(self) -> tuple[LogItem, ...]:
        """The audit trail without plain new hands: corrections and undos."""
        return tuple(item for item in self.trail if item.kind != "hand")


# --- what a worker keeps -----------------------------------------------------------------
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Kept(Generic[K, V]):
    """A bounded map shared by a worker's threads, the least recently used dropped first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


RowsKey = tuple[int, str, int]  # evening id, public id (an id SQLite gives again never meets old rows), version
_ENTRIES_KEPT: Kept[RowsKey, tuple[EntryRecord, ...]] = Kept(2048)
_CUTS_KEPT: Kept[RowsKey, tuple[CutRecord, ...]] = Kept(2048)
_NAMES_KEPT: Kept[tuple[int, str, int], tuple[str, ...]] = Kept(2048)


def forget() -> None:
    """Drop what this worker keeps (tests; an erased circle's rows are never asked for again)."""
    for kept in (_ENTRIES_KEPT, _CUTS_KEPT, _NAMES_KEPT):
        kept.clear()


def _key(evening: Evening) -> RowsKey:
    return (evening.id, evening.public_id, evening.version)


def keep_rows(
    evening: tuple[int, str], version: int, entries: Sequence[EntryRecord] | None, cuts: Sequence[CutRecord] | None
) -> None:
    """The rows of the evening (id, public id) at ``version``, as the write that made it knows them."""
    if entries is not None:
        _ENTRIES_KEPT.put((*evening, version), tuple(entries))
    if cuts is not None:
        _CUTS_KEPT.put((*evening, version), tuple(cuts))


def kept_entries(evening: tuple[int, str], version: int) -> tuple[EntryRecord, ...] | None:
    return _ENTRIES_KEPT.get((*evening, version))


def kept_cuts(evening: tuple[int, str], version: int) -> tuple[CutRecord, ...] | None:
    return _CUTS_KEPT.get((*evening, version))


# --- the queries ------------------------------------------------------------------------
# Built once (their compiled form is cached; building a statement costs more than running it).
# Rows come with the evening's version from the same statement: a consistent pair to keep.
ENTRY_COLUMNS = (  # an entry row's columns in the order both the snapshot and the memory read them
    EntryRow.seq,
    EntryRow.kind,
    EntryRow.supersedes,
    EntryRow.row_key,
    EntryRow.declarer_seat,
    EntryRow.contract,
    EntryRow.declarer_points,
    EntryRow.defender_points,
    EntryRow.match,
    EntryRow.countermatch,
    EntryRow.seich,
    EntryRow.cell,
    EntryRow.digital,
    EntryRow.request_id,
    EntryRow.author,
    EntryRow.created_at,
)
_ENTRIES = (
    select(Evening.version, *ENTRY_COLUMNS)
    .outerjoin(EntryRow, EntryRow.evening_id == Evening.id)
    .where(Evening.id == bindparam("evening_id"))
    .order_by(EntryRow.seq)
)
_CUT_COLUMNS = (CutRow.id, CutRow.row_key, CutRow.end, CutRow.ranking, CutRow.winner, CutRow.drawn)
_CUTS = (
    select(Evening.version, *_CUT_COLUMNS)
    .outerjoin(CutRow, CutRow.evening_id == Evening.id)
    .where(Evening.id == bindparam("evening_id"))
    .order_by(CutRow.id)
)
_SEATED = (
    select(Player.id, Player.name, Player.circle_id)
    .join(Seat, Seat.player_id == Player.id)
    .where(Seat.evening_id == bindparam("evening_id"))
    .order_by(Seat.seat)
)
_INTO = aliased(Player)
_NAMING = (
    select(HousekeepingRow, _INTO.name)
    .outerjoin(_INTO, _INTO.id == HousekeepingRow.into_id)
    .where(HousekeepingRow.circle_id == bindparam("circle_id"), HousekeepingRow.kind != "delete_evening")
)
_NAMING_EVENTS = (
    select(func.count())
    .select_from(HousekeepingRow)
    .where(HousekeepingRow.circle_id == bindparam("circle_id"), HousekeepingRow.kind != "delete_evening")
    .scalar_subquery()
)
_OPEN_TABLE = (
    select(DigitalTable.public_id, func.max(TableHand.number))
    .outerjoin(TableHand, TableHand.table_id == DigitalTable.id)
    .where(DigitalTable.evening_id == bindparam("evening_id"), DigitalTable.status == "open")
    .group_by(DigitalTable.id)
    .order_by(DigitalTable.id)
    .limit(1)
)
_TABLE_ID = (
    select(DigitalTable.id)
    .where(DigitalTable.evening_id == bindparam("evening_id"), DigitalTable.status == "open")
    .order_by(DigitalTable.id)
    .limit(1)
    .scalar_subquery()
)
# What a snapshot reads every time, in one statement: the open table, its latest hand, the naming events.
_NOW = select(
    select(DigitalTable.public_id).where(DigitalTable.id == _TABLE_ID).scalar_subquery(),
    select(func.max(TableHand.number)).where(TableHand.table_id == _TABLE_ID).scalar_subquery(),
    _NAMING_EVENTS,
)


_NOW_HANDED = "scorekeeper.snapshot_now"  # session.info: (evening id, version, the _NOW row)


def hand_over_now(s: Session, evening: Evening, version: int) -> None:
    """Read ``_NOW`` inside a write's transaction, for the answer's snapshot of the version it
    commits (``load_snapshot`` of this request takes it: no statement, no transaction of its own)."""
    row = s.execute(_NOW, {"evening_id": evening.id, "circle_id": evening.circle_id}).one()
    s.info[_NOW_HANDED] = (evening.id, version, tuple(row))


def _now(s: Session, evening: Evening) -> tuple[Any, ...]:
    handed = s.info.pop(_NOW_HANDED, None)
    if handed is not None and handed[:2] == (evening.id, evening.version):
        return tuple(handed[2])
    return tuple(s.execute(_NOW, {"evening_id": evening.id, "circle_id": evening.circle_id}).one())


def entry_rows(s: Session, evening: Evening, *, fresh: bool = False) -> tuple[EntryRecord, ...]:
    """The evening's entry rows at its version (``evening.version``), oldest first: kept, or read."""
    return _rows(s, evening, _ENTRIES_KEPT, _ENTRIES, EntryRecord, fresh=fresh, keep=True)


def cut_rows(s: Session, evening: Evening, *, fresh: bool = False) -> tuple[CutRecord, ...]:
    """The evening's cut rows at its version, oldest first: kept, or read (``fresh``: always read,
    for a write that added some in its own transaction)."""
    return _rows(s, evening, _CUTS_KEPT, _CUTS, CutRecord, fresh=fresh, keep=not fresh)


R = TypeVar("R")


def _rows(
    s: Session,
    evening: Evening,
    kept: Kept[RowsKey, tuple[R, ...]],
    statement: Executable,
    record: Callable[..., R],
    *,
    fresh: bool,
    keep: bool,
) -> tuple[R, ...]:
    """Rows of the evening at its version: kept, or read (each row comes with the version it was
    read at, which keys what is kept; an evening without rows still gives its version)."""
    key = _key(evening)
    found = None if fresh else kept.get(key)
    if found is not None:
        return found
    rows = s.execute(statement, {"evening_id": evening.id}).all()
    got = tuple(record(*row[1:]) for row in rows if row[1] is not None)
    if rows and keep:
        kept.put((key[0], key[1], int(rows[0][0])), got)
    return got


def seat_names(s: Session, evening_id: int) -> tuple[str, ...]:
    """The players in seat order under the names they go by now (renames and merges of the
    circle's housekeeping applied): two statements."""
    return named_seats(s, evening_id)[0]


def named_seats(s: Session, evening_id: int) -> tuple[tuple[str, ...], int]:
    """``seat_names``, and how many housekeeping events the names were folded from."""
    seated = s.execute(_SEATED, {"evening_id": evening_id}).all()
    if not seated:
        return (), 0
    rows = s.execute(_NAMING, {"circle_id": seated[0].circle_id}).all()
    if not rows:
        return tuple(name for _id, name, _c in seated), 0
    players = {str(pid): name for pid, name, _c in seated}
    events = []
    for row, into_name in rows:
        if row.into_id is not None:
            players.setdefault(str(row.into_id), into_name)
        events.append(
            Housekeeping(
                seq=row.seq,
                kind=HousekeepingKind(row.kind),
                player=None if row.player_id is None else str(row.player_id),
                into=None if row.into_id is None else str(row.into_id),
                name=row.name,
                undoes=row.undoes,
            )
        )
    folded = fold_stored([HistoryPlayer(pid, name) for pid, name in players.items()], events)
    return tuple(folded.name(str(pid)) for pid, _name, _c in seated), len(rows)


def open_table_hand(s: Session, evening_id: int) -> tuple[str, int | None] | None:
    """(public id of the evening's open digital table, number of its latest hand), or None."""
    row = s.execute(_OPEN_TABLE, {"evening_id": evening_id}).first()
    return None if row is None else (row[0], row[1])


def digital_hand_request_id(table_public_id: str, number: int) -> str:
    """The request id under which a digital hand's result is written on the slate."""
    return f"table:{table_public_id}:{number}"


def hand_in_play(table: tuple[str, int | None] | None, request_ids: Collection[str]) -> bool:
    """Is the open table's latest hand still being played (its result not yet on the slate)?"""
    if table is None or table[1] is None:
        return False
    return digital_hand_request_id(table[0], table[1]) not in request_ids


def named(s: Session, evening: Evening, events: int) -> tuple[tuple[str, ...], int]:
    """The seats' names folded from the circle's first ``events`` naming events (kept), or as they
    stand now (read: two statements), with the number of events they were folded from."""
    found = _NAMES_KEPT.get((evening.id, evening.public_id, events))
    if found is not None:
        return found, events
    names, folded = named_seats(s, evening.id)
    _NAMES_KEPT.put((evening.id, evening.public_id, folded), names)
    return names, folded


# --- the snapshot -----------------------------------------------------------------------
def load_snapshot(evening: Evening) -> EveningSnapshot:
    """The evening as it stands now (one statement while the worker keeps its rows and names,
    five at most, whatever the number of entries): its rows read first, then turned into the
    slate, the outcome and the turn by one pure call (``scoring.standing.stand``)."""
    s = tx.session()
    table_id, hand, events = _now(s, evening)
    rows = entry_rows(s, evening)
    names, name_events = named(s, evening, int(events or 0))
    cuts = cut_rows(s, evening)
    table = None if table_id is None else (str(table_id), None if hand is None else int(hand))
    trail = tuple(audit_trail(rows))
    rules = ruleset_of(evening)
    facts = rule_facts(rules)
    return EveningSnapshot(
        public_id=evening.public_id,
        version=evening.version,
        status=evening.status,
        ended_early=evening.ended_early,
        created_at=evening.created_at,
        ended_at=evening.ended_at,
        ruleset=rules,
        facts=facts,
        names=names,
        trail=trail,
        digital=digital_positions(trail),
        table_open=table is not None,
        hand_in_play=hand_in_play(table, {r.request_id for r in rows}),
        counts_in_money=evening.counts_in_money,
        evening_id=evening.id,
        outlook_hidden=evening.outlook_hidden,
        table_key="" if table is None else f"{table[0]}:{table[1] or 0}",
        name_events=name_events,
        # last: the rows turned into the slate, the outcome and the turn, by one pure call
        standing=stand(
            rules,
            evening.first_dealer,
            hands_of(rows),
            cuts_of(cuts),
            is_open=evening.status == "open",
            named=[hand for item in trail for hand in (item.entry, item.previous) if hand is not None],
        ),
    )
