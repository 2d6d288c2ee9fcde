"""The search player's card play: determinized sampling, policy playouts and an
exact endgame.

For each decision: deal the unseen cards at random consistently with what the
seat knows (``sampler.sample_hands``: hand sizes, proven voids), weigh the deal
by how well it suits the declarer's choice (``sampler.declarer_judge``) and,
when asked (``pool``; the levels do not: docs/DECISIONS.md), by how likely it
makes the cards the other seats played (``inference.likelihood``: each seat a
policy player or a random one); then, once another seat has played, up to
``pool`` such candidate deals (at most ``POOL_SHARE`` of the time) are drawn and
the deals to play out are drawn from them in proportion to their weights
(``inference.read_deals``; otherwise every deal drawn is played out with the bidding's
weight). Then score every legal card on each deal:
in the last ``endgame_tricks`` tricks exactly (``exact_values``, alpha-beta over
the remaining cards of that deal), before that by playing the card and finishing
the hand with the rule-based policy: greedy (the default) in the tight loop of
``fastplay.greedy_playout``, which plays the policy's cards on ints; with
``eps`` (exploration) or in Misère on the engine's fast path
(``playout.policy_playout``). Cards that play alike (``distinct_cards``) are
played out once; when every legal card plays alike, the rule-based card is
played without a search. Every legal card is scored
on the same sampled deals (common random numbers) by the seat's objective
(``Knowledge.value``). Sampling stops when the time budget is spent (aiming at
85% of it), the choice is settled (``settled``) or a sample cap is reached. The
best weighted average wins, but the rule-based card is kept unless another is
better by half a point. A single legal card is played at once.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from scorekeeper.engine.bitmasks import (
    BIT,
    FULL,
    LAST_TRICK_BONUS,
    LEGAL_PARAMS,
    STRENGTH,
    UNDER,
    card_ints,
    legal_mask,
    mode_id,
)
from scorekeeper.engine.rules import trick_status
from scorekeeper.engine.view import SeatView
from scorekeeper.game.rulesets import RuleSet

from .fastplay import greedy_playout
from .inference import past_decisions, read_deals
from .knowledge import MATCH_BONUS, Knowledge
from .playout import policy_playout
from .policy import choose_card
from .sampler import declarer_judge, sample_hands

MAX_BUDGET_MS = 1000
SAFETY = 0.85  # aim below the budget: a sample's length varies on a busy machine
EPSILON = 0.0
MAX_SAMPLES = 160  # determinizations per decision at most
CHECK_FROM = 16  # samples before the search may stop early
CHECK_EVERY = 8
PREFER_POLICY_WITHIN = 0.5  # points: closer than this, the rule-based card is kept
FLOOR_WEIGHT = 0.1  # a deal the bidding makes unlikely still counts a little
INFER_POOL = 400  # candidate deals read against the play, at most, when the play is read (``pool``)
POOL_SHARE = 0.3  # of the time budget, at most, for reading the play
POOL_MIN = 24  # candidate deals read at least


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
    endgame_tricks: int = 3,
    pool: int = 0,
) -> int:
    """The card (an action id 0..35) the search prefers. ``view`` must be the
    seat's view with its turn to play. It samples until ``budget_ms`` is spent
    (at least ``min_samples`` deals), the choice is settled, or ``max_samples``
    deals were played (then the answer depends on the seed alone). ``pool``:
    the candidate deals read against the play (0, the levels' setting: deals
    drawn without reading the play; ``INFER_POOL`` is the size measured in
    docs/DECISIONS.md, where it is said why the levels leave it off)."""
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
    exact = not k.misere and k.tricks_left <= endgame_tricks
    my_team = k.teams[seat]
    before = sum(won_p[s] for s in range(n) if k.teams[s] == my_team)
    match_open = all(won_t[s] == 0 for s in range(n) if k.teams[s] != my_team)
    weights: list[float] = []
    greedy = not eps and not k.misere  # the tight loop plays the same cards as the policy's playout
    # cards that cannot differ (same suit, same points, nothing out between them) are played out once
    cands = distinct_cards(legal, k, view)
    # one card of every group that plays alike is played out
    live = [i for i in range(n_legal) if cands[i] == i]
    default = legal.index(policy_card(k, view, legal))
    if len(live) == 1:  # every legal card plays alike: nothing to search
        return legal[default]

    def bid_weight(hands: list[int]) -> float:
        # the bidding weighs the deal (importance weights, not rejection: every deal drawn is used)
        return FLOOR_WEIGHT + judge(hands) if judge is not None else 1.0

    drawn: list[tuple[list[int], float]] | None = None
    decisions = past_decisions(view, k) if pool else ()
    if decisions:  # read the play: the deals to play out drawn in proportion to its likelihood
        until = t0 + POOL_SHARE * (deadline - t0)
        drawn = read_deals(k, rng, decisions, bid_weight, pool, max(min_samples, POOL_MIN), until, cap)
        last = time.perf_counter()
    while True:
        if drawn is not None:
            if samples >= len(drawn):
                break
            hands, w = drawn[samples]
            hands = list(hands)
            weights.append(w)  # how often the deal was drawn
        else:
            hands = sample_hands(k, rng)
            weights.append(bid_weight(hands))
        modes = k.modes(rng)
        mine = hands[seat]
        if exact:
            exact_v = exact_values(hands, k.leader, modes, k.points, k.trick, k.teams, seat, match_open)
            for i in live:
                values[i].append(float(before + exact_v[legal[i]]))
            playouts += 1
        else:
            for i in live:
                c = legal[i]
                hands[seat] = mine ^ (1 << c)
                if greedy:
                    pts, won = greedy_playout(hands, k.leader, modes, k.points, k.trick + (c,), k.teams, declaring_team)
                else:
                    pts, won = policy_playout(
                        hands, k.leader, modes, k.points, k.trick + (c,), k.teams, rnd, eps, k.misere, declaring_team
                    )
                values[i].append(k.value([won_p[s] + pts[s] for s in range(n)], [won_t[s] + won[s] for s in range(n)]))
                playouts += 1
        samples += 1
        now = time.perf_counter()
        # stop before a sample that would end past the deadline
        if samples >= min_samples and now + (now - last) >= deadline:
            break
        last = now
        if samples >= cap or (
            samples >= CHECK_FROM
            and samples % CHECK_EVERY == 0
            and settled([values[i] for i in live], z, weights=weights)
        ):
            break
    STATS.decisions += 1
    STATS.playouts += playouts
    STATS.seconds += time.perf_counter() - t0
    total_w = sum(weights)
    means = {i: sum(w * x for w, x in zip(weights, values[i], strict=True)) / total_w for i in live}
    best = max(live, key=lambda i: means[i])
    # the rule-based card stands unless the search finds something clearly better
    if means[best] - means[cands[default]] < PREFER_POLICY_WITHIN:
        return legal[default]
    return legal[best]


def distinct_cards(legal: list[int], k: Knowledge, view: SeatView) -> list[int]:
    """For every legal card, the index of the first legal card that plays exactly
    like it: same suit, same points, and every card ranked between them (in every
    mode still to come) is the mover's own or already played. Then either card
    wins and loses the same tricks, and the other seats' legal cards are the same."""
    modes = set(k.known_modes)
    if len(modes) != 1 or len(k.known_modes) < k.tricks_left:
        return list(range(len(legal)))
    mid = next(iter(modes))
    mine_or_gone = FULL & ~k.unknown
    out = list(range(len(legal)))
    for i, c in enumerate(legal):
        for j in range(i):
            d = legal[j]
            if out[j] != j or d // 9 != c // 9 or k.points[d] != k.points[c]:
                continue
            suit = c // 9
            order = _SUIT_RANKS[mid * 4 + suit]
            a, b = sorted((order.index(c), order.index(d)))
            if all(mine_or_gone >> x & 1 for x in order[a + 1 : b]):
                out[i] = j
                break
    return out


