"""The circle's memory: its whole history as ``history.records.CircleRecord``, loaded in a
constant number of SQL statements, whatever the number of evenings.

``load_record(circle)`` sends one statement per kind of row (``STATEMENTS`` of them):
the players, the evenings, their seats, their entry rows, their cut rows, the digital
hands of the circle's tables, the actions of those hands, and the purse's settlements.
Columns are read as plain tuples (no ORM objects) and turned into the frozen records of
``scorekeeper.history``, from which statistics, ratings, the purse, charts and the
export are derived.

A digital hand goes into the record only once it is over: exactly when its result is on
the slate, written under ``snapshot.digital_hand_request_id(table, number)``. A hand
still in play holds private cards: it and its actions are left out.

The housekeeping log (rename, merge, delete evening, undo; ``services.housekeeping``)
is one statement more, and its events join the ``fingerprint``. Everything read goes
through ``history.housekeeping.view`` before it is shown.

``memory_of(circle)`` is what pages and the API read: the record and its view, kept per
worker while the circle's ``fingerprint`` (one statement) says nothing changed; after a
change only the evenings added or changed are read again (``RELOAD_STATEMENTS``). What
the pages derive (statistics, ratings, the purse, chart data) is memoized alongside,
and carried over while only evenings still open changed.

Stored outcomes: the memory reads an ended evening as its outcome (``history.summary``)
stored in ``evening_outcomes`` when that row is still the evening's (its version, the
code's ``summary.FORMAT``), and reads the inputs only of the others; their outcomes are
replayed once and stored (``_store``, its own short write: ``tx.derived_write``). Such an
evening has no inputs in the memory (``EveningRecord.inputs`` False): the export reads
``load_record``, never ``memory_of``. The whole circle's ladders start from the rating
runs stored in ``rating_runs`` (``Memory.ratings``) and store a run that changed. Both are
derived copies, never inputs: dropping them loses nothing but time.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any, Final, TypeVar, cast

from sqlalchemy import ColumnElement, Integer, Select, Text, and_, bindparam, delete, func, insert, select
from sqlalchemy import cast as sql_cast
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from ..game.contracts import Contract
from ..game.hand_entry import HandEntry
from ..game.rulesets import RuleSet
from ..history import housekeeping
from ..history.housekeeping import CircleView
from ..history.outcome import summary_of
from ..history.purse import Purse, purse
from ..history.ratings import MODEL, Ladder, LadderRatings, Run, rate_ladders, ratings, run_from_data, run_to_data
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
    PlayerId,
    Settlement,
    Status,
)
from ..history.stats import ALL, CircleStats, Filter, circle_stats
from ..history.summary import FORMAT, Summary, from_data, to_data
from ..models import (
    Circle,
    CutRow,
    DigitalTable,
    EntryRow,
    Evening,
    EveningOutcome,
    HousekeepingRow,
    RatingRun,
    Seat,
    SettlementRow,
    TableAction,
    TableHand,
    utcnow,
)
from ..models import Player as PlayerRow
from ..scoring.final import Cut, End
from . import tx
from .housekeeping import events_of
from .snapshot import ENTRY_COLUMNS, digital_hand_request_id

T = TypeVar("T")
log = logging.getLogger(__name__)

# players, evenings, seats, entries, cuts, digital hands, digital actions, settlements, housekeeping
STATEMENTS: Final = 9
# The inputs of an evening (entries, cuts, digital hands, their actions): read only for the
# evenings without a current stored outcome (open ones, and ended ones not yet summarized).
INPUT_STATEMENTS: Final = 4
# The memory read when every ended evening's outcome is stored: players, evenings (with their
# stored outcomes), seats, settlements, housekeeping.
STORED_STATEMENTS: Final = STATEMENTS - INPUT_STATEMENTS
# after a change: the fingerprint, the evenings' versions, then at most STATEMENTS for what changed
# (every count here is the most: the inputs are read only for evenings that need them, the
# digital actions only when a digital hand is over)
RELOAD_STATEMENTS: Final = 2 + STATEMENTS
RELOAD_IN_LIMIT: Final = 200  # more changed evenings than this: load the circle's evenings whole
Which = ColumnElement[bool]  # which evenings to read (the circle's, or some of them by id)


def player_key(player_id: int) -> str:
    """A database player id as the history's ``PlayerId`` (text)."""
    return str(player_id)


