"""The rule-based card choice, on bitmasks: the easy bot's play and the default
policy of the search bot's playouts.

It looks only at public facts and the mover's own hand: the cards still out
(``unplayed``, every card not yet played, the mover's included), the trick so
far, the teams and the trick mode. Rules of thumb a Jass player follows:

- Leading: the declaring team draws trumps while it holds the top trump or
  three trumps; anyone cashes a suit's master card (the highest still out);
  otherwise a low card from a long suit.
- Partner winning: smear points on the trick when it is safe (the partner's
  card can no longer be beaten, or the mover is last); if it may be beaten,
  make it safe with a master card; else play low.
- Opponent winning: last to play, take the trick with the cheapest winning
  card when it is worth what the card costs (a trump spent on another suit);
  not last, win with a card nobody can beat (a master of the led suit counts,
  although it might be trumped), or trump a trick worth 10 with a small trump
  or the trump ace; otherwise discard low (no trumps, no master cards, few
  points).
- Misère (``avoid``): every side dodges points: lead weak cards, duck under
  the winning card, dump points on the other team's tricks.

The thresholds were set by duplicate matches of variants against each other
(thousands of deal pairs each, four suits, Obenabe and Undenufe).
"""

from __future__ import annotations

from collections.abc import Sequence

from scorekeeper.engine.bitmasks import N_MODES, STRENGTH, SUIT_MASK
from scorekeeper.engine.bitmasks import card_ints as cards

Points = Sequence[int]  # card points by card


