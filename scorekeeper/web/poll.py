"""The version poll and the unchanged slate page, answered before the request cycle.

Every phone at a table asks ``/c/<token>/e/<evening>/version?v=<n>&o=<0|1>&n=<k>`` every few
seconds; nearly always the answer is 204 (nothing changed). A phone coming back to the slate page
asks it again with the ETag it was sent (``If-None-Match``); while nothing changed the answer is
304. Both need one statement (link -> circle -> evening and its stamp, ``services.read.stamp.by_link``;
on PostgreSQL usually none: each process keeps its answers until the database announces a change,
``services.read.stamp_watch``),
not Babel, the circle's row, the snapshot or Flask's hooks. ``FastPoll`` is a WSGI layer inside
ProxyFix (the client address is already the real one) that answers them itself when

- the client's address has not used up its wrong-token limit (``limits.wrong_tokens_exhausted``),
- the link opens that evening,
- the poll names the current version (and the outlook setting and the naming events, where it
  names them: ``fragment_unchanged``); the page's ``If-None-Match`` names the ETag the page would
  carry now (``page_etag``) and the phone's session holds no flashed message (the page would show it).

Anything else (a change: the fragment or the page; an unknown link or evening: 404 counted against
the wrong-token limit; a link that opened the circle once, replaced or of a deleted circle: 410,
not counted, and the page stops polling; a refused address: 429; a database that cannot answer:
503) goes through Flask unchanged: the fast path pays nothing for them. The answers carry the
headers the Flask path gives (a test compares them).

The slate page's ETag (``page_etag``): the evening's stamp (``services.read.stamp``: version, outlook
setting, the open digital table and its latest hand, the circle's naming events), the kind of link
(write or onlooker), what decides the language and the dates' region (``?lang=``, the ``lang``
cookie, ``Accept-Language``), the release (``release_of``: the package's version and code, the
templates, catalogs and static files, the settings a page's words depend on) and a digest of the
session's CSRF secret (the page's forms carry a token of it). It is sent with
``Cache-Control: private, no-cache``: the browser keeps the page and asks every time.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs

from flask import Flask
from sqlalchemy import Engine, create_engine
from werkzeug.http import parse_etags, quote_etag
from werkzeug.wrappers import Request, Response

from .. import config as cfg
from ..extensions import db
from ..hosting import PERMISSIONS_POLICY
from ..limits import wrong_tokens_exhausted
from ..services.read.stamp import Stamp, of_link
from ..services.read.stamp_watch import Stamps, stamps_of

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

POLL = re.compile(r"/c/([^/]{1,128})/e/([A-Za-z0-9_-]{1,64})/version")
PAGE = re.compile(r"/c/([^/]{1,128})/e/([A-Za-z0-9_-]{1,64})")
PAGE_CACHE = "private, no-cache"
RELEASE = "SCOREKEEPER_RELEASE_DIGEST"
EXTENSION = "scorekeeper.fast_poll"  # app.config key, computed once per process


# The settings a page's words and links depend on (the rest decide nothing it shows).
RENDERING_SETTINGS = ("BABEL_DEFAULT_LOCALE", "BABEL_DEFAULT_TIMEZONE", "LANGUAGES", "PUBLIC_URL", "LAN_URL")


def release_of(app: Flask) -> str:
    """A short digest of what a page is made of besides the data: the package version, its code, every
    template, catalog and static file (path, size, time) and the settings that change what a page
    says (``RENDERING_SETTINGS``). A deployment changes it; two workers of one install agree."""
    found = app.config.get(RELEASE)
    if isinstance(found, str):
        return found
    digest = hashlib.sha256()
    try:
        digest.update(version("scorekeeper").encode())
    except PackageNotFoundError:  # pragma: no cover - run from a checkout that was never installed
        pass
    for folder, pattern in (
        (cfg.PACKAGE_DIR, "*.py"),
        (cfg.TEMPLATES_DIR, "*"),
        (cfg.TRANSLATIONS_DIR, "*"),
        (cfg.STATIC_DIR, "*"),
    ):
        for path in sorted(Path(folder).rglob(pattern)):
            if path.is_file():
                st = path.stat()
                digest.update(f"{path.relative_to(folder)}:{st.st_size}:{st.st_mtime_ns};".encode())
    for name in RENDERING_SETTINGS:
        digest.update(f"{name}={app.config.get(name)!r};".encode())
    app.config[RELEASE] = digest.hexdigest()[:12]
    return str(app.config[RELEASE])


def page_etag(app: Flask, req: Request, session: Any, stamp: Stamp, *, can_write: bool) -> str:
    """The slate page's ETag (unquoted) for this request and session: the evening's stamp (version,
    outlook setting, digital table, names), the kind of link, the release, the language inputs and
    the session's CSRF secret."""
    language = "|".join((req.args.get("lang", ""), req.cookies.get("lang", ""), req.headers.get("Accept-Language", "")))
    csrf = str(session.get("csrf_token", "")) if session is not None else ""
    mixed = hashlib.sha256(f"{language}\n{csrf}".encode()).hexdigest()[:12]
    kind = "w" if can_write else "r"
    return f"{stamp.version}-{stamp.digest()}-{kind}-{release_of(app)}-{mixed}"


