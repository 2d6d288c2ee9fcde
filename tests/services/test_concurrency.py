"""Two phones write to the same evening at the same moment (two threads, two app
contexts, one database file or PostgreSQL): exactly one wins, the other gets
StaleVersion, no hand is lost or duplicated. The check-then-write window is
widened on purpose (a slow ``verify_entry``) so that without the lock (SQLite
``BEGIN IMMEDIATE``, PostgreSQL ``FOR UPDATE``) both would pass the version check."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from services_helpers import NAMES, next_hand
from shared_helpers import race, rid
from sqlalchemy import event, func, select

from scorekeeper.extensions import db
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.models import AppliedRequest, EntryRow, Evening
from scorekeeper.scoring.slate import verify_entry
from scorekeeper.services import circles, evenings
from scorekeeper.services.errors import StaleVersion
from scorekeeper.services.read.snapshot import load_snapshot

WINDOW = 0.3  # seconds each writer spends between reading the slate and writing


def _start(app: Flask) -> int:
    with app.app_context():
        circle, _w, _v = circles.create_circle("Runde")
        ev = evenings.start_evening(
            circle, ruleset=default_ruleset(Variant.TEAMS), player_names=list(NAMES), first_dealer=0, request_id=rid()
        )
        return ev.id


def _slow_verify(monkeypatch: pytest.MonkeyPatch) -> None:
    real = verify_entry

    def slow(*args: Any, **kwargs: Any) -> None:
        time.sleep(WINDOW)
        real(*args, **kwargs)

    monkeypatch.setattr(evenings, "verify_entry", slow)


def _race(app: Flask, jobs: list[Callable[..., Evening]], evening_id: int) -> list[Any]:
    """Run the jobs at once, each in its own thread and app context; their versions or exceptions."""

    def read() -> Evening:
        ev = db.session.get(Evening, evening_id)
        assert ev is not None
        _ = ev.version  # both phones have read the same version
        return ev

    return race(app, [lambda ev, job=job: job(ev).version for job in jobs], prepare=read, timeout=30)


def test_two_phones_same_version_one_wins(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    evening_id = _start(app)
    _slow_verify(monkeypatch)
    hands = [HandEntry("suit_H", 0, None, 129, 28), HandEntry("obenabe", 1, None, 80, 77)]
    jobs = [(lambda ev, h=h: evenings.record_hand(ev, h, expected_version=0, request_id=rid("phone"))) for h in hands]
    started = time.perf_counter()
    results = _race(app, jobs, evening_id)
    elapsed = time.perf_counter() - started
    wins = [r for r in results if r == 1]
    stale = [r for r in results if isinstance(r, StaleVersion)]
    assert len(wins) == 1 and len(stale) == 1, results
    assert stale[0].current_version == 1
    assert elapsed >= WINDOW  # the loser waited for the winner's lock
    with app.app_context():
        ev = db.session.get(Evening, evening_id)
        assert ev is not None and ev.version == 1
        slate = evenings.load_slate(ev)
        assert len(slate.entries) == 1 and slate.entries[0] in hands
        rows = db.session.execute(select(func.count()).select_from(EntryRow)).scalar_one()
        assert rows == 1


def test_double_tap_at_the_same_moment_records_once(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    evening_id = _start(app)
    _slow_verify(monkeypatch)
    hand = HandEntry("suit_H", 0, None, 129, 28)
    request_id = rid("tap")
    jobs = [lambda ev: evenings.record_hand(ev, hand, expected_version=0, request_id=request_id)] * 2
    results = _race(app, jobs, evening_id)
    assert results == [1, 1]
    with app.app_context():
        ev = db.session.get(Evening, evening_id)
        assert ev is not None
        assert list(evenings.load_slate(ev).entries) == [hand]


def test_many_phones_in_turn_lose_nothing(app: Flask) -> None:
    """Four phones each record a different hand, retrying on a stale version like the page does."""
    evening_id = _start(app)
    rows = ["suit_S", "suit_C", "suit_D", "suit_H"]

    def phone(row: str, seat: int) -> Callable[[Evening], Evening]:
        def job(ev: Evening) -> Evening:
            request_id = rid("phone")
            for _ in range(20):
                try:
                    return evenings.record_hand(
                        ev, HandEntry(row, seat, None, 100, 57), expected_version=ev.version, request_id=request_id
                    )
                except StaleVersion:
                    db.session.rollback()  # reload the fresh slate, then try again
            raise AssertionError("never got through")

        return job

    results = _race(app, [phone(r, i % 2) for i, r in enumerate(rows)], evening_id)
    # (the returned evening reloads after its commit, so it may already show a later phone's version)
    assert all(isinstance(r, int) for r in results), results
    with app.app_context():
        ev = db.session.get(Evening, evening_id)
        assert ev is not None and ev.version == 4
        slate = evenings.load_slate(ev)
        assert sorted(e.row_key for e in slate.entries if e.row_key) == sorted(rows)
        versions = (
            db.session.execute(select(AppliedRequest.version).where(AppliedRequest.evening_id == evening_id))
            .scalars()
            .all()
        )
        assert sorted(versions) == [1, 2, 3, 4]  # each phone's write made exactly one version


def test_a_write_after_a_read_sees_what_was_committed_in_between(
    app: Flask, app_factory: Callable[..., Flask], db_url: str, db_backend: str
) -> None:
    """A view reads the evening, another phone's hand commits, then the view's write: it is refused
    (StaleVersion) and writes nothing. On PostgreSQL the write goes on in the reading transaction
    (no ROLLBACK, ping and BEGIN: ``tx._may_continue``), on SQLite it begins anew; both lock and
    read the row afresh."""
    evening_id = _start(app)
    other = app_factory(db_url)
    with app.app_context():
        ev = db.session.get(Evening, evening_id)
        assert ev is not None and ev.version == 0
        hand = next_hand(evenings.load_slate(ev), 0)
        rollbacks: list[object] = []
        note = rollbacks.append
        event.listen(db.engine, "rollback", note)
        with other.app_context():
            fresh = db.session.get(Evening, evening_id)
            assert fresh is not None
            evenings.record_hand(fresh, hand, expected_version=0, request_id=rid())
        with pytest.raises(StaleVersion):
            evenings.record_hand(ev, hand, expected_version=0, request_id=rid())
        event.remove(db.engine, "rollback", note)
        # the refusal commits (it notes the race): SQLite rolled the read transaction back first
        assert len(rollbacks) == (0 if db_backend == "postgresql" else 1)
        db.session.rollback()
        count = db.session.execute(select(func.count()).select_from(EntryRow).where(EntryRow.evening_id == evening_id))
        assert count.scalar_one() == 1


def test_the_answer_to_a_write_reads_nothing_more(app: Flask) -> None:
    """The snapshot a write's answer shows is made of what the write read under its lock (the rows
    of the version before, the one it appended, the open table and naming events): no statement."""
    from shared_helpers import counted

    evening_id = _start(app)
    with app.app_context():
        ev = db.session.get(Evening, evening_id)
        assert ev is not None
        first = load_snapshot(ev)  # the worker keeps the rows of version 0
        evenings.record_hand(ev, next_hand(first.slate, 0), expected_version=0, request_id=rid())
        with counted() as seen:
            snap = load_snapshot(ev)
        assert seen == [] and snap.version == 1 and len(snap.trail) == 1
        with counted() as seen:
            again = load_snapshot(ev)  # a later look reads the table and names afresh
        assert [q for q in seen if q != "BEGIN"] == seen[-1:] and again.version == 1  # (SQLite's hook: BEGIN)
