"""Configuration: defaults, and the helpers that read the environment.

Order (later wins): these defaults -> ``instance/config.py`` -> ``SCOREKEEPER_*``
environment variables -> ``DATABASE_URL`` -> the test config passed to ``create_app``.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from .i18n import LANGUAGES

PACKAGE_DIR = Path(__file__).resolve().parent
ROOT_DIR = PACKAGE_DIR.parent


def _data_dir(name: str) -> Path:
    """A folder kept at the top of the repository, which the wheel carries inside the package
    (``scorekeeper/<name>``, see setup.py): the installed copy if there is one, else the checkout's."""
    inside = PACKAGE_DIR / name
    return inside if inside.is_dir() else ROOT_DIR / name


MIGRATIONS_DIR = _data_dir("migrations")
TEMPLATES_DIR = _data_dir("templates")
STATIC_DIR = _data_dir("static")
TRANSLATIONS_DIR = PACKAGE_DIR / "translations"
SECRET_KEY_FILE = "secret_key"
DB_FILE = "scorekeeper.sqlite3"

# The strict policy of every answer (config CONTENT_SECURITY_POLICY, sent by hosting.py; docs/DEPLOY.md).
# No 'unsafe-inline' and no 'unsafe-eval' anywhere: scripts and styles come from static/
# files only (JSON data islands are not scripts); htmx runs with allowEval off and without
# its injected indicator <style> (base.html's htmx-config). img-src keeps data: (harmless,
# an image cannot run code); worker-src and manifest-src are named for the offline app.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; worker-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'self'"
)


def defaults(instance_path: str) -> dict[str, Any]:
    return {
        "SQLALCHEMY_DATABASE_URI": "sqlite:///" + str(Path(instance_path) / DB_FILE),
        "SQLALCHEMY_ENGINE_OPTIONS": {},
        # SQLite: how long a writer waits for the lock before giving up (ms).
        "SQLITE_BUSY_TIMEOUT_MS": 15000,
        "BABEL_DEFAULT_LOCALE": "en",
        "BABEL_DEFAULT_TIMEZONE": "Europe/Zurich",
        "BABEL_TRANSLATION_DIRECTORIES": str(TRANSLATIONS_DIR),
        "LANGUAGES": list(LANGUAGES),
        # A phone may sit on the slate page all evening; the token expires with the session.
        "WTF_CSRF_TIME_LIMIT": None,
        # Under HTTPS Flask-WTF would also demand a same-origin Referer, but every page sends
        # Referrer-Policy: no-referrer (links hold secrets), so browsers send none and every form
        # would fail. The CSRF token, SameSite=Lax cookies and HSTS remain.
        "WTF_CSRF_SSL_STRICT": False,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_HTTPONLY": True,
        "MAX_CONTENT_LENGTH": 256 * 1024,
        # Restoring an export (page and API) only: 500 evenings typed by hand are some 4 MB;
        # an evening dealt digitally card by card adds some 80 KB.
        "IMPORT_MAX_BYTES": 32 * 1024 * 1024,
        # The computers' level at the digital table when the organiser picks none (bots.LEVELS).
        "TABLE_COMPUTER_LEVEL": "normal",
        "JSON_SORT_KEYS": False,
        # Slate pages and live fragments kept per worker once drawn (web/page_cache.py); 0: none.
        "PAGE_CACHE_ENTRIES": 512,
        # Hosting (see scorekeeper/hosting.py and docs/DEPLOY.md).
        "PUBLIC_URL": "",  # https://jass.example.ch: every link and QR code is built from it
        "LAN_URL": "",  # set by `make run`: links for a request to 127.0.0.1 point at the LAN address
        "PROXY_HOPS": 0,  # trusted proxies in front (X-Forwarded-* honoured from that many); 0 = none
        "HSTS": "max-age=31536000",  # Strict-Transport-Security under HTTPS; "" sends none
        # Content-Security-Policy of every answer (see above); "" sends none.
        "CONTENT_SECURITY_POLICY": CONTENT_SECURITY_POLICY,
        # Rate limits (see scorekeeper/limits.py); "N per hour/minute/10 minutes".
        "RATELIMIT_ENABLED": True,
        "RATELIMIT_STORAGE_URI": "memory://",
        "RATELIMIT_KEY_PREFIX": "scorekeeper",
        "RATELIMIT_SWALLOW_ERRORS": True,  # a storage outage must not stop the evening
        "RATELIMIT_IN_MEMORY_FALLBACK_ENABLED": True,
        "LIMIT_NEW_CIRCLES": "10 per hour",
        "LIMIT_WRONG_TOKENS": "20 per 10 minutes",
        "LIMIT_EVENING_WRITES": "120 per minute",
        "LIMIT_IMPORTS": "10 per hour",
        # Compression (Flask-Compress).
        # brotli where the browser takes it (HTTPS), else gzip; streamed answers brotli or deflate
        # (static text is packed once by hosting._pack_static, at the strongest setting).
        "COMPRESS_ALGORITHM": ["br", "gzip", "deflate"],
        "COMPRESS_ALGORITHM_STREAMING": ["br", "deflate"],
        "COMPRESS_MIMETYPES": [
            "text/html",
            "text/css",
            "text/plain",
            "text/javascript",
            "application/javascript",
            "application/json",
            "image/svg+xml",
        ],
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
