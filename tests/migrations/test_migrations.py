"""The real migrations on SQLite and PostgreSQL: empty database -> head -> base ->
head; the migrated schema equals the models; with rows present, stepping one
revision down and up again loses no row (on SQLite the step down rebuilds a table
in batch mode with foreign keys off)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import Flask
from shared_helpers import settled
from sqlalchemy import create_engine, inspect, select, text

from scorekeeper.config import MIGRATIONS_DIR
from scorekeeper.extensions import db
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.models import Evening
from scorekeeper.services import circles, evenings, housekeeping

SCRIPTS = ScriptDirectory(str(MIGRATIONS_DIR))
HEAD = SCRIPTS.get_current_head()
# Newest first; every revision above base (the last one is the initial schema).
REVISIONS = [r.revision for r in SCRIPTS.walk_revisions()]
TABLES = ["applied_requests", "circles", "cuts", "entries", "evenings", "housekeeping", "players", "seats"]


@pytest.fixture(params=["sqlite", "postgres"])
def empty_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database of each backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'empty.sqlite3'}"
    make: Callable[[], str] = request.getfixturevalue("pg_databases")
    return make()


def _tables(url: str) -> set[str]:
    engine = create_engine(url)
    try:
        return set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def _revision(url: str) -> str | None:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()
    finally:
        engine.dispose()


def _schema_diff(app: Flask) -> list[Any]:
    with app.app_context(), db.engine.connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"compare_type": True})
        return list(compare_metadata(ctx, db.metadata))


Dump = dict[str, list[dict[str, Any]]]


def _dump(url: str) -> Dump:
    """Every row of the slate's tables that exist at this revision, all their columns."""
    engine = create_engine(url)
    out: Dump = {}
    try:
        present = set(inspect(engine).get_table_names())
        with engine.connect() as conn:
            for table in TABLES:
                if table in present:
                    out[table] = [dict(r) for r in conn.execute(text(f'SELECT * FROM "{table}"')).mappings()]
    finally:
        engine.dispose()
    return out


def _same_rows(before: Dump, now: Dump, ignore: frozenset[str] = frozenset()) -> None:
    """Every row of ``before`` is in ``now`` (compared on the columns both revisions have)."""
    assert set(now) <= set(before)
    for table, rows in now.items():
        keys = (set(rows[0]) if rows else set()) - ignore
        old = sorted(({k: v for k, v in r.items() if k in keys} for r in before[table]), key=repr)
        new = sorted(({k: v for k, v in r.items() if k in keys} for r in rows), key=repr)
        assert len(rows) == len(before[table]), table
        assert new == old, table


def _fill(app: Flask) -> tuple[str, list[int]]:
    """A circle with an ended three-player evening (hands, correction, undo, cuts) and an open team evening."""
    with app.app_context():
        circle, _w, _v = circles.create_circle("Migrationsrunde")
        ev = evenings.start_evening(
            circle,
            ruleset=default_ruleset(Variant.THREE),
            player_names=["Anna", "Beat", "Carla"],
            first_dealer=0,
            request_id="s1",
        )
        for i, (row, seat, pts) in enumerate(
            [("suit_C", 0, 90), ("suit_C", 1, 90), ("suit_C", 2, 50), ("suit_H", 0, 157), ("suit_H", 1, 3)]
        ):
            match = pts == 157
            ev = evenings.record_hand(
                ev,
                HandEntry(row, seat, None, pts, 157 - pts, match=match),
                expected_version=ev.version,
                request_id=f"h{i}",
                author="Anna",
            )
        ev = evenings.correct_entry(
            ev, 4, HandEntry("suit_H", 1, None, 13, 144), expected_version=ev.version, request_id="c1", author="Beat"
        )
        ev = evenings.undo_last(ev, expected_version=ev.version, request_id="u1")
        ev = evenings.end_evening(
            ev, early=True, expected_version=ev.version, request_id="e1", rng=random.Random(1), counts_in_money=False
        )
        open_ev = evenings.start_evening(
            circle,
            ruleset=default_ruleset(Variant.TEAMS),
            player_names=["Anna", "Beat", "Dölf", "Carla"],
            first_dealer=3,
            request_id="s2",
        )
        open_ev = evenings.record_hand(
            open_ev, HandEntry("suit_H", 1, None, 129, 28), expected_version=0, request_id="t1"
        )
        anna = circle.players[0]
        housekeeping.rename_player(circle, anna.id, "Anna Zurbriggen", request_id="k1")
        housekeeping.delete_evening(circle, open_ev.public_id, request_id="k2")
        outcome = settled(ev)
        assert outcome is not None
        public_id, money = ev.public_id, list(outcome[1].net)
    with app.app_context():
        db.session.remove()
        db.engine.dispose()  # no connection may hold the database while it migrates
    return public_id, money


