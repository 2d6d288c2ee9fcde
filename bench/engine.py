"""Engine benchmark: prints figures, is not a test.

    python bench/engine.py [--hands N] [--seconds S]

Measures, four players, random trump / Obenabe / Undenufe hands:
- fast path: random legal playouts per second (``engine.fast.Playout`` run by
  the ``Uniform`` player), from dealt hands (the deal is drawn beforehand, outside the timing; the figure
  with the shuffle and deal included is printed too);
- full public API: hands per second through ``HandState`` with the announce,
  and a per-seat view (``observation``) built for every move;
- one legal-cards call (``bitmasks.legal_mask``), in microseconds.

The last line is exactly:
``engine fast_hands_per_s=<n> api_hands_per_s=<n> legal_cards_us=<x>``
``SCOREKEEPER_BENCH_HANDS`` (or ``--hands``) sets the number of hands.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorekeeper.engine.actions import announce_action
from scorekeeper.engine.bitmasks import SUIT_OF, UNDER, legal_mask
from scorekeeper.engine.deal import deal_hands, shuffle_deck
from scorekeeper.engine.fast import Playout, Uniform, points_table, schedule_ids
from scorekeeper.engine.hand_setup import HandSetup
from scorekeeper.engine.state import HandState
from scorekeeper.game.cards import Suit
from scorekeeper.game.contracts import OBENABE, UNDENUFE, Contract, suit_contract
from scorekeeper.game.rulesets import default_ruleset

CONTRACTS: list[Contract] = [suit_contract(s) for s in Suit] + [OBENABE, UNDENUFE]


def bench_fast(n_hands: int, rng: random.Random) -> tuple[float, float]:
    jobs = []
    for _ in range(n_hands):
        c = rng.choice(CONTRACTS)
        jobs.append((deal_hands(shuffle_deck(rng), 4, 0), schedule_ids(c, 9), points_table(c)))
    player = Uniform(rng.random)
    t0 = time.perf_counter()
    for hands, modes, pts in jobs:
        Playout(hands, 1, modes, pts).run(player)
    fast = n_hands / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    for _ in range(n_hands):
        c = rng.choice(CONTRACTS)
        Playout(deal_hands(shuffle_deck(rng), 4, 0), 1, schedule_ids(c, 9), points_table(c)).run(player)
    with_deal = n_hands / (time.perf_counter() - t0)
    return fast, with_deal


def bench_api(n_hands: int, rng: random.Random) -> float:
    rs = default_ruleset("solo4")
    setup = HandSetup(rs, 0)
    rows = {c: ("joker1" if c.kind.value == "suit" else c.kind.value) for c in CONTRACTS}
    t0 = time.perf_counter()
    for _ in range(n_hands):
        state = HandState.new(setup, rng)
        c = rng.choice(CONTRACTS)
        state.apply(announce_action(rs, rows[c], c))
        while not state.is_terminal():
            view = state.observation(state.current_player())
            legal = view.legal_actions
            state.apply(legal[int(rng.random() * len(legal))])
        state.result()
    return n_hands / (time.perf_counter() - t0)


def bench_legal(n_calls: int, rng: random.Random) -> float:
    cases = []
    for _ in range(1000):
        hands = deal_hands(shuffle_deck(rng), 4, 0)
        mid = rng.randrange(6)
        first = rng.choice([c for c in range(36) if hands[0] >> c & 1])
        led = SUIT_OF[first]
        cases.append((hands[1], mid, led, UNDER[mid * 4 + led][first]))
    reps = max(1, n_calls // len(cases))
    t0 = time.perf_counter()
    for _ in range(reps):
        for hand, mid, led, under in cases:
            legal_mask(hand, mid, led, under)
    loop = time.perf_counter() - t0
    t0 = time.perf_counter()
    for _ in range(reps):
        for _hand, _mid, _led, _under in cases:  # the loop alone, to subtract
            pass
    empty = time.perf_counter() - t0
    return max(loop - empty, 0.0) / (reps * len(cases)) * 1e6


def bench_state_legal(rng: random.Random) -> float:
    """One ``HandState.legal_actions()`` call (the public API: a list of ints), in microseconds."""
    rs = default_ruleset("solo4")
    states = []
    for _ in range(200):
        state = HandState.new(HandSetup(rs, 0), rng)
        state.apply(announce_action(rs, "joker1", rng.choice(CONTRACTS)))
        for _ in range(rng.randrange(1, 30)):
            legal = state.legal_actions()
            state.apply(legal[int(rng.random() * len(legal))])
        states.append(state)
    reps = 50
    t0 = time.perf_counter()
    for _ in range(reps):
        for state in states:
            state.legal_actions()
    return (time.perf_counter() - t0) / (reps * len(states)) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=int(os.environ.get("SCOREKEEPER_BENCH_HANDS", "20000")))
    args = ap.parse_args()
    n = max(1, args.hands)
    rng = random.Random(2026)
    fast, with_deal = bench_fast(n, rng)
    print(f"fast path: {fast:,.0f} hands/s from dealt hands; {with_deal:,.0f} hands/s with shuffle and deal")
    api = bench_api(max(1, n // 8), rng)
    print(f"public API with a seat view per move: {api:,.0f} hands/s")
    us = bench_legal(max(1000, n * 10), rng)
    print(f"legal cards: {us:.3f} us per call (bitmasks.legal_mask, the engine's rule)")
    print(f"HandState.legal_actions(): {bench_state_legal(rng):.3f} us per call (public API, list of ints)")
    print(f"engine fast_hands_per_s={fast:.0f} api_hands_per_s={api:.0f} legal_cards_us={us:.3f}")


if __name__ == "__main__":
    main()
