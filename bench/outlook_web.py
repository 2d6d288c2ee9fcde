"""The outlook through the service (issue 13): prints figures, is not a test.

    python bench/outlook_web.py [--evenings N] [--repeat R]

A circle with N ended evenings of every variant (``history.sample``, 8 players; 100 by
default) is written into a fresh, migrated SQLite database, and a new evening of each
variant is started with four (three) of its players after one hand (the slowest case:
nearly every cell open). Then, in process, R times each, the median of:

- ``first``: a new version's first read, as the first phone's poll after a hand does it:
  load the snapshot, check the circle's history (one statement: only this evening
  changed), simulate with it, store the forecast;
- ``cold``: the same when the worker has not seen the circle yet, or another evening of
  it changed: the circle's memory is loaded (``services.read.memory``) and the history derived;
- ``stored``: every later read of that version (any phone, the API): load the snapshot,
  read the stored forecast, derive the definitions;
- the statements each sends.

Times are the process's CPU milliseconds (``time.process_time``, as ``bench/outlook.py``): the
machine is shared, and wall time there measures the neighbours. SQLite runs in the process,
so its work is in the figure; waiting for the disk is not.

The last line is exactly:
``outlook_web evenings=<n> first_ms=<x> simulation_ms=<x> stored_ms=<x> cold_ms=<x> first_statements=<k>
stored_statements=<k>`` (one line; the slowest variant's medians; target: first_ms < 50;
``simulation_ms`` is the pure simulation inside ``first_ms``, the rest is the service's).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # shared_helpers: counted, store_record

from shared_helpers import counted, store_record
from sqlalchemy import delete

from scorekeeper.app import create_app
from scorekeeper.extensions import db
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.history.sample import sample_circle
from scorekeeper.models import OutlookForecast
from scorekeeper.services import circles, evenings
from scorekeeper.services.read import memory
from scorekeeper.services.read import outlook as svc
from scorekeeper.services.read.snapshot import load_snapshot


def read(write: str, public_id: str) -> tuple[svc.EveningOutlook, float, int]:
    """The evening's outlook as a page or the API reads it: (outlook, CPU ms, statements)."""
    db.session.remove()
    circle, _w = circles.open_circle(write)
    ev = evenings.get_evening(circle, public_id)
    with counted() as seen:
        t0 = time.process_time()
        got = svc.outlook_of(load_snapshot(ev), circle)
        took = (time.process_time() - t0) * 1000
    return got, took, len(seen)


def unstore(evening_id: int) -> None:
    """Drop the evening's stored forecast: the next read is a version's first."""
    db.session.execute(delete(OutlookForecast).where(OutlookForecast.evening_id == evening_id))
    db.session.commit()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--evenings", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    worst: tuple[float, float, float, float, int, int] = (0.0, 0.0, 0.0, 0.0, 0, 0)
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        app = create_app(
            {"TESTING": True, "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False, "SQLALCHEMY_DATABASE_URI": url}
        )
        with app.app_context():
            import flask_migrate

            flask_migrate.upgrade()
            record = sample_circle(2026, evenings=args.evenings, paper_rate=0.0)  # store_record() writes no paper cells
            write, _view = store_record(record)
            names = [p.name for p in record.players]
            print(f"circle: {len(record.evenings)} ended evenings of every variant, {len(names)} players")
            for variant in Variant:
                rs = default_ruleset(variant)
                circle, _w = circles.open_circle(write)
                ev = evenings.start_evening(
                    circle,
                    ruleset=rs,
                    player_names=names[: rs.n_players],
                    first_dealer=0,
                    request_id=f"bench-{variant.value}",
                )
                first_row = rs.rows[0]
                seat = rs.seats_of(0)[0]
                evenings.record_hand(
                    ev, HandEntry(first_row.key, seat, None, 88, 69), expected_version=0, request_id=f"h-{variant}"
                )
                public_id, evening_id = ev.public_id, ev.id
                first: list[float] = []
                cold: list[float] = []
                stored: list[float] = []
                pure: list[float] = []
                counts: list[tuple[int, int]] = []

                for _ in range(args.repeat):
                    unstore(evening_id)
                    memory.forget()
                    svc.forget()
                    _got, took, _n = read(write, public_id)
                    cold.append(took)
                    unstore(evening_id)  # a new version of this evening: its history is the worker's already
                    got, took, n_first = read(write, public_id)
                    first.append(took)
                    again, took, n_stored = read(write, public_id)
                    stored.append(took)
                    snap = load_snapshot(evenings.get_evening(circles.open_circle(write)[0], public_id))
                    history, _hands = svc.circle_history(circles.open_circle(write)[0], snap)
                    t0 = time.process_time()
                    svc.simulate(snap, history)
                    pure.append((time.process_time() - t0) * 1000)
                    assert again == got
                    counts.append((n_first, n_stored))
                f, s, c = statistics.median(first), statistics.median(stored), statistics.median(cold)
                p = statistics.median(pure)
                print(
                    f"  {variant.value:6}: first read {f:6.1f} ms ({counts[0][0]} statements; the simulation alone "
                    f"{p:5.1f} ms), stored {s:5.1f} ms ({counts[0][1]} statements), cold {c:6.1f} ms; "
                    f"{got.history_hands} hands of history"
                )
                if f > worst[0]:
                    worst = (f, s, c, p, counts[0][0], counts[0][1])
    print(
        f"outlook_web evenings={args.evenings} first_ms={worst[0]:.1f} simulation_ms={worst[3]:.1f} "
        f"stored_ms={worst[1]:.1f} cold_ms={worst[2]:.1f} first_statements={worst[4]} stored_statements={worst[5]}"
    )


if __name__ == "__main__":
    main()
