"""Smoke test: bench/history.py runs on a small circle and ends with its figures line."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "history.py"


def test_bench_last_line_format() -> None:
    out = subprocess.run(
        [sys.executable, str(BENCH), "--evenings", "12", "--repeat", "2"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    last = out.strip().splitlines()[-1]
    pattern = r"history evenings=12 cold_ms=\d+\.\d stats_ms=\d+\.\d ratings_ms=\d+\.\d purse_ms=\d+\.\d"
    assert re.fullmatch(pattern, last), last
