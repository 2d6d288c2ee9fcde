"""The version poll answered before the request cycle: a WSGI layer in front of the Flask app.

Every phone at a table asks ``/c/<token>/e/<evening>/version?v=<n>`` every two seconds; nearly
always the answer is 204 (nothing changed). That answer needs one statement (link -> circle ->
evening version, ``services.outlook.poll_by_link``), not a session, Babel, the circle's row or
Flask's hooks. This layer sits inside ProxyFix (the client address is already the real one) and
answers 204 itself when

- the request is a GET of that path with ``v`` (and ``o``, if given) naming what is current,
- the client's address has not used up its wrong-token limit (``limits.wrong_tokens_exhausted``),
- and the link opens that evening.

Anything else (a changed version: the fragment; an unknown link or evening: 404 counted against the
wrong-token limit; a refused address: 429; a database that cannot answer: 503) goes through Flask
unchanged. The 204 carries the headers the Flask path gives it (a test compares them).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs

from flask import Flask

from ..config import CONTENT_SECURITY_POLICY
from ..extensions import db
from ..hosting import PERMISSIONS_POLICY
from ..limits import wrong_tokens_exhausted
from ..services.outlook import poll_by_link

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

PATH = re.compile(r"/c/([^/]{1,128})/e/([A-Za-z0-9_-]{1,64})/version")


class FastPoll:
    """WSGI: the unchanged poll's 204 from one statement; everything else to ``inner``."""

    def __init__(self, app: Flask, inner: WSGIApplication) -> None:
        self.app = app
        self.inner = inner
        with app.app_context():
            self.engine = db.engine
        headers = [
            ("X-Content-Type-Options", "nosniff"),
            ("X-Frame-Options", "DENY"),
            ("Referrer-Policy", "no-referrer"),
            ("X-Robots-Tag", "noindex, nofollow"),
            ("Cache-Control", "no-store"),
            ("Permissions-Policy", PERMISSIONS_POLICY),
        ]
        policy = app.config.get("CONTENT_SECURITY_POLICY", CONTENT_SECURITY_POLICY)
        if policy:
            headers.append(("Content-Security-Policy", str(policy)))
        self.headers = headers
        self.hsts = str(app.config.get("HSTS") or "")
        self.public_https = str(app.config.get("PUBLIC_URL") or "").startswith("https://")

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "GET" and self._unchanged(environ):
            headers = list(self.headers)
            if self.hsts and (self.public_https or environ.get("wsgi.url_scheme") == "https"):
                headers.append(("Strict-Transport-Security", self.hsts))
            start_response("204 NO CONTENT", headers)
            return [b""]
        return self.inner(environ, start_response)

    def _unchanged(self, environ: WSGIEnvironment) -> bool:
        found = PATH.fullmatch(environ.get("PATH_INFO", ""))
        if found is None:
            return False
        query = parse_qs(environ.get("QUERY_STRING", ""))
        seen, seen_hidden = _int(query.get("v")), _int(query.get("o"))
        if seen is None or ("o" in query and seen_hidden is None):
            return False
        if wrong_tokens_exhausted(self.app, str(environ.get("REMOTE_ADDR", ""))):
            return False
        try:
            state = poll_by_link(self.engine, found.group(1), found.group(2))
        except Exception:  # noqa: BLE001 - the full path answers a failing database (503)
            return False
        if state is None:
            return False
        current, hidden = state
        return seen == current and (seen_hidden is None or bool(seen_hidden) == hidden)


def _int(values: list[str] | None) -> int | None:
    if not values or len(values) != 1:
        return None
    try:
        return int(values[0])
    except ValueError:
        return None


def install(app: Flask) -> None:
    """Put the fast poll in front of the app, inside ProxyFix if there is one."""
    outer: Any = app.wsgi_app
    if hasattr(outer, "x_for") and hasattr(outer, "app"):  # ProxyFix: wrap what it wraps
        outer.app = FastPoll(app, outer.app)
    else:
        app.wsgi_app = FastPoll(app, outer)  # type: ignore[method-assign]  # Flask's documented way to wrap it
