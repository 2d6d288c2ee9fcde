"""Shared fixtures: ``app``, ``client``, ``runner``, ``db_url``, and PostgreSQL helpers.

Schema: never ``create_all``. On SQLite a template database is migrated ONCE per
session with the real migrations (``flask_migrate.upgrade``) and copied to a fresh
file for every test (a file, not ``:memory:``, so threads and a live server share it).
With ``SCOREKEEPER_TEST_DB=postgres`` every test using ``db_url``/``app`` runs on
PostgreSQL instead: one throwaway database ``sk_test_<random>`` per session is
created through ``TEST_DATABASE_URL`` (default
``postgresql+psycopg://postgres@127.0.0.1:5432/test``), migrated once, emptied
(TRUNCATE) after every test and dropped at the end. Without a server answering,
PostgreSQL tests skip, unless ``SCOREKEEPER_REQUIRE_PG=1`` (CI) makes that a failure.

Extra config for a module's apps: override the ``app_config`` fixture.
"""

from __future__ import annotations

import os
import secrets
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy.engine import make_url

DEFAULT_PG_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
BACKEND = os.environ.get("SCOREKEEPER_TEST_DB", "sqlite").strip().lower() or "sqlite"
if BACKEND not in ("sqlite", "postgres"):
    raise RuntimeError(f"SCOREKEEPER_TEST_DB must be sqlite or postgres, not {BACKEND!r}")


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


TEST_LIMITS = {
    "LIMIT_NEW_CIRCLES": "100000 per hour",
    "LIMIT_WRONG_TOKENS": "100000 per hour",
    "LIMIT_EVENING_WRITES": "100000 per minute",
    "LIMIT_IMPORTS": "100000 per hour",
}


def make_app(db_url: str, **extra: Any) -> Flask:
    """An app on ``db_url`` for tests (secret key fixed, CSRF off unless asked for)."""
    from scorekeeper.app import create_app

    config: dict[str, Any] = {
        "TESTING": True,
        "SECRET_KEY": "test-secret-key",
        "WTF_CSRF_ENABLED": False,
        "SQLALCHEMY_DATABASE_URI": db_url,
        # Tests play far faster than a table: the limiter wraps every view as in production,
        # with limits no test meets (tests/hosting sets the real ones).
        **TEST_LIMITS,
    }
    config.update(extra)
    return create_app(config)


def dispose(app: Flask) -> None:
    from scorekeeper.extensions import db
    from scorekeeper.web import poll as web_poll

    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    web_poll.close(app)  # on PostgreSQL the fast poll has an engine and a listener of its own


def migrate_to(url: str, revision: str = "head", *, down: bool = False) -> None:
    """Run the real migrations (``flask db upgrade/downgrade``) against ``url``."""
    import flask_migrate

    app = make_app(url)
    with app.app_context():
        if down:
            flask_migrate.downgrade(revision=revision)
        else:
            flask_migrate.upgrade(revision=revision)
    dispose(app)


# --- translations -----------------------------------------------------------------
TRANSLATIONS_DIR = Path(__file__).resolve().parents[1] / "scorekeeper" / "translations"


