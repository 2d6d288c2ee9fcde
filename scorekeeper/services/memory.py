"""The circle's memory: its whole history as ``history.records.CircleRecord``, loaded in a
constant number of SQL statements, whatever the number of evenings.

``load_record(circle)`` sends one statement per kind of row (``STATEMENTS`` of them):
the players, the evenings, their seats, their entry rows, their cut rows, the digital
hands of the circle's tables, the actions of those hands, and the purse's settlements. Columns are read as plain
tuples (no ORM objects) and turned into the frozen records of ``scorekeeper.history``,
from which statistics, ratings, the purse, charts and the export are derived.

A digital hand goes into the record only once it is over: exactly when its result is on
the slate, written under ``snapshot.digital_hand_request_id(table, number)`` (a hand
still in play holds private cards; its actions are not even read).

The housekeeping log (rename, merge, delete evening, undo; ``services.housekeeping``)
is one statement more. Everything read goes through ``history.housekeeping.view``
before it is shown.

``memory_of(circle)`` is what pages read: the record and its view, kept per worker
while the circle's ``fingerprint`` (one statement) says nothing changed, with what the
pages derived from it (statistics, ratings, the purse, chart data) memoized alongside.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Hashable, Sequence
from functools import lru_cache
from typing import Any, Final, TypeVar, cast

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..game.contracts import Contract
from ..game.hand_entry import HandEntry
from ..game.rulesets import RuleSet
from ..history import housekeeping
from ..history.housekeeping import CircleView
from ..history.records import (
    CircleRecord,
    CutEntry,
    DigitalAction,
    DigitalHand,
    EveningRecord,
    Housekeeping,
    LogEntry,
    LogKind,
    PaymentKind,
    Player,
    Settlement,
    Status,
)
from ..models import (
    Circle,
    CutRow,
    DigitalTable,
    EntryRow,
    Evening,
    HousekeepingRow,
    Seat,
    SettlementRow,
    TableAction,
    TableHand,
)
from ..models import Player as PlayerRow
from ..scoring.final import Cut, End
from . import tx
from .housekeeping import events_of
from .snapshot import digital_hand_request_id

T = TypeVar("T")

# players, evenings, seats, entries, cuts, digital hands, digital actions, settlements, housekeeping
STATEMENTS: Final = 9


def player_key(player_id: int) -> str:
    """A database player id as the history's ``PlayerId`` (text)."""
    return str(player_id)


@lru_cache(maxsize=256)
def _ruleset(text: str) -> RuleSet:
    return RuleSet.from_dict(json.loads(text))


def _ruleset_of(data: dict[str, Any]) -> RuleSet:
    """The stored rule set snapshot (evenings of one circle share a few: parsed once each)."""
    return _ruleset(json.dumps(data, sort_keys=True))


def _hand(row: Any) -> HandEntry | None:
    if row.kind == "undo":
        return None
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


def _players(s: Session, circle_id: int) -> tuple[Player, ...]:
    rows = s.execute(
        select(PlayerRow.id, PlayerRow.name, PlayerRow.created_at)
        .where(PlayerRow.circle_id == circle_id)
        .order_by(PlayerRow.id)
    )
    return tuple(Player(player_key(r.id), r.name, r.created_at) for r in rows)


def _seats(s: Session, circle_id: int) -> dict[int, list[str]]:
    rows = s.execute(
        select(Seat.evening_id, Seat.player_id)
        .join(Evening, Evening.id == Seat.evening_id)
        .where(Evening.circle_id == circle_id)
        .order_by(Seat.evening_id, Seat.seat)
    )
    out: dict[int, list[str]] = defaultdict(list)
    for r in rows:
        out[r.evening_id].append(player_key(r.player_id))
    return out


