"""The search's exact endgame (double-dummy values by alpha-beta), its merging of
cards that play alike, and its stopping rule with weighted samples."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from shared_helpers import SOAK, any_ruleset, deck_for

from scorekeeper.bots.knowledge import MATCH_BONUS, Knowledge
from scorekeeper.bots.search import distinct_cards, exact_values, settled
from scorekeeper.engine import HandSetup, HandState, announce_action
from scorekeeper.engine.bitmasks import LAST_TRICK_BONUS, POINTS, card_ints
from scorekeeper.engine.rules import legal_in_trick, trick_status
from scorekeeper.game.cards import Suit, parse_cards
from scorekeeper.game.contracts import OBENABE, suit_contract

EXAMPLES = 300 if SOAK else 40


def minimax(
    hands: list[int],
    leader: int,
    modes: tuple[int, ...],
    pts: tuple[int, ...],
    trick: list[int],
    teams: tuple[int, ...],
    me: int,
    allwin: bool,
) -> int:
    """Plain minimax, no pruning, on the engine's rules: the reference."""
    n = len(hands)
    seat = (leader + len(trick)) % n
    mid = modes[0]
    vals = []
    for c in card_ints(legal_in_trick(hands[seat], mid, trick)):
        hands[seat] ^= 1 << c
        t2 = [*trick, c]
        if len(t2) == n:
            w = (leader + trick_status(mid, t2)[1]) % n
            mine = teams[w] == teams[me]
            last = len(modes) == 1
            gain = sum(pts[x] for x in t2) + (LAST_TRICK_BONUS if last else 0) if mine else 0
            if last:
                v = gain + (MATCH_BONUS if allwin and mine else 0)
            else:
                v = gain + minimax(hands, w, modes[1:], pts, [], teams, me, allwin and mine)
        else:
            v = minimax(hands, leader, modes, pts, t2, teams, me, allwin)
        hands[seat] ^= 1 << c
        vals.append(v)
    return max(vals) if teams[seat] == teams[me] else min(vals)


@settings(max_examples=EXAMPLES, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.sampled_from([3, 4]), tricks=st.integers(1, 3), mid=st.integers(0, 7))
def test_exact_values_are_the_minimax_values(seed: int, n: int, tricks: int, mid: int) -> None:
    rng = random.Random(seed)
    deck = list(range(36))
    rng.shuffle(deck)
    hands = [0] * n
    for i in range(n * tricks):
        hands[i % n] |= 1 << deck[i]
    val = 8 + mid if mid < 4 else (13 if mid == 5 else 12)
    pts = POINTS[val]
    modes = (mid,) * tricks
    leader = rng.randrange(n)
    trick: list[int] = []
    for j in range(rng.randrange(n)):
        s = (leader + j) % n
        c = rng.choice(card_ints(legal_in_trick(hands[s], mid, trick)))
        hands[s] ^= 1 << c
        trick.append(c)
    seat = (leader + len(trick)) % n
    teams = tuple(s % 2 for s in range(n)) if n == 4 else tuple(0 if s == seat else 1 for s in range(n))
    allwin = rng.random() < 0.5
    got = exact_values(list(hands), leader, modes, pts, tuple(trick), teams, seat, allwin)
    legal = card_ints(legal_in_trick(hands[seat], mid, trick))
    assert sorted(got) == list(legal)
    for c in legal:
        h = list(hands)
        h[seat] ^= 1 << c
        t2 = [*trick, c]
        if len(t2) == n:
            w = (leader + trick_status(mid, t2)[1]) % n
            mine = teams[w] == teams[seat]
            last = tricks == 1
            gain = sum(pts[x] for x in t2) + (LAST_TRICK_BONUS if last else 0) if mine else 0
            if last:
                want = gain + (MATCH_BONUS if allwin and mine else 0)
            else:
                want = gain + minimax(h, w, modes[1:], pts, [], teams, seat, allwin and mine)
        else:
            want = minimax(h, leader, modes, pts, t2, teams, seat, allwin)
        assert got[c] == want, (c, got, want)


def test_exact_last_trick_counts_points_the_five_and_the_match() -> None:
    # Obenabe, one card each; seat 0 leads the ace of spades and wins
    c = [int(x) for x in parse_cards("SA S6 H6 HK")]
    hands = [1 << x for x in c]
    pts = POINTS[12]
    got = exact_values(hands, 0, (4,), pts, (), (0, 1, 0, 1), 0, True)
    assert got == {c[0]: 11 + 0 + 0 + 4 + LAST_TRICK_BONUS + MATCH_BONUS}
    got = exact_values(hands, 0, (4,), pts, (), (0, 1, 0, 1), 0, False)
    assert got == {c[0]: 11 + 4 + LAST_TRICK_BONUS}


def test_cards_that_play_alike_are_merged() -> None:
    rs = any_ruleset(4, teams=True)
    # seat 0 holds the six and seven of clubs (no points with hearts trump): they play
    # alike; the six and eight of diamonds with the seven out do not
    hands = {
        0: "C6 C7 D6 D8 H6 H7 S6 S7 S8",
        1: "C8 C9 D7 D9 H8 H9 S9 SJ SQ",
        2: "CJ CQ DJ DQ HJ HQ SK SA S10",
        3: "CK CA C10 DK DA D10 HK HA H10",
    }
    state = HandState(HandSetup(rs, 3), deck_for(hands, 4, dealer=3))
    state.apply(announce_action(rs, "any", suit_contract(Suit.HEARTS)))
    view = state.observation(0)
    k = Knowledge.from_view(view, rs)
    legal = [a for a in view.legal_actions if a < 36]
    same = distinct_cards(legal, k, view)
    idx = {int(c): legal.index(int(c)) for c in parse_cards("C6 C7 D6 D8 S6 S7 S8")}
    c6, c7, d6, d8 = (int(c) for c in parse_cards("C6 C7 D6 D8"))
    assert same[idx[c7]] == idx[c6]
    assert same[idx[d8]] == idx[d8]
    assert same[idx[d6]] == idx[d6]
    for i, j in enumerate(same):
        assert j <= i and same[j] == j
    # Obenabe counts the eight: the six and seven still merge, six/seven/eight of spades do not all
    state = HandState(HandSetup(rs, 3), deck_for(hands, 4, dealer=3))
    state.apply(announce_action(rs, "any", OBENABE))
    view = state.observation(0)
    same = distinct_cards(legal, Knowledge.from_view(view, rs), view)
    s7, s8 = (int(c) for c in parse_cards("S7 S8"))
    assert same[idx[s8]] == idx[s8]
    assert same[idx[s7]] == idx[int(parse_cards("S6")[0])]


def test_settled_with_equal_weights_is_the_unweighted_rule() -> None:
    rng = random.Random(3)
    for _ in range(50):
        n = rng.randrange(8, 40)
        vals = [[rng.gauss(mu, 10) for _ in range(n)] for mu in (60, 60 + rng.uniform(0, 15), 50)]
        assert settled(vals) == settled(vals, weights=[2.5] * n)


def test_settled_weights_count() -> None:
    # card 0 is far ahead on the heavy samples, behind on the light ones
    a = [100.0] * 20 + [0.0] * 20
    b = [0.0] * 20 + [100.0] * 20
    heavy = [1.0] * 20 + [0.001] * 20
    assert not settled([a, b])
    assert settled([a, b], weights=heavy)
