"""Helpers of the bots' tests: full hands played by choosers, and seeded states.
(Rule sets and rigged deals: ``shared_helpers``.)"""

from __future__ import annotations

import random
from collections.abc import Callable

from scorekeeper.engine import HandSetup, HandState, SeatView
from scorekeeper.game.rulesets import RuleSet


def play_out(
    state: HandState, choose: Callable[[SeatView], int], check: Callable[[HandState, SeatView, int], None] | None = None
) -> HandState:
    """Play to the end: every seat asks ``choose`` with its own view."""
    while not state.is_terminal():
        seat = state.current_player()
        view = state.observation(seat)
        action = choose(view)
        assert action in view.legal_actions, (action, view.legal_actions)
        if check is not None:
            check(state, view, action)
        state.apply(action, seat=seat)
    return state


def new_state(rs: RuleSet, seed: int, dealer: int = 0, open_rows: tuple[tuple[str, ...], ...] = ()) -> HandState:
    return HandState.new(HandSetup(rs, dealer, open_rows), random.Random(seed))
