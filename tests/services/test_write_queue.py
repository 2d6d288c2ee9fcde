"""Writes to one evening take turns within a worker (services/store/write_queue.py): a write that waits while
the one before it commits a newer version is answered StaleVersion at once, without its own turn
at the database's lock; the repeat of an applied request id is still answered as the repeat, and a
queued offline hand still waits for its turn (the database decides both)."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from services_helpers import NAMES, next_hand
from shared_helpers import rid
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.models import Evening
from scorekeeper.services import applying, circles, evenings
from scorekeeper.services.errors import StaleVersion
from scorekeeper.services.store import write_queue


@pytest.fixture(autouse=True)
def _no_losses_of_other_tests(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test's worker has seen no lost race yet (evening ids repeat from one test's database to
    the next, and a loss noted by a test just before would hold the next one's writes off)."""
    monkeypatch.setattr(write_queue, "_LOST", {})


def _evening() -> tuple[Evening, str]:
    circle, write, _v = circles.create_circle("Runde")
    rs = default_ruleset(Variant.TEAMS)
    ev = evenings.start_evening(circle, ruleset=rs, player_names=list(NAMES), first_dealer=0, request_id=rid())
    return ev, write


def _again(write: str, public_id: str) -> Evening:
    """The evening as another request reads it."""
    return evenings.get_evening(circles.open_circle(write)[0], public_id)


def _while_held(app: Flask, evening_id: int, newer: int, job: Any) -> tuple[Any, float]:
    """Run ``job`` in a thread of its own while this one holds the evening's turn; then note
    ``newer`` as committed and give the turn back. (What the job answered, seconds it waited.)"""
    out: dict[str, Any] = {}

    def run() -> None:
        with app.app_context():
            started = time.monotonic()
            try:
                out["answer"] = job()
            except Exception as err:  # noqa: BLE001 - the answer under test
                out["answer"] = err
            out["waited"] = time.monotonic() - started

    with write_queue.turn(evening_id, newer - 1, may_leave=False) as seen:
        worker = threading.Thread(target=run)
        worker.start()
        time.sleep(0.2)  # it waits for the turn
        assert worker.is_alive()
        seen(newer)
    worker.join(10)
    return out["answer"], out["waited"]


def test_a_waiting_write_that_lost_the_race_is_told_at_once(app: Flask) -> None:
    with app.app_context():
        ev, write = _evening()
        entry = next_hand(evenings.load_slate(ev), 0)
        evening_id, public_id, version = ev.id, ev.public_id, ev.version

    def late() -> Any:
        return evenings.record_hand(_again(write, public_id), entry, expected_version=version, request_id=rid())

    answer, _waited = _while_held(app, evening_id, version + 1, late)
    assert isinstance(answer, StaleVersion) and answer.current_version == version + 1