def mark_page(app: Flask, req: Request, session: Any, response: Response, stamp: Stamp, *, can_write: bool) -> Response:
    """A full slate page: its ETag, kept by the browser and asked for again every time."""
    response.set_etag(page_etag(app, req, session, stamp, can_write=can_write))
    response.headers["Cache-Control"] = PAGE_CACHE
    return response


def poll_engine(engine: Engine) -> Engine:
    """The engine of the one statement. SQLite: the app's (in process, its hooks set the pragmas).
    Other databases: an engine of its own on the same URL in autocommit, without the pool's
    ping: one round trip per poll instead of four (ping, BEGIN, SELECT, ROLLBACK). A connection
    the server dropped fails that one poll, which then takes the full path (and the pool
    replaces the connection)."""
    if engine.dialect.name == "sqlite":
        return engine
    return create_engine(engine.url, isolation_level="AUTOCOMMIT", pool_pre_ping=False, pool_size=4, max_overflow=4)


class FastPoll:
    """WSGI: the unchanged poll's 204 and the unchanged page's 304 from one statement;
    everything else to ``inner``."""

    def __init__(self, app: Flask, inner: WSGIApplication) -> None:
        self.app = app
        self.inner = inner
        with app.app_context():
            self.engine = poll_engine(db.engine)
        self.stamps: Stamps = stamps_of(self.engine)
        release_of(app)
        encodings = app.config.get("COMPRESS_ALGORITHM") or []
        self.encodings = [encodings] if isinstance(encodings, str) else [str(a) for a in encodings]
        headers = [
            ("X-Content-Type-Options", "nosniff"),
            ("X-Frame-Options", "DENY"),
            ("Referrer-Policy", "no-referrer"),
            ("X-Robots-Tag", "noindex, nofollow"),
            ("Permissions-Policy", PERMISSIONS_POLICY),
        ]
        policy = app.config.get("CONTENT_SECURITY_POLICY")
        if policy:
            headers.append(("Content-Security-Policy", str(policy)))
        self.headers = headers
        self.hsts = str(app.config.get("HSTS") or "")
        self.public_https = str(app.config.get("PUBLIC_URL") or "").startswith("https://")

    def close(self) -> None:
        """Stop the stamps' listener and close the engine's connections (an app disposed)."""
        self.stamps.close()
        self.engine.dispose()

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "GET":
            path = environ.get("PATH_INFO", "")
            found = POLL.fullmatch(path)
            if found is not None and self._poll_unchanged(environ, found.group(1), found.group(2)):
                return self._answer(environ, start_response, "204 NO CONTENT", [("Cache-Control", "no-store")])
            found = None if found else PAGE.fullmatch(path)
            if found is not None and environ.get("HTTP_IF_NONE_MATCH"):
                etag = self._page_unchanged(environ, found.group(1), found.group(2))
                if etag:
                    extra = [("Cache-Control", PAGE_CACHE), ("ETag", etag)]
                    return self._answer(environ, start_response, "304 NOT MODIFIED", extra)
        return self.inner(environ, start_response)

    def _answer(
        self, environ: WSGIEnvironment, start_response: StartResponse, status: str, extra: list[tuple[str, str]]
    ) -> Iterable[bytes]:
        headers = [*self.headers, *extra]
        if self.hsts and (self.public_https or environ.get("wsgi.url_scheme") == "https"):
            headers.append(("Strict-Transport-Security", self.hsts))
        start_response(status, headers)
        return [b""]

    def _state(self, environ: WSGIEnvironment, token: str, public_id: str) -> tuple[Stamp, bool] | None:
        if wrong_tokens_exhausted(self.app, str(environ.get("REMOTE_ADDR", ""))):
            return None
        return self.stamp(token, public_id)

    def stamp(self, token: str, public_id: str) -> tuple[Stamp, bool] | None:
        """(the stamp, whether the link writes), kept or read; None for no such link or evening, or
        a database that did not answer (the full path refuses, counts or answers 503)."""
        try:
            return self.stamps.by_link(token, public_id)
        except Exception:  # noqa: BLE001 - the full path answers a failing database
            return None

    def _poll_unchanged(self, environ: WSGIEnvironment, token: str, public_id: str) -> bool:
        query = parse_qs(environ.get("QUERY_STRING", ""))
        seen = _int(query.get("v"))
        if seen is None or any(k in query and _int(query.get(k)) is None for k in ("o", "n")):
            return False
        state = self._state(environ, token, public_id)
        return state is not None and fragment_unchanged(state[0], seen, _int(query.get("o")), _int(query.get("n")))

    def _page_unchanged(self, environ: WSGIEnvironment, token: str, public_id: str) -> str | None:
        req = Request(environ)
        try:
            interface = self.app.session_interface
            session = interface.open_session(self.app, req)  # type: ignore[arg-type]  # a werkzeug Request, not Flask's
        except Exception:  # noqa: BLE001 - a broken cookie: the full path decides
            return None
        if session is None or session.get("_flashes"):
            return None  # a message waits for this phone: the page must show it
        state = self._state(environ, token, public_id)
        if state is None:
            return None
        stamp, can_write = state
        etag = page_etag(self.app, req, session, stamp, can_write=can_write)
        asked = parse_etags(environ.get("HTTP_IF_NONE_MATCH"))
        # Flask-Compress appends the encoding to a strong ETag ("...:br"): the same page, compressed
        for candidate in (etag, *(f"{etag}:{algo}" for algo in self.encodings)):
            if asked.contains(candidate):
                return quote_etag(candidate)
        return None


