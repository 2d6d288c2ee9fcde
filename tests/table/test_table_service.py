"""The digital table through the services: deal, act, computers, the slate, tokens, restarts."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from flask import Flask
from sqlalchemy import func, select
from table_helpers import LEVEL, human_move, play_out, start

from scorekeeper.engine import PASS, IllegalAction, IllegalCard
from scorekeeper.extensions import db
from scorekeeper.game.rulesets import Variant
from scorekeeper.models import EntryRow, Evening, TableAction
from scorekeeper.services import digital_table as tables
from scorekeeper.services import evenings
from scorekeeper.services import seats as seats
from scorekeeper.services.digital_table import StaleTable
from scorekeeper.services.errors import Forbidden
from scorekeeper.services.read.replay import ruleset_of


def _count(model: type) -> int:
    return int(db.session.execute(select(func.count()).select_from(model)).scalar_one())


@pytest.mark.parametrize("variant", list(Variant), ids=[v.value for v in Variant])
def test_four_computers_play_a_hand_onto_the_slate(app: Flask, variant: Variant) -> None:
    with app.app_context():
        ev = start(variant, first_dealer=1)
        n = ruleset_of(ev).n_players
        table = tables.open_table(ev, computers=range(n), level=LEVEL, rng=random.Random(7))
        st = tables.load(table)
        assert st.hand_over and st.hand is not None and st.hand.dealer == 1
        slate = evenings.load_slate(ev)
        assert len(slate.entries) == 1
        rows = list(db.session.execute(select(EntryRow).where(EntryRow.evening_id == ev.id)).scalars())
        assert [r.digital for r in rows] == [True]
        assert st.state is not None  # a hand in play
        assert slate.entries[0] == st.state.result().to_entry()
        # every action is stored, numbered 1, 2, 3... in order, and they replay to the same result
        stored = list(db.session.execute(select(TableAction).order_by(TableAction.id)).scalars())
        played = len(st.state.history)
        assert [a.seq for a in stored] == list(range(1, played + 1))
        assert [a.action for a in stored] == st.state.history
        assert all(a.computer for a in stored)
        # the next hand: dealt by the next dealer, with the slate's open rows
        st2 = tables.deal_next(table, rng=random.Random(8))
        assert st2.hand is not None and st2.hand.number == 2 and st2.hand.dealer == 2 % n
        assert len(evenings.load_slate(ev).entries) == 2


def test_open_table_uses_the_slate_and_is_idempotent(app: Flask) -> None:
    with app.app_context():
        ev = start(Variant.THREE, first_dealer=2)
        table = tables.open_table(ev, rng=random.Random(1))
        assert tables.open_table(ev).id == table.id  # a second tap: the same table
        st = tables.load(table)
        assert st.hand is not None and st.hand.dealer == 2 and st.seq == 0
        assert st.to_move() == 0  # forehand: the dealer's right
        view = st.view(0)
        assert view is not None and view.my_turn and PASS in view.legal_actions
        assert len(view.hand) == 12
        assert st.view(1).legal_actions == ()  # type: ignore[union-attr]  # a hand in play


def test_out_of_turn_illegal_and_stale_write_nothing(app: Flask) -> None:
    with app.app_context():
        ev = start(Variant.TEAMS)
        table = tables.open_table(ev, rng=random.Random(3))
        st = tables.load(table)
        mover = st.to_move()
        assert mover == 1
        other = (mover + 1) % 4
        with pytest.raises(IllegalAction) as err:
            tables.act(table, other, PASS, expected_seq=0)
        assert err.value.code == "not_your_turn"
        with pytest.raises(StaleTable):
            tables.act(table, mover, PASS, expected_seq=5)
        assert _count(TableAction) == 0 and tables.load(table).table.version == 0
        # choose a contract, then try a card the seat does not follow with
        view = st.view(mover)
        assert view is not None  # a hand in play
        announce = next(a for a in view.legal_actions if a >= 64)
        st = tables.act(table, mover, announce, expected_seq=0)
        leader = st.to_move()
        assert leader is not None  # a hand in play: someone moves
        led = st.view(leader)
        assert led is not None  # a hand in play
        lead = led.hand[0]
        st = tables.act(table, leader, int(lead), expected_seq=1)
        nxt = st.to_move()
        assert nxt is not None  # a hand in play: someone moves
        v = st.view(nxt)
        assert v is not None  # a hand in play
        illegal = [int(c) for c in v.hand if int(c) not in v.legal_actions]
        if illegal:
            with pytest.raises(IllegalCard):
                tables.act(table, nxt, illegal[0], expected_seq=2)
        with pytest.raises(IllegalCard) as not_held:
            tables.act(table, nxt, int(lead), expected_seq=2)
        assert not_held.value.code == "card_not_in_hand"
        assert _count(TableAction) == 2


def test_seat_tokens_hashed_handed_over_and_computer(app: Flask) -> None:
    with app.app_context():
        ev = start(Variant.THREE)
        table = tables.open_table(ev, rng=random.Random(4))
        token = seats.issue_seat_token(table, 1)
        assert len(token) >= 43
        assert seats.seat_of_token(table, token) == 1
        assert all(r.token_hash != token for r in seats.seats(table))  # only the hash is stored
        new = seats.issue_seat_token(table, 1)
        with pytest.raises(Forbidden):
            seats.seat_of_token(table, token)  # the old phone is shut out
        assert seats.table_of_token(new)[1] == 1
        with pytest.raises(Forbidden):
            seats.seat_of_token(table, "x" * 43)
        seats.set_computer(table, 1, LEVEL)
        with pytest.raises(Forbidden):
            seats.seat_of_token(table, new)
        assert seats.computer_seats(table) == {1}


def test_a_seat_given_to_a_computer_plays_at_once(app: Flask) -> None:
    with app.app_context():
        ev = start(Variant.TEAMS)
        table = tables.open_table(ev, rng=random.Random(5))
        assert tables.load(table).to_move() == 1
        seats.set_computer(table, 1, LEVEL)
        st = tables.run_computers(table)  # what the next poll does
        assert st.seq >= 1 and st.to_move() != 1


def test_restart_in_the_middle_of_a_hand(app: Flask, db_url: str, app_factory: Callable[..., Flask]) -> None:
    rng = random.Random(11)
    with app.app_context():
        ev = start(Variant.TEAMS)
        table = tables.open_table(ev, computers=(1, 3), level=LEVEL, rng=random.Random(6))
        public_id, evening_id = table.public_id, ev.id
        for _ in range(9):
            st = tables.load(table)
            if st.hand_over:
                break
            st = human_move(table, st.to_move(), rng)  # type: ignore[arg-type]  # a hand in play: someone moves
        before = tables.load(table)
        assert before.state is not None  # a hand in play
        history = list(before.state.history)
        assert 0 < len(history) and not before.hand_over
    # a new app instance (another process, after a restart) on the same database
    other = app_factory(db_url)
    with other.app_context():
        table2 = tables.get_table(public_id)
        st = tables.load(table2)
        assert st.state is not None  # a hand in play
        assert list(st.state.history) == history
        st = play_out(table2, rng)
        assert st.hand_over
        ev2 = db.session.get_one(Evening, evening_id)
        assert len(evenings.load_slate(ev2).entries) == 1


def test_close_table_back_to_real_cards(app: Flask) -> None:
    with app.app_context():
        ev = start(Variant.THREE)
        table = tables.open_table(ev, rng=random.Random(9))
        tables.close_table(table)
        assert tables.open_table_of(ev) is None
        with pytest.raises(Exception) as err:
            tables.act(table, 0, PASS, expected_seq=0)
        assert getattr(err.value, "code", "") == "table_closed"
        again = tables.open_table(ev, rng=random.Random(10))
        assert again.id != table.id


@pytest.mark.parametrize("variant", list(Variant), ids=[v.value for v in Variant])
def test_whole_evening_one_human_three_computers(app: Flask, variant: Variant) -> None:
    rng = random.Random(hash(variant.value) & 0xFFFF)
    with app.app_context():
        ev = start(variant)
        n = ruleset_of(ev).n_players
        table = tables.open_table(ev, computers=range(1, n), level=LEVEL, rng=rng)
        hands = 0
        while True:
            st = play_out(table, rng)
            hands += 1
            if evenings.load_slate(ev).complete:
                break
            tables.deal_next(table, rng=rng)
        slate = evenings.load_slate(ev)
        assert slate.complete and len(slate.entries) == hands
        rows = list(db.session.execute(select(EntryRow).where(EntryRow.evening_id == ev.id)).scalars())
        assert all(r.digital for r in rows)
        with pytest.raises(Exception) as err:
            tables.deal_next(table)
        # the last hand ended the evening (a full slate is over), unless a tie still waits for its cut
        _cuts, pending = evenings.cuts_and_pending(ev)
        assert ev.is_open == bool(pending)
        assert getattr(err.value, "code", "") == ("evening_complete" if pending else "evening_ended")
        assert st.hand_over
