"""The fast path: a hand in play on bitmasks, played to its end by a chooser.

Hands are 36-bit masks, trick modes and valuations are the ids of
``engine.bitmasks``; legal cards, trick strength and points are lookups. Every
per-trick mode runs (trump, Obenabe, Undenufe, Zwüschedüre, Tutti), so any
contract plays once its schedule of modes is known (``schedule_ids``).

A player is a ``Choose``: ``choose(seat, legal) -> card``, asked for every
card with the mover's legal cards as a non-empty mask; it answers one of them.
While the playout runs, a chooser may read (never change) its live ``hands``,
``trick`` and ``mode``. ``Uniform(rnd)`` is the uniformly random player; the
bots plug in their policy (``bots.playout``). The playout agrees with
``HandState`` card for card (tested); it skips the checks, the records and the
views.

    >>> import random
    >>> from scorekeeper.engine import HandSetup, HandState, announce_action
    >>> from scorekeeper.game.contracts import OBENABE
    >>> from scorekeeper.game.rulesets import default_ruleset
    >>> rs = default_ruleset("teams")
    >>> state = HandState.new(HandSetup(rs, dealer=0), random.Random(1))
    >>> state.apply(announce_action(rs, "obenabe", OBENABE))
    >>> state.apply(state.legal_actions()[0])  # forehand leads its lowest card
    >>> points, winners = Playout.of(state).run(Uniform(random.Random(2).random))
    >>> sum(points), len(winners)  # every card point of the hand, every trick
    (157, 9)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, final

from scorekeeper.game.contracts import Contract, TrickMode

from .bitmasks import (
    BIT,
    CARDS9,
    LAST_TRICK_BONUS,
    LEGAL_PARAMS,
    POINTS,
    STRENGTH,
    SUIT_OF,
    UNDER,
    card_ints,
    mode_id,
    valuation_id,
)
from .phase import Phase
from .rules import trick_status

if TYPE_CHECKING:  # pragma: no cover
    from .state import HandState

Choose = Callable[[int, int], int]
"""A player on the fast path: ``choose(seat, legal mask) -> card`` (one of ``legal``)."""

_C0, _C1, _C2, _C3 = CARDS9
# _FOLLOWERS[n_players][leader]: the seats that follow the leader in a trick, in order.
_FOLLOWERS = {n: tuple(tuple((leader + i) % n for i in range(1, n)) for leader in range(n)) for n in (3, 4)}


@final
class Uniform:
    """The uniformly random player: the ``int(rnd() * len(legal))``-th legal card in
    ascending order, exactly like a random player on ``HandState.legal_actions()``
    (``rnd``: a ``random.random``-like callable; one call per card)."""

    __slots__ = ("rnd",)

    def __init__(self, rnd: Callable[[], float]) -> None:
        self.rnd = rnd

    def __call__(self, seat: int, legal: int) -> int:
        cs = card_ints(legal)
        return cs[int(self.rnd() * len(cs))]


class Playout:
    """A hand in play, on bitmasks, to be played to its end once (``run``).

    ``hands``: the seats' remaining cards as masks (copied); ``leader`` leads the
    current trick; ``modes``: the mode id of every remaining trick, the current
    one first; ``points``: card points by card (``points_table``); ``trick``:
    cards already in the current trick, from ``leader`` on, already removed from
    ``hands``.
    """

    __slots__ = ("hands", "leader", "mode", "modes", "played", "points", "trick")

    def __init__(
        self,
        hands: Sequence[int],
        leader: int,
        modes: Sequence[int],
        points: Sequence[int],
        trick: Sequence[int] = (),
    ) -> None:
        self.hands = list(hands)  # live: every seat's cards, the mover's included
        self.leader = leader  # of the first remaining trick
        self.modes = tuple(modes)
        self.points = points
        self.trick = list(trick)  # live: the current trick so far, leader first
        self.mode = self.modes[0] if self.modes else -1  # live: the current trick's mode id
        self.played = False

    @classmethod
    def of(cls, state: HandState) -> Playout:
        """The fast path's view of a hand in play (a bot passes a state whose hidden
        hands it has sampled). Komisch blocks not yet chosen cannot be known: ValueError."""
        if state.phase is not Phase.PLAYING:
            raise ValueError("the hand is not in play")
        if len(state.modes) != state.n_tricks:
            raise ValueError("Komisch: later blocks are not chosen yet")
        return cls(state.hands, state.leader, state.modes[state.trick_no :], state.points_table, state.trick)

    def run(self, choose: Choose) -> tuple[list[int], list[int]]:
        """Play every remaining card as ``choose`` says.

        Returns (card points won per seat in these tricks, the last trick's 5
        included; the winning seat of every trick played here).
        """
        if self.played:
            raise ValueError("a playout runs once")
        self.played = True
        # Uniform is inlined: a call per card would cost a random playout some 15%
        # (bench/engine.py). It reads nothing live, so trick and mode are kept up for others.
        rnd = choose.rnd if isinstance(choose, Uniform) else None
        hands = self.hands
        tk = self.trick
        points = self.points
        leader = self.leader
        n = len(hands)
        followers = _FOLLOWERS[n]
        pts = [0] * n
        winners: list[int] = []
        c0, c1, c2, c3 = _C0, _C1, _C2, _C3
        bit = BIT
        suit_of = SUIT_OF
        for mid in self.modes:
            if rnd is None:
                self.mode = mid
            if tk:  # a trick already begun (the first one only)
                led, first_win, under = trick_status(mid, tk)
                k = mid * 4 + led
                strength = STRENGTH[k]
                best = strength[tk[first_win]]
                win = (leader + first_win) % n
                tp = 0
                for c in tk:
                    tp += points[c]
                seats = followers[leader][len(tk) - 1 :]
            else:  # the lead: picked and played as the follows below are; kept apart so that
                # the follows' loop knows the trick's lookups without a test per card
                seat = leader
                h = hands[seat]
                if rnd is not None:
                    cs = c0[h & 511] + c1[h >> 9 & 511] + c2[h >> 18 & 511] + c3[h >> 27]
                    c = cs[int(rnd() * len(cs))]
                else:
                    c = choose(seat, h)
                    tk.append(c)
                hands[seat] = h ^ bit[c]
                k = mid * 4 + suit_of[c]
                strength = STRENGTH[k]
                best = strength[c]
                win = seat
                under = UNDER[k][c]
                tp = points[c]
                seats = followers[seat]
            follow, puur, trump_in, non_trump = LEGAL_PARAMS[k]
            under_of = UNDER[k]
            for seat in seats:
                h = hands[seat]
                # bitmasks.legal_mask, inlined: a call per card would cost a random playout
                # some 15% (bench/engine.py); tests/engine prove the two agree.
                f = h & follow
                legal = f | (h & trump_in) if f and f != puur else h
                if under and h & non_trump:
                    legal &= ~under
                if rnd is not None:
                    cs = c0[legal & 511] + c1[legal >> 9 & 511] + c2[legal >> 18 & 511] + c3[legal >> 27]
                    c = cs[int(rnd() * len(cs))]
                else:
                    c = choose(seat, legal)
                    tk.append(c)
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
            if tk:
                tk.clear()
        if winners:
            pts[winners[-1]] += LAST_TRICK_BONUS
        return pts, winners


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
