"""Smoke test: bench/outlook_web.py runs on a small circle and ends with its figures line."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "outlook_web.py"


def test_bench_last_line_format() -> None:
    out = subprocess.run(
        [sys.executable, str(BENCH), "--evenings", "4", "--repeat", "1"],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    ).stdout
    last = out.strip().splitlines()[-1]
    ms = " ".join(f"{name}=\\d+\\.\\d" for name in ("first_ms", "simulation_ms", "stored_ms", "cold_ms"))
    assert re.fullmatch(rf"outlook_web evenings=4 {ms} first_statements=\d+ stored_statements=\d+", last), last
