"""The application factory: configuration order, database URLs, the secret key file,
the SQLite connection settings, the language choice, the CLI."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskCliRunner
from sqlalchemy import text

from scorekeeper.app import create_app
from scorekeeper.config import normalize_database_url
from scorekeeper.extensions import db
from scorekeeper.i18n import language_from, select_locale


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for key in list(os.environ):
        if key.startswith("SCOREKEEPER_") or key == "DATABASE_URL":
            monkeypatch.delenv(key)
    return monkeypatch


def test_configuration_order(tmp_path: Path, clean_env: pytest.MonkeyPatch) -> None:
    inst = tmp_path / "instance"
    inst.mkdir()
    (inst / "config.py").write_text("MAX_CONTENT_LENGTH = 111\nSQLITE_BUSY_TIMEOUT_MS = 222\nSECRET_KEY = 'inst'\n")
    app = create_app({}, instance_path=str(inst))
    assert app.config["MAX_CONTENT_LENGTH"] == 111 and app.config["SECRET_KEY"] == "inst"
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{inst / 'scorekeeper.sqlite3'}"

    clean_env.setenv("SCOREKEEPER_MAX_CONTENT_LENGTH", "333")
    clean_env.setenv("DATABASE_URL", "postgres://u:p@db.example:5432/jass")
    app = create_app({"SQLITE_BUSY_TIMEOUT_MS": 444}, instance_path=str(inst))
    assert app.config["MAX_CONTENT_LENGTH"] == 333  # env over instance config
    assert app.config["SQLITE_BUSY_TIMEOUT_MS"] == 444  # test config over everything
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "postgresql+psycopg://u:p@db.example:5432/jass"
    assert app.config["SQLALCHEMY_ENGINE_OPTIONS"]["pool_pre_ping"] is True
    assert app.config["SQLALCHEMY_ENGINE_OPTIONS"]["connect_args"] == {"connect_timeout": 10}
    assert str(app.template_folder).endswith("templates") and str(app.static_folder).endswith("static")


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("postgres://a@h/d", "postgresql+psycopg://a@h/d"),
        ("postgresql://a@h/d", "postgresql+psycopg://a@h/d"),
        ("postgresql+psycopg://a@h/d", "postgresql+psycopg://a@h/d"),
        ("sqlite:////tmp/x.db", "sqlite:////tmp/x.db"),
    ],
)
def test_database_url_rewrite(url: str, expected: str) -> None:
    assert normalize_database_url(url) == expected


def test_secret_key_generated_once_private(tmp_path: Path, clean_env: pytest.MonkeyPatch) -> None:
    inst = tmp_path / "inst"
    first = create_app({}, instance_path=str(inst))
    key_file = inst / "secret_key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert len(first.config["SECRET_KEY"]) >= 32
    second = create_app({}, instance_path=str(inst))
    assert second.config["SECRET_KEY"] == first.config["SECRET_KEY"]
    clean_env.setenv("SCOREKEEPER_SECRET_KEY", "from-env")
    assert create_app({}, instance_path=str(inst)).config["SECRET_KEY"] == "from-env"
    assert not [p for p in inst.iterdir() if p.name.startswith(".secret_key")]  # no temporary files left


def test_sqlite_connection_settings(app: Flask, db_backend: str) -> None:
    if db_backend != "sqlite":
        pytest.skip("SQLite settings")
    with app.app_context():
        with db.engine.connect() as conn:
            assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1
            assert conn.execute(text("PRAGMA busy_timeout")).scalar() == 15000


@pytest.mark.parametrize(
    ("query", "cookie", "accept", "expected"),
    [
        ("?lang=de", None, "en", "de_CH"),
        ("?lang=en", "de_CH", "de", "en"),
        ("", "de_CH", "en", "de_CH"),
        ("", None, "de-DE,de;q=0.9", "de_CH"),
        ("", None, "fr-CH, gsw;q=0.8, en;q=0.5", "fr_CH"),
        ("", None, "es, gsw;q=0.8, en;q=0.5", "de_CH"),
        ("", None, "fr, en-GB;q=0.7", "fr_CH"),
        ("", None, "es, en-GB;q=0.7", "en"),
        ("", None, "it-IT, de;q=0.7", "it_CH"),
        ("", None, "rm-CH, it;q=0.7", "de_CH"),
        ("?lang=it", "de_CH", "de", "it_CH"),
        ("", "fr_CH", "de", "fr_CH"),
        ("?lang=xx", "yy", "es", None),
        ("?lang=xx", "yy", "fr", "fr_CH"),
    ],
)
def test_language_choice(app: Flask, query: str, cookie: str | None, accept: str, expected: str | None) -> None:
    headers = {"Accept-Language": accept}
    if cookie:
        headers["Cookie"] = f"lang={cookie}"
    with app.test_request_context("/" + query, headers=headers):
        from flask import request

        assert language_from(request) == expected
        assert select_locale() == (expected or "en")


def test_cli_reports_the_migrated_revision(runner: FlaskCliRunner) -> None:
    result = runner.invoke(args=["db", "current"])
    assert result.exit_code == 0, result.output


def test_the_pages_the_api_and_the_picture_are_always_there(tmp_path: Path, clean_env: pytest.MonkeyPatch) -> None:
    app = create_app({"SECRET_KEY": "k"}, instance_path=str(tmp_path))
    assert {"home", "circles", "slate", "table", "picture", "api"} <= set(app.blueprints)
    endpoints = {rule.endpoint for rule in app.url_map.iter_rules()}
    assert {"static", "home.index", "slate.evening", "picture.slate_png", "table.seat", "api.evening"} <= endpoints
