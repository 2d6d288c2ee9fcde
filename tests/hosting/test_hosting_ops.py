"""Operations: /healthz and /readyz; ``flask backup`` and ``flask restore`` (SQLite's online
backup API while the app writes; pg_dump/pg_restore on PostgreSQL) bring back every circle,
evening, entry, correction, undo, cut and digital action exactly."""

from __future__ import annotations

import random
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from shared_helpers import rid
from sqlalchemy import select, text

from scorekeeper.extensions import db
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.models import EntryRow, Evening, TableAction
from scorekeeper.scoring import Cut
from scorekeeper.services import circles, evenings
from scorekeeper.services import digital_table as tables

NAMES = ["Anna", "Beat", "Cla", "Dora"]


def _rows(app: Flask) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, in primary-key order."""
    with app.app_context():
        return {
            t.name: [tuple(r) for r in db.session.execute(select(t).order_by(*t.primary_key.columns)).all()]
            for t in db.metadata.sorted_tables
        }


def _record(ev: Evening, row: str, seat: int, points: int) -> Evening:
    entry = HandEntry(row, seat, None, points, 157 - points)
    return evenings.record_hand(ev, entry, expected_version=ev.version, request_id=rid())


def _fill(app: Flask) -> None:
    """A circle with a three-player evening (hands, a correction, an undo, a cut; ended) and a
    teams evening whose hand is played out at a digital table by four computers."""
    with app.app_context():
        circle, _w, _v = circles.create_circle("Backup-Runde")
        circles.add_player(circle, "Erika")
        ev = evenings.start_evening(
            circle, ruleset=default_ruleset(Variant.THREE), player_names=NAMES[:3], first_dealer=0, request_id=rid()
        )
        for seat, points in enumerate((90, 90, 50)):  # a tie for the sticks in suit_C
            ev = _record(ev, "suit_C", seat, points)
        ev = _record(ev, "suit_H", 0, 70)
        ev = evenings.correct_entry(
            ev, 3, HandEntry("suit_H", 0, None, 80, 77), expected_version=ev.version, request_id=rid()
        )
        ev = _record(ev, "suit_S", 1, 60)
        ev = evenings.undo_last(ev, expected_version=ev.version, request_id=rid())
        ev = evenings.set_cut(ev, Cut("suit_C", "high", 1, False), expected_version=ev.version, request_id=rid())
        evenings.end_evening(ev, early=True, expected_version=ev.version, request_id=rid(), rng=random.Random(3))
        teams = evenings.start_evening(
            circle, ruleset=default_ruleset(Variant.TEAMS), player_names=NAMES, first_dealer=0, request_id=rid()
        )
        table = tables.open_table(teams, computers=range(4), level="easy", rng=random.Random(5))
        state = tables.run_computers(table)
        assert state.hand_over
    rows = _rows(app)
    for name in ("circles", "players", "evenings", "entries", "cuts", "applied_requests", "table_actions"):
        assert rows[name], f"no {name} to back up"
    with app.app_context():
        kinds = {r.kind for r in db.session.execute(select(EntryRow)).scalars()}
        assert kinds == {"hand", "correction", "undo"}
        assert db.session.execute(select(TableAction)).first() is not None


def _more(app: Flask) -> None:
    with app.app_context():
        circle, _w, _v = circles.create_circle("Nach dem Backup")
        ev = evenings.start_evening(
            circle, ruleset=default_ruleset(Variant.THREE), player_names=NAMES[:3], first_dealer=0, request_id=rid()
        )
        _record(ev, "suit_C", 0, 100)


def test_healthz_and_readyz(app: Flask) -> None:
    client = app.test_client()
    assert client.get("/healthz").get_json() == {"status": "ok"}
    ready = client.get("/readyz")
    assert ready.status_code == 200 and ready.get_json()["migrations"] == "head"
    assert ready.headers["Cache-Control"] == "no-store"


def test_readyz_without_the_database(app_factory: Callable[..., Flask]) -> None:
    app = app_factory("postgresql+psycopg://nobody@127.0.0.1:1/none")
    client = app.test_client()
    assert client.get("/healthz").status_code == 200  # the process lives
    down = client.get("/readyz")
    assert down.status_code == 503 and down.get_json()["database"] == "unreachable"
    assert down.headers["Retry-After"] == "5"


def test_readyz_before_the_migrations(app_factory: Callable[..., Flask], tmp_path: Path) -> None:
    app = app_factory(f"sqlite:///{tmp_path / 'empty.sqlite3'}")
    down = app.test_client().get("/readyz")
    assert down.status_code == 503 and down.get_json()["migrations"] == "not at head"


def test_backup_and_restore_round_trip(app: Flask, tmp_path: Path) -> None:
    _fill(app)
    before = _rows(app)
    runner = app.test_cli_runner()
    target = tmp_path / "jass.backup"
    done = runner.invoke(args=["backup", str(target)])
    assert done.exit_code == 0, done.output
    assert target.stat().st_size > 0 and "Backed up" in done.output

    _more(app)
    assert _rows(app) != before
    asked = runner.invoke(args=["restore", str(target)], input="n\n")
    assert asked.exit_code == 1 and "Aborted" in asked.output  # it asks first; "no" changes nothing
    assert _rows(app) != before

    done = runner.invoke(args=["restore", str(target), "--yes"])
    assert done.exit_code == 0, done.output
    assert "Restored" in done.output and "older version" not in done.output
    after = _rows(app)
    # the circle made after the backup is gone; its two links are kept by their hashes alone
    # (services.retired: a phone holding one is told the data was restored)
    retired = after.pop("retired_links")
    assert before.pop("retired_links") == []
    assert sorted(r[1:4] for r in retired) == [("view", "restored", None), ("write", "restored", None)]
    assert after == before
    assert app.test_client().get("/readyz").status_code == 200


def test_sqlite_backup_while_the_app_writes(app: Flask, db_backend: str, tmp_path: Path) -> None:
    if db_backend != "sqlite":
        pytest.skip("SQLite's online backup API")
    with app.app_context():
        circle, _w, _v = circles.create_circle("Schreibt weiter")
        ev_id = evenings.start_evening(
            circle, ruleset=default_ruleset(Variant.TEAMS), player_names=NAMES, first_dealer=0, request_id=rid()
        ).id
    stop = threading.Event()
    written: list[int] = []

    def writer() -> None:
        with app.app_context():
            while not stop.is_set():
                circles.create_circle(f"Runde {len(written)}")
                written.append(1)

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        backups = []
        for i in range(3):
            target = tmp_path / f"live-{i}.sqlite3"
            done = app.test_cli_runner().invoke(args=["backup", str(target)])
            assert done.exit_code == 0, done.output
            backups.append(target)
    finally:
        stop.set()
        thread.join(timeout=30)
    assert written
    for target in backups:
        conn = sqlite3.connect(target)
        try:
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            assert conn.execute("SELECT count(*) FROM evenings WHERE id = ?", (ev_id,)).fetchone() == (1,)
        finally:
            conn.close()


def test_restore_refuses_what_is_no_backup(app: Flask, db_backend: str, tmp_path: Path) -> None:
    junk = tmp_path / "notes.txt"
    junk.write_text("not a database")
    done = app.test_cli_runner().invoke(args=["restore", str(junk), "--yes"])
    assert done.exit_code == 1 and "not" in done.output
    assert app.test_client().get("/readyz").status_code == 200  # nothing touched


def _set_revision(app: Flask, revision: str) -> str:
    """Write ``revision`` into the live database's alembic_version; the one it had."""
    with app.app_context():
        old = db.session.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
        db.session.execute(text("UPDATE alembic_version SET version_num = :r"), {"r": revision})
        db.session.commit()
    return str(old)


def test_restore_refuses_a_backup_of_a_newer_version(app: Flask, tmp_path: Path) -> None:
    target = tmp_path / "newer.backup"
    head = _set_revision(app, "ffffffffffff")  # as if made by a later version of the app
    try:
        assert app.test_cli_runner().invoke(args=["backup", str(target)]).exit_code == 0
    finally:
        _set_revision(app, head)
    before = _rows(app)
    done = app.test_cli_runner().invoke(args=["restore", str(target), "--yes"])
    assert done.exit_code == 1 and "newer version" in done.output
    assert _rows(app) == before and app.test_client().get("/readyz").status_code == 200


def test_restore_of_an_older_version_says_to_upgrade(
    app: Flask, db_url: str, db_backend: str, tmp_path: Path, migrate_db: Callable[..., None]
) -> None:
    if db_backend != "sqlite":
        pytest.skip("an older schema is made in an SQLite copy")
    older = tmp_path / "older.sqlite3"
    migrate_db(f"sqlite:///{older}", "70dc89df073f")
    done = app.test_cli_runner().invoke(args=["restore", str(older), "--yes"])
    assert done.exit_code == 0, done.output
    assert "flask db upgrade" in done.output
    assert app.test_client().get("/readyz").status_code == 503
