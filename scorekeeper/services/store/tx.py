"""Transactions: one service call = one transaction = the only commit.

SQLite: WAL, ``busy_timeout``, foreign keys on for every connection; pysqlite's own
transaction handling is switched off and SQLAlchemy's ``begin`` event emits the
BEGIN itself (the documented pysqlite recipe), ``BEGIN IMMEDIATE`` inside
``write()`` so concurrent writers queue for the lock instead of both reading the
same version and losing a race. PostgreSQL: ``write()`` callers lock the evening
row with ``SELECT ... FOR UPDATE`` (ignored by SQLite, where the IMMEDIATE lock
already serializes), so two phones never both pass the version check.

SQLite lets one writer in at a time, and one that finds the file locked sleeps in SQLite's
busy handler (in steps growing to 100 ms) before it tries again: under load one writer waits
long while another slips in between. The app's writers therefore queue before ``BEGIN
IMMEDIATE`` (``WriteLock``): a lock per process for its threads, then an exclusive ``flock`` of
``<database file>.write-lock`` for the processes, both blocking, so the next writer wakes the
moment the last one committed. ``busy_timeout`` stays for other programs (a backup, the shell).
"""

from __future__ import annotations

import fcntl
import os
import threading
import weakref
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from typing import Any, Final

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import ORMExecuteState, Session

from ...extensions import Base, db
from ...game.errors import N_, RuleError
from ...models import REQUEST_ID_LEN

_IMMEDIATE: ContextVar[bool] = ContextVar("scorekeeper_sqlite_immediate", default=False)
_ERASING: ContextVar[bool] = ContextVar("scorekeeper_erasing_circle", default=False)
_READING: ContextVar[bool] = ContextVar("scorekeeper_reading_only", default=False)
_AFTER: ContextVar[dict[Hashable, Callable[[], None]] | None] = ContextVar("scorekeeper_after_write", default=None)
_CONFIGURED: weakref.WeakSet[Engine] = weakref.WeakSet()  # engines whose hooks are installed
_WRITE_LOCKS: weakref.WeakKeyDictionary[Engine, WriteLock] = weakref.WeakKeyDictionary()


class FifoLock:
    """A lock taken in the order it was asked for (``threading.Lock`` lets a thread that just
    released it take it again ahead of those waiting: one phone of a table would win every race)."""

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._next = 0  # the next ticket handed out
        self._serving = 0  # the ticket that holds the lock

    def acquire(self) -> None:
        with self._cond:
            ticket = self._next
            self._next += 1
            while ticket != self._serving:
                self._cond.wait()

    def release(self) -> None:
        with self._cond:
            self._serving += 1
            self._cond.notify_all()


