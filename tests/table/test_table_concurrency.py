"""Two requests at the same moment (two threads, two app contexts, one database file or
PostgreSQL): the same tap from two phones stores once; two workers letting the computers
play at once store one consistent hand. The check-then-write window is widened on
purpose (a slow ``HandState.replay`` inside the locked transaction)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from shared_helpers import race
from sqlalchemy import func, select
from table_helpers import LEVEL, start

from scorekeeper.engine import HandState
from scorekeeper.extensions import db
from scorekeeper.game.rulesets import Variant
from scorekeeper.models import EntryRow, TableAction
from scorekeeper.services import digital_table as tables
from scorekeeper.services import seats as seats
from scorekeeper.services.digital_table import StaleTable

WINDOW = 0.05


def _race(app: Flask, jobs: list[Callable[[], Any]]) -> list[Any]:
    return race(app, jobs)


def _slow_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    real = HandState.replay.__func__  # type: ignore[attr-defined]  # a classmethod's function

    def slow(cls: type[HandState], *args: Any, **kwargs: Any) -> HandState:
        time.sleep(WINDOW)
        state: HandState = real(cls, *args, **kwargs)
        return state

    monkeypatch.setattr(HandState, "replay", classmethod(slow))


def test_a_double_tap_stores_once(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    with app.app_context():
        ev = start(Variant.TEAMS)
        table = tables.open_table(ev, rng=random.Random(1))
        public_id = table.public_id
        st = tables.load(table)
        mover = st.to_move()
        assert mover is not None  # a hand in play: someone moves
        legal = st.view(mover).legal_actions  # type: ignore[union-attr]  # a hand in play
        action, other = legal[-1], legal[0]
    _slow_replay(monkeypatch)

    def tap() -> int:
        t = tables.get_table(public_id)
        return tables.act(t, mover, action, expected_seq=0).seq

    results = _race(app, [tap, tap])
    assert results == [1, 1], results  # a double tap: both answer like the first, one row stored
    with app.app_context():
        assert db.session.execute(select(func.count()).select_from(TableAction)).scalar_one() == 1
    with app.app_context():
        with pytest.raises(StaleTable):  # a different action on the same old picture is stale
            table = tables.get_table(public_id)
            tables.act(table, mover, other, expected_seq=0)


def test_two_workers_running_the_computers_store_one_hand(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    with app.app_context():
        ev = start(Variant.THREE)
        table = tables.open_table(ev, rng=random.Random(2))  # humans first: nothing played yet
        public_id, evening_id = table.public_id, ev.id
        for seat in range(3):
            seats.set_computer(table, seat, LEVEL)
    _slow_replay(monkeypatch)

    def poll() -> int:
        return tables.run_computers(tables.get_table(public_id)).seq

    results = _race(app, [poll, poll, poll])
    assert all(isinstance(r, int) for r in results), results
    with app.app_context():
        st = tables.load(tables.get_table(public_id))
        assert st.hand_over
        seqs = list(db.session.execute(select(TableAction.seq).order_by(TableAction.seq)).scalars())
        assert seqs == list(range(1, len(st.state.history) + 1))  # type: ignore[union-attr]  # a hand in play
        entries = db.session.execute(
            select(func.count()).select_from(EntryRow).where(EntryRow.evening_id == evening_id)
        ).scalar_one()
        assert entries == 1