def stamp_by_link(app: Flask, token: str, public_id: str) -> tuple[Stamp, bool] | None:
    """The fast layer's stamp (no session: on PostgreSQL kept, or one round trip in autocommit
    instead of BEGIN, SELECT, ROLLBACK), through the request's session when the layer is not
    installed; None when the link opens no such evening or the database did not answer
    (the caller takes the full path, which refuses, counts or answers 503)."""
    fast = app.extensions.get(EXTENSION)
    return fast.stamp(token, public_id) if isinstance(fast, FastPoll) else of_link(token, public_id)


def fragment_unchanged(stamp: Stamp, version: int | None, hidden: int | None, names: int | None) -> bool:
    """Whether the live fragment a phone shows (``?v=``, ``?o=``, ``?n=``) is the current one: the
    version, and the outlook setting and the number of naming events where the phone names them
    (a page from before ``n`` was asked for names only the first two)."""
    return (
        version == stamp.version
        and (hidden is None or bool(hidden) == stamp.hidden)
        and (names is None or names == stamp.names)
    )


def _int(values: list[str] | None) -> int | None:
    if not values or len(values) != 1:
        return None
    try:
        return int(values[0])
    except ValueError:
        return None


def install(app: Flask) -> None:
    """Put the fast layer in front of the app, inside ProxyFix if there is one."""
    outer: Any = app.wsgi_app
    if hasattr(outer, "x_for") and hasattr(outer, "app"):  # ProxyFix: wrap what it wraps
        fast = outer.app = FastPoll(app, outer.app)
    else:
        fast = app.wsgi_app = FastPoll(app, outer)  # type: ignore[method-assign]  # Flask's documented way to wrap it
    app.extensions[EXTENSION] = fast  # its engine is disposed with the app's (tests, `flask` commands)


def close(app: Flask) -> None:
    """Stop the fast layer's listener and close its connections (an app disposed: tests, benches)."""
    fast = app.extensions.get(EXTENSION)
    if isinstance(fast, FastPoll):
        fast.close()