def _logs(s: Session, circle_id: int) -> tuple[dict[int, list[LogEntry]], set[str]]:
    """Per evening its log rows in order; and every request id on a slate (digital hands over)."""
    rows = s.execute(
        select(
            EntryRow.evening_id,
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
        .join(Evening, Evening.id == EntryRow.evening_id)
        .where(Evening.circle_id == circle_id)
        .order_by(EntryRow.evening_id, EntryRow.seq)
    )
    logs: dict[int, list[LogEntry]] = defaultdict(list)
    written: set[str] = set()
    for r in rows:
        logs[r.evening_id].append(
            LogEntry(
                seq=r.seq,
                kind=LogKind(r.kind),
                supersedes=r.supersedes,
                entry=_hand(r),
                digital=r.digital,
                author=r.author,
                created_at=r.created_at,
            )
        )
        if r.digital:
            written.add(r.request_id)
    return logs, written


def _cuts(s: Session, circle_id: int) -> dict[int, list[CutEntry]]:
    rows = s.execute(
        select(
            CutRow.evening_id,
            CutRow.row_key,
            CutRow.end,
            CutRow.ranking,
            CutRow.winner,
            CutRow.drawn,
            CutRow.created_at,
        )
        .join(Evening, Evening.id == CutRow.evening_id)
        .where(Evening.circle_id == circle_id)
        .order_by(CutRow.id)
    )
    out: dict[int, list[CutEntry]] = defaultdict(list)
    for r in rows:
        order = tuple(int(x) for x in r.ranking.split(",") if x != "")
        end = cast(End, r.end)  # the column's CHECK constraint allows only high, low, all
        out[r.evening_id].append(CutEntry(Cut(r.row_key, end, r.winner, r.drawn, order), r.created_at))
    return out


def _digital(s: Session, circle_id: int, written: set[str]) -> dict[int, list[DigitalHand]]:
    """Per evening the digital hands that are over, with their actions (two statements)."""
    hands = list(
        s.execute(
            select(
                TableHand.id,
                DigitalTable.public_id,
                DigitalTable.evening_id,
                DigitalTable.restored,
                TableHand.number,
                TableHand.dealer,
                TableHand.deck,
                TableHand.open_rows,
                TableHand.seich_used,
                TableHand.slate_version,
                TableHand.created_at,
            )
            .join(DigitalTable, DigitalTable.id == TableHand.table_id)
            .join(Evening, Evening.id == DigitalTable.evening_id)
            .where(Evening.circle_id == circle_id)
            .order_by(DigitalTable.id, TableHand.number)
        )
    )
    # a restored table holds only hands that were over when they were exported
    over = [h for h in hands if h.restored or digital_hand_request_id(h.public_id, h.number) in written]
    actions: dict[int, list[DigitalAction]] = defaultdict(list)
    keep = {h.id for h in over}
    rows = s.execute(
        select(
            TableAction.hand_id,
            TableAction.seq,
            TableAction.seat,
            TableAction.action,
            TableAction.computer,
            TableAction.created_at,
        )
        .join(TableHand, TableHand.id == TableAction.hand_id)
        .join(DigitalTable, DigitalTable.id == TableHand.table_id)
        .join(Evening, Evening.id == DigitalTable.evening_id)
        .where(Evening.circle_id == circle_id)
        .order_by(TableAction.hand_id, TableAction.seq)
    )
    for a in rows:
        if a.hand_id in keep:  # a hand in play: its actions stay on the server
            actions[a.hand_id].append(DigitalAction(a.seq, a.seat, a.action, a.computer, a.created_at))
    out: dict[int, list[DigitalHand]] = defaultdict(list)
    for h in over:
        out[h.evening_id].append(
            DigitalHand(
                table=h.public_id,
                number=h.number,
                dealer=h.dealer,
                deck=tuple(h.deck),
                open_rows=tuple(tuple(side) for side in h.open_rows),
                seich_used=tuple(h.seich_used),
                slate_version=h.slate_version,
                actions=tuple(actions[h.id]),
                finished=True,
                created_at=h.created_at,
            )
        )
    return out


def _settlements(s: Session, circle_id: int) -> tuple[Settlement, ...]:
    """The purse's append-only log, in order."""
    rows = s.execute(
        select(
            SettlementRow.seq,
            SettlementRow.kind,
            SettlementRow.supersedes,
            SettlementRow.payer_id,
            SettlementRow.payee_id,
            SettlementRow.rappen,
            SettlementRow.paid_at,
            SettlementRow.entered_by,
            SettlementRow.created_at,
        )
        .where(SettlementRow.circle_id == circle_id)
        .order_by(SettlementRow.seq)
    )
    return tuple(
        Settlement(
            seq=r.seq,
            kind=PaymentKind(r.kind),
            supersedes=r.supersedes,
            payer=None if r.payer_id is None else player_key(r.payer_id),
            payee=None if r.payee_id is None else player_key(r.payee_id),
            rappen=r.rappen,
            paid_at=r.paid_at,
            entered_by=r.entered_by,
            created_at=r.created_at,
        )
        for r in rows
    )


def _housekeeping(s: Session, circle_id: int) -> tuple[Housekeeping, ...]:
    """Rename, merge, delete evening, undo: the circle's housekeeping log (one statement)."""
    return events_of(s, circle_id)


def _evenings(s: Session, circle_id: int) -> Sequence[Any]:
    return list(
        s.execute(
            select(
                Evening.id,
                Evening.public_id,
                Evening.ruleset,
                Evening.first_dealer,
                Evening.status,
                Evening.created_at,
                Evening.ended_at,
                Evening.counts_in_money,
                Evening.version,
            )
            .where(Evening.circle_id == circle_id)
            .order_by(Evening.id)
        )
    )


def load_record(circle: Circle) -> CircleRecord:
    """The whole circle as stored (every evening, open ones too), in ``STATEMENTS`` statements."""
    s = tx.session()
    players = _players(s, circle.id)
    evening_rows = _evenings(s, circle.id)
    seats = _seats(s, circle.id)
    logs, written = _logs(s, circle.id)
    cuts = _cuts(s, circle.id)
    digital = _digital(s, circle.id, written)
    evenings = tuple(
        EveningRecord(
            id=ev.public_id,
            ruleset=_ruleset_of(ev.ruleset),
            first_dealer=ev.first_dealer,
            seats=tuple(seats[ev.id]),
            log=tuple(logs[ev.id]),
            cuts=tuple(cuts[ev.id]),
            status=Status(ev.status),
            created_at=ev.created_at,
            ended_at=ev.ended_at,
            counts_in_money=ev.counts_in_money,
            digital=tuple(digital[ev.id]),
            version=ev.version,
        )
        for ev in evening_rows
    )
    return CircleRecord(
        name=circle.name,
        players=players,
        evenings=evenings,
        settlements=_settlements(s, circle.id),
        housekeeping=_housekeeping(s, circle.id),
        created_at=circle.created_at,
    )


# --- the cached memory ------------------------------------------------------------------
def fingerprint(circle: Circle) -> tuple[int, ...]:
    """What the circle's stored history is now, in one statement: it changes whenever a row
    the record is made of is added or changed (an evening's version grows with every change
    of its log, cuts and status; players, settlements and housekeeping events are only
    ever added)."""
    cid = circle.id
    of_evenings = Evening.circle_id == cid
    of_players = PlayerRow.circle_id == cid
    parts = (
        select(func.count(Evening.id)).where(of_evenings),
        select(func.coalesce(func.sum(Evening.version), 0)).where(of_evenings),
        select(func.max(Evening.id)).where(of_evenings),
        select(func.count(PlayerRow.id)).where(of_players),
        select(func.max(PlayerRow.id)).where(of_players),
        select(func.count(SettlementRow.id)).where(SettlementRow.circle_id == cid),
        select(func.count(HousekeepingRow.id)).where(HousekeepingRow.circle_id == cid),
    )
    row = tx.session().execute(select(*(p.scalar_subquery() for p in parts))).one()
    return tuple(int(x or 0) for x in row)


class Memory:
    """A circle's record and its housekeeping view, with what pages derived from it
    (``derive``: computed once per fingerprint, whatever the number of visits)."""

    __slots__ = ("key", "record", "view", "_memo", "_lock")

    def __init__(self, key: tuple[int, ...], record: CircleRecord) -> None:
        self.key = key
        self.record = record
        self.view: CircleView = housekeeping.view(record)
        self._memo: dict[Hashable, object] = {}
        self._lock = threading.Lock()

    def derive(self, key: Hashable, make: Callable[[], T]) -> T:
        with self._lock:
            if key in self._memo:
                return cast(T, self._memo[key])
        value = make()
        with self._lock:
            self._memo.setdefault(key, value)
        return value


CACHED_CIRCLES: Final = 8  # per worker: a 500-evening circle holds a few MB
# Keyed by the circle's id AND public id: a deleted circle's id may be given again (SQLite).
_CACHE: OrderedDict[tuple[int, str], Memory] = OrderedDict()
_CACHE_LOCK = threading.Lock()


def memory_of(circle: Circle) -> Memory:
    """The circle's memory: one statement when nothing changed since the last visit (the
    fingerprint), else one more load (``STATEMENTS``)."""
    key = fingerprint(circle)
    slot = (circle.id, circle.public_id)
    with _CACHE_LOCK:
        found = _CACHE.get(slot)
        if found is not None and found.key == key:
            _CACHE.move_to_end(slot)
            return found
    fresh = Memory(key, load_record(circle))
    with _CACHE_LOCK:
        _CACHE[slot] = fresh
        _CACHE.move_to_end(slot)
        while len(_CACHE) > CACHED_CIRCLES:
            _CACHE.popitem(last=False)
    return fresh


def forget(circle: Circle | None = None) -> None:
    """Empty the cache (tests, benchmarks), or forget one circle (deleted for good)."""
    with _CACHE_LOCK:
        if circle is None:
            _CACHE.clear()
        else:
            _CACHE.pop((circle.id, circle.public_id), None)
