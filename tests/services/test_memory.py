"""The circle's memory: ``services.read.circle_record.load_record`` reads a whole circle into the
history's records in the same few statements for 1 and for 50 evenings, and the record
holds what the database holds (seats, logs with corrections and undos, cuts, digital
hands that are over; never a hand still in play)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from flask import Flask
from services_helpers import NAMES, play_hands
from shared_helpers import counted, rid

from scorekeeper.extensions import db
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.history import housekeeping, outcome
from scorekeeper.history.records import CircleRecord, LogKind, Status
from scorekeeper.models import Circle
from scorekeeper.services import circles, evenings
from scorekeeper.services import digital_table as tables
from scorekeeper.services.read import circle_record, memory
from scorekeeper.services.read.snapshot import load_snapshot


def _circle(n_evenings: int) -> str:
    """A circle (its write token) with ``n_evenings`` ended three-player evenings of a few
    hands; the first has a correction, an undo, a finished digital hand and one in play."""
    circle, write, _view = circles.create_circle("Runde")
    rs = default_ruleset(Variant.THREE)
    for i in range(n_evenings):
        ev = evenings.start_evening(
            circle, ruleset=rs, player_names=list(NAMES[:3]), first_dealer=i % 3, request_id=rid("start")
        )
        for _ in play_hands(ev, 3, start_turn=i):
            pass
        if i == 0:
            first = evenings.load_slate(ev).entries[0]
            fixed = replace(first, declarer_points=first.declarer_points + 1, defender_points=first.defender_points - 1)
            ev = evenings.correct_entry(ev, 0, fixed, expected_version=ev.version, request_id=rid("fix"), author="Anna")
            ev = evenings.undo_last(ev, expected_version=ev.version, request_id=rid("undo"))
            played = tables.open_table(ev, computers=(0, 1, 2), level="easy", rng=random.Random(1))
            tables.close_table(played)  # its hand was played to the end by the computers
            tables.close_table(tables.open_table(ev, rng=random.Random(2)))  # a hand left in play: private
            ev = evenings.get_evening(circle, ev.public_id)
        evenings.end_evening(ev, early=True, expected_version=ev.version, request_id=rid("end"))
    return write


def reads(statements: list[str]) -> list[str]:
    return [q for q in statements if q.lstrip().upper().startswith("SELECT")]


def holds(kept: CircleRecord, stored: CircleRecord) -> bool:
    """Whether the memory's record is what the database holds: each evening whole, or, read as
    its stored outcome, the same evening without its inputs and that outcome the replay's."""
    assert replace(kept, evenings=()) == replace(stored, evenings=())
    assert [ev.id for ev in kept.evenings] == [ev.id for ev in stored.evenings]
    for mine, full in zip(kept.evenings, stored.evenings, strict=True):
        if mine.inputs:
            assert mine == full
        else:
            assert mine == replace(full, log=(), cuts=(), digital=())
            assert mine.stored == outcome.summary_of(full)
    return True


def _load(write: str) -> tuple[Circle, list[str], Any]:
    db.session.remove()
    circle, _can_write = circles.open_circle(write)
    with counted() as seen:
        record = circle_record.load_record(circle)
    return circle, seen, record


def test_a_circle_loads_in_the_same_few_statements_for_1_and_50_evenings(app: Flask) -> None:
    with app.app_context():
        small = _load(_circle(1))
        large = _load(_circle(50))
    assert len(small[1]) == len(large[1]) == circle_record.STATEMENTS
    assert len(small[2].evenings) == 1
    assert len(large[2].evenings) == 50


