"""Operations: ``/healthz``, ``/readyz``, ``flask backup PATH``, ``flask restore PATH`` and
``flask new-write-link CIRCLE``.

- ``/healthz``: the process answers (no database touched): 200.
- ``/readyz``: the database answers and its schema is at the migrations' head: 200;
  otherwise 503 with ``Retry-After`` (a load balancer sends no traffic yet).
- ``flask backup PATH``: SQLite through its online backup API (a consistent copy
  while the app serves); PostgreSQL through ``pg_dump --format=custom``.
- ``flask restore PATH``: the reverse (SQLite's backup API into the live file,
  ``pg_restore --clean --single-transaction`` on PostgreSQL). It replaces every
  circle and evening, so it asks first (``--yes`` to skip). A backup from a newer
  version of the app (a revision these migrations do not know) is refused; one from
  an older version is restored and needs ``flask db upgrade`` afterwards. Every link valid
  before the restore that the backup does not hold is kept as retired (``services.retired``):
  a phone still holding one is told so (410), not counted as guessing.
- ``flask new-write-link CIRCLE``: when a circle's players lost their write link (or the
  answer that carried a new one), the operator gives them a new one (asks first).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any, cast

import click
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util import CommandError as AlembicError
from flask import Blueprint, Flask, current_app, jsonify, url_for
from flask.cli import with_appcontext
from sqlalchemy.engine import URL, Engine
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.wrappers import Response

from . import config as cfg
from .extensions import db
from .services import circles as circle_service
from .services import retired
from .services.read import stamp_watch

bp = Blueprint("ops", __name__)


def _heads() -> set[str]:
    return set(ScriptDirectory(str(cfg.MIGRATIONS_DIR)).get_heads())


def _answer(body: dict[str, Any], status: int) -> Response:
    response = jsonify(body)
    response.status_code = status
    response.headers["Cache-Control"] = "no-store"
    if status == 503:
        response.headers["Retry-After"] = "5"
    return response


@bp.get("/healthz")
def healthz() -> Response:
    return _answer({"status": "ok"}, 200)


@bp.get("/readyz")
def readyz() -> Response:
    try:
        with db.engine.connect() as conn:
            current = set(MigrationContext.configure(conn).get_current_heads())
    except SQLAlchemyError:
        return _answer({"status": "unavailable", "database": "unreachable"}, 503)
    heads = _heads()
    if current != heads:
        return _answer(
            {"status": "unavailable", "database": "ok", "migrations": "not at head", "current": sorted(current)}, 503
        )
    return _answer({"status": "ready", "database": "ok", "migrations": "head"}, 200)


# --- backup and restore ------------------------------------------------------------------
def _sqlite_revision(conn: sqlite3.Connection) -> str | None:
    try:
        row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.DatabaseError:
        return None
    return str(row[0]) if row else None


def sqlite_backup(engine: Engine, target: Path) -> str | None:
    """A consistent copy of the live SQLite database (online backup API) at ``target``; its revision."""
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    raw = engine.raw_connection()
    try:
        dest = sqlite3.connect(tmp)
        try:
            cast(sqlite3.Connection, raw.driver_connection).backup(dest)
            check = dest.execute("PRAGMA integrity_check").fetchone()
            if not check or check[0] != "ok":
                raise click.ClickException(f"the copy failed its integrity check: {check}")
            revision = _sqlite_revision(dest)
        finally:
            dest.close()
        os.replace(tmp, target)
    finally:
        raw.close()
        tmp.unlink(missing_ok=True)
    return revision


def sqlite_restore(engine: Engine, source: Path) -> None:
    """Copy a backup into the live SQLite database (other connections see it at their next transaction)."""
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    raw = engine.raw_connection()
    try:
        src.backup(cast(sqlite3.Connection, raw.driver_connection))
    finally:
        raw.close()
        src.close()


def _check_sqlite_backup(source: Path) -> str:
    """The backup's revision; ClickException if it is no scorekeeper database this code can restore."""
    try:
        conn = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise click.ClickException(f"{source} cannot be opened: {exc}") from None
    try:
        try:
            check = conn.execute("PRAGMA integrity_check").fetchone()
        except sqlite3.DatabaseError as exc:
            raise click.ClickException(f"{source} is not an SQLite database: {exc}") from None
        if not check or check[0] != "ok":
            raise click.ClickException(f"{source} failed its integrity check: {check}")
        revision = _sqlite_revision(conn)
    finally:
        conn.close()
    return _known_revision(source, revision)


def _known_revision(source: Path, revision: str | None) -> str:
    if revision is None:
        raise click.ClickException(f"{source} is not a scorekeeper backup (no migration revision in it)")
    try:
        known = ScriptDirectory(str(cfg.MIGRATIONS_DIR)).get_revision(revision) is not None
    except AlembicError:
        known = False
    if not known:
        raise click.ClickException(f"{source} is from a newer version of the app (revision {revision}): update first")
    return revision


def pg_environment(url: URL) -> dict[str, str]:
    """libpq's environment for pg_dump/pg_restore (the password stays out of the process list)."""
    env = dict(os.environ)
    for name, value in (
        ("PGHOST", url.host),
        ("PGPORT", url.port),
        ("PGUSER", url.username),
        ("PGPASSWORD", url.password),
        ("PGDATABASE", url.database),
    ):
        if value is not None:
            env[name] = str(value)
    return env


