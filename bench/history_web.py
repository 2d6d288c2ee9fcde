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

from sqlalchemy import event, insert  # noqa: E402

from scorekeeper.app import create_app  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.history.records import CircleRecord  # noqa: E402
from scorekeeper.history.sample import sample_circle  # noqa: E402
from scorekeeper.models import Circle, CutRow, EntryRow, Evening, Player, Seat, utcnow  # noqa: E402
from scorekeeper.services import circles  # noqa: E402


def store(record: CircleRecord) -> tuple[str, str]:
    """Write ``record`` as a new circle (bulk inserts; no checks): (write token, view token).
    A benchmark's shortcut, not an import: the synthetic records are valid by construction."""
    circle, write, view = circles.create_circle(record.name)
    s = db.session()
    ids: dict[str, int] = {}
    for p in record.players:
        row = Player(circle_id=circle.id, name=p.name, created_at=p.created_at or utcnow())
        s.add(row)
        s.flush()
        ids[p.id] = row.id
    entries: list[dict[str, Any]] = []
    seats: list[dict[str, Any]] = []
    cuts: list[dict[str, Any]] = []
    for n, ev in enumerate(record.evenings):
        row_ev = Evening(
            circle_id=circle.id,
            ruleset=ev.ruleset.to_dict(),
            first_dealer=ev.first_dealer,
            version=len(ev.log) + len(ev.cuts) + 1,
            status=ev.status.value,
            ended_early=not ev.counts_in_money,
            created_at=ev.created_at or utcnow(),
            ended_at=ev.ended_at,
        )
        s.add(row_ev)
        s.flush()
        seats += [{"evening_id": row_ev.id, "seat": i, "player_id": ids[p]} for i, p in enumerate(ev.seats)]
        for item in ev.log:
            e = item.entry
            assert e is not None
            entries.append(
                {
                    "evening_id": row_ev.id,
                    "seq": item.seq,
                    "kind": item.kind.value,
                    "supersedes": item.supersedes,
                    "row_key": e.row_key,
                    "declarer_seat": e.declarer_seat,
                    "contract": e.contract.code if e.contract else None,
                    "declarer_points": e.declarer_points,
                    "defender_points": e.defender_points,
                    "match": e.match,
                    "countermatch": e.countermatch,
                    "seich": e.seich,
                    "digital": False,
                    "request_id": f"bench-{n}-{item.seq}",
                    "created_at": item.created_at or utcnow(),
                }
            )
        for i, c in enumerate(ev.cuts):
            cuts.append(
                {
                    "evening_id": row_ev.id,
                    "row_key": c.cut.row_key,
                    "end_": c.cut.end,
                    "ranking": ",".join(str(x) for x in c.cut.order),
                    "winner": c.cut.winner,
                    "drawn": c.cut.drawn,
                    "request_id": f"bench-cut-{n}-{i}",
                    "created_at": c.created_at or utcnow(),
                }
            )
    s.execute(insert(Seat), seats)
    s.execute(insert(EntryRow), entries)
    if cuts:
        s.execute(insert(CutRow.__table__), cuts)
    s.commit()
    assert db.session.get(Circle, circle.id) is not None
    return write, view


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
            write, _view = store(sample_circle(2026, evenings=args.evenings))
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