def test_the_record_holds_what_the_database_holds(app: Flask) -> None:
    with app.app_context():
        write = _circle(2)
        circle, _seen, record = _load(write)
        stored = [evenings.get_evening(circle, ev.id) for ev in record.evenings]
        snaps = [load_snapshot(ev) for ev in stored]
    assert record.name == "Runde"
    assert sorted(p.name for p in record.players) == list(NAMES[:3])
    names = {p.id: p.name for p in record.players}
    for ev, snap in zip(record.evenings, snaps, strict=True):
        assert ev.status is Status.ENDED and ev.version == snap.version
        assert tuple(names[p] for p in ev.seats) == snap.names
        assert ev.entries == tuple(snap.slate.entries)
        assert tuple(c.cut for c in ev.cuts if c.cut in snap.cuts) == snap.cuts
        derived = outcome.outcome(ev)
        assert derived.result == snap.result and derived.payout == snap.payout
    first = record.evenings[0]
    assert [row.kind for row in first.log].count(LogKind.CORRECTION) == 1
    assert [row.kind for row in first.log].count(LogKind.UNDO) == 1
    assert first.log[0].author is None and any(row.author == "Anna" for row in first.log)
    # the finished digital hand with all its actions; the one in play is not there
    assert [h.number for h in first.digital] == [1]
    assert first.digital[0].finished and len(first.digital[0].actions) > 0
    assert sum(1 for row in first.log if row.digital) == 1
    assert record.evenings[1].digital == ()
    # the history's fold reads it
    view = housekeeping.view(record)
    assert len(view.evenings) == 2


def test_the_memory_is_kept_while_nothing_changes_and_reloaded_after_any_change(app: Flask) -> None:
    with app.app_context():
        memory.forget()
        write = _circle(2)
        circle, _seen, _record = _load(write)
        with counted() as first:
            seen_once = memory.memory_of(circle)
        with counted() as again:
            assert memory.memory_of(circle) is seen_once
        # the first visit reads every evening whole, then stores their outcomes (its own write)
        assert len(reads(first)) == 1 + circle_record.STATEMENTS and len(again) == 1
        assert any(q.lstrip().upper().startswith("INSERT INTO EVENING_OUTCOMES") for q in first)
        assert seen_once.derive("n", lambda: len(seen_once.view.evenings)) == 2
        assert seen_once.derive("n", lambda: -1) == 2  # memoized
        rs = default_ruleset(Variant.THREE)
        evenings.start_evening(circle, ruleset=rs, player_names=list(NAMES[:3]), first_dealer=0, request_id=rid("s"))
        assert circle.name  # the page has opened the circle (its own statement) before it reads the memory
        with counted() as reload:
            after_start = memory.memory_of(circle)
        assert len(reload) == memory.RELOAD_STATEMENTS - 1  # no digital hand over in the new evening
        assert after_start is not seen_once and len(after_start.record.evenings) == 3
        assert after_start.by_id[min(after_start.by_id)] is seen_once.by_id[min(seen_once.by_id)]  # kept, not read
        ev = evenings.get_evening(circle, after_start.record.evenings[-1].id)
        for _ in play_hands(ev, 1):
            pass
        assert memory.memory_of(circle).record.evenings[-1].entries != ()
        circles.add_player(circle, "Dora")
        kept = memory.memory_of(circle)
        assert len(kept.record.players) == 4
        assert holds(kept.record, circle_record.load_record(circle))  # what it kept is what the database holds


def test_what_is_derived_is_kept_for_a_bounded_number_of_filters(app: Flask) -> None:
    with app.app_context():
        circle, _seen, _record = _load(_circle(1))
        mem = memory.memory_of(circle)
        for i in range(memory.MEMO_SIZE + 10):
            assert mem.derive(("filter", i), lambda i=i: i) == i  # type: ignore[misc]  # untyped default
        assert mem.derive(("filter", 0), lambda: -1) == -1  # the oldest went first
        assert mem.derive(("filter", memory.MEMO_SIZE + 9), lambda: -1) == memory.MEMO_SIZE + 9


