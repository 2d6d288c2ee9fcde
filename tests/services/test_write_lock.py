"""SQLite's writers queue before ``BEGIN IMMEDIATE`` (services/tx.py ``WriteLock``): first come,
first served among a worker's threads, and one at a time across worker processes (``flock`` of a
file beside the database), each waking the moment the last one is done, not after SQLite's
busy handler slept (steps of up to 100 ms)."""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from pathlib import Path

import pytest
from flask import Flask

from scorekeeper.extensions import db
from scorekeeper.services.store.tx import FifoLock, WriteLock, write_lock_of

HOLD = 0.3


def test_the_threads_lock_is_first_come_first_served() -> None:
    """A thread that gives the lock back and asks at once comes after those already waiting
    (``threading.Lock`` would let it take the lock again: one phone would win every race)."""
    lock = FifoLock()
    order: list[str] = []
    lock.acquire()

    def waiter(name: str) -> None:
        lock.acquire()
        order.append(name)
        lock.release()

    threads = [threading.Thread(target=waiter, args=(name,)) for name in ("first", "second")]
    for t in threads:
        t.start()
        time.sleep(0.05)  # each is waiting before the next asks
    lock.release()
    lock.acquire()  # at once again
    order.append("again")
    lock.release()
    for t in threads:
        t.join(5)
    assert order == ["first", "second", "again"]


def _hold(path: str, taken: multiprocessing.synchronize.Event, hold: float) -> None:
    with WriteLock(path):
        taken.set()
        time.sleep(hold)


def test_processes_write_one_at_a_time_and_the_next_wakes_at_once(tmp_path: Path) -> None:
    path = str(tmp_path / "db.sqlite3.write-lock")
    ctx = multiprocessing.get_context("fork")
    taken = ctx.Event()
    holder = ctx.Process(target=_hold, args=(path, taken, HOLD))
    holder.start()
    assert taken.wait(10)
    started = time.monotonic()
    with WriteLock(path):
        waited = time.monotonic() - started
    holder.join(10)
    assert HOLD * 0.6 < waited < HOLD + 0.05, waited  # it waited for the other, and no longer


def test_a_forked_worker_has_a_lock_and_a_file_of_its_own(tmp_path: Path) -> None:
    """The lock made before the fork (gunicorn --preload) and held by the parent keeps the child out
    (a shared open file would make both the holder) and does not hang it (the parent's threads'
    queue is not the child's)."""
    lock = WriteLock(str(tmp_path / "db.sqlite3.write-lock"))
    ctx = multiprocessing.get_context("fork")
    done: multiprocessing.queues.Queue[float] = ctx.Queue()

    def child() -> None:
        with lock:  # the parent's object, as the fork left it
            done.put(time.monotonic())

    with lock:
        worker = ctx.Process(target=child)
        worker.start()
        time.sleep(HOLD)
        released = time.monotonic()
    got = done.get(timeout=10)
    worker.join(10)
    assert got >= released


def test_the_apps_sqlite_engine_has_a_lock_beside_its_file(app: Flask) -> None:
    with app.app_context():
        lock = write_lock_of(db.engine)
        if db.engine.dialect.name != "sqlite":
            assert lock is None
            pytest.skip("PostgreSQL locks the evening's row instead")
        assert lock is not None and lock.path == os.path.abspath(str(db.engine.url.database)) + ".write-lock"
