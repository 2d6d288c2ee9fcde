"""Smoke test: bench/adviser.py runs a few deals with few samples and ends with its figures line;
its heuristic reads the hand (the issue's "most trumps / highest cards for the row, highest
factor first"), the factor-only rule does not."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import cast

from shared_helpers import bench_last_line

from scorekeeper.game.cards import mask_of, parse_cards
from scorekeeper.game.rulesets import RuleSet, default_ruleset

BENCH = Path(__file__).resolve().parents[2] / "bench" / "adviser.py"
Picker = Callable[[RuleSet, int, tuple[str, ...]], str]


def test_bench_last_line_format() -> None:
    last = bench_last_line("adviser.py", "--deals", "4", "--samples", "2")
    pattern = r"adviser regret=\d+\.\d\d heuristic_regret=\d+\.\d\d random_regret=\d+\.\d\d deals=4 p95_ms=\d+"
    assert re.fullmatch(pattern, last), last


def test_bench_prints_the_factor_only_regret_before_the_last_line() -> None:
    out = subprocess.run(
        [sys.executable, str(BENCH), "--deals", "4", "--samples", "2"],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    ).stdout
    lines = out.strip().splitlines()
    assert re.fullmatch(r"factor_only_regret=\d+\.\d\d", lines[-2]), lines[-2]


def picker(name: str) -> Picker:
    spec = importlib.util.spec_from_file_location("adviser_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return cast(Picker, getattr(module, name))


OPEN = ("suit_S", "suit_H", "undenufe")  # teams: factors 1, 4, 6


def test_the_heuristic_plays_the_trumps_where_the_higher_row_is_weak() -> None:
    rs = default_ruleset("teams")
    hearts = mask_of(parse_cards("HJ H9 HA HK HT C8 CQ D7 SQ"))  # five trumps with the jack, no sixes
    assert picker("heuristic_pick")(rs, hearts, OPEN) == "suit_H"
    assert picker("factor_only_pick")(rs, hearts, OPEN) == "undenufe"


def test_the_heuristic_takes_the_highest_factor_the_hand_is_good_for() -> None:
    rs = default_ruleset("teams")
    low = mask_of(parse_cards("C6 C7 D6 D7 S6 S7 H6 CA DQ"))  # sixes and sevens: Undenufe
    assert picker("heuristic_pick")(rs, low, OPEN) == "undenufe"


def test_a_hand_good_for_no_row_plays_the_highest_factor() -> None:
    rs = default_ruleset("teams")
    poor = mask_of(parse_cards("S9 SK SQ C8 CQ D7 DT H7 HQ"))  # three small trumps with the nine at best
    assert picker("heuristic_pick")(rs, poor, OPEN) == "undenufe"


def test_floor_bench_last_line_format() -> None:
    last = bench_last_line("adviser_floor.py", "--deals", "4", "--hidden", "4", "--samples", "2")
    figure = r"-?\d+\.\d\d"
    pattern = (
        rf"floor regret={figure} adviser_regret={figure} heuristic_regret={figure}"
        rf" factor_only_regret={figure} deals=4"
    )
    assert re.fullmatch(pattern, last), last