def _pg_tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise click.ClickException(
            f"{name} is not installed: install PostgreSQL's client tools (Debian: postgresql-client); see DEPLOY.md"
        )
    return path


def _run(args: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(args, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise click.ClickException(f"{Path(args[0]).name} failed: {done.stderr.strip()}")


def pg_backup(url: URL, target: Path) -> None:
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        _run([_pg_tool("pg_dump"), "--format=custom", "--no-owner", "--file", str(tmp)], pg_environment(url))
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def pg_backup_revision(source: Path) -> str:
    """The migration revision stored in a ``pg_dump -Fc`` file; ClickException if it is none of ours."""
    args = [_pg_tool("pg_restore"), "--data-only", "--table=alembic_version", "--file=-", str(source)]
    done = subprocess.run(args, capture_output=True, text=True, check=False)
    lines = done.stdout.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("COPY ") and "alembic_version" in line]
    if done.returncode != 0 or not starts or starts[0] + 1 >= len(lines):
        raise click.ClickException(f"{source} is not a scorekeeper backup made by flask backup (pg_dump -Fc)")
    return _known_revision(source, lines[starts[0] + 1].strip() or None)


def pg_restore(url: URL, source: Path) -> None:
    env = pg_environment(url)
    args = [_pg_tool("pg_restore"), "--clean", "--if-exists", "--no-owner", "--single-transaction"]
    _run([*args, "--dbname", env["PGDATABASE"], str(source)], env)


@click.command("backup")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
def backup_command(path: Path) -> None:
    """Copy the whole database to PATH (safe while the app serves)."""
    engine = db.engine
    if engine.dialect.name == "sqlite":
        revision = sqlite_backup(engine, path)
        click.echo(f"Backed up the SQLite database to {path} (revision {revision}).")
    elif engine.dialect.name == "postgresql":
        pg_backup(engine.url, path)
        click.echo(f"Backed up the PostgreSQL database to {path} (pg_dump custom format).")
    else:  # pragma: no cover - only SQLite and PostgreSQL are supported
        raise click.ClickException(f"no backup for {engine.dialect.name}")


@click.command("restore")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--yes", is_flag=True, help="Do not ask before replacing the data.")
@with_appcontext
def restore_command(path: Path, yes: bool) -> None:
    """Replace every circle and evening with the backup in PATH."""
    engine = db.engine
    if engine.dialect.name not in ("sqlite", "postgresql"):  # pragma: no cover
        raise click.ClickException(f"no restore for {engine.dialect.name}")
    revision = _check_sqlite_backup(path) if engine.dialect.name == "sqlite" else pg_backup_revision(path)
    if not yes:
        click.confirm(f"Replace every circle and evening in {engine.url.database} with {path}?", abort=True)
    with engine.connect() as conn:
        known = retired.known_links(conn)
    if engine.dialect.name == "sqlite":
        sqlite_restore(engine, path)
    else:
        pg_restore(engine.url, path)
    engine.dispose()  # every connection opens the restored data from here on
    with engine.begin() as conn:
        kept = retired.after_restore(conn, known)
    if engine.dialect.name != "sqlite":
        stamp_watch.forget_everywhere(engine)  # the tables were replaced: no row trigger said so
        stamp_watch.honour_everywhere(engine)  # said done once no worker can answer from before
    engine.dispose()
    click.echo(f"Restored {path} (revision {revision}).")
    if kept is None and known:
        click.echo("Links made since that backup answer 'not found': its version keeps no retired links.")
    elif kept:
        click.echo(f"{kept} links the backup does not hold are kept as retired: a phone with one is told why.")
    if {revision} != _heads():
        click.echo("The backup is from an older version: run `flask db upgrade` before starting the app.")


@click.command("new-write-link")
@click.argument("circle")
@click.option("--yes", is_flag=True, help="Do not ask before replacing the link.")
@with_appcontext
def new_write_link_command(circle: str, yes: bool) -> None:
    """A new write link for CIRCLE (its id, or its exact name), whose players lost theirs.

    The old write link stops working; the new one is printed once (from PUBLIC_URL when set).
    """
    found = circle_service.find_circles(circle)
    if not found:
        raise click.ClickException(f"no circle with the id or name {circle!r}")
    if len(found) > 1:
        listed = "\n".join(f"  {c.public_id}  {c.name}  (created {c.created_at:%Y-%m-%d})" for c in found)
        raise click.ClickException(f"several circles are called {circle!r}; give one of their ids:\n{listed}")
    (target,) = found
    if not yes:
        click.confirm(
            f"Replace the write link of {target.name!r} ({target.public_id})? "
            "Every phone with the old one loses access.",
            abort=True,
        )
    token = circle_service.new_write_link(target)
    app = current_app
    base = app.config.get("PUBLIC_URL") or ""
    with app.test_request_context(base_url=base or "http://localhost"):
        link = url_for("circles.circle", token=token, _external=bool(base))
    if base:
        click.echo(f"New write link (shown once): {link}")
    else:
        click.echo(f"New write link (shown once; put the site's address in front): {link}")


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
    app.cli.add_command(backup_command)
    app.cli.add_command(restore_command)
    app.cli.add_command(new_write_link_command)
