"""Circle pages benchmark: prints figures, is not a test.

    python bench/history_web.py [--evenings N] [--repeat R] [--postgres ADMIN_URL]

The synthetic circle of ``history.sample`` (every variant, 8 players, a few paper
cells and early ends; N evenings, 500 by default) is written straight into a fresh
database (migrated): SQLite in a temporary folder, or with ``--postgres`` a throwaway
PostgreSQL database made on that server (and dropped). The process then freezes what it
holds out of the garbage collector's way, as every gunicorn worker does once it has loaded
the app (``gunicorn_conf.post_worker_init``). Then every page of the circle's
memory is asked for through Flask's test client, in process: the circle page, the
history list, the statistics, a player's statistics, the ratings, the purse, the three
charts (SVG) and the API. For each: the time of the first visit (the very first one
replays every slate and stores each ended evening's outcome and the rating runs), the
SQL statements of a visit and the median time of R visits (warm: the worker keeps the
circle's memory while its fingerprint is unchanged); then the statistics after a new
evening and hand (only they are read again); then every page in a worker that has never
seen the circle (nothing kept in the process: the memory, the outcomes, the rating runs;
the stored outcomes and runs are read): the median of R first visits and their statements.

The last line is exactly:
``history_web evenings=<n> max_statements=<k> max_ms=<x> circle_ms=<x> stats_ms=<x> purse_ms=<x> charts_ms=<x>
after_change_ms=<x> cold_ms=<x>`` (one line); ``cold_ms`` is the slowest page's in a worker that
has never seen the circle.
"""

from __future__ import annotations

import argparse
import logging
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # shared_helpers.store_record

import flask_migrate
from shared_helpers import counted, store_record
from sqlalchemy import func, make_url, select

from scorekeeper.app import create_app
from scorekeeper.extensions import db
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.gunicorn_conf import post_worker_init
from scorekeeper.history import outcome, ratings
from scorekeeper.history.sample import sample_circle
from scorekeeper.models import Player
from scorekeeper.services import circles, evenings
from scorekeeper.services.read import memory


@contextmanager
def database(postgres: str | None) -> Iterator[str]:
    """A fresh database's URL: a temporary SQLite file, or a throwaway PostgreSQL database."""
    if postgres is None:
        with tempfile.TemporaryDirectory() as tmp:
            yield f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        return
    import psycopg

    admin = make_url(postgres)
    libpq = admin.set(drivername="postgresql").render_as_string(hide_password=False)
    name = f"sk_bench_{int(time.time())}_{secrets.token_hex(4)}"
    with psycopg.connect(libpq, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield admin.set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(libpq, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def never_seen() -> None:
    """This worker forgets everything it kept of any circle (as a new worker starts)."""
    memory.forget()
    outcome.clear_cache()
    ratings._RUNS.clear()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--evenings", type=int, default=500)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--postgres", metavar="ADMIN_URL", help="postgresql+psycopg://... of a server to bench on")
    args = ap.parse_args()
    with database(args.postgres) as url:
        backend = "PostgreSQL" if args.postgres else "SQLite"
        app = create_app(
            {"TESTING": True, "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False, "SQLALCHEMY_DATABASE_URI": url}
        )
        logging.getLogger("alembic").setLevel(logging.WARNING)
        with app.app_context():
            flask_migrate.upgrade()
            record = sample_circle(2026, evenings=args.evenings, paper_rate=0.0)
            write, _view = store_record(record)
            hands = sum(len(ev.log) for ev in record.evenings)
            names = [p.name for p in record.players]
            del record  # a worker holds no such copy: only what it reads (the garbage collector's heap as a worker's)
            player = db.session.execute(select(func.min(Player.id))).scalar()
        post_worker_init(None)  # as every gunicorn worker does once the app is loaded (gunicorn_conf)
        base = f"/c/{write}"
        pages = {
            "circle": base,
            "history page 2": f"{base}?page=2",
            "statistics": f"{base}/stats",
            "statistics, one season": f"{base}/stats?from=2026-01-01&to=2026-06-30",
            "player": f"{base}/stats/players/{player}",
            "ratings": f"{base}/ratings",
            "purse": f"{base}/purse",
            "chart money (SVG)": f"{base}/charts/money.svg",
            "chart rating (SVG)": f"{base}/charts/rating-team.svg",
            "chart contracts (SVG)": f"{base}/charts/contracts.svg?player={player}",
            "chart money (PNG)": f"{base}/charts/money.png",
            "API player stats": f"/api/v1/players/{player}/stats",
            "API ledger": "/api/v1/ledger",
        }
        client = app.test_client()
        headers = {"Authorization": f"Bearer {write}"}
        print(f"circle: {args.evenings} evenings, {hands} hands, {len(names)} players ({backend}, in process)")
        print(f"{'page':<26} {'first ms':>9} {'warm ms':>8} {'statements':>10}")
        figures: dict[str, tuple[float, int]] = {}
        with app.app_context():
            for name, path in pages.items():
                t0 = time.perf_counter()
                assert client.get(path, headers=headers).status_code == 200, path
                first = (time.perf_counter() - t0) * 1000
                runs, counts = [], []
                for _ in range(args.repeat):
                    with counted() as seen:
                        t0 = time.perf_counter()
                        resp = client.get(path, headers=headers)
                        runs.append((time.perf_counter() - t0) * 1000)
                    assert resp.status_code == 200, path
                    counts.append(len(seen))
                warm = statistics.median(runs)
                figures[name] = (warm, max(counts))
                print(f"{name:<26} {first:>9.1f} {warm:>8.1f} {max(counts):>10}")
            circle, _w = circles.open_circle(write)
            rs = default_ruleset(Variant.THREE)
            ev = evenings.start_evening(circle, ruleset=rs, player_names=names[:3], first_dealer=0, request_id="bs")
            hand = HandEntry(rs.rows[0].key, 0, None, 100, 57)
            evenings.record_hand(ev, hand, expected_version=ev.version, request_id="bench-hand")
            with counted() as seen:
                t0 = time.perf_counter()
                assert client.get(f"{base}/stats", headers=headers).status_code == 200
                change_ms = (time.perf_counter() - t0) * 1000
            what = f"{len(seen)} statements: only they are read"
            print(f"statistics after a new evening and hand ({what}): {change_ms:.1f} ms")
            print("in a worker that has never seen the circle (the stored outcomes and ratings read):")
            print(f"{'page':<26} {'first ms':>9} {'statements':>10}")
            cold: dict[str, float] = {}
            for name, path in pages.items():
                runs, counts = [], []
                for _ in range(args.repeat):
                    never_seen()
                    with counted() as seen:
                        t0 = time.perf_counter()
                        resp = client.get(path, headers=headers)
                        runs.append((time.perf_counter() - t0) * 1000)
                    assert resp.status_code == 200, path
                    counts.append(len(seen))
                cold[name] = statistics.median(runs)
                print(f"{name:<26} {cold[name]:>9.1f} {max(counts):>10}")
            cold_ms = max(cold.values())
        charts = max(v[0] for k, v in figures.items() if k.startswith("chart"))
        print(
            f"history_web evenings={args.evenings} max_statements={max(c for _w, c in figures.values())} "
            f"max_ms={max(w for w, _c in figures.values()):.1f} circle_ms={figures['circle'][0]:.1f} "
            f"stats_ms={figures['statistics'][0]:.1f} purse_ms={figures['purse'][0]:.1f} charts_ms={charts:.1f} "
            f"after_change_ms={change_ms:.1f} cold_ms={cold_ms:.1f}"
        )


if __name__ == "__main__":
    main()
