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
