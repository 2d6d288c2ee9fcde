"""Choosing the contract ("quoi faire"): which open row, played as what, or pass.

One chooser: the computer players ask the row adviser (``adviser.advise``), the
same code that answers a person's "Which row?" on the slate. The levels differ
in how a contract's card points are estimated: the easy bot uses ``handeval``'s
rules of thumb (``samples`` 0), the search bots play sampled deals out with the
policy within their budget.

The pick (``adviser.choose``): the open row with the highest expected slate
value (three players: plus the sticks a cell may earn against the others' cells
in the row, the slate's ``scores``). Passing is rare (forehand gives the
opponents a free option): only a poor hand passes, and never when the engine
says it may not; in the club variant a hopeless hand in the barrel throws in.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from scorekeeper.engine.actions import CONTRACTS, PASS, SEICH, announce_action, decode_announce
from scorekeeper.engine.view import SeatView
from scorekeeper.game.cards import mask_of
from scorekeeper.game.contracts import Contract
from scorekeeper.game.rulesets import RuleSet

from .adviser import (
    PASS_PICK,
    SEICH_PICK,
    Advice,
    Scores,
    Situation,
    advise,
    best_block,
    choose,
    playout_outcomes,
    rows_advice,
)
from .search import SAFETY

MAX_CANDIDATES = 6  # the search's contracts per three rows (normal: two per row)
ALL = len(CONTRACTS)

__all__ = [
    "MAX_CANDIDATES",
    "Scores",
    "announcements",
    "best_block",
    "choose_bid",
    "decide",
    "estimate_by_playouts",
    "search_bid",
    "situation_of",
]


def announcements(view: SeatView, ruleset: RuleSet) -> list[tuple[int, str, Contract]]:
    out = []
    for a in view.legal_actions:
        d = decode_announce(ruleset, a)
        if d is not None:
            out.append((a, d[0], d[1]))
    return out


def situation_of(view: SeatView, ruleset: RuleSet, scores: Scores | None = None) -> Situation:
    """The adviser's view of the bidding seat: its side's open rows and the barrel."""
    side = ruleset.side_of(view.seat)
    rows = tuple(dict.fromkeys(key for _, key, _ in announcements(view, ruleset)))
    if not rows:  # a seat that speaks has open rows, and every row some contract
        raise ValueError("no contract to announce for this seat")
    legal = view.legal_actions
    return Situation(ruleset, rows, PASS in legal, SEICH in legal, side, scores or {})


def action_of(advice: Advice, ruleset: RuleSet) -> int:
    """The engine action of the adviser's pick."""
    if advice.pick == PASS_PICK:
        return PASS
    if advice.pick == SEICH_PICK:
        return SEICH
    return announce_action(ruleset, advice.pick, advice.row(advice.pick).contract)


def decide(view: SeatView, ruleset: RuleSet, estimates: Mapping[Contract, float], scores: Scores) -> int:
    """The bidding action given an estimate of the card points of every announceable contract."""
    situation = situation_of(view, ruleset, scores)
    hand = mask_of(view.hand)
    rows = rows_advice(situation, hand, {c: [(v, False)] for c, v in estimates.items()})
    pick = choose(situation, rows)
    return action_of(Advice(rows, pick, situation.may_pass, 0), ruleset)


def estimate_by_playouts(
    view: SeatView,
    ruleset: RuleSet,
    contracts: Sequence[Contract],
    rng: random.Random,
    budget_ms: float,
    max_samples: int = 300,
) -> dict[Contract, float]:
    """Mean points written by each contract over random deals of the unseen cards,
    this seat declaring and leading, every seat playing the policy."""
    got, _ = playout_outcomes(mask_of(view.hand), ruleset, contracts, rng, SAFETY * budget_ms, max_samples)
    return {c: sum(p for p, _ in v) / len(v) for c, v in got.items()}


def choose_bid(view: SeatView, ruleset: RuleSet, scores: Scores | None = None) -> int:
    """The easy (rule-based) bidding action: the adviser on the rules of thumb."""
    situation = situation_of(view, ruleset, scores)
    return action_of(advise(mask_of(view.hand), situation, samples=0, per_row=ALL), ruleset)


def search_bid(
    view: SeatView,
    ruleset: RuleSet,
    rng: random.Random,
    budget_ms: float,
    scores: Scores | None = None,
    candidates: int = MAX_CANDIDATES,
) -> int:
    """The search bot's bidding action: the adviser's playouts within the budget
    (``candidates`` // 3 contracts per row that offers a choice)."""
    situation = situation_of(view, ruleset, scores)
    advice = advise(
        mask_of(view.hand), situation, rng, SAFETY * budget_ms, samples=10_000, per_row=max(1, candidates // 3)
    )
    return action_of(advice, ruleset)
