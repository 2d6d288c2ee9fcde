"""The outlook's calibration and speed: prints figures, is not a test.

    python bench/outlook.py [--evenings 240] [--simulations N] [--quick]

Calibration: whole evenings played by the computer players (``bench/selfplay.py``,
level ``easy``, the same players that made the table) on held-out seeds
(``random.Random("outlook-bench:<variant>:<i>")``; the table's evenings are
``"outlook-table:..."``), the variants in turn (three players, teams, all against
all, club). After every hand (a Seich hand too) the outlook is computed as the
app computes it (``evening_outlook``: the shipped table, the seed of the evening
and its version) and scored against how the evening really ended.

Score: the Brier score over the outcomes "side s wins alone" (one per side) and
"the win is shared": the sum of squared differences between the forecast
(``win`` per side, ``shared``) and what happened (1 for the one that happened),
averaged over every forecast; 0 is perfect, 2 the worst. Ties for a row's sticks
in the three-player game are cut at the end by a seeded draw.

Baseline: the current leader wins. A single leader gets 1; a lead shared by k
sides gives each 1/k (the baseline's fairest reading: it never bets on a tie, and
a tied lead, 0:0 at the start, is no worse than a guess). Leaders are by slate
total, by net sticks known so far with three players (``SideOutlook.total``).

Speed: the outlook (definitions and simulation) of a full-size evening, from an
empty slate (every cell to simulate) and after half the hands, each variant with
its default rows and the team and solo games with the optional rows too, timed
warm (the table loaded, as in a running server) and cold (first call). The
figure is the CPU time of the computing thread (``time.thread_time``): on this
shared machine the wall clock also counts whatever else runs; both are printed.

The last line is exactly:
``outlook brier=<x> baseline_brier=<x> evenings=<n>``
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from selfplay import Hand, play_evening

from scorekeeper.game.rulesets import EXTRA_ROWS, RuleSet, default_ruleset
from scorekeeper.scoring import Slate, draw_cut, final_result, ties
from scorekeeper.scoring.forecast import SIMULATIONS, default_table
from scorekeeper.scoring.outlook import Outlook, evening_outlook

VARIANTS = ("three", "teams", "solo4", "club")
SEED_PREFIX = "outlook-bench"
LEVEL = "easy"


def forecast_vector(out: Outlook) -> list[float]:
    return [s.win or 0.0 for s in out.sides] + [out.shared or 0.0]


def baseline_vector(out: Outlook) -> list[float]:
    lead = max(s.total for s in out.sides)
    leaders = [s.side for s in out.sides if s.total == lead]
    return [1.0 / len(leaders) if s.side in leaders else 0.0 for s in out.sides] + [0.0]


def brier(forecast_: list[float], outcome: list[float]) -> float:
    return sum((f - o) ** 2 for f, o in zip(forecast_, outcome, strict=True))


def outcome_vector(slate: Slate, rng: random.Random) -> list[float]:
    result = final_result(slate, [draw_cut(t, rng) for t in ties(slate)])
    n = slate.ruleset.n_sides
    if len(result.winners) == 1:
        return [1.0 if s == result.winners[0] else 0.0 for s in range(n)] + [0.0]
    return [0.0] * n + [1.0]


class Calibration:
    def __init__(self) -> None:
        self.forecast: list[float] = []
        self.baseline: list[float] = []
        self.seconds: list[float] = []  # CPU time per outlook
        self.bins: list[list[float]] = [[0.0, 0.0, 0.0] for _ in range(10)]  # n, sum forecast, sum outcome

    def add(self, vectors: list[tuple[list[float], list[float]]], outcome: list[float]) -> None:
        for fc, base in vectors:
            self.forecast.append(brier(fc, outcome))
            self.baseline.append(brier(base, outcome))
            for p, o in zip(fc[:-1], outcome[:-1], strict=True):
                b = self.bins[min(int(p * 10), 9)]
                b[0] += 1
                b[1] += p
                b[2] += o


def run_evening(variant: str, i: int, simulations: int, cal: Calibration) -> None:
    rs = default_ruleset(variant)
    evening_id = f"{SEED_PREFIX}:{variant}:{i}"
    vectors: list[tuple[list[float], list[float]]] = []

    def on_hand(slate: Slate, hand: Hand) -> None:
        c0 = time.thread_time()
        out = evening_outlook(slate, evening_id, slate.hands_dealt, simulations=simulations)
        cal.seconds.append(time.thread_time() - c0)
        vectors.append((forecast_vector(out), baseline_vector(out)))

    evening = play_evening(rs, evening_id, LEVEL, on_hand)
    assert evening.slate is not None
    cal.add(vectors, outcome_vector(evening.slate, random.Random(f"{evening_id}:cut")))


def speed(simulations: int, repeats: int) -> tuple[float, float, str, list[str]]:
    """CPU and wall-clock medians (ms, warm) of the slowest full-size case, its name, and the printed lines."""
    lines = []
    worst_cpu, worst_wall, worst_name = 0.0, 0.0, ""
    cases: list[tuple[str, RuleSet]] = [(v, default_ruleset(v)) for v in VARIANTS]
    cases += [(f"{v}+extras", default_ruleset(v, extra_rows=EXTRA_ROWS)) for v in ("teams", "solo4")]
    for name, rs in cases:
        evening = play_evening(rs, f"{SEED_PREFIX}:speed:{name}", LEVEL)
        half = evening.entries[: len(evening.entries) // 2]
        for label, entries in (("empty slate", []), ("half played", half)):
            slate = Slate.build(rs, evening.first_dealer, entries)
            cpu, wall = [], []
            for r in range(repeats):
                t0, c0 = time.perf_counter(), time.thread_time()
                evening_outlook(slate, f"speed:{name}:{label}", r, simulations=simulations)
                cpu.append((time.thread_time() - c0) * 1000)
                wall.append((time.perf_counter() - t0) * 1000)
            med_cpu, med_wall = statistics.median(cpu[1:]), statistics.median(wall[1:])
            lines.append(
                f"  {name:13} {label:11}: CPU median {med_cpu:5.1f} ms, max {max(cpu[1:]):5.1f};"
                f" wall median {med_wall:5.1f} ms; first call CPU {cpu[0]:5.1f} ms ({len(rs.rows) * rs.n_sides} cells)"
            )
            if label == "empty slate" and med_cpu > worst_cpu:
                worst_cpu, worst_wall, worst_name = med_cpu, med_wall, name
    return worst_cpu, worst_wall, worst_name, lines


def _ratio(f: float, b: float) -> str:
    """Brier over baseline; a baseline of 0 (every forecast of a few evenings already certain) has none."""
    return f"{f / b:.3f}" if b else "n/a"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--evenings", type=int, default=240, help="held-out evenings, the variants in turn (default 240)")
    ap.add_argument("--simulations", type=int, default=SIMULATIONS, help=f"per forecast (default {SIMULATIONS})")
    ap.add_argument("--repeats", type=int, default=21, help="timings per speed case (default 21)")
    args = ap.parse_args(argv)
    t_start = time.perf_counter()
    t0 = time.perf_counter()
    default_table()
    print(f"table loaded in {(time.perf_counter() - t0) * 1000:.0f} ms")
    worst_cpu, worst_wall, worst_name, lines = speed(args.simulations, max(2, args.repeats))
    print(
        f"outlook time ({args.simulations} simulations; warm = table loaded, caches filled; CPU time of this"
        " thread, and wall clock, which on a shared machine counts the neighbours' work too):"
    )
    for line in lines:
        print(line)
    per_variant = {v: Calibration() for v in VARIANTS}
    for i in range(args.evenings):
        variant = VARIANTS[i % len(VARIANTS)]
        run_evening(variant, i // len(VARIANTS), args.simulations, per_variant[variant])
    total = Calibration()
    print(f"calibration over {args.evenings} held-out evenings:")
    for variant, cal in per_variant.items():
        if not cal.forecast:
            continue
        total.forecast += cal.forecast
        total.baseline += cal.baseline
        total.seconds += cal.seconds
        for into, add in zip(total.bins, cal.bins, strict=True):
            for k in range(3):
                into[k] += add[k]
        f, b = statistics.fmean(cal.forecast), statistics.fmean(cal.baseline)
        print(
            f"  {variant:6} forecasts {len(cal.forecast):5d}: brier {f:.4f}, baseline {b:.4f}, ratio {_ratio(f, b)};"
            f" outlook {statistics.fmean(cal.seconds) * 1000:.1f} ms CPU mean"
        )
    f = statistics.fmean(total.forecast)
    b = statistics.fmean(total.baseline)
    se = (
        statistics.stdev([x - y for x, y in zip(total.forecast, total.baseline, strict=True)])
        / len(total.forecast) ** 0.5
    )
    print(f"  all    forecasts {len(total.forecast):5d}: brier {f:.4f}, baseline {b:.4f}, ratio {_ratio(f, b)}")
    print(f"  difference brier - baseline: {f - b:+.4f} +- {se:.4f} (forecasts within an evening are correlated)")
    print("reliability (a side's win probability in bins, against how often it won):")
    for k, (n, sp, so) in enumerate(total.bins):
        if n:
            print(f"  {k / 10:.1f}-{(k + 1) / 10:.1f}: {int(n):6d} forecasts, mean {sp / n:.3f}, won {so / n:.3f}")
    print(
        f"full-size outlook: {worst_cpu:.1f} ms CPU ({worst_wall:.1f} ms wall) warm median in the slowest case"
        f" ({worst_name}, empty slate)"
    )
    print(f"seconds: {time.perf_counter() - t_start:.0f}")
    print(f"outlook brier={f:.4f} baseline_brier={b:.4f} evenings={args.evenings}")


if __name__ == "__main__":
    main()
