"""Helpers for the bots' tests: rigged deals, any-contract rule sets, full hands."""

from __future__ import annotations

import os
import random
from collections.abc import Callable

from scorekeeper.engine import HandSetup, HandState, SeatView
from scorekeeper.engine.actions import CONTRACTS
from scorekeeper.game.cards import parse_cards
from scorekeeper.game.contracts import Contract, Kind
from scorekeeper.game.rulesets import BarrelRule, Row, RuleSet, Variant

SOAK = os.environ.get("SCOREKEEPER_SOAK") == "1"
ANY_ROW = Row("any", tuple(Kind), 1)


def any_ruleset(n_players: int, teams: bool = False) -> RuleSet:
    """One row playable as any contract."""
    variant = Variant.THREE if n_players == 3 else (Variant.TEAMS if teams else Variant.SOLO4)
    return RuleSet(variant=variant, rows=(ANY_ROW,), barrel=BarrelRule.BOOK)


def contracts_for(n_players: int) -> list[Contract]:
    return [c for c in CONTRACTS if not (c.kind is Kind.GUSTAV and n_players == 4)]


def deck_for(hands: dict[int, str], n_players: int, dealer: int = 0, seed: int = 0) -> list[int]:
    """A deck that deals the given (partial) hands to the given seats; the rest at random."""
    per = 36 // n_players
    wanted = {s: [int(c) for c in parse_cards(t)] for s, t in hands.items()}
    used = {c for cs in wanted.values() for c in cs}
    rest = [c for c in range(36) if c not in used]
    random.Random(seed).shuffle(rest)
    full = {}
    for s in range(n_players):
        cs = list(wanted.get(s, []))
        while len(cs) < per:
            cs.append(rest.pop())
        full[s] = cs
    first = (dealer + 1) % n_players
    taken = dict.fromkeys(range(n_players), 0)
    deck = []
    for i in range(36):
        s = (first + i // 3) % n_players
        deck.append(full[s][taken[s]])
        taken[s] += 1
    return deck


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
