"""The computer players at the digital table are ``scorekeeper.bots``, called directly. A bot
that raises, or answers an action that is not legal, is logged with the table and the seat;
its seat is marked failed and the hand waits (nothing is played for it, nothing is hidden);
the organiser's page, the seat pages and the API say so; giving the seat to the computer
again retries, a new seat link hands it to a phone."""

from __future__ import annotations

import logging
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from table_helpers import LEVEL, csrf, human_move, start, start_evening

from scorekeeper import bots
from scorekeeper.engine import SeatView
from scorekeeper.game.rulesets import RuleSet, Variant
from scorekeeper.services import digital_table as tables
from scorekeeper.services import evenings
from scorekeeper.services import seats as seats_svc
from scorekeeper.services.read.snapshot import load_snapshot

FAILING = 2  # the seat whose computer breaks


def _breaking(answer: Callable[[SeatView], int] | None = None) -> Callable[..., int]:
    """The bots' entry point, except for seat FAILING: it raises (or gives ``answer``'s action)."""

    def choose(view: SeatView, ruleset: RuleSet, level: str, scores: Any = None) -> int:
        if view.seat == FAILING:
            if answer is None:
                raise ZeroDivisionError("a bug in a bot")
            return answer(view)
        return bots.choose_action(view, ruleset, level, scores=scores)

    return choose


def _waiting_table(monkeypatch: pytest.MonkeyPatch, answer: Callable[[SeatView], int] | None = None) -> Any:
    """A team table of four computers whose seat FAILING breaks; returns (table, state)."""
    monkeypatch.setattr(tables, "choose_action", _breaking(answer))
    ev = start(Variant.TEAMS)
    table = tables.open_table(ev, computers=range(4), level=LEVEL, rng=random.Random(5))
    return ev, table, tables.load(table)


