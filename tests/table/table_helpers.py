"""Helpers for the digital table tests: an evening with a table, and a player for human seats."""

from __future__ import annotations

import itertools
import random

from scorekeeper.bots import choose_action
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.models import DigitalTable, Evening
from scorekeeper.services import circles, evenings
from scorekeeper.services import digital_table as tables

NAMES = ("Anna", "Beat", "Carla", "Dölf")
LEVEL = "easy"  # the computers' level in these tests: the bots' fastest (microseconds a move)
_ids = itertools.count(1)


def rid(prefix: str = "r") -> str:
    return f"{prefix}-{next(_ids)}"


def start(variant: Variant = Variant.TEAMS, first_dealer: int = 0) -> Evening:
    rs = default_ruleset(variant)
    circle, _w, _v = circles.create_circle("Runde")
    return evenings.start_evening(
        circle, ruleset=rs, player_names=list(NAMES[: rs.n_players]), first_dealer=first_dealer, request_id=rid("start")
    )


def human_move(table: DigitalTable, seat: int, rng: random.Random) -> tables.TableState:
    """The human in ``seat`` makes a random legal move, seen only through her view."""
    st = tables.load(table)
    view = st.view(seat)
    assert view is not None and view.my_turn
    action = rng.choice(view.legal_actions) if rng.random() < 0.5 else choose_action(view, st.ruleset, LEVEL)
    return tables.act(table, seat, action, expected_seq=st.seq)


def play_out(table: DigitalTable, rng: random.Random) -> tables.TableState:
    """Play the current hand to its end (human seats move randomly)."""
    st = tables.run_computers(table)
    while not st.hand_over:
        mover = st.to_move()
        assert mover is not None and mover not in st.computers
        st = human_move(table, mover, rng)
    return st
