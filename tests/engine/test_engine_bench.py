"""Smoke test: bench/engine.py runs with a tiny count and ends with its figures line."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "engine.py"


def test_bench_last_line_format() -> None:
    out = subprocess.run(
        [sys.executable, str(BENCH), "--hands", "40"], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    last = out.strip().splitlines()[-1]
    assert re.fullmatch(r"engine fast_hands_per_s=\d+ api_hands_per_s=\d+ legal_cards_us=\d+\.\d+", last), last
