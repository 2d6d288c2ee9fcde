"""Configuration: defaults, and the helpers that read the environment.

Order (later wins): these defaults -> ``instance/config.py`` -> ``SCOREKEEPER_*``
environment variables -> ``DATABASE_URL`` -> the test config passed to ``create_app``.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

PACKAGE_DIR = Path(__file__).resolve().parent
ROOT_DIR = PACKAGE_DIR.parent
MIGRATIONS_DIR = ROOT_DIR / "migrations"
TRANSLATIONS_DIR = PACKAGE_DIR / "translations"
SECRET_KEY_FILE = "secret_key"
DB_FILE = "scorekeeper.sqlite3"


def defaults(instance_path: str) -> dict[str, Any]:
    return {
        "SQLALCHEMY_DATABASE_URI": "sqlite:///" + str(Path(instance_path) / DB_FILE),
        "SQLALCHEMY_ENGINE_OPTIONS": {},
        # SQLite: how long a writer waits for the lock before giving up (ms).
        "SQLITE_BUSY_TIMEOUT_MS": 15000,
        "BABEL_DEFAULT_LOCALE": "en",
        "BABEL_DEFAULT_TIMEZONE": "Europe/Zurich",
        "BABEL_TRANSLATION_DIRECTORIES": str(TRANSLATIONS_DIR),
        "LANGUAGES": ["en", "de_CH"],
        # A phone may sit on the slate page all evening; the token expires with the session.
        "WTF_CSRF_TIME_LIMIT": None,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_HTTPONLY": True,
        "MAX_CONTENT_LENGTH": 256 * 1024,
        # The computers' level at the digital table when the organiser picks none (bots.LEVELS).
        "TABLE_COMPUTER_LEVEL": "normal",
        "JSON_SORT_KEYS": False,
    }


def normalize_database_url(url: str) -> str:
    """``postgres://`` and ``postgresql://`` (Heroku style) -> ``postgresql+psycopg://``."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def database_url_from_env() -> str | None:
    url = os.environ.get("DATABASE_URL")
    return normalize_database_url(url) if url else None


def load_or_create_secret_key(instance_path: str) -> str:
    """The instance's secret key, generated once and kept in ``instance/secret_key`` (0600).

    Atomic across processes (several workers starting at once): the key is written
    to a private temporary file and hard-linked into place; the loser reads the winner's.
    """
    folder = Path(instance_path)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / SECRET_KEY_FILE
    if not path.exists():
        tmp = folder / f".{SECRET_KEY_FILE}.{os.getpid()}.{secrets.token_hex(4)}"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "w") as fh:
                fh.write(secrets.token_urlsafe(48))
            try:
                os.link(tmp, path)
            except FileExistsError:
                pass
        finally:
            tmp.unlink(missing_ok=True)
    key = path.read_text().strip()
    if not key:
        raise RuntimeError(f"empty secret key file {path}")
    return key
