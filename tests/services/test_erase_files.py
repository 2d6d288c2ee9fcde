"""Deleting means deleted (issue 21, 8): after a circle is erased, its names are not left
readable in the database's files.

SQLite: neither the database file nor its WAL file holds the bytes of any name, author or
renamed name of the erased circle (``secure_delete`` and a ``wal_checkpoint(TRUNCATE)``).
PostgreSQL: the tables touched were vacuumed after the commit, and no tuple of any of their
pages (read raw through ``pageinspect``, live or dead) holds a name; the bytes themselves may
still lie in the pages' free space until ``VACUUM FULL`` (docs/DEPLOY.md), which is not
claimed here."""

from __future__ import annotations

import secrets
import shutil
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from flask import Flask

from scorekeeper.extensions import db
from scorekeeper.history.records import CircleRecord, Housekeeping, HousekeepingKind, PaymentKind, Settlement
from scorekeeper.history.sample import sample_circle
from scorekeeper.models import Circle
from scorekeeper.services import erase, restore
from scorekeeper.services.read import memory
from tests.conftest import dispose, make_app, migrate_to


def _circle(tag: str) -> tuple[CircleRecord, list[str]]:
    """A circle whose every name, author and renamed name is unique to this test (``tag``)."""
    base = sample_circle(11, evenings=6, players=5, paper_rate=0.0)
    names = [f"Q{tag}p{i}z" for i in range(len(base.players))]
    players = tuple(replace(p, name=n) for p, n in zip(base.players, names, strict=True))
    author = f"Q{tag}authorz"
    evenings = tuple(replace(ev, log=tuple(replace(row, author=author) for row in ev.log)) for ev in base.evenings)
    renamed, payer = f"Q{tag}renamedz", f"Q{tag}payerz"
    when = datetime(2026, 11, 1, 20, 0, tzinfo=UTC)
    record = replace(
        base,
        name=f"Q{tag}circlez",
        players=players,
        evenings=evenings,
        housekeeping=(Housekeeping(1, HousekeepingKind.RENAME, player=players[0].id, name=renamed, author=author),),
        settlements=(
            Settlement(1, PaymentKind.PAYMENT, None, players[1].id, players[2].id, 500, when, entered_by=payer),
        ),
    )
    return record, [record.name, *names, author, renamed, payer]


def _store(record: CircleRecord) -> int:
    circle, _w, _v = restore.restore_record(record)
    memory.memory_of(circle).ratings()  # the pages' derived copies (outcomes, rating runs) are stored too
    db.session.rollback()
    return circle.id


@pytest.fixture
def sqlite_app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Flask, Path]]:
    template: Path = request.getfixturevalue("_sqlite_template")
    path = tmp_path / "erase.sqlite3"
    shutil.copyfile(template, path)
    app = make_app(f"sqlite:///{path}")
    yield app, path
    dispose(app)


def test_sqlite_files_keep_no_name_of_an_erased_circle(sqlite_app: tuple[Flask, Path]) -> None:
    app, path = sqlite_app
    tag = secrets.token_hex(4)
    gone, gone_names = _circle(tag + "a")
    kept, kept_names = _circle(tag + "b")
    files = (path, Path(f"{path}-wal"))

    def found(names: list[str]) -> set[str]:
        content = b"".join(f.read_bytes() for f in files if f.exists())
        return {n for n in names if n.encode() in content}

    with app.app_context():
        gone_id = _store(gone)
        _store(kept)
        assert found(gone_names) == set(gone_names)  # written: in the WAL or the database file
        erase.delete_circle(db.session.get_one(Circle, gone_id), typed_name=gone.name)
        db.session.remove()
        assert found(gone_names) == set()
        assert Path(f"{path}-wal").stat().st_size == 0  # the WAL was emptied
        assert found(kept_names) == set(kept_names)  # the other circle is all there


def test_erasure_vacuums_every_table_it_deletes_from() -> None:
    """``erase.TABLES`` (what is vacuumed) is every table of the schema but Alembic's."""
    assert {m.__tablename__ for m in erase.TABLES} == {t.name for t in db.metadata.sorted_tables}


def test_postgresql_keeps_no_readable_tuple_of_an_erased_circle(pg_databases: Callable[[], str]) -> None:
    import psycopg

    url = pg_databases()
    migrate_to(url)
    libpq = url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(libpq, autocommit=True) as conn:
        try:
            conn.execute("CREATE EXTENSION IF NOT EXISTS pageinspect")
        except psycopg.Error:
            pytest.skip("pageinspect is not available on this server")
    tables = [m.__tablename__ for m in erase.TABLES]

    def vacuums(conn: psycopg.Connection) -> dict[str, int]:
        rows = conn.execute(
            "SELECT relname, vacuum_count FROM pg_stat_user_tables WHERE relname = ANY(%s)", (tables,)
        ).fetchall()
        return dict(rows)

    def tuples_holding(conn: psycopg.Connection, names: list[str]) -> set[str]:
        """Names found in any tuple of any page of the tables and their indexes (live or dead)."""
        found: set[str] = set()
        relations = conn.execute(
            "SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = 'public' AND (c.relname = ANY(%s) OR c.oid IN "
            "(SELECT indexrelid FROM pg_index WHERE indrelid IN (SELECT oid FROM pg_class WHERE relname = ANY(%s))))",
            (tables, tables),
        ).fetchall()
        for rel, kind in relations:
            pages = conn.execute("SELECT pg_relation_size(%s) / 8192", (rel,)).fetchone()[0]  # type: ignore[index]  # one row
            for page in range(pages):
                if kind == "r":
                    items = conn.execute(
                        "SELECT t_data FROM heap_page_items(get_raw_page(%s, %s)) WHERE lp_flags = 1", (rel, page)
                    ).fetchall()
                    data = b"".join(bytes(d) for (d,) in items if d is not None)
                else:
                    meta = page == 0  # a B-tree's first page is its metapage
                    if meta:
                        continue
                    items = conn.execute("SELECT data FROM bt_page_items(%s, %s)", (rel, page)).fetchall()
                    data = b"".join(bytes.fromhex(d.replace(" ", "")) for (d,) in items if d)
                found |= {n for n in names if n.encode() in data}
        return found

    tag = secrets.token_hex(4)
    gone, gone_names = _circle(tag + "a")
    kept, kept_names = _circle(tag + "b")
    app = make_app(url)
    try:
        with app.app_context():
            gone_id = _store(gone)
            _store(kept)
            with psycopg.connect(libpq, autocommit=True) as conn:
                before = vacuums(conn)
                assert tuples_holding(conn, gone_names) == set(gone_names)
            erase.delete_circle(db.session.get_one(Circle, gone_id), typed_name=gone.name)
            db.session.remove()
        with psycopg.connect(libpq, autocommit=True) as conn:
            after = vacuums(conn)
            assert all(after[t] > before.get(t, 0) for t in tables), (before, after)  # every table vacuumed
            assert tuples_holding(conn, gone_names) == set()  # no tuple, live or dead, holds a name
            assert tuples_holding(conn, kept_names) == set(kept_names)
    finally:
        dispose(app)
