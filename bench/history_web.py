"""Circle pages benchmark: prints figures, is not a test.

    python bench/history_web.py [--evenings N] [--repeat R]

The synthetic circle of ``history.sample`` (every variant, 8 players, a few paper
cells and early ends; N evenings, 500 by default) is written straight into a fresh
SQLite database (migrated), then every page of the circle's memory is asked for
through Flask's test client, in process: the circle page, the history list, the
statistics, a player's statistics, the ratings, the purse, the three charts (SVG) and
the API's ledger. For each: the SQL statements it sent and the median time of R runs
(warm: the worker has seen the circle once, as after the first visit).

The last line is exactly:
``history_web evenings=<n> max_statements=<k> max_ms=<x> circle_ms=<x> stats_ms=<x> purse_ms=<x> charts_ms=<x>``
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # shared_helpers.store_record

from shared_helpers import store_record  # noqa: E402
from sqlalchemy import event  # noqa: E402

from scorekeeper.app import create_app  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.history.sample import sample_circle  # noqa: E402
from scorekeeper.services import circles  # noqa: E402


@contextmanager
def counted() -> Iterator[list[str]]:
    seen: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(statement)

    event.listen(db.engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(db.engine, "before_cursor_execute", count)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--evenings", type=int, default=500)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        app = create_app(
            {"TESTING": True, "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False, "SQLALCHEMY_DATABASE_URI": url}
        )
        with app.app_context():
            import flask_migrate

            flask_migrate.upgrade()
            t0 = time.perf_counter()
            write, _view = store_record(sample_circle(2026, evenings=args.evenings, paper_rate=0.0))
            stored_ms = (time.perf_counter() - t0) * 1000
            from scorekeeper.services import memory

            circle, _w = circles.open_circle(write)
            for _ in range(3):
                db.session.remove()
                circle, _w = circles.open_circle(write)
                with counted() as seen:
                    t0 = time.perf_counter()
                    record = memory.load_record(circle)
                    took = (time.perf_counter() - t0) * 1000
                print(f"load_record: {len(record.evenings)} evenings, {len(seen)} statements, {took:.1f} ms")
        print(f"stored in {stored_ms:.0f} ms")


if __name__ == "__main__":
    main()
