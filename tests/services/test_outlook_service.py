"""The outlook service (issue 13): the definitions from the snapshot, the win probabilities
simulated once per (evening, version) and stored; a second read, on any phone, reads them
with one statement; a poll computes nothing; a hidden outlook is not computed at all."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, cast

import pytest
from flask import Flask
from services_helpers import NAMES, play_hands
from shared_helpers import race, rid
from sqlalchemy import Table, event, func, select

from scorekeeper.extensions import db
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.history.blend import player_history, seat_history
from scorekeeper.models import Circle, Evening, OutlookForecast
from scorekeeper.scoring.forecast import outlook_seed
from scorekeeper.scoring.outlook import evening_outlook
from scorekeeper.services import circles, evenings
from scorekeeper.services.errors import NotFound
from scorekeeper.services.read import circle_record, memory, stamp
from scorekeeper.services.read import outlook as svc
from scorekeeper.services.read.outlook import EveningOutlook
from scorekeeper.services.read.snapshot import load_snapshot


@contextmanager
def counted() -> Iterator[list[str]]:
    """The SQL statements sent inside the block (the transaction's BEGIN aside)."""
    seen: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement != "BEGIN":
            seen.append(statement)

    event.listen(db.engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(db.engine, "before_cursor_execute", count)


def _evening(variant: Variant, hands: int) -> tuple[str, Evening]:
    rs = default_ruleset(variant)
    circle, write, _view = circles.create_circle("Runde")
    ev = evenings.start_evening(
        circle, ruleset=rs, player_names=list(NAMES[: rs.n_players]), first_dealer=0, request_id=rid("start")
    )
    for _ in play_hands(ev, hands):
        pass
    return write, ev


def _fresh(write: str, evening_id: str) -> Evening:
    db.session.remove()
    circle, _can_write = circles.open_circle(write)
    return evenings.get_evening(circle, evening_id)


def _circle(write: str) -> Circle:
    return circles.open_circle(write)[0]


def _stored_rows(evening_id: int) -> list[tuple[int, int]]:
    return [
        (r.version, r.history_hands)
        for r in db.session.execute(
            select(OutlookForecast).where(OutlookForecast.evening_id == evening_id).order_by(OutlookForecast.version)
        ).scalars()
    ]


@pytest.mark.parametrize("variant", list(Variant), ids=[v.value for v in Variant])
def test_the_outlook_is_the_pure_one_at_the_snapshots_version(app: Flask, variant: Variant) -> None:
    with app.app_context():
        write, ev = _evening(variant, 5)
        snap = load_snapshot(_fresh(write, ev.public_id))
        got = svc.outlook_of(snap, _circle(write))
        assert not got.hidden and got.version == snap.version
        want = evening_outlook(snap.slate, snap.public_id, snap.version, cuts=snap.cuts, ended=not snap.is_open)
        assert got.outlook == want
        assert got.outlook is not None and got.outlook.seed == outlook_seed(snap.public_id, snap.version)


def test_simulated_once_per_version_then_read_with_one_statement(app: Flask) -> None:
    with app.app_context():
        write, ev = _evening(Variant.TEAMS, 4)
        evening_id, public_id = ev.id, ev.public_id
        snap = load_snapshot(_fresh(write, public_id))
        first = svc.outlook_of(snap, _circle(write))
        assert _stored_rows(evening_id) == [(snap.version, 0)]

        db.session.remove()
        circle = _circle(write)
        with counted() as seen:
            again = svc.outlook_of(snap, circle)
        assert len(seen) == 1 and "outlook_forecasts" in seen[0]
        assert again == first

        # a new hand: a new version, simulated and stored once; the old version's row goes
        ev = _fresh(write, public_id)
        for _ in play_hands(ev, 1, start_turn=4):
            pass
        newer = load_snapshot(_fresh(write, public_id))
        assert newer.version == snap.version + 1
        svc.outlook_of(newer, _circle(write))
        assert _stored_rows(evening_id) == [(newer.version, 0)]


def test_a_read_that_loses_the_race_shows_what_the_winner_stored(app: Flask) -> None:
    with app.app_context():
        write, ev = _evening(Variant.THREE, 3)
        snap = load_snapshot(_fresh(write, ev.public_id))
        stored, _hands = svc.stored_forecast(snap, _circle(write))
        other = svc.forecast_to_dict(stored) | {"win": [0.5, 0.25, 0.25]}  # what "another phone" wrote
        db.session.execute(
            cast(Table, OutlookForecast.__table__)
            .update()
            .where(OutlookForecast.evening_id == ev.id)
            .values(forecast=other)
        )
        db.session.commit()
        assert svc._store(ev.id, snap.version, stored, 0)[0]["win"] == [0.5, 0.25, 0.25]
        assert svc.stored_forecast(snap, _circle(write))[0].win == (0.5, 0.25, 0.25)


def test_a_hidden_outlook_is_not_computed_and_the_setting_is_remembered(app: Flask) -> None:
    with app.app_context():
        write, ev = _evening(Variant.CLUB, 3)
        version = ev.version
        ev = svc.set_hidden(_fresh(write, ev.public_id), True)
        assert ev.outlook_hidden and ev.version == version  # a setting, not a change of the slate
        snap = load_snapshot(_fresh(write, ev.public_id))
        circle = _circle(write)
        with counted() as seen:
            got = svc.outlook_of(snap, circle)
        assert got.hidden and got.outlook is None and seen == []
        assert _stored_rows(ev.id) == []
        ev = svc.set_hidden(_fresh(write, ev.public_id), True)  # twice is once
        ev = svc.set_hidden(_fresh(write, ev.public_id), False)
        snap = load_snapshot(_fresh(write, ev.public_id))
        assert not snap.outlook_hidden and svc.outlook_of(snap, _circle(write)).outlook is not None


def test_the_poll_reads_the_stamp_with_one_statement_and_computes_nothing(app: Flask) -> None:
    with app.app_context():
        write, ev = _evening(Variant.SOLO4, 6)
        public_id, version = ev.public_id, ev.version
        db.session.remove()
        circle, _w = circles.open_circle(write)
        with counted() as seen:
            state = stamp.poll_state(circle, public_id)
        assert (state.version, state.hidden) == (version, False) and len(seen) == 1
        assert db.session.execute(select(func.count()).select_from(OutlookForecast)).scalar_one() == 0
        for bad in ("nope", "a\x00b", ""):
            with pytest.raises(NotFound):
                stamp.poll_state(circle, bad)


def test_an_ended_evening_has_its_outlook_decided(app: Flask) -> None:
    with app.app_context():
        write, ev = _evening(Variant.TEAMS, default_ruleset(Variant.TEAMS).n_hands)
        ev = evenings.end_evening(ev, early=False, expected_version=ev.version, request_id=rid("end"))
        snap = load_snapshot(_fresh(write, ev.public_id))
        out = svc.outlook_of(snap, _circle(write)).outlook
        assert out is not None and snap.result is not None
        winners = set(snap.result.winners)
        for side in out.sides:
            assert side.min == side.max == side.total
            if len(winners) == 1:
                assert side.win == (1.0 if side.side in winners else 0.0)
                assert side.decided == ("won" if side.side in winners else "lost")


def _circle_with_history(ended: int) -> tuple[str, Evening]:
    """A teams circle with ``ended`` whole evenings of the same four players, and a fresh one."""
    rs = default_ruleset(Variant.TEAMS)
    circle, write, _view = circles.create_circle("Runde")
    for i in range(ended):
        ev = evenings.start_evening(
            circle, ruleset=rs, player_names=list(NAMES), first_dealer=0, request_id=rid("start")
        )
        for _ in play_hands(ev, start_turn=i):
            pass
        evenings.end_evening(ev, early=False, expected_version=ev.version, request_id=rid("end"))
    ev = evenings.start_evening(
        circle, ruleset=rs, player_names=list(reversed(NAMES)), first_dealer=0, request_id=rid("start")
    )
    for _ in play_hands(ev, 3):
        pass
    return write, ev


def test_the_circles_hands_are_blended_in_and_read_with_a_constant_number_of_statements(app: Flask) -> None:
    counts = []
    with app.app_context():
        for ended in (1, 3):
            memory.forget()
            write, ev = _circle_with_history(ended)
            snap = load_snapshot(_fresh(write, ev.public_id))
            circle = _circle(write)
            with counted() as seen:
                got = svc.outlook_of(snap, circle)
            counts.append(len(seen))
            # tonight's seats hold the players in reverse: their history follows them
            record = memory.memory_of(circle)
            history, hands = seat_history(player_history(record.view, Variant.TEAMS), snap_seats(record, snap))
            assert got.history_hands == hands == ended * default_ruleset(Variant.TEAMS).n_hands
            want = evening_outlook(snap.slate, snap.public_id, snap.version, history=history)
            assert got.outlook == want
            assert got.outlook != evening_outlook(snap.slate, snap.public_id, snap.version)  # it made a difference
            assert _stored_rows(ev.id) == [(snap.version, hands)]
            # a second read uses the stored figures, history and all
            db.session.remove()
            assert svc.outlook_of(snap, _circle(write)) == got
    assert counts[0] == counts[1], counts


def snap_seats(record: memory.Memory, snap: Any) -> tuple[str, ...]:
    return next(ev.seats for ev in record.view.evenings if ev.id == snap.public_id)


def test_the_history_is_read_again_only_when_another_evening_changes(app: Flask) -> None:
    with app.app_context():
        memory.forget()
        svc.forget()
        write, ev = _circle_with_history(1)
        first = svc.outlook_of(load_snapshot(_fresh(write, ev.public_id)), _circle(write))
        # a new hand of this evening: its first read checks the circle with one statement, no reload
        ev = _fresh(write, ev.public_id)
        for _ in play_hands(ev, 1, start_turn=7):
            pass
        snap = load_snapshot(_fresh(write, ev.public_id))
        circle = _circle(write)
        with counted() as seen:
            newer = svc.outlook_of(snap, circle)
        reads = [s for s in seen if s.lstrip().upper().startswith("SELECT")]
        assert len(reads) == 2, reads  # the stored forecast (none yet) and the circle's fingerprint
        assert newer.history_hands == first.history_hands > 0
        # another evening of the circle ends: the next version reads the memory again
        rs = default_ruleset(Variant.TEAMS)
        other = evenings.start_evening(
            circle, ruleset=rs, player_names=list(NAMES), first_dealer=1, request_id=rid("start")
        )
        for _ in play_hands(other, start_turn=3):
            pass
        evenings.end_evening(other, early=False, expected_version=other.version, request_id=rid("end"))
        ev = _fresh(write, ev.public_id)
        for _ in play_hands(ev, 1, start_turn=8):
            pass
        snap = load_snapshot(_fresh(write, ev.public_id))
        with counted() as seen:
            latest = svc.outlook_of(snap, _circle(write))
        assert len(seen) > len(reads) + circle_record.STATEMENTS
        assert latest.history_hands == first.history_hands + rs.n_hands


def test_a_history_that_cannot_be_read_never_costs_the_outlook(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    with app.app_context():
        write, ev = _evening(Variant.THREE, 2)

        def broken(*_args: Any) -> None:
            raise ValueError("a broken record")

        monkeypatch.setattr(svc, "circle_history", broken)
        snap = load_snapshot(_fresh(write, ev.public_id))
        got = svc.outlook_of(snap, _circle(write))
        assert got.history_hands == 0
        assert got.outlook == evening_outlook(snap.slate, snap.public_id, snap.version)


def test_two_phones_reading_a_new_version_at_once_show_the_same_figures(app: Flask) -> None:
    with app.app_context():
        write, ev = _evening(Variant.SOLO4, 4)
        public_id, evening_id = ev.public_id, ev.id

    def read() -> EveningOutlook:
        return svc.outlook_of(load_snapshot(_fresh(write, public_id)), _circle(write))

    results = race(app, [read, read, read])
    assert not [r for r in results if isinstance(r, BaseException)], results
    assert results[0] == results[1] == results[2]
    with app.app_context():
        assert len(_stored_rows(evening_id)) == 1


def test_a_circle_without_an_ended_evening_reads_no_memory(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every table's first slate page simulates its evening's outlook: a circle that has not ended
    an evening yet has no history, known from one small statement (not the circle's whole memory)."""
    with app.app_context():
        write, ev = _evening(Variant.TEAMS, 2)
        snap = load_snapshot(_fresh(write, ev.public_id))
        svc.forget()

        def no(*_args: Any) -> Any:
            raise AssertionError("the memory was read")

        monkeypatch.setattr(memory, "memory_of", no)
        with counted() as seen:
            history = svc.circle_history(_circle(write), snap)
        assert history == ({}, 0) and len(seen) == 3, seen  # the circle, its fingerprint, "any ended?"