def test_a_write_that_left_this_workers_queue_makes_the_winners_next_write_yield(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Within a worker the phone that lost is told at once, before any refusal reaches the database:
    the winner's next hand on the fresh version yields once all the same (it may be sent before the
    loser's retry), on that evening only and only for HOLD_OFF_S."""
    with app.app_context():
        ev, write = _evening()
        entry = next_hand(evenings.load_slate(ev), 0)
        evening_id, public_id, version = ev.id, ev.public_id, ev.version
    now = datetime(2026, 12, 1, 14, 0, tzinfo=UTC)
    assert write_queue.hold_off(None, now, evening_id) == 0.0

    def late() -> Any:
        return evenings.record_hand(_again(write, public_id), entry, expected_version=version, request_id=rid())

    answer, _waited = _while_held(app, evening_id, version + 1, late)
    assert isinstance(answer, StaleVersion)
    lost = write_queue._LOST[evening_id]
    # the winner's next hand comes 5 ms after the loss (the worker's clock stopped there: on a
    # loaded machine the real one may pass HOLD_OFF_S before the 50 looks are done)
    monkeypatch.setattr(write_queue, "monotonic", lambda: lost + 0.005)
    waits = [write_queue.hold_off(None, now, evening_id) for _ in range(50)]
    assert all(0 < w <= write_queue.HOLD_OFF_S + write_queue.JITTER_S for w in waits)
    assert write_queue.hold_off(None, now, evening_id + 1) == 0.0  # another evening's phones never wait
    monkeypatch.setattr(write_queue, "monotonic", lambda: lost + write_queue.HOLD_OFF_S + 0.001)
    assert write_queue.hold_off(None, now, evening_id) == 0.0  # the while is over


def test_the_repeat_of_an_applied_request_is_answered_as_the_repeat(app: Flask) -> None:
    with app.app_context():
        ev, write = _evening()
        entry = next_hand(evenings.load_slate(ev), 0)
        again = rid("hand")
        version = ev.version
        ev = evenings.record_hand(ev, entry, expected_version=version, request_id=again)
        evening_id, public_id, written = ev.id, ev.public_id, ev.version

    def resend() -> Any:  # the phone lost the answer and sends the same request again
        return evenings.record_hand(_again(write, public_id), entry, expected_version=version, request_id=again).version

    answer, _waited = _while_held(app, evening_id, written, resend)
    assert answer == written  # recorded once: the answer of the write it repeats


@pytest.mark.parametrize("queued", [False, True], ids=["plain", "queued offline"])
def test_only_a_plain_write_leaves_early(app: Flask, queued: bool) -> None:
    """A queued offline hand may land on a newer version: it waits for its turn and the database
    decides (here: the other phone's hand is not one of its own, so it is stale too)."""
    with app.app_context():
        ev, write = _evening()
        entry = next_hand(evenings.load_slate(ev), 0)
        evening_id, public_id, version = ev.id, ev.public_id, ev.version
    calls: list[int] = []
    real = applying._lock

    def counting(*args: Any) -> Evening:
        calls.append(1)
        return real(*args)

    def late() -> Any:
        after = [rid("mine")] if queued else None
        fresh = _again(write, public_id)
        return evenings.record_hand(fresh, entry, expected_version=version, request_id=rid(), queued_after=after)

    mp = pytest.MonkeyPatch()
    mp.setattr(applying, "_lock", counting)
    try:
        answer, _waited = _while_held(app, evening_id, version + 1, late)
    finally:
        mp.undo()
    # nothing was committed at version + 1 here, so the queued hand (at its turn) is written
    assert isinstance(answer, StaleVersion) != queued
    assert len(calls) == (1 if queued else 0)


def test_the_next_turn_is_drawn_among_those_waiting() -> None:
    """Phones that retried on the fresh slate at the same moment queue in an order that says nothing
    about them (a client's event loop, a worker's threads): first come would let the same one win
    every round. The next turn is drawn among the waiters."""
    firsts: set[str] = set()
    for _ in range(30):
        order: list[str] = []

        def waiter(name: str, order: list[str] = order) -> None:
            with write_queue.turn(1, 0, may_leave=False):
                order.append(name)

        with write_queue.turn(1, 0, may_leave=False):
            threads = [threading.Thread(target=waiter, args=(name,)) for name in ("a", "b", "c")]
            for t in threads:
                t.start()
                time.sleep(0.01)  # each queues before the next: a, b, c
        for t in threads:
            t.join(5)
        assert sorted(order) == ["a", "b", "c"]
        firsts.add(order[0])
    assert len(firsts) > 1, firsts


def test_hold_off_waits_only_shortly_after_a_refusal() -> None:
    now = datetime(2026, 12, 1, 14, 0, tzinfo=UTC)
    assert write_queue.hold_off(None, now) == 0.0  # no race ever seen
    assert write_queue.hold_off(now - timedelta(seconds=1), now) == 0.0  # long ago
    assert write_queue.hold_off(now + timedelta(seconds=1), now) == 0.0  # a clock that went back
    waits = [write_queue.hold_off(now - timedelta(milliseconds=5), now) for _ in range(200)]
    left = write_queue.HOLD_OFF_S - 0.005
    assert all(left <= w <= left + write_queue.JITTER_S for w in waits)
    assert max(waits) - min(waits) > write_queue.JITTER_S / 2  # drawn: the order says nothing


def test_a_refused_write_makes_the_next_write_on_the_fresh_version_yield_once(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Across workers: the loser's refusal is noted on the evening (committed with it), so the
    winner's next hand, and every write on the fresh version for a short while, waits once outside
    the lock and then goes through; a phone alone never waits, a queued offline hand never yields."""
    slept: list[float] = []
    monkeypatch.setattr(time, "sleep", slept.append)  # the module applying sleeps through
    # the write's own clock, stopped: a slow machine takes longer than HOLD_OFF_S between the
    # refusal and the next write, which is then (rightly) no longer held off
    clock = [datetime(2026, 12, 1, 14, 0, tzinfo=UTC)]
    monkeypatch.setattr(applying, "utcnow", lambda: clock[0])
    with app.app_context():
        ev, write = _evening()
        slate = evenings.load_slate(ev)
        first, version = next_hand(slate, 0), ev.version
        ev = evenings.record_hand(ev, first, expected_version=version, request_id=rid())
        assert slept == [] and ev.contended_at is None  # alone: no wait, nothing noted
        with pytest.raises(StaleVersion):  # a phone that had not seen that hand
            evenings.record_hand(_again(write, ev.public_id), first, expected_version=version, request_id=rid())
        noted = db.session.execute(select(Evening.contended_at).where(Evening.id == ev.id)).scalar_one()
        assert noted is not None
        fresh = _again(write, ev.public_id)
        second, at = next_hand(evenings.load_slate(fresh), 1), fresh.version
        clock[0] += timedelta(milliseconds=5)  # within HOLD_OFF_S of the refusal
        done = evenings.record_hand(fresh, second, expected_version=at, request_id=rid())
        assert len(slept) == 1 and 0 < slept[0] <= write_queue.HOLD_OFF_S + write_queue.JITTER_S
        assert done.version == at + 1  # it waited once, then wrote
        with pytest.raises(StaleVersion):  # another refusal, then a queued offline hand on the fresh version
            evenings.record_hand(_again(write, ev.public_id), second, expected_version=at, request_id=rid())
        latest = _again(write, ev.public_id)
        now_at = latest.version
        queued = evenings.record_hand(
            latest,
            next_hand(evenings.load_slate(latest), 0),
            expected_version=now_at,
            request_id=rid(),
            queued_after=frozenset(),
        )
        assert len(slept) == 1 and queued.version == now_at + 1