class WriteLock:
    """The queue of an SQLite database's writers: a first-come lock for the threads, then ``flock``
    on a file beside the database (``path`` None: an in-memory database, one process, the threads'
    lock alone). The file is opened once per process (a forked worker opens its own: a shared open
    file would be one lock holder for both)."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self._pid = os.getpid()
        self._threads = FifoLock()
        self._fd: int | None = None

    def _mine(self) -> None:
        """In a forked child, a lock and a file of its own (not the parent's state)."""
        if self._pid != os.getpid():
            self._pid = os.getpid()
            self._threads = FifoLock()
            self._fd = None

    def __enter__(self) -> WriteLock:
        self._mine()
        self._threads.acquire()
        try:
            if self.path is not None:
                if self._fd is None:
                    self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
                fcntl.flock(self._fd, fcntl.LOCK_EX)
        except BaseException:
            self._threads.release()
            raise
        return self

    def __exit__(self, *_exc: object) -> None:
        try:
            if self._fd is not None:
                fcntl.flock(self._fd, fcntl.LOCK_UN)
        finally:
            self._threads.release()


def write_lock_of(engine: Engine) -> WriteLock | None:
    """The writers' queue of an SQLite engine (None for other databases)."""
    return _WRITE_LOCKS.get(engine)


def configure_engine(engine: Engine, *, busy_timeout_ms: int = 15000) -> None:
    """Install the SQLite connection and transaction hooks (no-op for other databases)."""
    if engine.dialect.name != "sqlite" or engine in _CONFIGURED:
        return
    memory = engine.url.database in (None, "", ":memory:")
    _WRITE_LOCKS[engine] = WriteLock(None if memory else os.path.abspath(str(engine.url.database)) + ".write-lock")

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

    _CONFIGURED.add(engine)


def check_request_id(request_id: str) -> str:
    """A change's request id: 1 to 64 printable ASCII characters (else ``request_id``: the
    form is out of date). Every change carries one; a repeat is a no-op."""
    if (
        not isinstance(request_id, str)
        or not 1 <= len(request_id) <= REQUEST_ID_LEN
        or not (request_id.isascii() and request_id.isprintable())
    ):
        raise RuleError(N_("This form is out of date. Please try again."), "request_id")
    return request_id


def session() -> Session:
    return db.session()


def engine() -> Engine:
    return db.engine


# What the writes of this session (one request, one app context) came to: the error
# handlers tell "nothing was written" from "saved" and from "not known" by it.
NOTHING: Final = "nothing"  # no write committed, none was being committed
SAVED: Final = "saved"  # a write committed (the failure came afterwards)
UNKNOWN: Final = "unknown"  # a COMMIT was sent and failed: it may or may not have happened
_OUTCOME = "scorekeeper.write_outcome"


@contextmanager
def write(*, keep: bool = False) -> Iterator[Session]:
    """A write transaction: commits on success, rolls back on any exception.

    A transaction the caller (a view) left open for reading is rolled back first
    (its objects are expired and reload fresh), so the write starts with the lock.
    Its outcome is noted on the session (``outcome()``). ``keep``: the objects keep after the
    COMMIT what the transaction read and wrote under the lock, which is what it committed (an
    evening's change: its answer is read without loading the evening again); only for writes
    whose values come back from the database as they were given.
    """
    s = db.session()
    if s.in_transaction():
        if _may_continue(s):
            s.expire_all()  # what it read reloads fresh, in the same transaction
        else:
            s.rollback()
    nested = _IMMEDIATE.get()
    queue = None if nested else write_lock_of(db.engine)
    token = _IMMEDIATE.set(True)
    if queue is not None:
        queue.__enter__()
    try:
        if not s.in_transaction():
            s.begin()
        try:
            yield s
            s.flush()  # a refused row (a constraint) raises here: nothing was written
        except BaseException:
            with suppress(Exception):  # a lost connection may refuse the rollback too
                s.rollback()
            raise
        try:
            s.expire_on_commit = not keep
            try:
                s.commit()
            finally:
                s.expire_on_commit = True
        except BaseException:
            s.info[_OUTCOME] = UNKNOWN
            with suppress(Exception):
                s.rollback()
            raise
        if s.info.get(_OUTCOME) != UNKNOWN:
            s.info[_OUTCOME] = SAVED
    finally:
        _IMMEDIATE.reset(token)
        if queue is not None:
            queue.__exit__()


def _may_continue(s: Session) -> bool:
    """Whether a write may go on in the reading transaction the caller left open instead of rolling
    it back and beginning anew (three round trips fewer: ROLLBACK, the pool's ping, BEGIN).
    PostgreSQL in READ COMMITTED only, where every statement sees what was committed before it and
    the write's ``SELECT ... FOR UPDATE`` waits for and reads the row's newest version, just as in
    a new transaction; nothing unflushed, the transaction healthy. SQLite: the write must BEGIN
    IMMEDIATE, so the read transaction always ends first."""
    if s.get_bind().dialect.name != "postgresql" or s.new or s.dirty or s.deleted:
        return False
    try:
        conn = s.connection()
    except Exception:  # noqa: BLE001 - a transaction that cannot go on: rolled back instead
        return False
    if conn.default_isolation_level != "READ COMMITTED":
        return False
    info = getattr(conn.connection.dbapi_connection, "info", None)
    return info is not None and int(info.transaction_status) == _PG_IN_TRANSACTION


_PG_IN_TRANSACTION: Final = 2  # psycopg.pq.TransactionStatus.INTRANS (idle inside a healthy transaction)


def writing() -> bool:
    """Whether a write transaction (``write()`` or ``derived_write()``) is under way here."""
    return _IMMEDIATE.get()


def reading_only() -> bool:
    """Whether this is a read (a GET): it stores nothing, derived copies neither (they are kept in
    the worker's memory; the write that changes what they derive from stores them)."""
    return _READING.get()


@contextmanager
def read_only() -> Iterator[None]:
    """A read: ``derived_write`` writes nothing inside it (the app wraps every GET in it)."""
    token = _READING.set(True)
    try:
        yield
    finally:
        _READING.reset(token)


@contextmanager
def write_request() -> Iterator[None]:
    """A request that may write (a POST): what its writes ask for with ``after_write`` runs at its
    end, still inside it (the derived copies the writes changed), each once, in the order asked."""
    token = _AFTER.set({})
    try:
        yield
    finally:
        asked = _AFTER.get() or {}
        _AFTER.reset(token)
        for job in asked.values():
            job()


def after_write(key: Hashable, job: Callable[[], None]) -> None:
    """``job`` (which stores derived copies, never raises) at the end of this write request; once
    per ``key``. Outside a write request (a script, a test of a service): nothing, the reads keep
    what they derive in memory."""
    asked = _AFTER.get()
    if asked is not None:
        asked.pop(key, None)  # asked again: run after the later write
        asked[key] = job


@contextmanager
def derived_write() -> Iterator[Connection | None]:
    """A write of derived data (a copy that can always be computed again, such as an
    evening's stored outcome) on a connection of its own, committed at the end: the
    caller's session, its open read, its objects and what its own writes came to
    (``outcome()``) are left as they are, so a read that stores such a copy stays a read.
    SQLite: ``BEGIN IMMEDIATE`` after the writers' queue, as every write. Yields None (write
    nothing) for an in-memory SQLite database, whose one connection is the session's."""
    engine = db.engine
    if _READING.get() or (engine.dialect.name == "sqlite" and engine.url.database in (None, "", ":memory:")):
        yield None
        return
    queue = None if _IMMEDIATE.get() else write_lock_of(engine)
    token = _IMMEDIATE.set(True)
    if queue is not None:
        queue.__enter__()
    try:
        with engine.begin() as conn:
            yield conn
    finally:
        _IMMEDIATE.reset(token)
        if queue is not None:
            queue.__exit__()


@contextmanager
def erasing() -> Iterator[None]:
    """The one path past the append-only guard: erasing a whole circle for good
    (``services.erase.delete_circle``, the players' right to have their data gone).
    Inside it, bulk ``DELETE`` statements on guarded tables are allowed; nothing else is."""
    token = _ERASING.set(True)
    try:
        yield
    finally:
        _ERASING.reset(token)


def outcome() -> str:
    """``UNKNOWN`` when a commit of this session failed, else ``SAVED`` when a write
    committed, else ``NOTHING``. Read by the error handlers only: it
    touches no database."""
    found: str = db.session().info.get(_OUTCOME, NOTHING)
    return found


def guard_append_only(*models: type[Base]) -> None:
    """Refuse, at flush time, to delete or change a row of an append-only model, and
    refuse bulk ``UPDATE``/``DELETE`` statements on their tables (the latter are allowed
    inside ``erasing()`` only: deleting a whole circle for good).

    Belt and braces for "nothing is ever deleted": the services only ever add such
    rows; a bug that tried otherwise raises instead of silently rewriting history.
    """
    guarded = tuple(models)
    tables = {m.__table__ for m in guarded}

    @event.listens_for(Session, "do_orm_execute")
    def _refuse_bulk(state: ORMExecuteState) -> None:
        if not (state.is_update or state.is_delete):
            return
        target = getattr(state.statement, "table", None)
        if target in tables and (state.is_update or not _ERASING.get()):
            raise RuntimeError(
                f"{target} rows are append-only: refusing a bulk {'update' if state.is_update else 'delete'}"
            )

    @event.listens_for(Session, "before_flush")
    def _refuse(session: Session, _context: Any, _instances: Any) -> None:
        for obj in session.deleted:
            if isinstance(obj, guarded):
                raise RuntimeError(f"{type(obj).__name__} rows are append-only: refusing to delete {obj!r}")
        for obj in session.dirty:
            if isinstance(obj, guarded) and session.is_modified(obj, include_collections=False):
                raise RuntimeError(f"{type(obj).__name__} rows are append-only: refusing to change {obj!r}")
