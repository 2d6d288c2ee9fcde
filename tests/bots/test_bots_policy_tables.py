"""The rule-based policy's lookup tables (issue 25 part 2, a cheaper policy for more
playouts) pick what the rules say, written out plainly here: the strongest card of
a mask, the low discard, the smear and the low lead."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.bots.policy import OWN, _lead, _low, _smear, masters, top_strength
from scorekeeper.engine.bitmasks import N_MODES, POINTS, STRENGTH, SUIT_MASK, card_ints

MASKS = st.integers(0, (1 << 36) - 1)
MODES = st.integers(0, N_MODES - 1)
VALUATIONS = st.sampled_from(sorted(POINTS))


def plain_low(cs: tuple[int, ...], mid: int, unplayed: int, points: tuple[int, ...]) -> int:
    """Fewest points, then weakest; a trump counts 25 points more (unless every card is
    one), a master card 15 more; the first such card."""
    top = masters(mid, unplayed)
    all_trumps = mid < 4 and all(c // 9 == mid for c in cs)

    def key(c: int) -> tuple[int, int]:
        p = points[c]
        if mid < 4 and c // 9 == mid and not all_trumps:
            p += 25
        if top >> c & 1:
            p += 15
        return p, OWN[mid][c]

    return min(cs, key=key)


def plain_smear(cs: tuple[int, ...], mid: int, unplayed: int, points: tuple[int, ...]) -> int:
    """Most points (a master card 15 less), then the weakest; trumps last, the lowest first."""
    top = masters(mid, unplayed)

    def key(c: int) -> tuple[int, int]:
        if mid < 4 and c // 9 == mid:
            return -200 - OWN[mid][c], 0
        return points[c] - (15 if top >> c & 1 else 0), -OWN[mid][c]

    return max(cs, key=key)


@given(k=st.integers(0, 4 * N_MODES - 1), m=MASKS)
def test_top_strength_is_the_strongest_card_of_the_mask(k: int, m: int) -> None:
    assert top_strength(k, m) == max((STRENGTH[k][c] for c in card_ints(m)), default=0)


@given(mid=MODES, val=VALUATIONS, hand=MASKS.filter(bool), unplayed=MASKS)
def test_low_and_smear_pick_as_the_rules_say(mid: int, val: int, hand: int, unplayed: int) -> None:
    cs = card_ints(hand)
    unplayed |= hand
    assert _low(cs, mid, unplayed, POINTS[val]) == plain_low(cs, mid, unplayed, POINTS[val])
    assert _smear(cs, mid, unplayed, POINTS[val]) == plain_smear(cs, mid, unplayed, POINTS[val])
    # a copy of the points table (not the engine's own tuple) picks the same
    assert _low(cs, mid, unplayed, list(POINTS[val])) == plain_low(cs, mid, unplayed, POINTS[val])


@given(mid=st.sampled_from([4, 5, 6, 7]), val=VALUATIONS, hand=MASKS.filter(bool), unplayed=MASKS)
def test_a_low_lead_is_few_points_then_the_long_suit_then_weak(mid: int, val: int, hand: int, unplayed: int) -> None:
    # without a trump and with no master card in the hand the lead is the low lead
    unplayed |= hand
    hand &= ~masters(mid, unplayed)
    if not hand:
        return
    cs = card_ints(hand)
    pts = POINTS[val]
    want = min(cs, key=lambda c: (pts[c], -(hand & SUIT_MASK[c // 9]).bit_count(), OWN[mid][c]))
    assert _lead(hand, cs, mid, unplayed, False, False, pts) == want
