"""The search's tight playout (``fastplay.greedy_playout``) plays the rule-based
policy: the same result as the general playout with ``eps = 0`` on random
positions of every mode, and the same hand as the full engine played card by
card with the policy (every card legal there, the same points and tricks)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from shared_helpers import SOAK, any_ruleset, contracts_for

from scorekeeper.bots.fastplay import greedy_playout
from scorekeeper.bots.knowledge import teams_of
from scorekeeper.bots.playout import policy_playout
from scorekeeper.bots.policy import choose_card
from scorekeeper.engine import HandSetup, HandState, announce_action
from scorekeeper.engine.bitmasks import LAST_TRICK_BONUS, POINTS, VALUATIONS, card_ints
from scorekeeper.engine.deal import shuffle_deck
from scorekeeper.engine.fast import Playout
from scorekeeper.engine.rules import legal_in_trick

EXAMPLES = 500 if SOAK else 80


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.sampled_from([3, 4]),
    mid=st.integers(0, 7),
    mixed=st.booleans(),
    val=st.sampled_from(VALUATIONS),
)
def test_greedy_playout_is_the_policy_playout(seed: int, n: int, mid: int, mixed: bool, val: int) -> None:
    """Any position (a trick begun or not, modes changing from trick to trick as in
    Komisch, any valuation): the same points and tricks per seat."""
    rng = random.Random(seed)
    per = 36 // n
    deck = list(range(36))
    rng.shuffle(deck)
    left = rng.randint(1, per)
    hands = [0] * n
    for s in range(n):
        for c in deck[s * per : s * per + left]:
            hands[s] |= 1 << c
    modes = tuple(rng.randrange(8) if mixed else mid for _ in range(left))
    leader = rng.randrange(n)
    trick: list[int] = []
    for j in range(rng.randrange(n)):
        s = (leader + j) % n
        c = rng.choice(card_ints(legal_in_trick(hands[s], modes[0], trick)))
        hands[s] ^= 1 << c
        trick.append(c)
    teams = tuple(s % 2 for s in range(n)) if n == 4 else tuple(0 if s == leader else 1 for s in range(n))
    declaring = rng.randrange(2)
    pts = POINTS[val]
    got = greedy_playout(hands, leader, modes, pts, tuple(trick), teams, declaring)
    want = policy_playout(hands, leader, modes, pts, tuple(trick), teams, rng.random, 0.0, False, declaring)
    assert got == want
    assert sum(got[1]) == left
    assert sum(got[0]) == sum(pts[c] for h in hands for c in card_ints(h)) + sum(pts[c] for c in trick) + 5


@settings(max_examples=EXAMPLES // 2, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.sampled_from([3, 4]), cut=st.integers(0, 30))
def test_greedy_playout_is_the_engines_hand_with_the_policy(seed: int, n: int, cut: int) -> None:
    """A real hand (every contract but Komisch and the Misère ones): from any point,
    the engine played card by card with the policy on every seat (each card legal by
    ``HandState``) ends with the points and tricks the tight loop gives."""
    rs = any_ruleset(n, teams=n == 4)
    rng = random.Random(seed)
    contracts = [c for c in contracts_for(n) if c.schedule(rs.n_tricks) is not None and not c.is_misere]
    state = HandState(HandSetup(rs, rng.randrange(n)), shuffle_deck(rng))
    state.apply(announce_action(rs, "any", rng.choice(contracts)))
    assert state.declarer is not None
    teams = teams_of(rs, state.declarer)
    declaring = teams[state.declarer]

    def policy_move() -> int:
        seat = state.current_player()
        legal = 0
        for a in state.legal_actions():
            legal |= 1 << a
        unplayed = 0
        for h in state.hands:
            unplayed |= h
        mid = state.modes[state.trick_no]
        return choose_card(
            state.hands[seat], legal, state.trick, seat, mid, unplayed, teams, state.points_table, False, declaring
        )

    for _ in range(min(cut, rs.n_tricks * n - 1)):
        state.apply(policy_move())
    game = Playout.of(state)
    before_pts = list(state.points)
    before_won = list(state.won)
    pts, won = greedy_playout(game.hands, game.leader, game.modes, game.points, tuple(game.trick), teams, declaring)
    while not state.is_terminal():
        state.apply(policy_move())  # HandState refuses an illegal card
    assert [b + p for b, p in zip(before_pts, pts, strict=True)] == list(state.points)
    assert [b + w for b, w in zip(before_won, won, strict=True)] == list(state.won)
    assert sum(state.points) == 157 and max(pts) >= LAST_TRICK_BONUS