def test_a_failing_computer_is_logged_and_the_hand_waits_for_it(
    app: Flask, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    with app.app_context(), caplog.at_level(logging.ERROR, logger="scorekeeper.services.digital_table"):
        ev, table, st = _waiting_table(monkeypatch)
        assert st.failed == {FAILING} and st.to_move() == FAILING and not st.hand_over
        records = [r for r in caplog.records if "computer player failed" in r.getMessage()]
        assert len(records) == 1 and records[0].exc_info is not None  # the bot's traceback is in the log
        message = records[0].getMessage()
        assert f"table {table.public_id}" in message and f"seat {FAILING}" in message and LEVEL in message
        assert evenings.load_slate(ev).entries == ()  # nothing played for the broken seat
        # the next polls do not try again (and log nothing more): the hand waits
        again = tables.run_computers(table)
        assert again.seq == st.seq and again.table.version == st.table.version and len(caplog.records) == 1


def test_an_illegal_answer_is_a_failure_too(
    app: Flask, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    with app.app_context(), caplog.at_level(logging.ERROR, logger="scorekeeper.services.digital_table"):
        _ev, table, st = _waiting_table(monkeypatch, answer=lambda view: max(view.legal_actions) + 1000)
        assert st.failed == {FAILING} and st.to_move() == FAILING
        assert any("illegal action" in r.getMessage() and f"seat {FAILING}" in r.getMessage() for r in caplog.records)


def test_giving_the_seat_to_the_computer_again_retries(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    with app.app_context():
        ev, table, st = _waiting_table(monkeypatch)
        version = st.table.version
        monkeypatch.setattr(tables, "choose_action", bots.choose_action)  # the bug is fixed
        seats_svc.set_computer(table, FAILING, LEVEL)
        after = tables.run_computers(table)
        assert after.failed == frozenset() and after.hand_over and after.table.version > version
        assert len(evenings.load_slate(ev).entries) == 1


def test_a_phone_can_take_the_failed_seat_over(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    with app.app_context():
        ev, table, _st = _waiting_table(monkeypatch)
        token = seats_svc.issue_seat_token(table, FAILING)
        st = tables.load(table)
        assert FAILING not in st.computers and st.failed == frozenset()
        assert seats_svc.seat_of_token(table, token) == FAILING
        rng = random.Random(3)
        while not st.hand_over:
            assert st.to_move() == FAILING  # the computers play on between the phone's moves
            st = human_move(table, FAILING, rng)
        assert len(evenings.load_slate(ev).entries) == 1


def test_computer_seats_need_a_level(app: Flask) -> None:
    with app.app_context():
        with pytest.raises(ValueError):
            tables.open_table(start(Variant.THREE), computers=(1,))


def test_the_pages_and_the_api_say_which_computer_failed(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    app.config["WTF_CSRF_ENABLED"] = True
    monkeypatch.setattr(tables, "choose_action", _breaking())
    write, evening_id = start_evening(app, Variant.TEAMS)
    admin = app.test_client()
    slate = admin.get(f"/c/{write}/e/{evening_id}").get_data(as_text=True)
    # seat 0 a phone, the others computers: the computers' turns come, seat FAILING breaks
    r = admin.post(
        f"/c/{write}/e/{evening_id}/table/open", data={"csrf_token": csrf(slate), "computer": ["1", "2", "3"]}
    )
    assert r.status_code == 302
    with app.app_context():
        table = tables.open_table_of(evenings.get_evening(_circle(write), evening_id))
        assert table is not None
        st = tables.load(table)
        rng = random.Random(8)
        while not st.failed:  # the phone in seat 0 plays until seat FAILING's computer is asked
            assert st.to_move() == 0
            st = human_move(table, 0, rng)
        token = seats_svc.issue_seat_token(table, 0)
        table_id = table.public_id
    manage = admin.get(f"/c/{write}/e/{evening_id}/table").get_data(as_text=True)
    assert f'data-computer-failed="{FAILING}"' in manage and "could not move: the hand waits" in manage
    assert re.search(r'name="level" value="easy" class="small" data-retry>Try again<', manage)
    phone = app.test_client()
    r = phone.get(f"/s/{token}")
    seat_page = phone.get(r.headers["Location"]).get_data(as_text=True)
    assert f'data-computer-failed="{FAILING}"' in seat_page and "the hand waits for the organiser" in seat_page
    auth = {"Authorization": f"Bearer {write}"}
    seats_json = admin.get(f"/api/v1/evenings/{evening_id}/table", headers=auth).get_json()["table"]["seats"]
    assert [s["failed"] for s in seats_json] == [s == FAILING for s in range(4)]
    state = phone.get(f"/api/v1/tables/{table_id}/seat", headers={"X-Seat-Token": token}).get_json()
    assert state["failed_computers"] == [FAILING]
    # the organiser retries (the bug fixed meanwhile): the hand goes on
    monkeypatch.setattr(tables, "choose_action", bots.choose_action)
    r = admin.post(
        f"/c/{write}/e/{evening_id}/table/computer",
        data={"csrf_token": csrf(manage), "seat": FAILING, "level": "easy"},
    )
    assert r.status_code == 302
    manage = admin.get(f"/c/{write}/e/{evening_id}/table").get_data(as_text=True)
    assert "data-computer-failed" not in manage


def test_a_hand_is_in_play_exactly_while_its_state_is_not_over(app: Flask) -> None:
    """The slate reads "a hand is dealt digitally" without replaying the hand: it agrees with
    the replayed state after every move, at the end of the hand and after the next deal."""
    with app.app_context():
        ev = start(Variant.THREE)
        table = tables.open_table(ev, computers=(2,), level=LEVEL, rng=random.Random(4))
        rng = random.Random(6)
        st = tables.load(table)
        while True:
            assert load_snapshot(ev).hand_in_play == (not st.hand_over)
            if st.hand_over:
                break
            st = human_move(table, st.to_move(), rng)  # type: ignore[arg-type]  # a hand in play: someone moves
        snap = load_snapshot(ev)
        assert snap.table_open and not snap.hand_in_play and len(snap.slate.entries) == 1
        tables.deal_next(table, rng=random.Random(7))
        assert load_snapshot(ev).hand_in_play
        tables.close_table(table)
        snap = load_snapshot(ev)
        assert not snap.table_open and not snap.hand_in_play


def _circle(write: str) -> Any:
    from scorekeeper.services import circles

    return circles.open_circle(write)[0]
