"""Paired experiments on the search's card play: prints figures, is not a test.

    python bench/bots_paired.py [--pairs N] [--deals D] [--seed S] [--opponents rule,random]
                                [VARIANT ...]

Every variant plays the same deal pairs (duplicate deals as in ``bench/bots.py``:
four players, the bot team on seats 0+2, then 1+3, the contract drawn among the
four suits, Obenabe and Undenufe) with a FIXED number of deals per decision
(``--deals``, not a time budget: the machine is shared and its load would enter),
each decision seeded by the deal pair, the seating and the decision's index, the
random team by the deal pair and the seating. A variant is ``name`` or
``name:key=value,...``, the values passed to ``search.search_card`` (ints,
floats, true/false; ``deals=D`` overrides ``--deals`` for that variant); the
first variant is the baseline and every other one is printed with its paired
difference over deal pairs, +- one standard error.
Default variants: ``blind`` (the search as the levels play) against
``read:pool=400`` (the deals weighed by the other seats' play, ``search.INFER_POOL``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bots import CONTRACTS, row_for

from scorekeeper.bots import rule_based_card
from scorekeeper.bots.search import INFER_POOL, search_card
from scorekeeper.engine import HandSetup, HandState, SeatView, announce_action
from scorekeeper.engine.deal import shuffle_deck
from scorekeeper.game.rulesets import default_ruleset

RS = default_ruleset("teams")
Bot = Callable[[SeatView, random.Random], int]


def parse_variant(text: str, deals: int) -> tuple[str, Bot]:
    name, _, spec = text.partition(":")
    kw: dict[str, Any] = {}
    for item in filter(None, spec.split(",")):
        key, _, raw = item.partition("=")
        kw[key] = raw == "true" if raw in ("true", "false") else (float(raw) if "." in raw else int(raw))

    n = int(kw.pop("deals", deals))

    def bot(view: SeatView, rng: random.Random) -> int:
        return search_card(view, RS, rng, 1000, min_samples=n, max_samples=n, z=float("inf"), **kw)

    return name, bot


def play(deck: tuple[int, ...], declarer: int, contract: Any, bot: Bot, other: str, side: int, tag: str) -> int:
    state = HandState(HandSetup(RS, (declarer - 1) % 4), deck)
    state.apply(announce_action(RS, row_for(contract), contract))
    orng = random.Random(f"opp{tag}")
    nd = 0
    while not state.is_terminal():
        seat = state.current_player()
        view = state.observation(seat)
        if seat % 2 == side:
            a = bot(view, random.Random(f"bot{tag}-{nd}"))
            nd += 1
        elif other == "random":
            a = orng.choice(view.legal_actions)
        else:
            a = rule_based_card(view, RS)
        state.apply(a)
    return state.points[side] + state.points[side + 2]


def run(bot: Bot, pairs: int, seed: int, other: str) -> tuple[list[float], list[int]]:
    rng = random.Random(seed)
    out: list[float] = []
    hands: list[int] = []
    for i in range(pairs):
        deck = shuffle_deck(rng)
        contract = rng.choice(CONTRACTS)
        declarer = rng.randrange(4)
        got = [play(deck, declarer, contract, bot, other, side, f"{seed}-{i}-{side}") for side in (0, 1)]
        out.append(sum(got) / 2)
        hands += got
    return out, hands


def mean_se(xs: list[float]) -> tuple[float, float]:
    return statistics.fmean(xs), statistics.stdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else 0.0


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("variants", nargs="*", default=["blind", f"read:pool={INFER_POOL}"])
    ap.add_argument("--pairs", type=int, default=40)
    ap.add_argument("--deals", type=int, default=30, help="deals per decision (default 30)")
    ap.add_argument("--seed", type=int, default=4000)
    ap.add_argument("--opponents", default="rule,random")
    args = ap.parse_args(argv)
    variants = [parse_variant(v, args.deals) for v in args.variants]
    print(f"{args.pairs} deal pairs, {args.deals} deals a decision, seed {args.seed}")
    for other in args.opponents.split(","):
        seed = args.seed + (1 if other == "rule" else 0)
        base: list[float] = []
        for name, bot in variants:
            t0 = time.process_time()
            pts, hands = run(bot, args.pairs, seed, other)
            m, se = mean_se(pts)
            won = 100 * sum(1 for h in hands if h > 157 - h) / len(hands)
            cpu = time.process_time() - t0
            line = f"vs {other:6s} {name:12s} {m:6.1f} +- {se:.1f} points, won {won:5.1f} %, CPU {cpu:.0f} s"
            if base:
                d, dse = mean_se([a - b for a, b in zip(pts, base, strict=True)])
                line += f", paired difference {d:+.2f} +- {dse:.2f}"
            else:
                base = pts
            print(line, flush=True)


if __name__ == "__main__":
    main()
