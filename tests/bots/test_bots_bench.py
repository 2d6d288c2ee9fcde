"""Smoke test: bench/bots.py runs one deal pair with a tiny budget and ends with its figures line."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bots.py"


def test_bench_last_line_format() -> None:
    out = subprocess.run(
        [sys.executable, str(BENCH), "--pairs", "1", "--budget-ms", "5"],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    ).stdout
    last = out.strip().splitlines()[-1]
    assert re.fullmatch(r"bots vs_random_points=\d+\.\d vs_rulebased_points=\d+\.\d p95_ms=\d+ pairs=1", last), last
