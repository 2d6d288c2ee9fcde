"""Smoke test: bench/adviser.py runs a few deals with few samples and ends with its figures line."""

from __future__ import annotations

import re

from shared_helpers import bench_last_line


def test_bench_last_line_format() -> None:
    last = bench_last_line("adviser.py", "--deals", "4", "--samples", "2")
    pattern = r"adviser regret=\d+\.\d\d heuristic_regret=\d+\.\d\d random_regret=\d+\.\d\d deals=4 p95_ms=\d+"
    assert re.fullmatch(pattern, last), last