def compile_catalogs(folder: Path = TRANSLATIONS_DIR) -> list[Path]:
    """Compile every catalog whose .mo is missing or older than its .po (as ``make translations``).

    The .mo files are build output (gitignored); each is written to a private file and
    renamed into place, so test runs in parallel never read half a file.
    """
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written: list[Path] = []
    for po in sorted(folder.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as fh:
            catalog = read_po(fh, locale=po.parent.parent.name)
        tmp = mo.with_name(f".{mo.name}.{os.getpid()}.{secrets.token_hex(4)}")
        with tmp.open("wb") as fh:
            write_mo(fh, catalog, use_fuzzy=True)
        os.replace(tmp, mo)
        written.append(mo)
    return written


@pytest.fixture(scope="session", autouse=True)
def _translations_compiled() -> None:
    compile_catalogs()


# --- PostgreSQL -------------------------------------------------------------------
def _libpq(url: str) -> str:
    """An SQLAlchemy URL as a libpq connection string for psycopg."""
    u = make_url(url).set(drivername="postgresql")
    return u.render_as_string(hide_password=False)


def pg_server_url() -> str | None:
    """The admin URL if a PostgreSQL server answers there, else None."""
    import psycopg

    url = os.environ.get("TEST_DATABASE_URL") or DEFAULT_PG_URL
    try:
        with psycopg.connect(_libpq(url), connect_timeout=3, autocommit=True) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error:
        return None
    return url


def require_pg() -> str:
    """The admin URL; skips (or fails under SCOREKEEPER_REQUIRE_PG=1) when no server answers."""
    url = pg_server_url()
    if url is None:
        where = os.environ.get("TEST_DATABASE_URL") or DEFAULT_PG_URL
        if _flag("SCOREKEEPER_REQUIRE_PG"):
            pytest.fail(f"PostgreSQL required (SCOREKEEPER_REQUIRE_PG=1) but none answers at {where}")
        pytest.skip(f"no PostgreSQL server answers at {where}")
    return url


def _admin(url: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(_libpq(url), connect_timeout=5, autocommit=True) as conn:
        conn.execute(sql)


STALE_AFTER_S = 6 * 3600  # a throwaway database this old belongs to a run that was killed


def _drop_stale(url: str) -> None:
    """Drop throwaway databases of killed runs: older than STALE_AFTER_S and unused."""
    import psycopg

    now = int(time.time())
    with psycopg.connect(_libpq(url), connect_timeout=5, autocommit=True) as conn:
        names = [
            r[0]
            for r in conn.execute(
                "SELECT datname FROM pg_database WHERE datname LIKE 'sk\\_test\\_%' AND datname NOT IN "
                "(SELECT datname FROM pg_stat_activity WHERE datname IS NOT NULL)"
            )
        ]
        for name in names:
            parts = name.split("_")  # sk_test_<unix time>_<random>
            if len(parts) == 4 and parts[2].isdigit() and now - int(parts[2]) > STALE_AFTER_S:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}"')


@pytest.fixture(scope="session")
def pg_databases() -> Iterator[Callable[[], str]]:
    """A factory of fresh, empty throwaway PostgreSQL databases ``sk_test_<time>_<random>``,
    dropped at the end (and, if a run was killed, by a later run)."""
    created: list[str] = []
    admin: list[str] = []

    def make() -> str:
        if not admin:
            admin.append(require_pg())
            _drop_stale(admin[0])
        name = f"sk_test_{int(time.time())}_{secrets.token_hex(4)}"
        _admin(admin[0], f'CREATE DATABASE "{name}"')
        created.append(name)
        return make_url(admin[0]).set(database=name).render_as_string(hide_password=False)

    yield make
    for name in created:
        _admin(admin[0], f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# --- the database of one test ----------------------------------------------------------
@pytest.fixture(scope="session")
def _sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "migrated.sqlite3"
    migrate_to(f"sqlite:///{path}")
    for suffix in ("-wal", "-shm"):
        if Path(str(path) + suffix).exists():  # pragma: no cover - disposed engines checkpoint
            raise RuntimeError("template database still has a WAL file")
    return path


@pytest.fixture(scope="session")
def _pg_suite_url(pg_databases: Callable[[], str]) -> Iterator[str]:
    url = pg_databases()
    migrate_to(url)
    yield url
    # every app the tests made was disposed: no stamps' listener (a thread and a connection each,
    # `services.read.stamp_watch`) outlives the session's database
    deadline = time.monotonic() + 5
    while (left := [t for t in threading.enumerate() if t.name == "stamp-watch"]) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not left, f"{len(left)} stamp listeners of apps never disposed (conftest.dispose, poll.close)"


def _truncate_all(url: str) -> None:
    """Empty every table. A request still in flight when its test ended (a browser's service worker
    fetching in the background) can hold a lock the TRUNCATE needs while waiting for one it holds:
    PostgreSQL then cancels the TRUNCATE as the deadlock's victim, the request finishes, and the
    TRUNCATE is tried again."""
    import psycopg

    from scorekeeper.extensions import db

    tables = ", ".join(f'"{t.name}"' for t in db.metadata.sorted_tables)
    for attempt in range(5):
        try:
            _admin(url, f"TRUNCATE {tables} RESTART IDENTITY CASCADE")
            return
        except psycopg.errors.DeadlockDetected:
            if attempt == 4:
                raise
            time.sleep(0.2 * (attempt + 1))


@pytest.fixture
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The migrated database of this test: a fresh SQLite file, or (SCOREKEEPER_TEST_DB=postgres)
    the session's PostgreSQL database, emptied afterwards."""
    if BACKEND == "postgres":
        url = request.getfixturevalue("_pg_suite_url")
        yield url
        _truncate_all(url)
        return
    template: Path = request.getfixturevalue("_sqlite_template")
    path = tmp_path / "scorekeeper.sqlite3"
    shutil.copyfile(template, path)
    yield f"sqlite:///{path}"


@pytest.fixture
def db_backend(db_url: str) -> str:
    """``sqlite`` or ``postgresql`` for the current test."""
    return make_url(db_url).get_backend_name()


@pytest.fixture
def app_config() -> dict[str, Any]:
    """Extra config for ``app``; override in a test module (e.g. ``{"WTF_CSRF_ENABLED": True}``)."""
    return {}


@pytest.fixture
def app(db_url: str, app_config: dict[str, Any], tmp_path: Path) -> Iterator[Flask]:
    application = make_app(db_url, **app_config)
    yield application
    dispose(application)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


@pytest.fixture
def app_factory() -> Iterator[Callable[..., Flask]]:
    """``app_factory(db_url, **config)``: more apps (e.g. on another database); disposed afterwards."""
    made: list[Flask] = []

    def factory(url: str, **extra: Any) -> Flask:
        application = make_app(url, **extra)
        made.append(application)
        return application

    yield factory
    for application in made:
        dispose(application)


@pytest.fixture
def migrate_db() -> Callable[..., None]:
    """``migrate_db(url, revision="head", down=False)``: the real migrations, as ``flask db upgrade/downgrade``."""
    return migrate_to