@lru_cache(maxsize=256)
def _ruleset(text: str) -> RuleSet:
    """The stored rule set snapshot, read as text (evenings of one circle share a few: each
    distinct one is parsed once)."""
    return RuleSet.from_dict(json.loads(text))


@lru_cache(maxsize=1024)
def _contract(code: str) -> Contract:
    return Contract.parse(code)


_KINDS: Final = {k.value: k for k in LogKind}


def _players(s: Session, circle_id: int) -> tuple[Player, ...]:
    rows = s.connection().execute(
        select(PlayerRow.id, PlayerRow.name, PlayerRow.created_at)
        .where(PlayerRow.circle_id == circle_id)
        .order_by(PlayerRow.id)
    )
    return tuple(Player(player_key(r.id), r.name, r.created_at) for r in rows)


def _seats(s: Session, which: Which) -> dict[int, list[str]]:
    rows = (
        s.connection()
        .execute(
            select(Seat.evening_id, Seat.player_id)
            .join(Evening, Evening.id == Seat.evening_id)
            .where(which)
            .order_by(Seat.evening_id, Seat.seat)
        )
        .all()
    )  # fetched at once (iterating fetches row by row)
    out: dict[int, list[str]] = defaultdict(list)
    for evening_id, player_id in rows:  # plain tuples: some 2 000 rows for 500 evenings
        out[evening_id].append(str(player_id))  # player_key
    return out


def _logs(s: Session, which: Which) -> tuple[dict[int, list[LogEntry]], set[str]]:
    """Per evening its log rows in order; and every request id on a slate (digital hands over)."""
    rows = (
        s.connection()
        .execute(
            select(EntryRow.evening_id, *ENTRY_COLUMNS)
            .join(Evening, Evening.id == EntryRow.evening_id)
            .where(which)
            .order_by(EntryRow.evening_id, EntryRow.seq)
        )
        .all()
    )
    logs: dict[int, list[LogEntry]] = defaultdict(list)
    written: set[str] = set()
    # A circle of 500 evenings holds ~13 000 rows: plain tuples, cached contracts and kinds.
    for (
        evening,
        seq,
        kind,
        supersedes,
        row_key,
        seat,
        contract,
        dp,
        op,
        match,
        cm,
        seich,
        cell,
        digital,
        rid,
        author,
        when,
    ) in rows:
        hand = None
        if kind != "undo":
            assert seat is not None  # a hand or correction row always names its declarer
            hand = HandEntry(
                row_key=row_key,
                declarer_seat=seat,
                contract=_contract(contract) if contract else None,
                declarer_points=dp or 0,
                defender_points=op or 0,
                match=match,
                countermatch=cm,
                seich=seich,
                cell=cell,
            )
        logs[evening].append(LogEntry(seq, _KINDS[kind], supersedes, hand, digital, author, when))
        if digital:
            written.add(rid)
    return logs, written


def _cuts(s: Session, which: Which) -> dict[int, list[CutEntry]]:
    rows = s.connection().execute(
        select(
            CutRow.evening_id,
            CutRow.row_key,
            CutRow.end.label("end"),
            CutRow.ranking,
            CutRow.winner,
            CutRow.drawn,
            CutRow.created_at,
        )
        .join(Evening, Evening.id == CutRow.evening_id)
        .where(which)
        .order_by(CutRow.id)
    )
    out: dict[int, list[CutEntry]] = defaultdict(list)
    for r in rows:
        order = tuple(int(x) for x in r.ranking.split(",") if x != "")
        end = cast(End, r.end)  # the column's CHECK constraint allows only high, low, all
        out[r.evening_id].append(CutEntry(Cut(r.row_key, end, r.winner, r.drawn, order), r.created_at))
    return out


