"""bench/web.py works: its quick mode starts its servers, drives every phase and prints the last line.

A smoke test of the script, not of its figures (those mean nothing in quick mode).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAST_LINE = re.compile(
    r"^web tables=\d+ poll_ratio=\d+\.\d+ page_ratio=\d+\.\d+ writes_per_s=\d+ write_p95_ms=\d+ history_sql=\d+$"
)


def test_the_web_benchmark_runs_and_prints_its_last_line() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "web.py"), "--quick"],
        capture_output=True,
        text=True,
        timeout=240,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.strip().splitlines()
    assert LAST_LINE.match(lines[-1]), lines[-1]
    for figure in ("bare route", "version poll (204)", "slate page, unchanged (304)", "hand writes"):
        assert any(line.startswith(figure) for line in lines), figure