def _suit_ranks(k: int) -> tuple[int, ...]:
    """The cards of suit ``k & 3`` in the order of their strength in mode ``k >> 2``
    when that suit is led (trumps by trump rank)."""
    suit = k & 3
    st = STRENGTH[k]
    return tuple(sorted((suit * 9 + r for r in range(9)), key=lambda c: st[c]))


_SUIT_RANKS = tuple(_suit_ranks(k) for k in range(32))


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


def settled(
    values: list[list[float]], z: float = 2.5, indifferent: float = 2.0, weights: list[float] | None = None
) -> bool:
    """Whether more samples cannot change the choice much: the leading card is
    ahead of every other by ``z`` standard errors of the paired difference, or
    the difference is surely below ``indifferent`` points. ``weights``: one per
    sample (importance weights), equal by default."""
    n = len(values[0])
    w = weights if weights is not None else [1.0] * n
    tw = sum(w)
    n_eff = tw * tw / sum(x * x for x in w)
    means = [sum(a * x for a, x in zip(w, v, strict=True)) / tw for v in values]
    b = max(range(len(values)), key=lambda i: means[i])
    vb = values[b]
    for j, vj in enumerate(values):
        if j == b:
            continue
        d = [x - y for x, y in zip(vb, vj, strict=True)]
        md = sum(a * x for a, x in zip(w, d, strict=True)) / tw
        var = sum(a * (x - md) ** 2 for a, x in zip(w, d, strict=True)) / tw * n / (n - 1)
        se = (var / n_eff) ** 0.5
        if md > z * se or md + z * se < indifferent:
            continue
        return False
    return True


INF = 1 << 20


