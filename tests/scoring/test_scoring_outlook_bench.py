"""Smoke tests: the outlook's table generator and its benchmark run (tiny sizes) and
keep their output forms."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from scorekeeper.game.rulesets import Variant
from scorekeeper.scoring.forecast import Table

BENCH = Path(__file__).resolve().parents[2] / "bench"


def run(script: str, *args: str) -> str:
    return subprocess.run(
        [sys.executable, str(BENCH / script), *args], capture_output=True, text=True, check=True, timeout=300
    ).stdout


def test_table_generator_writes_a_loadable_table(tmp_path: Path) -> None:
    out = tmp_path / "table.json"
    text = run("outlook_table.py", "--scale", "0.0005", "--out", str(out))
    last = text.strip().splitlines()[-1]
    assert re.fullmatch(r"outlook_table evenings=6 hands=\d+ seconds=\d+ bytes=\d+ jobs=1", last), last
    data = json.loads(out.read_text())
    table = Table.from_dict(data)
    assert {v for v, _ in table.counts} == {v.value for v in Variant}
    assert data["level"] == "easy" and data["seeds"].startswith("random.Random('outlook-table:")
    # the same command writes the same file
    again = run("outlook_table.py", "--scale", "0.0005", "--out", str(out), "--check")
    assert "check: the same as" in again


def test_benchmark_last_line_format() -> None:
    text = run("outlook.py", "--evenings", "2", "--repeats", "2", "--simulations", "200")
    last = text.strip().splitlines()[-1]
    assert re.fullmatch(r"outlook brier=\d+\.\d{4} baseline_brier=\d+\.\d{4} evenings=2", last), last
    assert "full-size outlook:" in text
