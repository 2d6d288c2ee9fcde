"""Writes to one evening take turns within a worker (services/turns.py): a write that waits while
the one before it commits a newer version is answered StaleVersion at once, without its own turn
at the database's lock; the repeat of an applied request id is still answered as the repeat, and a
queued offline hand still waits for its turn (the database decides both)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from flask import Flask
from services_helpers import NAMES, next_hand
from shared_helpers import rid

from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.models import Evening
from scorekeeper.services import circles, evenings, turns
from scorekeeper.services.errors import StaleVersion


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

    with turns.turn(evening_id, newer - 1, may_leave=False) as seen:
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
    real = evenings._lock

    def counting(*args: Any) -> Evening:
        calls.append(1)
        return real(*args)

    def late() -> Any:
        after = [rid("mine")] if queued else None
        fresh = _again(write, public_id)
        return evenings.record_hand(fresh, entry, expected_version=version, request_id=rid(), queued_after=after)

    mp = pytest.MonkeyPatch()
    mp.setattr(evenings, "_lock", counting)
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
            with turns.turn(1, 0, may_leave=False):
                order.append(name)

        with turns.turn(1, 0, may_leave=False):
            threads = [threading.Thread(target=waiter, args=(name,)) for name in ("a", "b", "c")]
            for t in threads:
                t.start()
                time.sleep(0.01)  # each queues before the next: a, b, c
        for t in threads:
            t.join(5)
        assert sorted(order) == ["a", "b", "c"]
        firsts.add(order[0])
    assert len(firsts) > 1, firsts
