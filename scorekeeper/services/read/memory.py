"""The circle's memory: its whole history (``circle_record``) kept per worker, with what pages
derive from it.

``memory_of(circle)`` is what pages and the API read: the record and its view, kept per
worker while the circle's ``fingerprint`` (one statement, joined by the housekeeping events)
says nothing changed; after a change only the evenings added or changed are read again
(``RELOAD_STATEMENTS``). What the pages derive (statistics, ratings, the purse, chart data)
is memoized alongside, and carried over while only evenings still open changed.

Stored outcomes: the memory reads an ended evening as its outcome (``history.summary``)
stored in ``evening_outcomes`` when that row is still the evening's (its version, the
code's ``summary.FORMAT``), and reads the inputs only of the others; their outcomes are
replayed once and stored (``_store``, its own short write: ``tx.derived_write``) — by a
write only (``store_after_write``); a read (a GET) keeps them in the worker's memory. Such an
evening has no inputs in the memory (``EveningRecord.inputs`` False): the export reads
``circle_record.load_record``, never ``memory_of``. The whole circle's ladders start from the
rating runs stored in ``rating_runs`` (``Memory.ratings``); a write stores the runs that changed. Both
are derived copies, never inputs: dropping them loses nothing but time.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import replace
from typing import Any, Final, TypeVar, cast

from sqlalchemy import Integer, Select, bindparam, delete, func, insert, select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from ...history import housekeeping
from ...history.housekeeping import CircleView
from ...history.outcome import summary_of
from ...history.purse import Purse, purse
from ...history.ratings import MODEL, Ladder, LadderRatings, Run, rate_ladders, ratings, run_from_data, run_to_data
from ...history.records import CircleRecord, EveningRecord, PlayerId
from ...history.stats import ALL, CircleStats, Filter, circle_stats
from ...history.summary import FORMAT, Summary, to_data
from ...models import Circle, Evening, EveningOutcome, HousekeepingRow, RatingRun, SettlementRow, utcnow
from ...models import Player as PlayerRow
from ..store import tx
from .circle_record import RELOAD_IN_LIMIT, STATEMENTS, circle_record, evening_records

T = TypeVar("T")
log = logging.getLogger(__name__)

# after a change: the fingerprint, the evenings' versions, then at most STATEMENTS for what changed
# (every count here is the most: the inputs are read only for evenings that need them, the
# digital actions only when a digital hand is over)
RELOAD_STATEMENTS: Final = 2 + STATEMENTS


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
        by_id, to_store = evening_records(s, Evening.circle_id == circle.id, stored=True)
    else:
        now = _versions(s, circle.id)
        stale = [i for i, v in now.items() if i not in found.by_id or found.by_id[i].version != v]
        which = Evening.id.in_(stale) if len(stale) <= RELOAD_IN_LIMIT else Evening.circle_id == circle.id
        loaded, to_store = evening_records(s, which, stored=True)
        by_id = {i: loaded[i] if i in loaded else found.by_id[i] for i in now if i in loaded or i in found.by_id}
        to_store &= set(by_id)
    record = circle_record(s, circle, by_id)
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


def store_after_write(circle: Circle) -> None:
    """What a write that changed the circle's history stores of what is derived from it: the
    outcomes of evenings ended or changed (``memory_of``) and the rating runs that changed (a
    read keeps both in the worker's memory, never stores them). Once per settled history and
    worker; an extra: a failure is logged, never raised."""
    try:
        mem = memory_of(circle)
        mem.derive(("runs-stored",), lambda: _store_rated(mem))
    except Exception:
        log.exception("memory: the derived copies of circle %s were not stored", circle.id)


def _store_rated(mem: Memory) -> bool:
    circle_id = int(mem.key[-2])
    known = stored_runs(circle_id)
    _ladders, runs = rate_ladders(mem.view, ALL, known)
    return _store_runs(circle_id, {ladder: r for ladder, r in runs.items() if known.get(ladder) != r})


def forget(circle: Circle | None = None) -> None:
    """Empty the cache (tests, benchmarks), or forget one circle (deleted for good)."""
    slot = None if circle is None else _slot(tx.session(), circle)
    with _CACHE_LOCK:
        if slot is None:
            _CACHE.clear()
        else:
            _CACHE.pop(slot, None)
