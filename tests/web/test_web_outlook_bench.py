"""Smoke test: bench/outlook_web.py runs on a small circle and ends with its figures line."""

from __future__ import annotations

import re

from shared_helpers import bench_last_line


def test_bench_last_line_format() -> None:
    last = bench_last_line("outlook_web.py", "--evenings", "4", "--repeat", "1")
    ms = " ".join(f"{name}=\\d+\\.\\d" for name in ("first_ms", "simulation_ms", "stored_ms", "cold_ms"))
    assert re.fullmatch(rf"outlook_web evenings=4 {ms} first_statements=\d+ stored_statements=\d+", last), last