def _digital(s: Session, which: Which, written: set[str]) -> dict[int, list[DigitalHand]]:
    """Per evening the digital hands that are over, with their actions (two statements; one
    when none is over)."""
    hands = list(
        s.connection().execute(
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
            .where(which)
            .order_by(DigitalTable.id, TableHand.number)
        )
    )
    # a restored table holds only hands that were over when they were exported
    over = [h for h in hands if h.restored or digital_hand_request_id(h.public_id, h.number) in written]
    if not over:  # no hand dealt digitally is over: no action to read (one statement fewer)
        return {}
    actions: dict[int, list[DigitalAction]] = defaultdict(list)
    keep = {h.id for h in over}
    rows = s.connection().execute(
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
        .where(which)
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


def settlements(s: Session, circle_id: int) -> tuple[Settlement, ...]:
    """The purse's append-only log, in order."""
    rows = s.connection().execute(
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


def _current_outcome() -> Any:
    """The join condition of an evening's stored outcome that is still its outcome: written
    for the evening's version in this code's ``summary.FORMAT``."""
    return and_(
        EveningOutcome.evening_id == Evening.id,
        EveningOutcome.version == Evening.version,
        EveningOutcome.format == FORMAT,
    )


def _evenings(s: Session, which: Which, *, stored: bool) -> Sequence[Any]:
    """The evenings' own rows; ``stored``: with each ended one's current stored outcome (or None)."""
    columns: list[Any] = [
        Evening.id,
        Evening.public_id,
        sql_cast(Evening.ruleset, Text).label("ruleset"),  # text: parsed once per distinct rule set
        Evening.first_dealer,
        Evening.status,
        Evening.created_at,
        Evening.ended_at,
        Evening.counts_in_money,
        Evening.version,
    ]
    query = select(*columns)
    if stored:
        query = query.add_columns(EveningOutcome.summary, EveningOutcome.hands).outerjoin(
            EveningOutcome, _current_outcome()
        )
    return s.connection().execute(query.where(which).order_by(Evening.id)).all()


def _stored_summary(public_id: str, status: str, figures: Any, hands: Any) -> Summary | None:
    """The evening's stored outcome if it is one (an ended evening's, readable); else None."""
    if status != _ENDED or figures is None:
        return None
    try:
        return from_data(figures, hands)
    except ValueError:  # not what this code writes: computed again and replaced
        log.warning("memory: the stored outcome of evening %s is unreadable; computing it again", public_id)
        return None


_ENDED: Final = Status.ENDED.value
_STATUS: Final = {s.value: s for s in Status}


def _evening_records(s: Session, which: Which, *, stored: bool = False) -> tuple[dict[int, EveningRecord], set[int]]:
    """The evenings ``which`` selects, by database id; and the ids of the ended ones whose
    outcome is not stored yet (to store).

    ``stored``: an ended evening whose outcome is stored and current is read as that
    outcome alone (``EveningRecord.inputs`` False); the inputs (entries, cuts, digital
    hands and their actions) are read for the others only, and not at all when there are
    none: three to seven statements. Without ``stored`` every evening is read whole (seven)."""
    evening_rows = [tuple(r) for r in _evenings(s, which, stored=stored)]  # plain tuples: 500 rows
    summaries: dict[int, Summary] = {}
    if stored:
        for ev_id, public_id, _rs, _fd, status, _c, _e, _m, _v, figures, hands in evening_rows:
            found = _stored_summary(public_id, status, figures, hands)
            if found is not None:
                summaries[ev_id] = found
    need = [ev[0] for ev in evening_rows if ev[0] not in summaries]
    seats = _seats(s, which)
    logs: dict[int, list[LogEntry]] = {}
    cuts: dict[int, list[CutEntry]] = {}
    digital: dict[int, list[DigitalHand]] = {}
    if need:
        inputs = which if len(need) == len(evening_rows) or len(need) > RELOAD_IN_LIMIT else Evening.id.in_(need)
        logs, written = _logs(s, inputs)
        cuts = _cuts(s, inputs)
        digital = _digital(s, inputs, written)
    out: dict[int, EveningRecord] = {}
    for (
        ev_id,
        public_id,
        ruleset,
        first_dealer,
        status,
        created_at,
        ended_at,
        counts,
        version,
        *_stored,
    ) in evening_rows:
        summary = summaries.get(ev_id)
        whole = summary is None
        out[ev_id] = EveningRecord(
            id=public_id,
            ruleset=_ruleset(ruleset),
            first_dealer=first_dealer,
            seats=tuple(seats[ev_id]),
            log=tuple(logs.get(ev_id, ())) if whole else (),
            cuts=tuple(cuts.get(ev_id, ())) if whole else (),
            status=_STATUS[status],
            created_at=created_at,
            ended_at=ended_at,
            counts_in_money=counts,
            digital=tuple(digital.get(ev_id, ())) if whole else (),
            version=version,
            stored=summary,
            inputs=whole,
        )
    to_store = {ev[0] for ev in evening_rows if stored and ev[4] == _ENDED and ev[0] not in summaries}
    return out, to_store


def _record(s: Session, circle: Circle, evenings: dict[int, EveningRecord]) -> CircleRecord:
    """The circle around its evenings (in the order they were stored): players, settlements."""
    return CircleRecord(
        name=circle.name,
        players=_players(s, circle.id),
        evenings=tuple(evenings[k] for k in sorted(evenings)),
        settlements=settlements(s, circle.id),
        housekeeping=_housekeeping(s, circle.id),
        created_at=circle.created_at,
    )


def load_record(circle: Circle) -> CircleRecord:
    """The whole circle as stored (every evening with all its inputs, open ones too), in
    ``STATEMENTS`` statements: what an export writes."""
    s = tx.session()
    return _record(s, circle, _evening_records(s, Evening.circle_id == circle.id)[0])


# --- the stored outcomes ----------------------------------------------------------------
def _summarized(by_id: dict[int, EveningRecord], ids: set[int]) -> dict[int, Summary]:
    """The outcomes of the ended evenings ``ids`` (read with their inputs), replayed."""
    return {i: summary_of(by_id[i]) for i in sorted(ids)}


def _store(evenings: dict[int, tuple[int, Summary]]) -> bool:
    """Keep each evening's outcome (id -> (version, summary)), replacing what was stored for it,
    in a short write of its own (``tx.derived_write``: the reader's session stays a read).
    A derived copy, so a failure costs nothing but a later replay: a concurrent reader that
    stored them first (IntegrityError: the same outcomes, derived alike) or a database too
    busy to take them now (OperationalError, logged) is let be. Never inside another
    service's write (its lock is held there): skipped. Whether they were stored."""
    if not evenings or tx.writing():
        return False
    now = utcnow()
    rows = [
        {"evening_id": i, "version": v, "format": FORMAT, "summary": figures, "hands": hands, "created_at": now}
        for i, (v, summary) in sorted(evenings.items())
        for figures, hands in [to_data(summary)]
    ]
    try:
        with tx.derived_write() as conn:
            if conn is None:
                return False
            conn.execute(delete(EveningOutcome).where(EveningOutcome.evening_id.in_(list(evenings))))
            conn.execute(insert(EveningOutcome), rows)
    except IntegrityError:
        return False
    except OperationalError as err:
        log.warning("memory: the outcomes of %s evenings were not stored (%s)", len(rows), err)
        return False
    return True


def stored_runs(circle_id: int) -> dict[Ladder, Run]:
    """The rating runs stored for the circle under this code's ``ratings.MODEL`` (one statement)."""
    rows = tx.session().execute(
        select(RatingRun.ladder, RatingRun.games, RatingRun.rated).where(
            RatingRun.circle_id == circle_id, RatingRun.model == MODEL
        )
    )
    out: dict[Ladder, Run] = {}
    for r in rows:
        try:
            out[Ladder(r.ladder)] = run_from_data(r.games, r.rated)
        except ValueError:  # not what this code writes: rated again and replaced
            log.warning("memory: the stored %s ratings of circle %s are unreadable", r.ladder, circle_id)
    return out


def _store_runs(circle_id: int, runs: dict[Ladder, Run]) -> bool:
    """Keep the circle's rating runs (replacing what was stored for those ladders), as
    ``_store`` keeps outcomes: a derived copy, in a write of its own, let be on failure."""
    if not runs or tx.writing():
        return False
    now = utcnow()
    rows = []
    for ladder, r in sorted(runs.items()):
        games, rated = run_to_data(r)
        rows.append(
            {"circle_id": circle_id, "ladder": ladder.value, "model": MODEL, "games": games, "rated": rated}
            | {"created_at": now}
        )
    try:
        with tx.derived_write() as conn:
            if conn is None:
                return False
            conn.execute(
                delete(RatingRun).where(
                    RatingRun.circle_id == circle_id, RatingRun.ladder.in_([ladder.value for ladder in runs])
                )
            )
            conn.execute(insert(RatingRun), rows)
    except IntegrityError:
        return False
    except OperationalError as err:
        log.warning("memory: the ratings of circle %s were not stored (%s)", circle_id, err)
        return False
    return True


# --- the cached memory ------------------------------------------------------------------
Fingerprint = tuple[int | str, ...]  # the figures below, then the circle's row id and public id


def fingerprint(circle: Circle) -> Fingerprint:
    """What the circle's stored history is now, in one statement: it changes whenever a row
    the record is made of is added or changed (an evening's version grows with every change
    of its log, cuts and status; players, settlements and housekeeping events are only
    ever added). The circle's row id and public id end it: a circle deleted for good and
    one restored under a reused row id never share a fingerprint with an old copy."""
    cid = circle.id
    row = tx.session().execute(_FINGERPRINT, {"cid": cid}).one()
    return (*(int(x or 0) for x in row), cid, circle.public_id)


def _fingerprint_statement() -> Select[Any]:
    cid = bindparam("cid", type_=Integer())
    of_evenings = Evening.circle_id == cid
    of_players = PlayerRow.circle_id == cid
    parts = (
        select(func.count(Evening.id)).where(of_evenings),
        select(func.coalesce(func.sum(Evening.version), 0)).where(of_evenings),
        select(func.max(Evening.id)).where(of_evenings),
        select(func.count(PlayerRow.id)).where(of_players),
        select(func.max(PlayerRow.id)).where(of_players),
        select(func.count(SettlementRow.id)).where(SettlementRow.circle_id == cid),
        select(func.max(SettlementRow.id)).where(SettlementRow.circle_id == cid),
        select(func.count(HousekeepingRow.id)).where(HousekeepingRow.circle_id == cid),
        select(func.max(HousekeepingRow.id)).where(HousekeepingRow.circle_id == cid),
    )
    return select(*(p.scalar_subquery() for p in parts))


_FINGERPRINT = _fingerprint_statement()  # built once (building it cost more than running it)


MEMO_SIZE: Final = 64  # derived values kept per memory (filters x languages x pages' pieces)


class _Memo:
    """Values derived once, shared by every visit (and every thread) of one worker."""

    __slots__ = ("values", "lock")

    def __init__(self) -> None:
        self.values: dict[Hashable, object] = {}
        self.lock = threading.Lock()

    def get(self, key: Hashable, make: Callable[[], T]) -> T:
        with self.lock:
            if key in self.values:
                return cast(T, self.values[key])
        value = make()
        with self.lock:
            while len(self.values) >= MEMO_SIZE:  # many different filters: the oldest go first
                del self.values[next(iter(self.values))]
            return cast(T, self.values.setdefault(key, value))


def settled_key(record: CircleRecord) -> Hashable:
    """What everything but the list of evenings is derived from: the ended evenings (by id
    and version), the players, the settlements and the housekeeping. Recording a hand in an
    evening still open leaves it unchanged, so statistics, ratings, the purse and the
    charts are not derived again while a table plays."""
    ended = tuple((ev.id, ev.version) for ev in record.evenings if ev.ended)
    return (ended, record.players, record.settlements, record.housekeeping)


class Memory:
    """A circle's record and its housekeeping view, with what pages derived from it
    (``derive``: computed once per fingerprint, whatever the number of visits; carried over
    to the next memory while its ``settled_key`` is the same, unless ``open_too``)."""

    __slots__ = ("key", "record", "by_id", "view", "settled", "_memo", "_settled_memo")

    def __init__(
        self, key: Fingerprint, record: CircleRecord, by_id: dict[int, EveningRecord], before: Memory | None = None
    ) -> None:
        self.key = key
        self.record = record
        self.by_id = by_id  # the evenings by database id (what a later load may keep)
        self.settled = settled_key(record)
        self.view: CircleView = housekeeping.view(record)
        self._memo = _Memo()
        same = before is not None and before.settled == self.settled
        self._settled_memo: _Memo = before._settled_memo if same and before is not None else _Memo()

    def derive(self, key: Hashable, make: Callable[[], T], *, open_too: bool = False) -> T:
        """``make()`` once; ``open_too``: it reads the evenings still open as well."""
        return (self._memo if open_too else self._settled_memo).get(key, make)

    def stats(self, flt: Filter = ALL, *, contracts: bool = True, of: PlayerId | None = None) -> CircleStats:
        """The circle's statistics; ``contracts`` False: without the per-contract figures (the
        hands are then not read); ``of``: with only that player's (only her evenings' hands are
        read). Either is taken from the whole statistics if they are at hand."""
        if contracts and of is None:
            return self.derive(("stats", flt, True, None), lambda: circle_stats(self.view, flt))
        with self._settled_memo.lock:
            whole = cast(CircleStats | None, self._settled_memo.values.get(("stats", flt, True, None)))

        def make() -> CircleStats:
            if whole is not None:
                return replace(whole, contracts=whole.contracts_of(of) if contracts and of is not None else ())
            return circle_stats(self.view, flt, contracts=contracts, of=of)

        return self.derive(("stats", flt, contracts, of), make)

    def ratings(self, flt: Filter = ALL) -> dict[Ladder, LadderRatings]:
        """The three ladders; over every evening (``ALL``) they start from the runs stored for the
        circle (one statement), and a run that changed is stored again."""
        return self.derive(("ratings", flt), lambda: self._ratings(flt))

    def _ratings(self, flt: Filter) -> dict[Ladder, LadderRatings]:
        if flt != ALL:  # a season or a variant: rated here (the runs stored are the whole circle's)
            return ratings(self.view, flt)
        circle_id = int(self.key[-2])
        known = stored_runs(circle_id)
        ladders, runs = rate_ladders(self.view, flt, known)
        _store_runs(circle_id, {ladder: r for ladder, r in runs.items() if known.get(ladder) != r})
        return ladders

    def purse(self, flt: Filter = ALL) -> Purse:
        return self.derive(("purse", flt), lambda: purse(self.view, flt))


CACHED_CIRCLES: Final = 8  # per worker: a 500-evening circle holds a few MB
_CACHE: OrderedDict[tuple[str, int, str], Memory] = OrderedDict()
_CACHE_LOCK = threading.Lock()


def _versions(s: Session, circle_id: int) -> dict[int, int]:
    rows = s.connection().execute(select(Evening.id, Evening.version).where(Evening.circle_id == circle_id))
    return {r.id: r.version for r in rows}


def _slot(s: Session, circle: Circle) -> tuple[str, int, str]:
    """Where a circle's memory is kept: the database, the circle's row id AND its public id
    (a restored backup or another test database may hold a different circle under the same
    row id; a circle deleted for good may see its row id given again)."""
    return (s.get_bind().engine.url.render_as_string(hide_password=True), circle.id, circle.public_id)


def memory_of(circle: Circle) -> Memory:
    """The circle's memory. One statement (the fingerprint) when nothing changed since the
    last visit; after a change, the evenings' versions, then only the evenings added or
    changed since (and the players and settlements): ``RELOAD_STATEMENTS``, however many
    evenings the circle has; the first visit of a worker loads everything."""
    key = fingerprint(circle)
    s = tx.session()
    where = _slot(s, circle)
    with _CACHE_LOCK:
        found = _CACHE.get(where)
        if found is not None and found.key == key:
            _CACHE.move_to_end(where)
            return found
    if found is None:
        by_id, to_store = _evening_records(s, Evening.circle_id == circle.id, stored=True)
    else:
        now = _versions(s, circle.id)
        stale = [i for i, v in now.items() if i not in found.by_id or found.by_id[i].version != v]
        which = Evening.id.in_(stale) if len(stale) <= RELOAD_IN_LIMIT else Evening.circle_id == circle.id
        loaded, to_store = _evening_records(s, which, stored=True)
        by_id = {i: loaded[i] if i in loaded else found.by_id[i] for i in now if i in loaded or i in found.by_id}
        to_store &= set(by_id)
    record = _record(s, circle, by_id)
    if to_store:  # ended evenings read whole: replayed once, kept as their outcome, and stored
        made = _summarized(by_id, to_store)
        for i, summary in made.items():
            by_id[i] = replace(by_id[i], log=(), cuts=(), digital=(), stored=summary, inputs=False)
        record = replace(record, evenings=tuple(by_id[k] for k in sorted(by_id)))
        _store({i: (by_id[i].version or 0, summary) for i, summary in made.items()})
    fresh = Memory(key, record, by_id, found)
    with _CACHE_LOCK:
        _CACHE[where] = fresh
        _CACHE.move_to_end(where)
        while len(_CACHE) > CACHED_CIRCLES:
            _CACHE.popitem(last=False)
    return fresh


def forget(circle: Circle | None = None) -> None:
    """Empty the cache (tests, benchmarks), or forget one circle (deleted for good)."""
    slot = None if circle is None else _slot(tx.session(), circle)
    with _CACHE_LOCK:
        if slot is None:
            _CACHE.clear()
        else:
            _CACHE.pop(slot, None)
