"""Determinization: deal the cards a seat cannot see to the other seats, at random,
consistently with what it knows (``Knowledge``: hand sizes and proven voids).

A weighted random greedy deal (most constrained card first, a seat drawn in
proportion to the room it has left) almost always succeeds; when it gets stuck
a capacity-respecting bipartite matching (augmenting paths) finds a consistent
deal, which always exists since the real deal is one.

``declarer_judge`` reads the bidding: the declarer chose the contract, so deals
where her hand suits it count more (the search weighs every drawn deal by it),
as a Jass player assumes the trumps sit with the declarer; a contract forced on
her (her side's last row) is not read.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from scorekeeper.engine.bitmasks import card_ints
from scorekeeper.game.contracts import Kind
from scorekeeper.game.rulesets import RuleSet

from .handeval import contract_points, shape_of
from .knowledge import Knowledge

# A declarer's hand is judged against what a chosen contract usually promises:
# plausibility is a logistic of (estimate - centre) / scale, per table shape.
JUDGE_CENTRE = {"three": 65.0, "teams": 90.0, "solo4": 50.0}
JUDGE_SCALE = 10.0

_GREEDY_TRIES = 8


Options = dict[int, list[int]]  # card -> seats that may hold it


def _greedy(cards: list[int], opts: Options, room: dict[int, int], rng: random.Random) -> dict[int, int] | None:
    room = dict(room)
    out: dict[int, int] = {}
    rnd = rng.random
    for c in cards:
        choices = [s for s in opts[c] if room[s] > 0]
        if not choices:
            return None
        if len(choices) == 1:
            s = choices[0]
        else:
            total = sum(room[x] for x in choices)
            r = rnd() * total
            s = choices[-1]
            for x in choices:
                r -= room[x]
                if r < 0:
                    s = x
                    break
        out[c] = s
        room[s] -= 1
    return out


def match_cards(cards: list[int], opts: Options, room: dict[int, int], rng: random.Random) -> dict[int, int] | None:
    """Cards to seats with capacities (Kuhn's augmenting paths over seat slots)."""
    holder: dict[int, list[int]] = {s: [] for s in room}
    owner: dict[int, int] = {}

    def place(c: int, seen: set[int]) -> bool:
        seats = list(opts[c])
        rng.shuffle(seats)
        for s in seats:
            if s in seen:
                continue
            seen.add(s)
            if len(holder[s]) < room[s]:
                holder[s].append(c)
                owner[c] = s
                return True
            for other in list(holder[s]):
                if place(other, seen):  # ``other`` moved to a seat not yet seen, never back to s
                    holder[s].remove(other)
                    holder[s].append(c)
                    owner[c] = s
                    return True
        return False

    for c in cards:
        if not place(c, set()):
            return None
    return owner


def sample_hands(k: Knowledge, rng: random.Random) -> list[int]:
    """Hands of every seat (masks): the seat's own, the others' drawn at random."""
    others = [s for s in range(k.n) if s != k.seat]
    cards = list(card_ints(k.unknown))
    hands = [0] * k.n
    hands[k.seat] = k.hand
    if all(k.allowed[s] == k.unknown for s in others):
        # no void shown: a shuffle dealt out in order is a uniform deal (and the common case)
        rng.shuffle(cards)
        i = 0
        for s in others:
            m = 0
            for c in cards[i : i + k.sizes[s]]:
                m |= 1 << c
            hands[s] = m
            i += k.sizes[s]
        return hands
    room = {s: k.sizes[s] for s in others}
    opts = {c: [s for s in others if k.allowed[s] >> c & 1] for c in cards}
    owner: dict[int, int] | None = None
    for _ in range(_GREEDY_TRIES):
        rng.shuffle(cards)
        cards.sort(key=lambda c: len(opts[c]))
        owner = _greedy(cards, opts, room, rng)
        if owner is not None:
            break
    if owner is None:
        owner = match_cards(cards, opts, room, rng)
    if owner is None:  # the real deal is one: only wrong knowledge gets here, and that is an error
        raise ValueError("no deal of the unseen cards fits what the seat knows")
    for c, s in owner.items():
        hands[s] |= 1 << c
    return hands


Judge = Callable[[list[int]], float]  # a deal -> how plausible (0..1) the bidding makes it


def declarer_judge(k: Knowledge, ruleset: RuleSet) -> Judge | None:
    """How well a sampled deal fits the declarer's choice: a declarer (other than
    this seat) chose the contract, so her hand as dealt (the sampled cards plus
    those she played) probably suits it. None when the seat itself declared or the contract
    was forced on the declarer (``Knowledge.chosen``)."""
    if k.seat == k.declarer or k.contract is None or not k.played_by or not k.chosen:
        return None
    d = k.declarer
    contract = k.contract
    shape = shape_of(ruleset.n_players, ruleset.teams)
    if contract.kind is Kind.KOMISCH:
        return None
    mid = JUDGE_CENTRE[shape]
    played = k.played_by[d]

    def judge(hands: list[int]) -> float:
        v = contract_points(contract, hands[d] | played, shape)
        return 1.0 / (1.0 + math.exp(-(v - mid) / JUDGE_SCALE))

    return judge
