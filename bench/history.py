"""History benchmark: prints figures, is not a test.

    python bench/history.py [--evenings N] [--repeat R]

A synthetic circle (``history.sample``: every variant, 8 players, a few paper cells
and early ends) of N evenings (500 by default), in process, no database:

- cold: statistics from nothing (every slate replayed and checked by the scoring core);
- after a new evening: statistics, ratings and the purse when one evening has been
  added to a circle already seen (records carry their version, as the service gives
  them): what a page costs after an evening ends; median of R runs;
- warm: statistics again with nothing new;
- export: the JSON written and read back (decoded and validated), and the CSV.

The last line is exactly:
``history evenings=<n> cold_ms=<x> stats_ms=<x> ratings_ms=<x> purse_ms=<x>``
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorekeeper.history.export import decode, dumps
from scorekeeper.history.housekeeping import view
from scorekeeper.history.outcome import clear_cache
from scorekeeper.history.purse import purse
from scorekeeper.history.ratings import ratings
from scorekeeper.history.sample import sample_circle
from scorekeeper.history.spreadsheet import csv_text
from scorekeeper.history.stats import circle_stats


def ms(f: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    f()
    return (time.perf_counter() - t0) * 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--evenings", type=int, default=500)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    n, k = args.evenings, args.repeat
    full = sample_circle(2026, evenings=n + k)
    full = replace(full, evenings=tuple(replace(ev, version=1) for ev in full.evenings))
    base = replace(full, evenings=full.evenings[:n])

    clear_cache()
    unversioned = view(replace(base, evenings=tuple(replace(ev, version=None) for ev in base.evenings)))
    cold = ms(lambda: circle_stats(unversioned))

    circle_stats(view(base)), ratings(view(base)), purse(view(base))  # the circle as seen before
    stats_t, ratings_t, purse_t = [], [], []
    for i in range(k):
        v = view(replace(base, evenings=(*base.evenings, full.evenings[n + i])))
        stats_t.append(ms(partial(circle_stats, v)))
        ratings_t.append(ms(partial(ratings, v)))
        purse_t.append(ms(partial(purse, v)))
    warm = statistics.median(ms(lambda: circle_stats(view(base))) for _ in range(k))

    text = dumps(base, datetime.now(UTC))
    clear_cache()
    t_decode = ms(lambda: decode(text.encode()))
    t_csv = ms(lambda: csv_text(view(base)))
    print(f"circle: {n} evenings, {sum(len(ev.log) for ev in base.evenings)} hands, {len(base.players)} players")
    print(f"statistics cold (every slate replayed): {cold:.1f} ms")
    print(
        f"after a new evening (median of {k}): statistics {statistics.median(stats_t):.1f} ms, "
        f"ratings {statistics.median(ratings_t):.1f} ms, purse {statistics.median(purse_t):.1f} ms"
    )
    print(f"statistics warm (nothing new): {warm:.1f} ms")
    print(f"export: {len(text) / 1e6:.1f} MB JSON, decoded and validated in {t_decode:.0f} ms; CSV in {t_csv:.0f} ms")
    print(
        f"history evenings={n} cold_ms={cold:.1f} stats_ms={statistics.median(stats_t):.1f} "
        f"ratings_ms={statistics.median(ratings_t):.1f} purse_ms={statistics.median(purse_t):.1f}"
    )


if __name__ == "__main__":
    main()
