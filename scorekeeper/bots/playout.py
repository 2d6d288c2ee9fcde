"""Playouts with the rule-based policy (epsilon-greedy), on the engine's tables.

The engine's ``fast.playout`` plays uniformly random cards; a search that
scores cards by random play learns little (random partners trump each other's
aces). These playouts let every seat follow ``policy.choose_card`` and play a
random legal card with probability ``eps``, so the outcome reflects reasonable
play while still exploring. The rules are the engine's own tables
(``legal_mask``, ``STRENGTH``, ``UNDER``), so every card played is legal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from scorekeeper.engine.rules import trick_status
from scorekeeper.engine.tables import LAST_TRICK_BONUS, STRENGTH, SUIT_OF, UNDER, card_ints, legal_mask

from .policy import choose_card


def policy_playout(
    hands: Sequence[int],
    leader: int,
    modes: Sequence[int],
    points: Sequence[int],
    trick: Sequence[int],
    teams: Sequence[int],
    rnd: Callable[[], float],
    eps: float,
    avoid: bool,
    declaring_team: int,
) -> tuple[list[int], list[int]]:
    """Play the rest of the hand. Arguments as ``engine.fast.playout`` (``modes``:
    the current trick's mode first; ``trick``: cards already in it, removed from
    ``hands``), plus the team id per seat, the exploration rate, Misère
    (``avoid``) and the declaring team. Returns (points won here per seat, the
    last trick's 5 included; tricks won here per seat)."""
    hands = list(hands)
    n = len(hands)
    pts = [0] * n
    won = [0] * n
    unplayed = 0
    for h in hands:
        unplayed |= h
    tk = list(trick)
    teams_t = tuple(teams)
    pts_t = tuple(points)
    n_left = len(modes)
    for t in range(n_left):
        mid = modes[t]
        last_trick = t == n_left - 1
        if tk:
            led, wi, under = trick_status(mid, tk)
            k = mid * 4 + led
            best = STRENGTH[k][tk[wi]]
            win = (leader + wi) % n
        else:
            led, k, best, win, under = -1, 0, -1, leader, 0
        while len(tk) < n:
            seat = (leader + len(tk)) % n
            h = hands[seat]
            legal = legal_mask(h, mid, led, under) if tk else h
            if not legal & (legal - 1):  # a single legal card
                c = legal.bit_length() - 1
            elif eps and rnd() < eps:
                cs = card_ints(legal)
                c = cs[int(rnd() * len(cs))]
            else:
                c = choose_card(
                    h, legal, tk, leader, seat, mid, unplayed, teams_t, pts_t, last_trick, avoid, declaring_team
                )
            bit = 1 << c
            hands[seat] = h ^ bit
            unplayed ^= bit
            if not tk:
                led = SUIT_OF[c]
                k = mid * 4 + led
                best = STRENGTH[k][c]
                win = seat
                under = UNDER[k][c]
            else:
                s = STRENGTH[k][c]
                if s > best:
                    best = s
                    win = seat
                    under = UNDER[k][c]
            tk.append(c)
        tp = 0
        for c in tk:
            tp += pts_t[c]
        if last_trick:
            tp += LAST_TRICK_BONUS
        pts[win] += tp
        won[win] += 1
        leader = win
        tk = []
    return pts, won
