"""Smoke test: bench/history_web.py runs on a small circle and ends with its figures line."""

from __future__ import annotations

import re

from shared_helpers import bench_last_line


def test_bench_last_line_format() -> None:
    last = bench_last_line("history_web.py", "--evenings", "12", "--repeat", "1")
    figures = " ".join(
        f"{name}=\\d+\\.\\d"
        for name in ("max_ms", "circle_ms", "stats_ms", "purse_ms", "charts_ms", "after_change_ms", "cold_ms")
    )
    pattern = rf"history_web evenings=12 max_statements=\d+ {figures}"
    assert re.fullmatch(pattern, last), last
    statements = re.search(r"max_statements=(\d+)", last)
    assert statements is not None and int(statements.group(1)) <= 4