def exact_values(
    hands: list[int],
    leader: int,
    modes: tuple[int, ...],
    points: tuple[int, ...] | list[int],
    trick: tuple[int, ...],
    teams: tuple[int, ...],
    seat: int,
    match_open: bool,
) -> dict[int, int]:
    """Double-dummy values of the mover's legal cards on one known deal.

    ``hands``: every seat's cards (the mover ``seat`` included, the cards of
    ``trick`` already removed); ``modes``: the mode id of every remaining trick,
    the current one first; ``match_open``: the mover's side took every trick so
    far. The value of a card is what the mover's side wins from here with best
    play by everyone (alpha-beta, a table of bounds at trick starts): card
    points, the last trick's 5 and, when it takes every trick, the match's 100.
    """
    n = len(hands)
    hands = list(hands)
    my = teams[seat]
    side = tuple(teams[s] == my for s in range(n))
    n_tr = len(modes)
    table: dict[tuple[int, ...], tuple[int, int]] = {}
    strength_t = STRENGTH
    under_t = UNDER
    params_t = LEGAL_PARAMS
    bit = BIT

    def trick_start(ti: int, lead: int, allwin: bool, alpha: int, beta: int) -> int:
        key = (*hands, lead, allwin)
        e = table.get(key)
        if e is not None:
            lo, hi = e
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            alpha = max(alpha, lo)
            beta = min(beta, hi)
        else:
            lo, hi = -INF, INF
        v = move(ti, 0, lead, 0, 0, 0, 0, 0, allwin, alpha, beta)
        if v <= alpha:
            hi = v
        elif v >= beta:
            lo = v
        else:
            lo = hi = v
        table[key] = (lo, hi)
        return v

    def move(
        ti: int, pos: int, s: int, k: int, best: int, win: int, under: int, tp: int, allwin: bool, alpha: int, beta: int
    ) -> int:
        mid = modes[ti]
        h = hands[s]
        if pos == 0:
            legal = h
        else:
            follow, puur, trump_in, non_trump = params_t[k]
            f = h & follow
            legal = f | (h & trump_in) if f and f != puur else h
            if under and h & non_trump:
                legal &= ~under
        maxing = side[s]
        v_best = -INF if maxing else INF
        last_card = pos == n - 1
        last_trick = ti == n_tr - 1
        for c in _ordered(legal, mid, k, pos):
            hands[s] = h ^ bit[c]
            if pos == 0:
                kk = mid * 4 + c // 9
                nb, nw, nu = strength_t[kk][c], s, under_t[kk][c]
            else:
                kk = k
                st = strength_t[k][c]
                if st > best:
                    nb, nw, nu = st, s, under_t[k][c]
                else:
                    nb, nw, nu = best, win, under
            ntp = tp + points[c]
            if last_card:
                mine = side[nw]
                gain = (ntp + (LAST_TRICK_BONUS if last_trick else 0)) if mine else 0
                nall = allwin and mine
                if last_trick:
                    v = gain + (MATCH_BONUS if nall else 0)
                else:
                    v = gain + trick_start(ti + 1, nw, nall, alpha - gain, beta - gain)
            else:
                v = move(ti, pos + 1, (s + 1) % n, kk, nb, nw, nu, ntp, allwin, alpha, beta)
            hands[s] = h
            if maxing:
                if v > v_best:
                    v_best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            elif v < v_best:
                v_best = v
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        return v_best

    # the current trick so far
    mid0 = modes[0]
    pos0 = len(trick)
    k0 = best0 = win0 = under0 = tp0 = 0
    if trick:
        led, wi, under0 = trick_status(mid0, trick)
        k0 = mid0 * 4 + led
        best0 = STRENGTH[k0][trick[wi]]
        win0 = (leader + wi) % n
        tp0 = sum(points[c] for c in trick)
    h = hands[seat]
    if pos0 == 0:
        legal = h
    else:
        legal = legal_mask(h, mid0, trick[0] // 9, under0)
    out: dict[int, int] = {}
    for c in card_ints(legal):
        # the mover's card, then the rest with a full window (exact values)
        hands[seat] = h ^ bit[c]
        if pos0 == 0:
            kk = mid0 * 4 + c // 9
            nb, nw, nu = STRENGTH[kk][c], seat, UNDER[kk][c]
        else:
            kk = k0
            st = STRENGTH[k0][c]
            nb, nw, nu = (st, seat, UNDER[k0][c]) if st > best0 else (best0, win0, under0)
        ntp = tp0 + points[c]
        if pos0 == n - 1:
            mine = side[nw]
            gain = (ntp + (LAST_TRICK_BONUS if n_tr == 1 else 0)) if mine else 0
            nall = match_open and mine
            if n_tr == 1:
                v = gain + (MATCH_BONUS if nall else 0)
            else:
                v = gain + trick_start(1, nw, nall, -INF, INF)
        else:
            v = move(0, pos0 + 1, (seat + 1) % n, kk, nb, nw, nu, ntp, match_open, -INF, INF)
        hands[seat] = h
        out[c] = v
    return out


def _ordered(legal: int, mid: int, k: int, pos: int) -> tuple[int, ...]:
    """Legal cards, the strongest first (good cuts come early)."""
    cs = card_ints(legal)
    if len(cs) < 3:
        return cs
    st = STRENGTH[k] if pos else None
    if st is None:
        return tuple(sorted(cs, key=lambda c: -STRENGTH[mid * 4 + c // 9][c]))
    return tuple(sorted(cs, key=lambda c: -st[c]))