def _result_of(app: Flask, public_id: str) -> list[int]:
    with app.app_context():
        ev = db.session.execute(select(Evening).where(Evening.public_id == public_id)).scalar_one()
        outcome = settled(ev)
        assert outcome is not None
        return list(outcome[1].net)


Factory = Callable[..., Flask]
Migrate = Callable[..., None]


def test_empty_database_up_down_up(empty_db: str, app_factory: Factory, migrate_db: Migrate) -> None:
    migrate_to = migrate_db
    app = app_factory(empty_db)
    migrate_to(empty_db)
    assert _revision(empty_db) == HEAD
    assert set(TABLES) <= _tables(empty_db)
    assert _schema_diff(app) == []  # the migrations build exactly the models' schema
    migrate_to(empty_db, "base", down=True)
    assert _revision(empty_db) is None
    assert _tables(empty_db) & set(TABLES) == set()
    migrate_to(empty_db)
    assert _revision(empty_db) == HEAD and _schema_diff(app) == []


def test_rows_survive_each_step_down_and_up(empty_db: str, app_factory: Factory, migrate_db: Migrate) -> None:
    """Down one revision at a time to the initial schema, then back to head: no row lost."""
    migrate_to = migrate_db
    app = app_factory(empty_db)
    migrate_to(empty_db)
    public_id, money = _fill(app)
    before = _dump(empty_db)
    assert set(before) == set(TABLES) and all(before.values()), {t: len(v) for t, v in before.items()}

    migrate_to(empty_db, "head")  # head -> head is a no-op
    assert _dump(empty_db) == before

    for revision in REVISIONS[1:]:
        migrate_to(empty_db, revision, down=True)
        assert _revision(empty_db) == revision
        _same_rows(before, _dump(empty_db))  # every row kept, also through SQLite table rebuilds

    migrate_to(empty_db)
    assert _revision(empty_db) == HEAD
    after = _dump(empty_db)
    assert after.pop("housekeeping") == []  # a dropped table comes back empty
    before.pop("housekeeping")
    dropped = {
        "entries": "author",
        "applied_requests": "digest",
        "evenings": "start_digest",
        "circles": "view_token_sealed",  # the onlookers link is then made anew to be shown again
    }
    # dropped columns come back
    _same_rows(before, after, ignore=frozenset({*dropped.values(), "counts_in_money", "deleted"}))
    for table, column in dropped.items():
        assert all(r[column] is None for r in after[table]), (table, column)  # empty
    assert all(r["counts_in_money"] for r in after["evenings"])  # ... or with their default
    # an evening is deleted as its log says: the log came back empty, so none is
    assert sorted(r["deleted"] for r in before["evenings"]) == [False, True]
    assert not any(r["deleted"] for r in after["evenings"])
    assert _result_of(app, public_id) == money  # and the evening still adds up


def test_an_evening_deleted_before_the_column_is_deleted_after(
    empty_db: str, app_factory: Factory, migrate_db: Migrate
) -> None:
    """Issue 20.6: ``evenings.deleted`` (f2b6d8a4c017) is taken from the stored housekeeping log: an
    evening whose delete was not taken back is deleted, and its version moves on (a page left open
    on it learns it at its next poll); the others are left as they were."""
    app = app_factory(empty_db)
    migrate_db(empty_db)
    _fill(app)  # a rename and a delete of the open evening
    before = {r["public_id"]: r for r in _dump(empty_db)["evenings"]}
    migrate_db(empty_db, "d3a7c5e1f920", down=True)  # the revision before the column
    assert "deleted" not in _dump(empty_db)["evenings"][0]
    migrate_db(empty_db)
    after = {r["public_id"]: r for r in _dump(empty_db)["evenings"]}
    assert {pid: r["deleted"] for pid, r in after.items()} == {pid: r["deleted"] for pid, r in before.items()}
    for pid, row in after.items():
        assert row["version"] == before[pid]["version"] + (1 if row["deleted"] else 0)
