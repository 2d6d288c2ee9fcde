"""Reading the other seats' play: how likely a sampled deal makes the cards they played.

Every card another seat played is a decision made with the cards it held then:
its hand now (in the sampled deal) plus every card it played since. A seat is
modelled as a mixture of two players, even odds: one who plays the rule-based
policy's card (``policy.choose_card``, else any other legal card with
probability ``eps``), and one who plays at random. The likelihood of a deal is
the product over the seats of the mixture's likelihood of that seat's cards.
A decision with one legal card tells nothing.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from scorekeeper.engine.bitmasks import FULL, legal_mask, mode_id
from scorekeeper.engine.rules import trick_status
from scorekeeper.engine.view import SeatView

from .knowledge import Knowledge
from .policy import choose_card
from .sampler import sample_hands

INFER_EPS = 0.02  # a policy player's chance of another card than the policy's
PRIOR = 0.5  # the odds of the policy player in a seat's mixture


@dataclass(frozen=True, slots=True)
class Decision:
    """One card another seat played, with what it knew then."""

    seat: int
    trick: tuple[int, ...]  # the trick before the card
    mid: int
    led: int  # -1 when leading
    under: int
    unplayed: int  # every card not yet played then (the seat's own included)
    later: int  # the cards the seat played from this card on
    card: int


def past_decisions(view: SeatView, k: Knowledge) -> tuple[Decision, ...]:
    """The other seats' cards in this hand as decisions, oldest first."""
    n = k.n
    seq: list[tuple[int, tuple[int, ...], int, int]] = []  # seat, trick before, mode, card
    tricks = [(t.leader, tuple(int(c) for c in t.cards), mode_id(t.mode)) for t in view.tricks]
    if view.trick and view.trick_mode is not None:
        tricks.append((view.leader, tuple(int(c) for c in view.trick), mode_id(view.trick_mode)))
    for leader, cs, mid in tricks:
        for i, c in enumerate(cs):
            seq.append(((leader + i) % n, cs[:i], mid, c))
    out: list[Decision] = []
    unplayed = FULL
    later = [0] * n
    for s, _, _, c in seq:
        later[s] |= 1 << c
    for s, before, mid, c in seq:
        if s != k.seat:
            if before:
                led = before[0] // 9
                under = trick_status(mid, before)[2]
            else:
                led, under = -1, 0
            out.append(Decision(s, before, mid, led, under, unplayed, later[s], c))
        unplayed &= ~(1 << c)
        later[s] &= ~(1 << c)
    return tuple(out)


def likelihood(
    hands: list[int],
    decisions: tuple[Decision, ...],
    k: Knowledge,
    eps: float,
    prior: float = PRIOR,
) -> float:
    """How likely the deal ``hands`` makes the other seats' cards (see the module doc)."""
    n = k.n
    pol = [1.0] * n
    rnd = [1.0] * n
    declaring_team = k.teams[k.declarer]
    for d in decisions:
        h = hands[d.seat] | d.later
        legal = legal_mask(h, d.mid, d.led, d.under)
        m = legal.bit_count()
        if m < 2:
            continue
        rnd[d.seat] /= m
        c = choose_card(h, legal, d.trick, d.seat, d.mid, d.unplayed, k.teams, k.points, k.misere, declaring_team)
        pol[d.seat] *= (1.0 - eps) if c == d.card else eps / (m - 1)
    w = 1.0
    for s in range(n):
        if s != k.seat:
            w *= prior * pol[s] + (1.0 - prior) * rnd[s]
    return w


def read_deals(
    k: Knowledge,
    rng: random.Random,
    decisions: tuple[Decision, ...],
    weigh: Callable[[list[int]], float],
    pool: int,
    at_least: int,
    until: float,
    n: int,
) -> list[tuple[list[int], float]]:
    """The deals to play out when the play is read: up to ``pool`` candidate deals (at least
    ``at_least``, more only until ``until`` on the clock), each weighed by ``weigh`` (the
    bidding's weight) times the likelihood of the other seats' cards, then ``n`` drawn from them
    in proportion (``resample``)."""
    cands: list[tuple[list[int], float]] = []
    for _ in range(pool):
        hands = sample_hands(k, rng)
        cands.append((hands, weigh(hands) * likelihood(hands, decisions, k, INFER_EPS)))
        if len(cands) >= at_least and time.perf_counter() >= until:
            break
    return resample(cands, n, rng)


def resample(pool: list[tuple[list[int], float]], n: int, rng: random.Random) -> list[tuple[list[int], float]]:
    """``n`` draws from ``pool`` (deals and weights) in proportion to the
    weights (systematic resampling), as the distinct deals drawn with how often
    each was drawn, in random order. All weights zero: the first ``n`` deals."""
    total = sum(w for _, w in pool)
    if total <= 0:
        return [(h, 1.0) for h, _ in pool[:n]]
    step = total / n
    t = rng.random() * step
    counts: dict[int, int] = {}
    acc = pool[0][1]
    i = 0
    last = len(pool) - 1
    for _ in range(n):
        while i < last and acc <= t:
            i += 1
            acc += pool[i][1]
        counts[i] = counts.get(i, 0) + 1
        t += step
    out = [(pool[i][0], float(c)) for i, c in counts.items()]
    rng.shuffle(out)
    return out
