"""Transactions: one service call = one transaction = the only commit.

SQLite: WAL, ``busy_timeout``, foreign keys on for every connection; pysqlite's own
transaction handling is switched off and SQLAlchemy's ``begin`` event emits the
BEGIN itself (the documented pysqlite recipe), ``BEGIN IMMEDIATE`` inside
``write()`` so concurrent writers queue for the lock instead of both reading the
same version and losing a race. PostgreSQL: ``write()`` callers lock the evening
row with ``SELECT ... FOR UPDATE`` (ignored by SQLite, where the IMMEDIATE lock
already serializes), so two phones never both pass the version check.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Iterator

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Session

from ..extensions import db

_IMMEDIATE: ContextVar[bool] = ContextVar("scorekeeper_sqlite_immediate", default=False)


def configure_engine(engine: Engine, *, busy_timeout_ms: int = 15000) -> None:
    """Install the SQLite connection and transaction hooks (no-op for other databases)."""
    if engine.dialect.name != "sqlite" or getattr(engine, "_scorekeeper_configured", False):
        return
    memory = engine.url.database in (None, "", ":memory:")

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy, not pysqlite, decide when a transaction begins.
        dbapi_connection.isolation_level = None
        cur = dbapi_connection.cursor()
        try:
            if not memory:
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
            cur.execute("PRAGMA foreign_keys=ON")
        finally:
            cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE" if _IMMEDIATE.get() else "BEGIN")

    engine._scorekeeper_configured = True  # type: ignore[attr-defined]


def session() -> Session:
    return db.session()


@contextmanager
def write() -> Iterator[Session]:
    """A write transaction: commits on success, rolls back on any exception.

    A transaction the caller (a view) left open for reading is rolled back first
    (its objects are expired and reload fresh), so the write starts with the lock.
    """
    s = db.session()
    if s.in_transaction():
        s.rollback()
    token = _IMMEDIATE.set(True)
    try:
        with s.begin():
            yield s
    finally:
        _IMMEDIATE.reset(token)
