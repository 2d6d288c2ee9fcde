"""Playouts with the rule-based policy (epsilon-greedy), on the engine's fast path.

The engine's ``Uniform`` player plays uniformly random cards; a search that
scores cards by random play learns little (random partners trump each other's
aces). ``policy_player`` is a chooser for ``engine.fast.Playout``: every seat
follows ``policy.choose_card`` and plays a random legal card with probability
``eps``, so the outcome reflects reasonable play while still exploring. The
engine hands it the legal cards and takes the tricks, so every card is legal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from scorekeeper.engine.bitmasks import card_ints
from scorekeeper.engine.fast import Choose, Playout

from .policy import choose_card


def policy_player(
    game: Playout,
    teams: Sequence[int],
    rnd: Callable[[], float],
    eps: float,
    avoid: bool,
    declaring_team: int,
) -> Choose:
    """The policy as a chooser for ``game``: ``teams`` (a team id per seat), the
    exploration rate ``eps``, Misère (``avoid``) and the declaring team. A single
    legal card is played without a draw; else a draw below ``eps`` plays a random
    legal card (a second draw picks it), otherwise the policy's card."""
    hands = game.hands
    trick = game.trick
    points = tuple(game.points)
    teams_t = tuple(teams)

    def choose(seat: int, legal: int) -> int:
        if not legal & (legal - 1):  # a single legal card
            return legal.bit_length() - 1
        if eps and rnd() < eps:
            cs = card_ints(legal)
            return cs[int(rnd() * len(cs))]
        unplayed = hands[0] | hands[1] | hands[2] | hands[-1]  # every hand, with three players or four
        return choose_card(
            hands[seat],
            legal,
            trick,
            seat,
            game.mode,
            unplayed,
            teams_t,
            points,
            avoid,
            declaring_team,
        )

    return choose


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
    """Play the rest of the hand with ``policy_player`` on every seat. Arguments as
    ``engine.fast.Playout`` and ``policy_player``. Returns (points won here per
    seat, the last trick's 5 included; tricks won here per seat)."""
    game = Playout(hands, leader, modes, points, trick)
    pts, winners = game.run(policy_player(game, teams, rnd, eps, avoid, declaring_team))
    return pts, [winners.count(s) for s in range(len(pts))]
