"""Choosing the contract ("quoi faire"): which open row, played as what, or pass.

Both levels share the decision; they differ in how a contract's card points
are estimated: the easy bot uses ``handeval``'s rules of thumb, the search bot
plays sampled deals out with the policy (``estimate_by_playouts``).

A row is worth what this hand scores there *more than* the row would score
later with an ordinary hand (``baseline``): a suit row about 75, as the
sources say, a joker row about 100 ("a hand worth 100 or more belongs on a
joker row"). In the team variants that difference is weighted by the row's
factor. In the three-player game a row earns sticks by beating the other
players' scores in it: a poor hand goes to the row where the others scored
low (the sources' Undenufe example), so the slate's cells (``scores``) count.
Passing is rare (forehand gives the opponents a free option): only a poor
hand passes, and never when the engine says it may not.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence

from scorekeeper.engine.actions import PASS, SEICH, decode_announce
from scorekeeper.engine.fast import points_table, schedule_ids
from scorekeeper.engine.view import SeatView
from scorekeeper.game.cards import Suit, mask_of
from scorekeeper.game.contracts import Contract, Kind, Mode, TrickMode
from scorekeeper.game.rulesets import Row, RuleSet, Scoring

from .handeval import contract_points, komisch_block_points, shape_of
from .knowledge import hand_value, teams_of
from .playout import policy_playout
from .search import SAFETY

Scores = Mapping[tuple[str, int], int]  # (row key, side) -> the value in that cell

# Per table shape (``handeval.shape_of``): what a row scores later with an ordinary
# hand (the mean of a hand's best contract over random deals), what a joker row
# scores (the best tenth of hands), and the estimates below which a hand passes
# (when it may) or throws in with Seich (club variant, in the barrel). Three
# players: 75 and about 100, as the sources say.
BASELINE = {"three": 76.0, "teams": 101.0, "solo4": 62.0}
JOKER_BASELINE = {"three": 97.0, "teams": 118.0, "solo4": 85.0}
PASS_BELOW = {"three": 55.0, "teams": 85.0, "solo4": 40.0}
SEICH_BELOW = {"three": 40.0, "teams": 72.0, "solo4": 25.0}
SPREAD = 14.0  # three players: how uncertain a score comparison is (logistic scale)
MAX_CANDIDATES = 6  # contracts the search plays out (the best by the rules of thumb)
EPSILON = 0.08


def baseline(row: Row, ruleset: RuleSet, n_open: int) -> float:
    shape = shape_of(ruleset.n_players, ruleset.teams)
    base = JOKER_BASELINE[shape] if row.is_joker else BASELINE[shape]
    # fewer open rows leave less choice later: expect less of them
    return base * (0.75 + 0.25 * n_open / len(ruleset.rows))


def _beats(x: float, y: float) -> float:
    return 1.0 / (1.0 + math.exp(-(x - y) / SPREAD))


def _stick_share(x: float, others: Sequence[float]) -> float:
    """Expected sticks minus potatoes (per unit of row value) for scoring ``x``."""
    top = 1.0
    bottom = 1.0
    for y in others:
        p = _beats(x, y)
        top *= p
        bottom *= 1.0 - p
    return top - bottom


def utility(row: Row, points: float, ruleset: RuleSet, side: int, n_open: int, scores: Scores) -> float:
    """What choosing ``row`` with an estimate of ``points`` gains over keeping it."""
    base = baseline(row, ruleset, n_open)
    if ruleset.scoring is Scoring.RAW:
        others = [float(scores.get((row.key, s), base)) for s in range(ruleset.n_sides) if s != side]
        return row.factor * (_stick_share(points, others) - _stick_share(base, others))
    if ruleset.scoring is Scoring.TENTHS:
        return row.factor * (points - base) / 10.0
    return row.factor * (points - base)


def announcements(view: SeatView, ruleset: RuleSet) -> list[tuple[int, str, Contract]]:
    out = []
    for a in view.legal_actions:
        d = decode_announce(ruleset, a)
        if d is not None:
            out.append((a, d[0], d[1]))
    return out


def decide(view: SeatView, ruleset: RuleSet, estimates: Mapping[Contract, float], scores: Scores) -> int:
    """The bidding action given an estimate of the card points of every contract."""
    side = ruleset.side_of(view.seat)
    options = announcements(view, ruleset)
    if not options:  # a seat that speaks has open rows, and every row some contract
        raise ValueError("no contract to announce for this seat")
    n_open = len(view.open_rows[side])
    best_action = options[0][0]
    best_u = -math.inf
    for a, key, c in options:
        u = utility(ruleset.row(key), estimates[c], ruleset, side, n_open, scores)
        if u > best_u:
            best_action, best_u = a, u
    best_points = max(estimates.values())
    legal = view.legal_actions
    shape = shape_of(ruleset.n_players, ruleset.teams)
    if PASS in legal and best_points < PASS_BELOW[shape]:
        return PASS
    if SEICH in legal and best_points < SEICH_BELOW[shape]:
        return SEICH
    return best_action


def heuristic_estimates(view: SeatView, ruleset: RuleSet) -> dict[Contract, float]:
    hand = mask_of(view.hand)
    shape = shape_of(ruleset.n_players, ruleset.teams)
    return {c: contract_points(c, hand, shape) for _, _, c in announcements(view, ruleset)}


def _modes(contract: Contract, first: TrickMode, n_tricks: int, rng: random.Random) -> tuple[int, ...]:
    """The trick modes of a contract; Komisch: the hand's best block first, the
    others in a random order (chosen later, perhaps by others)."""
    if contract.kind is not Kind.KOMISCH:
        return schedule_ids(contract, n_tricks)
    rest = [TrickMode(m) for m in (Mode.TRUMP, Mode.OBENABE, Mode.UNDENUFE) if m is not first.mode]
    rng.shuffle(rest)
    blocks = [first] + [TrickMode(b.mode, Suit(rng.randrange(4))) if b.mode is Mode.TRUMP else b for b in rest]
    return schedule_ids(contract, n_tricks, blocks)


def best_block(hand: int, open_modes: Sequence[Mode], shape: str) -> TrickMode:
    """The Komisch block the hand likes best among the open ones."""
    best = TrickMode(Mode.OBENABE)
    best_v = -math.inf
    for m in open_modes:
        for suit in range(4) if m is Mode.TRUMP else (None,):
            v = komisch_block_points(hand, m, suit, shape)
            if v > best_v:
                best_v = v
                best = TrickMode(m, None if suit is None else Suit(suit))
    return best


def estimate_by_playouts(
    view: SeatView,
    ruleset: RuleSet,
    contracts: Sequence[Contract],
    rng: random.Random,
    budget_ms: float,
    max_samples: int = 300,
) -> dict[Contract, float]:
    """Mean objective of each contract over random deals of the unseen cards,
    this seat declaring and leading, every seat playing the policy."""
    t0 = time.perf_counter()
    deadline = t0 + SAFETY * budget_ms / 1000.0
    n = view.n_players
    seat = view.seat
    nt = ruleset.n_tricks
    hand = mask_of(view.hand)
    teams = teams_of(ruleset, seat)
    others = [s for s in range(n) if s != seat]
    unseen = [c for c in range(36) if not hand >> c & 1]
    per = nt
    totals = dict.fromkeys(contracts, 0.0)
    first = best_block(hand, (Mode.TRUMP, Mode.OBENABE, Mode.UNDENUFE), shape_of(n, ruleset.teams))
    card_points = {c: points_table(c, ruleset.undenufe_six11, (first,)) for c in contracts}
    samples = 0
    last = t0
    while samples < max_samples:
        rng.shuffle(unseen)
        hands = [0] * n
        hands[seat] = hand
        for i, s in enumerate(others):
            for card in unseen[i * per : (i + 1) * per]:
                hands[s] |= 1 << card
        for c in contracts:
            modes = _modes(c, first, nt, rng)
            pts, won = policy_playout(
                hands, seat, modes, card_points[c], (), teams, rng.random, EPSILON, c.is_misere, teams[seat]
            )
            totals[c] += hand_value(teams, seat, seat, c.is_misere, nt, pts, won)
        samples += 1
        now = time.perf_counter()
        if now + (now - last) >= deadline:  # the next sample would end past the deadline
            break
        last = now
    return {c: totals[c] / samples for c in contracts}


def choose_bid(view: SeatView, ruleset: RuleSet, scores: Scores | None = None) -> int:
    """The easy (rule-based) bidding action."""
    return decide(view, ruleset, heuristic_estimates(view, ruleset), scores or {})


def search_bid(
    view: SeatView,
    ruleset: RuleSet,
    rng: random.Random,
    budget_ms: float,
    scores: Scores | None = None,
    candidates: int = MAX_CANDIDATES,
) -> int:
    """The search bot's bidding action: the rules of thumb pick the candidates,
    playouts of sampled deals estimate them."""
    scores = scores or {}
    rough = heuristic_estimates(view, ruleset)
    side = ruleset.side_of(view.seat)
    n_open = len(view.open_rows[side])
    ranked: dict[Contract, float] = {}
    for _, key, c in announcements(view, ruleset):
        u = utility(ruleset.row(key), rough[c], ruleset, side, n_open, scores)
        ranked[c] = max(ranked.get(c, -math.inf), u)
    top = sorted(ranked, key=lambda c: -ranked[c])[:candidates]
    if not top:
        return decide(view, ruleset, rough, scores)
    est = estimate_by_playouts(view, ruleset, top, rng, budget_ms)
    # contracts not played out keep a rough estimate, capped below the candidates'
    floor = min(est.values())
    full = {c: min(v, floor) for c, v in rough.items()}
    full.update(est)
    return decide(view, ruleset, full, scores)
