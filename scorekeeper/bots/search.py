"""The search player's card play: determinized sampling plus policy playouts.

For each decision: deal the unseen cards at random consistently with what the
seat knows (``sampler``: hand sizes, proven voids, and a preference for deals
that suit the declarer's choice), then, for every legal card, play it and
finish the hand with the rule-based policy (epsilon-greedy) on the engine's
fast path (``playout.policy_playout``). Every legal card is scored on the same sampled deals (common random
numbers) by the seat's objective (``Knowledge.value``). Sampling stops when the
time budget is spent (aiming at 85% of it), the choice is settled (``settled``)
or a sample cap is reached. The best average wins, but the rule-based card is
kept unless another is better by half a point. A single legal card is played
at once.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from scorekeeper.engine.bitmasks import mode_id
from scorekeeper.engine.view import SeatView
from scorekeeper.game.rulesets import RuleSet

from .knowledge import Knowledge
from .playout import policy_playout
from .policy import choose_card
from .sampler import declarer_judge, plausible_hands

MAX_BUDGET_MS = 1000
SAFETY = 0.85  # aim below the budget: a sample's length varies on a busy machine
EPSILON = 0.08
MAX_SAMPLES = 160  # determinizations per decision at most
CHECK_FROM = 16  # samples before the search may stop early
CHECK_EVERY = 8
PREFER_POLICY_WITHIN = 0.5  # points: closer than this, the rule-based card is kept


@dataclass(slots=True)
class SearchStats:
    """Counters of the last searches (read by the benchmark)."""

    decisions: int = 0
    playouts: int = 0
    seconds: float = 0.0


STATS = SearchStats()


def clamp_budget(budget_ms: float) -> float:
    return max(0.0, min(float(budget_ms), float(MAX_BUDGET_MS)))


def search_card(
    view: SeatView,
    ruleset: RuleSet,
    rng: random.Random,
    budget_ms: float,
    eps: float = EPSILON,
    min_samples: int = 1,
    z: float = 2.5,
    max_samples: int | None = None,
    read_bidding: bool = True,
) -> int:
    """The card (an action id 0..35) the search prefers. ``view`` must be the
    seat's view with its turn to play. It samples until ``budget_ms`` is spent
    (at least ``min_samples`` deals), the choice is settled, or ``max_samples``
    deals were played (then the answer depends on the seed alone)."""
    legal = [a for a in view.legal_actions if a < 36]
    if not legal:
        raise ValueError("no card to play in this view")
    if len(legal) == 1:
        return legal[0]
    t0 = time.perf_counter()
    deadline = t0 + SAFETY * clamp_budget(budget_ms) / 1000.0
    k = Knowledge.from_view(view, ruleset)
    seat = k.seat
    cap = MAX_SAMPLES if max_samples is None else max_samples
    declaring_team = k.teams[k.declarer]
    won_p = k.won_points
    won_t = k.won_tricks
    n = k.n
    rnd = rng.random
    n_legal = len(legal)
    values: list[list[float]] = [[] for _ in legal]
    samples = 0
    playouts = 0
    judge = declarer_judge(k, ruleset) if read_bidding else None
    last = t0
    while True:
        hands = plausible_hands(k, rng, judge)
        modes = k.modes(rng)
        mine = hands[seat]
        for i, c in enumerate(legal):
            hands[seat] = mine ^ (1 << c)
            pts, won = policy_playout(
                hands, k.leader, modes, k.points, k.trick + (c,), k.teams, rnd, eps, k.misere, declaring_team
            )
            values[i].append(k.value([won_p[s] + pts[s] for s in range(n)], [won_t[s] + won[s] for s in range(n)]))
        playouts += n_legal
        samples += 1
        now = time.perf_counter()
        # stop before a sample that would end past the deadline
        if samples >= min_samples and now + (now - last) >= deadline:
            break
        last = now
        if samples >= cap or (samples >= CHECK_FROM and samples % CHECK_EVERY == 0 and settled(values, z)):
            break
    STATS.decisions += 1
    STATS.playouts += playouts
    STATS.seconds += time.perf_counter() - t0
    means = [sum(v) / samples for v in values]
    best = max(range(n_legal), key=lambda i: means[i])
    # the rule-based card stands unless the search finds something clearly better
    default = legal.index(policy_card(k, view, legal))
    if means[best] - means[default] < PREFER_POLICY_WITHIN:
        return legal[default]
    return legal[best]


def policy_card(k: Knowledge, view: SeatView, legal: list[int]) -> int:
    """The rule-based policy's card for this seat."""
    assert view.trick_mode is not None
    lm = 0
    for c in legal:
        lm |= 1 << c
    return choose_card(
        k.hand,
        lm,
        k.trick,
        k.seat,
        mode_id(view.trick_mode),
        k.unknown | k.hand,
        k.teams,
        k.points,
        k.misere,
        k.teams[k.declarer],
    )


def settled(values: list[list[float]], z: float = 2.5, indifferent: float = 2.0) -> bool:
    """Whether more samples cannot change the choice much: the leading card is
    ahead of every other by ``z`` standard errors of the paired difference, or
    the difference is surely below ``indifferent`` points."""
    n = len(values[0])
    means = [sum(v) / n for v in values]
    b = max(range(len(values)), key=lambda i: means[i])
    vb = values[b]
    for j, vj in enumerate(values):
        if j == b:
            continue
        d = [x - y for x, y in zip(vb, vj, strict=False)]
        md = sum(d) / n
        var = sum((x - md) ** 2 for x in d) / (n - 1)
        se = (var / n) ** 0.5
        if md > z * se or md + z * se < indifferent:
            continue
        return False
    return True
