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


def _top_slices(k: int, suit: int) -> tuple[int, ...]:
    """For a 9-bit slice of suit ``suit``: the highest strength of its cards in a
    trick of key ``k`` (0 for none)."""
    st = STRENGTH[k]
    return tuple(max((st[suit * 9 + r] for r in range(9) if m >> r & 1), default=0) for m in range(512))


# TOP[k]: (shift of the led suit, its slice table, shift of the trump suit, its slice table): the
# only suits whose cards can win a trick of key k (the trump's table is all 0 without a trump).
_ZERO = (0,) * 512
TOP: tuple[tuple[int, tuple[int, ...], int, tuple[int, ...]], ...] = tuple(
    (
        9 * (k & 3),
        _top_slices(k, k & 3),
        9 * (k >> 2 if k >> 2 < 4 else 0),
        _top_slices(k, k >> 2) if k >> 2 < 4 else _ZERO,
    )
    for k in range(N_MODES * 4)
)


def top_strength(k: int, m: int) -> int:
    """The highest strength, in a trick of key ``k``, of the cards in ``m`` (0 if none)."""
    ls, lt, ts, tt = TOP[k]
    a = lt[m >> ls & 511]
    b = tt[m >> ts & 511]
    return a if a > b else b


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
        take = winners[0]  # the cheapest winning card, then the weakest
        if len(winners) > 1:
            take_key = 1 << 30
            for c in winners:
                key = cost[c] * 256 + st[c]
                if key < take_key:
                    take_key = key
                    take = c
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
    # a trump costs 25 points more (when every card is a trump, all keys rise alike)
    base = _low_keys(mid, points)
    best_c = cs[0]
    best_key = 1 << 30
    for c in cs:
        key = base[c] + 3840 if top >> c & 1 else base[c]  # a master card: 15 points more
        if key < best_key:
            best_key = key
            best_c = c
    return best_c


_LOW_KEYS: dict[tuple[int, int], tuple[Points, tuple[int, ...]]] = {}


def _low_keys(mid: int, points: Points) -> tuple[int, ...]:
    """``_low``'s key of every card before the master test: points * 256 + own
    strength, plus 25 * 256 for a trump. Kept per mode and points table (the
    engine's tables live as long as the process; the table kept is checked)."""
    e = _LOW_KEYS.get((mid, id(points)))
    if e is not None and e[0] is points:
        return e[1]
    own = OWN[mid]
    keys = tuple(points[c] * 256 + own[c] + (25 * 256 if mid < 4 and c // 9 == mid else 0) for c in range(36))
    if len(_LOW_KEYS) > 256:
        _LOW_KEYS.clear()
    _LOW_KEYS[(mid, id(points))] = (points, keys)
    return keys


def _smear(cs: tuple[int, ...], mid: int, unplayed: int, points: Points) -> int:
    top = masters(mid, unplayed)
    own = OWN[mid]
    # the most (points, 15 less for a master card; then the weakest), as one int: the
    # second part (-own, -108..0) fits in 8 bits; trumps last, the lowest first
    best_c = cs[0]
    best_key = -(1 << 30)
    for c in cs:
        if mid < 4 and c // 9 == mid:
            key = (-200 - own[c]) * 256 + 128  # trumps: the lowest (keep the jack and nine)
        else:
            key = (points[c] - 15 if top >> c & 1 else points[c]) * 256 + 128 - own[c]
        if key > best_key:
            best_key = key
            best_c = c
    return best_c


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
            top_trump = MASTER_BITS[mid * 5][unplayed >> 9 * mid & 511]  # the highest trump still out
            if hand & top_trump:
                return top_trump.bit_length() - 1
            if mine.bit_count() >= 3:
                return min(cards(mine), key=lambda c: _own_strength(c, mid))
    top = masters(mid, unplayed) & hand
    if mid < 4:
        top &= ~SUIT_MASK[mid]
    if top:
        # the longest suit's master, then the one worth most (points < 64)
        return max(cards(top), key=lambda c: (hand & SUIT_MASK[c // 9]).bit_count() * 64 + points[c])
    side = [c for c in cs if not (mid < 4 and c // 9 == mid)] or cs
    own = OWN[mid]
    lengths = [(hand & m).bit_count() for m in SUIT_MASK]
    # the fewest points, then the longest suit, then the weakest card, as one int
    # (a suit has at most 9 cards, a strength is below 256)
    best_c = side[0]
    best_key = 1 << 30
    for c in side:
        key = (points[c] * 16 + 9 - lengths[c // 9]) * 256 + own[c]
        if key < best_key:
            best_key = key
            best_c = c
    return best_c


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