def test_housekeeping_and_settlements_change_the_fingerprint_at_once(app: Flask) -> None:
    from scorekeeper.history.records import PaymentKind
    from scorekeeper.models import utcnow
    from scorekeeper.services import housekeeping as chores
    from scorekeeper.services import purse

    with app.app_context():
        memory.forget()
        circle, _seen, _record = _load(_circle(2))
        ids = {p.name: p.id for p in circle.players}
        seen = [memory.memory_of(circle)]

        def changed() -> memory.Memory:
            now = memory.memory_of(circle)
            assert now.key not in [m.key for m in seen] and now is not seen[-1]
            assert holds(now.record, circle_record.load_record(circle))  # what it kept is what the database holds
            seen.append(now)
            return now

        renamed = chores.rename_player(circle, ids[NAMES[0]], "Vreni Zurbriggen", request_id=rid())
        assert "Vreni Zurbriggen" in [p.name for p in changed().stats().players]
        chores.undo_change(circle, renamed.seq, request_id=rid())
        assert "Vreni Zurbriggen" not in [p.name for p in changed().stats().players]
        circles.add_player(circle, "Dora")
        dora = changed().record.players[-1]
        chores.merge_players(circle, int(dora.id), ids[NAMES[1]], request_id=rid())
        assert "Dora" not in [p.name for p in changed().view.players]
        first = seen[-1].record.evenings[0].id
        chores.delete_evening(circle, first, request_id=rid())
        after = changed()
        assert len(after.view.evenings) == 1 and after.stats().evenings == 1
        purse.append(
            circle,
            purse.Payment(
                PaymentKind.PAYMENT, payer_id=ids[NAMES[1]], payee_id=ids[NAMES[2]], rappen=50, paid_at=utcnow()
            ),
            request_id=rid(),
        )
        assert len(changed().record.settlements) == 1


def test_a_deleted_circle_and_its_restored_copy_never_share_a_memory(app: Flask) -> None:
    from scorekeeper.history import export
    from scorekeeper.models import utcnow
    from scorekeeper.services import erase, restore

    with app.app_context():
        memory.forget()
        circle, _seen, _record = _load(_circle(1))
        old = memory.memory_of(circle)
        data = export.encode(circle_record.load_record(circle), utcnow())
        old_slot, old_public = memory._slot(db.session(), circle), circle.public_id
        erase.delete_circle(circle, typed_name="Runde")
        copy, _write, _view = restore.restore(data)
        # another worker still holds the old copy: it is never taken for the restored circle
        memory._CACHE[old_slot] = old
        fresh = memory.memory_of(copy)
        assert fresh is not old and fresh.key != old.key
        assert len(fresh.record.evenings) == 1 and fresh.key[-1] == copy.public_id != old_public


# --- the stored outcomes and rating runs: what a worker that has never seen the circle reads ---
def _cold() -> None:
    """A worker that has never seen any circle: nothing kept in this process."""
    from scorekeeper.history import ratings

    memory.forget()
    outcome.clear_cache()
    ratings._RUNS.clear()


def _figures(mem: memory.Memory) -> tuple[Any, ...]:
    first = mem.view.players[0].id
    return (mem.stats(of=first), mem.stats(contracts=False), mem.stats(), mem.ratings(), mem.purse())


def _replayed(circle: Circle) -> tuple[Any, ...]:
    """The same figures from the whole record, every slate replayed (nothing stored used)."""
    from scorekeeper.history import purse, ratings, stats

    _cold()
    v = housekeeping.view(circle_record.load_record(circle))
    first = v.players[0].id
    whole = stats.circle_stats(v)
    return (
        replace(whole, contracts=whole.contracts_of(first)),
        replace(whole, contracts=()),
        whole,
        ratings.ratings(v),
        purse.purse(v),
    )


def test_a_cold_worker_reads_the_stored_outcomes_in_the_same_few_statements_for_1_and_50_evenings(app: Flask) -> None:
    with app.app_context():
        for n in (1, 50):
            circle, _seen, _record = _load(_circle(n))
            _cold()
            memory.memory_of(circle).ratings()  # a first visit: every slate replayed, outcomes and ratings stored
            db.session.rollback()
            assert circle.name  # the page has opened the circle (its own statement) before it reads the memory
            _cold()
            with counted() as seen:
                mem = memory.memory_of(circle)
            assert len(seen) == 1 + circle_record.STORED_STATEMENTS, seen  # no entry, cut or digital hand read
            assert not any(q.lstrip().upper().startswith(("INSERT", "DELETE")) for q in seen)
            assert all(not ev.inputs and ev.stored is not None for ev in mem.record.evenings)
            with counted() as rated:
                mem.ratings()
            assert len(rated) == 1  # the stored runs: nothing rated again, nothing stored
            assert _figures(mem) == _replayed(circle)


