"""Smoke test: bench/bots.py runs one deal pair with a tiny budget and ends with its figures line."""

from __future__ import annotations

import re

from shared_helpers import bench_last_line


def test_bench_last_line_format() -> None:
    last = bench_last_line("bots.py", "--pairs", "1", "--budget-ms", "5", "--level-pairs", "1")
    pattern = (
        r"bots vs_random_points=\d+\.\d vs_random_hands_won=\d+\.\d vs_rulebased_points=\d+\.\d p95_ms=\d+ hands=2"
    )
    assert re.fullmatch(pattern, last), last


def test_paired_bench_prints_the_paired_difference() -> None:
    """bench/bots_paired.py: two variants on two deal pairs, two deals a decision."""
    last = bench_last_line("bots_paired.py", "--pairs", "2", "--deals", "2", "--opponents", "rule", "a", "b:pool=20")
    pattern = r"vs rule   b +\d+\.\d \+- \d+\.\d points, won +\d+\.\d %, CPU \d+ s, "
    assert re.fullmatch(pattern + r"paired difference [+-]\d+\.\d\d \+- \d+\.\d\d", last), last
