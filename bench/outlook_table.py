"""Generate the outlook's table of outcome distributions by self-play.

    python bench/outlook_table.py [--scale 1.0] [--jobs 1] [--out PATH] [--check] [--raw FILE]

Plays whole evenings with the computer players (``bench/selfplay.py``: the
engine deals, ``scorekeeper.bots.choose_action`` bids and plays every seat at
level ``easy``) and counts, per variant and slot (``forecast.slot_of``), the
outcome each hand wrote (``entries.outcome_of``: 0..157, 257 a match, -1 a
countermatch). The declarer chose the row as the bots choose on a real slate
(the slate's cells are their ``scores``), so each row's distribution is that of
the hands that go into it. The team and solo games are played a second time with
the optional rows (Slalom, Gustav, TUO) for those rows' slots.

Seeds: evening i of a run is ``random.Random("outlook-table:<run>:<i>")``; the
benchmark (``bench/outlook.py``) uses ``"outlook-bench:..."``, so its evenings are
never the table's. The same command writes the same file (``--check`` compares).

Level ``easy``: the rule-based players decide in microseconds (a whole hand takes
about 1.5 ms), so tens of thousands of hands take minutes; ``normal`` searches for
300 ms per decision (days for the same table).

Prints per slot: hands, mean card points (a match counts 157) with its standard
error, match and countermatch rates with theirs. Writes
``scorekeeper/scoring/outlook_table.json`` (package data).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from selfplay import play_evening

from scorekeeper.game.hand_entry import COUNTERMATCH, MATCH_POINTS, TOTAL_POINTS
from scorekeeper.game.rulesets import EXTRA_ROWS, RuleSet, default_ruleset
from scorekeeper.scoring.forecast import TABLE_RESOURCE, slot_of

LEVEL = "easy"
SEED_PREFIX = "outlook-table"
OUT = Path(__file__).resolve().parents[1] / "scorekeeper" / "scoring" / TABLE_RESOURCE
FORMAT = 1

# (run name, variant, extra rows, evenings at scale 1, slots taken from this run (None: all))
RUNS: tuple[tuple[str, str, tuple[str, ...], int, frozenset[str] | None], ...] = (
    ("three", "three", (), 1400, None),
    ("teams", "teams", (), 2000, None),
    ("teams+extras", "teams", EXTRA_ROWS, 1000, frozenset(EXTRA_ROWS)),
    ("solo4", "solo4", (), 1000, None),
    ("solo4+extras", "solo4", EXTRA_ROWS, 500, frozenset(EXTRA_ROWS)),
    ("club", "club", (), 2000, None),
)
CHUNK = 25  # evenings per job
STAGES = 4  # rows still open for the side: 1, 2, 3, or 4 and more (forecast.stage_of)


def ruleset_of(variant: str, extras: tuple[str, ...]) -> RuleSet:
    return default_ruleset(variant, extra_rows=extras)


Counts = dict[tuple[str, str], Counter[int]]  # (slot, stage) -> outcome counts; stage "all" = the evening's start


def play_chunk(job: tuple[str, str, tuple[str, ...], int, int]) -> tuple[Counts, list[str]]:
    """Outcome counts over evenings ``start .. stop - 1`` of a run (and raw lines).

    For every side and every moment before one of its hands, with k rows open, each
    open row's eventual outcome is counted under stage ``min(k, STAGES)``; at the
    start of the evening (all rows open) also under ``"all"``, once per row: the
    slot's plain distribution.
    """
    run, variant, extras, start, stop = job
    rs = ruleset_of(variant, extras)
    counts: Counts = {}
    raw: list[str] = []
    for i in range(start, stop):
        evening = play_evening(rs, f"{SEED_PREFIX}:{run}:{i}", LEVEL)
        final: dict[tuple[str, int], int] = {}
        order: dict[int, list[str]] = {}
        for hand in evening.hands:
            if hand.outcome is None:
                continue
            key = hand.entry.row_key
            assert key is not None
            final[(key, hand.side)] = hand.outcome
            order.setdefault(hand.side, []).append(key)
            raw.append(f"{run}\t{i}\t{slot_of(rs, rs.row(key))}\t{hand.side}\t{hand.open_before}\t{hand.outcome}")
        for side, keys in order.items():
            for j in range(len(keys)):
                still_open = keys[j:]
                stage = str(min(len(still_open), STAGES))
                for key in still_open:
                    slot = slot_of(rs, rs.row(key))
                    counts.setdefault((slot, stage), Counter())[final[(key, side)]] += 1
                    if j == 0:
                        counts.setdefault((slot, "all"), Counter())[final[(key, side)]] += 1
    return counts, raw


def summary(counts: Counter[int]) -> dict[str, float]:
    """Hands, mean card points (a match counts 157, a countermatch 0) and rates, with standard errors."""
    n = sum(counts.values())
    pts = [(min(max(o, 0), TOTAL_POINTS), k) for o, k in counts.items()]
    mean = sum(p * k for p, k in pts) / n
    var = sum(k * (p - mean) ** 2 for p, k in pts) / max(n - 1, 1)
    match = counts.get(MATCH_POINTS, 0) / n
    cm = counts.get(COUNTERMATCH, 0) / n
    return {
        "n": n,
        "mean": round(mean, 2),
        "mean_se": round(math.sqrt(var / n), 2),
        "sd": round(math.sqrt(var), 2),
        "match": round(match, 4),
        "match_se": round(math.sqrt(match * (1 - match) / n), 4),
        "countermatch": round(cm, 4),
        "countermatch_se": round(math.sqrt(cm * (1 - cm) / n), 4),
    }


def generate(scale: float, jobs: int, raw_path: Path | None) -> dict[str, Any]:
    plan = []
    for run, variant, extras, evenings, _ in RUNS:
        n = max(1, round(evenings * scale))
        plan += [(run, variant, extras, a, min(a + CHUNK, n)) for a in range(0, n, CHUNK)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(play_chunk, plan))
    else:
        results = [play_chunk(job) for job in plan]
    per_run: dict[str, Counts] = {}
    evenings_of: Counter[str] = Counter()
    raw_lines: list[str] = []
    for job, (counts, raw) in zip(plan, results, strict=True):
        evenings_of[job[0]] += job[4] - job[3]
        dest = per_run.setdefault(job[0], {})
        for key, c in counts.items():
            dest.setdefault(key, Counter()).update(c)
        raw_lines += raw
    if raw_path is not None:
        raw_path.write_text("run\tevening\tslot\tside\topen_before\toutcome\n" + "\n".join(raw_lines) + "\n")
    variants: dict[str, Any] = {}
    for run, variant, _, _, only in RUNS:
        v = variants.setdefault(variant, {"runs": {}, "slots": {}})
        v["runs"][run] = evenings_of[run]
        found = per_run.get(run, {})
        for slot in sorted({slot for slot, _ in found}):
            if only is not None and slot not in only:
                continue
            base = found[(slot, "all")]
            stages = {st: sorted(found.get((slot, st), Counter()).items()) for st in map(str, range(1, STAGES + 1))}
            v["slots"][slot] = {**summary(base), "run": run, "counts": sorted(base.items()), "stages": stages}
    return {
        "format": FORMAT,
        "generator": "bench/outlook_table.py",
        "level": LEVEL,
        "seeds": f"random.Random('{SEED_PREFIX}:<run>:<i>')",
        "scale": scale,
        "variants": variants,
    }


def dump(table: dict[str, Any]) -> str:
    """Indented JSON with each slot's counts on one line: diffable, and small."""
    inline: dict[str, str] = {}
    shaped = json.loads(json.dumps(table))
    for variant, v in shaped["variants"].items():
        for slot, s in v["slots"].items():
            mark = f"@counts:{variant}:{slot}@"
            inline[mark] = json.dumps(s["counts"], separators=(",", ":"))
            s["counts"] = mark
            for st in s["stages"]:
                mark = f"@counts:{variant}:{slot}:{st}@"
                inline[mark] = json.dumps(s["stages"][st], separators=(",", ":"))
                s["stages"][st] = mark
    text = json.dumps(shaped, indent=1, sort_keys=True)
    for mark, counts in inline.items():
        text = text.replace(json.dumps(mark), counts)
    return text + "\n"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=float, default=1.0, help="fraction of the evenings to play (default 1)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (the result does not depend on it)")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--check", action="store_true", help="compare with --out instead of writing it")
    ap.add_argument("--raw", type=Path, default=None, help="also write every hand as a TSV line")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    table = generate(args.scale, max(1, args.jobs), args.raw)
    seconds = time.perf_counter() - t0
    hands = 0
    head = ("variant", "slot", "hands", "mean", "se", "match", "se", "cmatch", "se")
    print("{:7} {:16} {:>6} {:>7} {:>5} {:>7} {:>6} {:>7} {:>6}".format(*head))
    for variant, v in table["variants"].items():
        for slot, s in v["slots"].items():
            hands += s["n"]
            print(
                f"{variant:7} {slot:16} {s['n']:6d} {s['mean']:7.2f} {s['mean_se']:5.2f}"
                f" {100 * s['match']:6.2f}% {100 * s['match_se']:5.2f}% {100 * s['countermatch']:6.2f}%"
                f" {100 * s['countermatch_se']:5.2f}%"
            )
    text = dump(table)
    evenings = sum(sum(v["runs"].values()) for v in table["variants"].values())
    if args.check:
        same = args.out.exists() and args.out.read_text() == text
        print(f"check: {'the same as' if same else 'DIFFERENT from'} {args.out}")
        if not same:
            raise SystemExit(1)
    else:
        args.out.write_text(text)
    print(
        f"outlook_table evenings={evenings} hands={hands} seconds={seconds:.0f} bytes={len(text.encode())}"
        f" jobs={args.jobs}"
    )


if __name__ == "__main__":
    main()