def _order(k: int, led_only: bool) -> tuple[int, ...]:
    st = STRENGTH[k]
    led = k & 3
    cs = [c for c in range(36) if st[c] > 0 and (not led_only or c // 9 == led)]
    return tuple(sorted(cs, key=lambda c: -st[c]))


# ORDER[k]: cards that can win a trick of key k (mode * 4 + led suit), strongest first.
ORDER: tuple[tuple[int, ...], ...] = tuple(_order(k, False) for k in range(N_MODES * 4))
# SUIT_ORDER[k]: the led suit's cards only, strongest first.
SUIT_ORDER: tuple[tuple[int, ...], ...] = tuple(_order(k, True) for k in range(N_MODES * 4))
# Cost of spending a trump to win a trick led in another suit, by rank (6..A).
_TRUMP_COST = (0, 1, 2, 16, 5, 20, 5, 5, 9)


# OWN[mid][c]: a card's strength in a trick of its own suit (its rank in the mode).
OWN: tuple[tuple[int, ...], ...] = tuple(tuple(STRENGTH[m * 4 + c // 9][c] for c in range(36)) for m in range(N_MODES))
# COST[mode * 4 + led][c]: what winning with ``c`` gives away (a trump spent on another suit's trick).
COST: tuple[tuple[int, ...], ...] = tuple(
    tuple(_TRUMP_COST[c % 9] if (k >> 2) < 4 and c // 9 == k >> 2 and (k & 3) != k >> 2 else 0 for c in range(36))
    for k in range(N_MODES * 4)
)


def _master_bits(k: int) -> tuple[int, ...]:
    """For a 9-bit slice of the cards still out in suit ``k & 3``: the bit of its
    highest card under mode ``k >> 2`` (0 for an empty slice)."""
    suit = k & 3
    out = []
    for m in range(512):
        bit = 0
        for x in SUIT_ORDER[k]:
            if m >> (x - 9 * suit) & 1:
                bit = 1 << x
                break
        out.append(bit)
    return tuple(out)


# MASTER_BITS[mode * 4 + suit][slice]: see ``_master_bits``.
MASTER_BITS: tuple[tuple[int, ...], ...] = tuple(_master_bits(k) for k in range(N_MODES * 4))


def masters(mid: int, unplayed: int) -> int:
    """Mask of the master cards: the highest card still out in every suit."""
    k = mid * 4
    return (
        MASTER_BITS[k][unplayed & 511]
        | MASTER_BITS[k + 1][unplayed >> 9 & 511]
        | MASTER_BITS[k + 2][unplayed >> 18 & 511]
        | MASTER_BITS[k + 3][unplayed >> 27 & 511]
    )


def top_strength(k: int, m: int) -> int:
    """The highest strength, in a trick of key ``k``, of the cards in ``m`` (0 if none)."""
    st = STRENGTH[k]
    for c in ORDER[k]:
        if m >> c & 1:
            return st[c]
    return 0


def choose_card(
    hand: int,
    legal: int,
    trick: tuple[int, ...] | list[int],
    seat: int,
    mid: int,
    unplayed: int,
    teams: tuple[int, ...] | list[int],
    points: Points,
    avoid: bool,
    declaring_team: int,
) -> int:
    """The card to play (see the module doc). ``legal`` must be non-empty. (In the
    last trick every mover holds one card, which the first line plays.)"""
    cs = cards(legal)
    if len(cs) == 1:
        return cs[0]
    if not trick:
        return _lead(hand, cs, mid, unplayed, avoid, teams[seat] == declaring_team, points)
    n = len(teams)
    led = trick[0] // 9
    k = mid * 4 + led
    st = STRENGTH[k]
    best = -1
    win = 0
    tp = 0
    for i, c in enumerate(trick):
        tp += points[c]
        if st[c] > best:
            best = st[c]
            win = i
    friend = teams[(seat - len(trick) + win) % n] == teams[seat]  # the seat of the winning card
    last = len(trick) == n - 1
    if avoid:
        return _duck(cs, st, best, friend, last, mid, points)
    out = unplayed & ~hand
    if friend:
        top_out = top_strength(k, out)
        if last or best > top_out:
            return _smear(cs, mid, unplayed, points)
        cost = COST[k]
        sure = [c for c in cs if st[c] > top_out and cost[c] == 0]
        if sure:  # the partner's card may be beaten: make the trick safe
            return max(sure, key=lambda c: points[c])
        return _low(cs, mid, unplayed, points)
    winners = [c for c in cs if st[c] > best]
    if winners:
        cost = COST[k]
        take = min(winners, key=lambda c: cost[c] * 256 + st[c])
        if last:
            if tp >= cost[take] or (cost[take] == 0 and (tp > 0 or mid >= 4)):
                return take
        else:
            # a master of the led suit counts as sure, although it might be trumped
            top_out = top_strength(k, out if mid >= 4 or led == mid or best >= 100 else out & SUIT_MASK[led])
            sure = [c for c in winners if st[c] > top_out]
            if sure:
                take = min(sure, key=lambda c: cost[c] * 256 + st[c])
                if cost[take] == 0 or tp + points[take] >= cost[take] + 4:
                    return take
            elif mid < 4 and led != mid and tp >= 10:
                # trump a trick worth it with a small trump, even if it may be overtrumped
                if take // 9 == mid and cost[take] <= 9:
                    return take
    return _low(cs, mid, unplayed, points)


def _own_strength(c: int, mid: int) -> int:
    return OWN[mid][c]


def _low(cs: tuple[int, ...], mid: int, unplayed: int, points: Points) -> int:
    """A card that gives away little: few points, no trump, no master card, weak."""
    top = masters(mid, unplayed)
    own = OWN[mid]
    trumps = SUIT_MASK[mid] if mid < 4 else 0
    if trumps and all(c // 9 == mid for c in cs):
        trumps = 0
    best_c = cs[0]
    best_key = 1 << 30
    for c in cs:
        key = points[c] * 256 + own[c]
        if trumps >> c & 1:
            key += 25 * 256
        if top >> c & 1:
            key += 15 * 256
        if key < best_key:
            best_key = key
            best_c = c
    return best_c


def _smear(cs: tuple[int, ...], mid: int, unplayed: int, points: Points) -> int:
    top = masters(mid, unplayed)

    def key(c: int) -> tuple[int, int]:
        if mid < 4 and c // 9 == mid:
            return -200 - _own_strength(c, mid), 0  # trumps: the lowest (keep the jack and nine)
        v = points[c]
        if top >> c & 1:
            v -= 15
        return v, -_own_strength(c, mid)

    return max(cs, key=key)


def _lead(
    hand: int,
    cs: tuple[int, ...],
    mid: int,
    unplayed: int,
    avoid: bool,
    declaring: bool,
    points: Points,
) -> int:
    out = unplayed & ~hand
    if avoid:
        # the weakest card: the most cards still out above it in its suit
        def above(c: int) -> tuple[int, int]:
            n_above = 0
            for x in SUIT_ORDER[mid * 4 + c // 9]:
                if x == c:
                    break
                if out >> x & 1:
                    n_above += 1
            return n_above, -points[c]

        return max(cs, key=above)
    if mid < 4:
        tmask = SUIT_MASK[mid]
        mine = hand & tmask
        theirs = out & tmask
        if declaring and mine and theirs:
            for x in SUIT_ORDER[mid * 4 + mid]:  # trumps, highest first
                if unplayed >> x & 1:
                    if hand >> x & 1:
                        return x
                    break
            if mine.bit_count() >= 3:
                return min(cards(mine), key=lambda c: _own_strength(c, mid))
    top = masters(mid, unplayed) & hand
    if mid < 4:
        top &= ~SUIT_MASK[mid]
    if top:
        return max(cards(top), key=lambda c: ((hand & SUIT_MASK[c // 9]).bit_count(), points[c]))
    side = [c for c in cs if not (mid < 4 and c // 9 == mid)] or list(cs)

    def key(c: int) -> tuple[int, int, int]:
        length = (hand & SUIT_MASK[c // 9]).bit_count()
        return points[c], -length, _own_strength(c, mid)

    return min(side, key=key)


def _duck(
    cs: tuple[int, ...], st: tuple[int, ...], best: int, friend: bool, last: bool, mid: int, points: Points
) -> int:
    under = [c for c in cs if st[c] <= best]
    if under:
        if friend:
            return min(under, key=lambda c: (points[c], -_own_strength(c, mid)))
        return max(under, key=lambda c: (points[c], _own_strength(c, mid)))
    if last:
        return min(cs, key=lambda c: (points[c], -st[c]))
    return min(cs, key=lambda c: (st[c], points[c]))
