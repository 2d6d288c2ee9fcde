"""The application factory: ``flask --app scorekeeper.app ...`` finds ``create_app``.

Configuration order (later wins): defaults (config.py) -> ``instance/config.py``
-> ``SCOREKEEPER_*`` environment variables -> ``DATABASE_URL`` -> ``test_config``.
The database schema is never created here: run ``flask db upgrade`` before the
server (and its workers) start.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, request

from . import api, faults, hosting, limits, ops, web
from . import config as cfg
from .extensions import babel, compress, csrf, db, migrate
from .i18n import select_locale
from .web import poll as web_poll


def create_app(test_config: Mapping[str, Any] | None = None, *, instance_path: str | None = None) -> Flask:
    instance_path = instance_path or os.environ.get("SCOREKEEPER_INSTANCE_PATH") or None
    app = hosting.App(
        __name__,
        template_folder=str(cfg.TEMPLATES_DIR),
        static_folder=str(cfg.STATIC_DIR),
        instance_path=instance_path,
        instance_relative_config=True,
    )
    app.config.from_mapping(cfg.defaults(app.instance_path))
    app.config.from_pyfile("config.py", silent=True)
    app.config.from_prefixed_env(prefix="SCOREKEEPER")
    url = cfg.database_url_from_env()
    if url:
        app.config["SQLALCHEMY_DATABASE_URI"] = url
    if test_config:
        app.config.from_mapping(test_config)
    app.config["SQLALCHEMY_DATABASE_URI"] = cfg.normalize_database_url(app.config["SQLALCHEMY_DATABASE_URI"])
    _prepare_database(app)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = cfg.load_or_create_secret_key(app.instance_path)

    db.init_app(app)
    migrate.init_app(app, db, directory=str(cfg.MIGRATIONS_DIR), render_as_batch=True, compare_type=True)
    csrf.init_app(app)
    babel.init_app(app, locale_selector=select_locale)
    compress.init_app(app)
    hosting.init_app(app)  # before the parts: their after_request hooks (cookies, headers) run before its own

    from . import models  # noqa: F401  (the tables, for Flask-Migrate's autogenerate)
    from .services.store.tx import configure_engine

    with app.app_context():
        configure_engine(db.engine, busy_timeout_ms=int(app.config["SQLITE_BUSY_TIMEOUT_MS"]))

    ops.init_app(app)
    faults.init_app(app)
    web.register(app)
    api.register(app)
    limits.init_app(app)  # by endpoint, so after every part is registered
    web_poll.install(app)  # the unchanged poll's 204 before the request cycle (inside ProxyFix)
    _reads_store_nothing(app)
    return app


def _reads_store_nothing(app: Flask) -> None:
    """Every GET (and HEAD) runs as a read (``tx.read_only``): a derived copy it computes is kept
    in the worker's memory, never stored; a request that writes (``tx.write_request``) stores the
    copies its writes changed, at its end."""
    from .services import tx

    dispatch = app.full_dispatch_request

    def full_dispatch_request() -> Response:
        if request.method in ("GET", "HEAD"):
            with tx.read_only():
                return dispatch()
        with tx.write_request():
            return dispatch()

    app.full_dispatch_request = full_dispatch_request  # type: ignore[method-assign]


def _prepare_database(app: Flask) -> None:
    """Engine options per backend; the SQLite file's folder must exist."""
    uri: str = app.config["SQLALCHEMY_DATABASE_URI"]
    options = dict(app.config.get("SQLALCHEMY_ENGINE_OPTIONS") or {})
    if uri.startswith("sqlite"):
        connect_args = dict(options.get("connect_args") or {})
        connect_args.setdefault("timeout", int(app.config["SQLITE_BUSY_TIMEOUT_MS"]) / 1000)
        options["connect_args"] = connect_args
        prefix = "sqlite:///"
        path = uri[len(prefix) :].split("?", 1)[0] if uri.startswith(prefix) else ""
        if path and path != ":memory:":
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    else:
        options.setdefault("pool_pre_ping", True)
        if uri.startswith("postgresql"):  # an unreachable server fails in seconds, not minutes (/readyz)
            options["connect_args"] = {"connect_timeout": 10, **dict(options.get("connect_args") or {})}
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = options
