"""Smoke test: bench/imports.py runs with a small file (gunicorn servers of its own) and ends
with its figures line."""

from __future__ import annotations

import re

from shared_helpers import bench_last_line


def test_bench_last_line_format() -> None:
    last = bench_last_line("imports.py", "--mb", "0.3", "--workers", "1", timeout=600)
    pattern = (
        r"imports mb=\d+\.\d invalid_ms=\d+ invalid_peak_mb=-?\d+\.\d damaged_ms=\d+ damaged_peak_mb=-?\d+\.\d "
        r"six_peak_mb=-?\d+\.\d six_healthz_max_ms=\d+ one_healthz_max_ms=\d+"
    )
    assert re.fullmatch(pattern, last), last
