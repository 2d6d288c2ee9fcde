"""Smoke test: bench/history.py runs on a small circle and ends with its figures line."""

from __future__ import annotations

import re

from shared_helpers import bench_last_line


def test_bench_last_line_format() -> None:
    last = bench_last_line("history.py", "--evenings", "12", "--repeat", "2", timeout=120)
    pattern = r"history evenings=12 cold_ms=\d+\.\d stats_ms=\d+\.\d ratings_ms=\d+\.\d purse_ms=\d+\.\d"
    assert re.fullmatch(pattern, last), last