def test_a_stored_outcome_counts_only_for_its_evenings_version_and_the_codes_format(app: Flask) -> None:
    from sqlalchemy import select, update

    from scorekeeper.history.summary import FORMAT
    from scorekeeper.models import Evening, EveningOutcome

    with app.app_context():
        circle, _seen, _record = _load(_circle(3))
        _cold()
        memory.memory_of(circle)
        db.session.rollback()
        ids = db.session.execute(select(Evening.id).where(Evening.circle_id == circle.id)).scalars().all()

        def stored() -> dict[int, tuple[int, int]]:
            db.session.rollback()
            rows = db.session.execute(select(EveningOutcome.evening_id, EveningOutcome.version, EveningOutcome.format))
            return {r[0]: (r[1], r[2]) for r in rows if r[0] in ids}

        versions = {ev.id: ev.version for ev in db.session.execute(select(Evening)).scalars() if ev.id in ids}
        assert stored() == {i: (versions[i], FORMAT) for i in ids}
        # an evening reopened and ended again: its old row no longer counts; read whole, then replaced
        first = db.session.get(Evening, ids[0])
        assert first is not None
        again = evenings.reopen_evening(first, expected_version=first.version, request_id=rid("reopen"))
        ended = evenings.end_evening(again, early=True, expected_version=again.version, request_id=rid("end2"))
        # another row stored in an older format, and one whose figures are not a summary at all
        with db.engine.begin() as conn:
            conn.execute(update(EveningOutcome).where(EveningOutcome.evening_id == ids[1]).values(format=FORMAT - 1))
            conn.execute(update(EveningOutcome).where(EveningOutcome.evening_id == ids[2]).values(summary=[1, 2]))
        _cold()
        with counted() as seen:
            mem = memory.memory_of(circle)
        assert any("FROM entries" in q for q in seen)  # the three were read with their inputs
        assert [ev.inputs for ev in mem.record.evenings] == [False, False, False]  # ... and kept as outcomes
        assert stored() == {ids[0]: (ended.version, FORMAT), ids[1]: (versions[ids[1]], FORMAT)} | {
            ids[2]: (versions[ids[2]], FORMAT)
        }
        assert _figures(memory.memory_of(circle)) == _replayed(circle)


def test_storing_an_outcome_leaves_the_readers_session_as_it_was(app: Flask) -> None:
    from scorekeeper.history.summary import Hands, Summary
    from scorekeeper.services.store import tx

    with app.app_context():
        circle, _seen, _record = _load(_circle(2))
        _cold()
        assert circle.name
        memory.memory_of(circle)
        assert tx.outcome() == tx.NOTHING  # a read stays a read for the error handlers
        with counted() as seen:
            assert circle.name == "Runde"  # not expired by the write: nothing read again
            memory.memory_of(circle)
        assert len(seen) == 1
        made = {1: (1, Summary(True, 0, (0,), None, (0,), (0,), Hands()))}
        with tx.write():
            assert memory._store(made) is False  # never inside another service's write
            assert memory._store_runs(circle.id, {}) is False


def test_a_new_evening_rates_one_game_more_and_stores_the_run(app: Flask) -> None:
    from scorekeeper.history import ratings

    with app.app_context():
        circle, _seen, _record = _load(_circle(4))
        _cold()
        memory.memory_of(circle).ratings()
        db.session.rollback()
        rs = default_ruleset(Variant.THREE)
        ev = evenings.start_evening(
            circle, ruleset=rs, player_names=list(NAMES[:3]), first_dealer=0, request_id=rid("s5")
        )
        for _ in play_hands(ev, 2):
            pass
        ev = evenings.get_evening(circle, ev.public_id)
        evenings.end_evening(ev, early=True, expected_version=ev.version, request_id=rid("e5"))
        _cold()
        rated: list[int] = []
        real = ratings._rate

        def counting(games, start):  # type: ignore[no-untyped-def]  # _rate's stand-in: passes its arguments on
            rated.append(len(games))
            return real(games, start)

        ratings._rate = counting
        try:
            mem = memory.memory_of(circle)
            mem.ratings()
        finally:
            ratings._rate = real
        assert sum(rated) == 1  # the stored run went as far as the new evening
        db.session.rollback()
        _cold()
        with counted() as seen:
            memory.memory_of(circle).ratings()
        assert not any(q.lstrip().upper().startswith("INSERT") for q in seen)  # the new run was stored
        assert _figures(memory.memory_of(circle)) == _replayed(circle)
