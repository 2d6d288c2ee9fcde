"""Row adviser's floor: prints figures, is not a test.

    python bench/adviser_floor.py [--deals N] [--seed S] [--hidden K] [--samples A]

A pick sees only its hand, so even the best pick a player can make, the row with
the highest expected slate value given the hand, keeps a regret in hindsight:
the floor under ``bench/adviser.py``'s regrets. On the bench's deals (the same
seed, variants, open rows and hands), every candidate contract is played out on
``--hidden`` random deals of the hidden cards, as the bench's hindsight plays the
real deal (``policy_playout`` without exploration, seat 0 declaring and
leading). The best pick is made on one half of those deals and its expected
regret measured on the other half (and the other way round): per deal, the best
open row's slate value minus the pick's, each row with the contract the first
half names for it. The bench's pickers are measured the same way on the same
halves: the adviser as it runs (``advise``, ``--samples`` deals of its own), the
hand-reading heuristic, always the highest factor, a random open row. Expected
regrets are far less noisy than the bench's (one real deal per hand): they
compare pickers on the same hands.

The last line is:
``floor regret=<x> adviser_regret=<x> heuristic_regret=<x> factor_only_regret=<x> deals=<n>``
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from adviser import deal, factor_only_pick, heuristic_pick

from scorekeeper.bots.adviser import (
    SAMPLES,
    Situation,
    advise,
    best_block,
    candidates,
    deal_rest,
    play_out,
    slate_value,
)
from scorekeeper.bots.handeval import shape_of
from scorekeeper.game.contracts import Contract, Mode
from scorekeeper.game.rulesets import RuleSet

Values = dict[str, dict[Contract, list[float]]]  # row -> contract -> slate value per hidden deal


def hidden_values(rs: RuleSet, hand: int, open_rows: tuple[str, ...], k: int, rng: random.Random) -> Values:
    """Every open row's candidate contracts, played out on ``k`` deals of the hidden cards."""
    contracts = candidates(Situation(rs, open_rows, may_pass=False), hand)
    first = best_block(hand, (Mode.TRUMP, Mode.OBENABE, Mode.UNDENUFE), shape_of(rs.n_players, rs.teams))
    outcomes: dict[Contract, list[tuple[int, bool]]] = {c: [] for c in contracts}
    for _ in range(k):
        hands = deal_rest(hand, rs.n_players, rng)
        seed = rng.randrange(2**32)
        for c in contracts:
            outcomes[c].append(play_out(hands, rs, c, first, random.Random(seed), eps=0.0))
    out: Values = {}
    for key in open_rows:
        row = rs.row(key)
        out[key] = {
            c: [slate_value(rs.cells, row.factor, p, m) for p, m in got] for c, got in outcomes.items() if row.allows(c)
        }
    return out


def expected_regrets(
    values: Values, picks: Sequence[tuple[str, Contract | None]], half: slice, other: slice
) -> list[float]:
    """Each pick's expected regret on the ``other`` deals, every row with the contract
    the ``half`` deals name for it; a pick without a contract plays that one too."""
    named = {key: max(cs, key=lambda c: statistics.fmean(cs[c][half])) for key, cs in values.items()}
    rows = {key: values[key][c][other] for key, c in named.items()}
    best = [max(vs) for vs in zip(*rows.values(), strict=True)]
    out = []
    for key, c in picks:
        got = values[key][c][other] if c is not None and c in values[key] else rows[key]
        out.append(statistics.fmean(b - v for b, v in zip(best, got, strict=True)))
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--seed", type=int, default=25)
    ap.add_argument("--hidden", type=int, default=512, help="deals of the hidden cards per hand (two halves)")
    ap.add_argument("--samples", type=int, default=SAMPLES, help="the adviser's own deals")
    args = ap.parse_args(argv)
    if args.deals < 1 or args.hidden < 2:
        ap.error("--deals must be at least 1 and --hidden at least 2")
    names = ("floor", "adviser", "heuristic", "factor_only", "random")
    per: dict[str, dict[str, list[float]]] = {}
    h = args.hidden // 2
    halves = ((slice(0, h), slice(h, 2 * h)), (slice(h, 2 * h), slice(0, h)))
    for i in range(args.deals):
        rs, open_rows, hands, rng = deal(args.seed, i)
        hand = hands[0]
        rng.randrange(2**32)  # the bench's hindsight seed: the random pick is the bench's
        random_row = rng.choice(open_rows)
        values = hidden_values(rs, hand, open_rows, 2 * h, random.Random(10_000 + i))
        advice = advise(hand, Situation(rs, open_rows, may_pass=False), random.Random(i), 1e9, args.samples)
        sums = [0.0] * len(names)
        for half, other in halves:
            mean = {key: max(statistics.fmean(vs[half]) for vs in cs.values()) for key, cs in values.items()}
            picks: list[tuple[str, Contract | None]] = [
                (max(open_rows, key=mean.__getitem__), None),
                (advice.pick, advice.row(advice.pick).contract),
                (heuristic_pick(rs, hand, open_rows), None),
                (factor_only_pick(rs, hand, open_rows), None),
                (random_row, None),
            ]
            for j, r in enumerate(expected_regrets(values, picks, half, other)):
                sums[j] += r / len(halves)
        for variant in (rs.variant.value, "all"):
            got = per.setdefault(variant, {n: [] for n in names})
            for n, s in zip(names, sums, strict=True):
                got[n].append(s)
    print(f"deals {args.deals} (seed {args.seed}), {2 * h} hidden deals per hand, adviser {args.samples} samples")
    print("expected regret per variant (best open row minus the pick, on held-out deals of the hidden cards):")
    for variant, got in sorted(per.items(), key=lambda kv: kv[0] == "all"):
        figures = " ".join(f"{n}={statistics.fmean(got[n]):8.2f}" for n in names)
        print(f"  {variant:6s} deals={len(got['floor']):5d} {figures}")
    a = per["all"]
    diff = [x - y for x, y in zip(a["adviser"], a["floor"], strict=True)]
    se = statistics.stdev(diff) / len(diff) ** 0.5 if len(diff) > 1 else 0.0
    print(f"adviser minus floor: {statistics.fmean(diff):.2f} (se {se:.2f})")
    print(
        f"floor regret={statistics.fmean(a['floor']):.2f} adviser_regret={statistics.fmean(a['adviser']):.2f}"
        f" heuristic_regret={statistics.fmean(a['heuristic']):.2f}"
        f" factor_only_regret={statistics.fmean(a['factor_only']):.2f} deals={args.deals}"
    )


if __name__ == "__main__":
    main()
