"""The fast path: random legal playouts on bitmasks, for bots and benchmarks.

Hands are 36-bit ints, trick modes and valuations are the ints of
``engine.tables``; legal cards, trick strength and points are table lookups.
It plays every per-trick mode (trump, Obenabe, Undenufe, Zwüschedüre, Tutti), so
any contract runs once its schedule of modes is known (``schedule_ids``).

The rules are the same tables the full engine uses; the playout agrees with
``HandState`` card for card (tested), it only skips the checks, the records
and the views.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from scorekeeper.game.contracts import Contract, TrickMode

from .tables import (
    BIT,
    CARDS9,
    LAST_TRICK_BONUS,
    LEGAL_PARAMS,
    POINTS,
    STRENGTH,
    SUIT_OF,
    UNDER,
    mode_id,
    valuation_id,
)

if TYPE_CHECKING:  # pragma: no cover
    from .state import HandState

_C0, _C1, _C2, _C3 = CARDS9


class Position(NamedTuple):
    """The arguments of ``playout`` for a hand in play (``playout(*pos, rnd=...)`` order)."""

    hands: tuple[int, ...]
    leader: int
    modes: tuple[int, ...]  # the current trick's mode first
    points: tuple[int, ...]
    trick: tuple[int, ...]


def position(state: HandState) -> Position:
    """Fast-path inputs of a state in play (a bot passes a state whose hidden hands
    it has sampled). Komisch blocks not yet chosen cannot be known: ValueError."""
    if state.phase.value != "playing":
        raise ValueError("the hand is not in play")
    if len(state.modes) != state.n_tricks:
        raise ValueError("Komisch: later blocks are not chosen yet")
    return Position(
        tuple(state.hands), state.leader, tuple(state.modes[state.trick_no :]), state.points_table, tuple(state.trick)
    )


def schedule_ids(contract: Contract, n_tricks: int, komisch: Sequence[TrickMode] = ()) -> tuple[int, ...]:
    """Mode id of every trick. Komisch needs its three blocks in ``komisch``."""
    sched = contract.schedule(n_tricks)
    if sched is None:
        if len(komisch) != 3:
            raise ValueError("Komisch needs its three blocks")
        per = n_tricks // 3
        return tuple(mode_id(b) for b in komisch for _ in range(per))
    return tuple(mode_id(tm) for tm in sched)


def points_table(
    contract: Contract, undenufe_six11: bool = False, komisch: Sequence[TrickMode] = ()
) -> tuple[int, ...]:
    """Card points of the hand's valuation, indexed by card."""
    val = contract.valuation()
    if val is None:
        val = komisch[0]
    return POINTS[valuation_id(val, undenufe_six11)]


def playout(
    hands: Sequence[int],
    leader: int,
    modes: Sequence[int],
    points: Sequence[int],
    rnd: Callable[[], float],
    trick: Sequence[int] = (),
) -> tuple[list[int], list[int]]:
    """Play the rest of a hand with uniformly random legal cards.

    ``hands``: the seats' remaining cards as masks (not changed). ``leader``
    leads the first remaining trick; ``modes``: the mode id of every remaining
    trick, the first being the current one; ``trick``: cards already in the
    current trick (played from ``leader`` on, already removed from ``hands``);
    ``points``: card points by card (``points_table``); ``rnd``: a
    ``random.random``-like callable. A card is chosen as
    ``legal[int(rnd() * len(legal))]`` of the legal cards in ascending order,
    exactly like a random player on ``HandState.legal_actions()``.

    Returns (card points won per seat, winner of every trick played here). The
    last trick's 5 points are included.
    """
    hands = list(hands)
    n = len(hands)
    pts = [0] * n
    winners: list[int] = []
    c0, c1, c2, c3 = _C0, _C1, _C2, _C3
    bit = BIT
    suit_of = SUIT_OF
    t = 0
    if trick:
        leader = _finish_first(hands, leader, modes[0], points, rnd, trick, pts, winners)
        t = 1
    for m4 in [m * 4 for m in modes[t:]]:
        seat = leader
        h = hands[seat]
        cs = c0[h & 511] + c1[h >> 9 & 511] + c2[h >> 18 & 511] + c3[h >> 27]
        c = cs[int(rnd() * len(cs))]
        hands[seat] = h ^ bit[c]
        k = m4 + suit_of[c]
        follow, puur, trump_in, non_trump = LEGAL_PARAMS[k]
        strength = STRENGTH[k]
        under_of = UNDER[k]
        best = strength[c]
        win = seat
        under = under_of[c]
        tp = points[c]
        for _ in range(n - 1):
            seat += 1
            if seat == n:
                seat = 0
            h = hands[seat]
            f = h & follow
            legal = f | (h & trump_in) if f and f != puur else h
            if under and h & non_trump:
                legal &= ~under
            cs = c0[legal & 511] + c1[legal >> 9 & 511] + c2[legal >> 18 & 511] + c3[legal >> 27]
            c = cs[int(rnd() * len(cs))]
            hands[seat] = h ^ bit[c]
            s = strength[c]
            if s > best:
                best = s
                win = seat
                under = under_of[c]
            tp += points[c]
        pts[win] += tp
        winners.append(win)
        leader = win
    if winners:
        pts[winners[-1]] += LAST_TRICK_BONUS
    return pts, winners


def _finish_first(
    hands: list[int],
    leader: int,
    mid: int,
    points: Sequence[int],
    rnd: Callable[[], float],
    trick: Sequence[int],
    pts: list[int],
    winners: list[int],
) -> int:
    """Complete a trick already begun (the slower, general case of ``playout``)."""
    n = len(hands)
    k = mid * 4 + SUIT_OF[trick[0]]
    follow, puur, trump_in, non_trump = LEGAL_PARAMS[k]
    strength = STRENGTH[k]
    best = -1
    win = leader
    under = 0
    tp = 0
    for i, c in enumerate(trick):
        if strength[c] > best:
            best = strength[c]
            win = (leader + i) % n
            under = UNDER[k][c]
        tp += points[c]
    for i in range(len(trick), n):
        seat = (leader + i) % n
        h = hands[seat]
        f = h & follow
        legal = f | (h & trump_in) if f and f != puur else h
        if under and h & non_trump:
            legal &= ~under
        cs = _C0[legal & 511] + _C1[legal >> 9 & 511] + _C2[legal >> 18 & 511] + _C3[legal >> 27]
        c = cs[int(rnd() * len(cs))]
        hands[seat] = h ^ BIT[c]
        if strength[c] > best:
            best = strength[c]
            win = seat
            under = UNDER[k][c]
        tp += points[c]
    pts[win] += tp
    winners.append(win)
    return win
