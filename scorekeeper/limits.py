"""Rate limits (Flask-Limiter), applied by kind of endpoint in this one module.

Three limits, with defaults a real table never meets (each configurable):

- ``LIMIT_NEW_CIRCLES`` (10 per hour) per client address: circles created, on the
  page or through the API (only successful creations count);
- ``LIMIT_WRONG_TOKENS`` (20 per 10 minutes) per client address: links and tokens
  that open nothing (a circle link, a seat link or cookie, an API token). The
  services send ``token_refused``; once the limit is reached every request that
  presents a token (right or wrong) is refused until the window ends, so guessing
  cannot go on. A request that presents none (a new circle, an import, the variants,
  the OpenAPI document) is never refused by it (``carries_token``). A link that opened
  something once and no longer does (replaced, its circle deleted: ``services.retired``)
  is answered 410 and not counted: a page left open on an old link locks nobody out;
- ``LIMIT_EVENING_WRITES`` (120 per minute) per evening: every write to one evening
  (or to its digital table, counted by table), from all phones and clients together.
- ``LIMIT_IMPORTS`` (10 per hour) per client address: export files sent to be restored
  (the page ``/restore`` and ``POST /api/v1/circles/import``), every one, refused ones
  too: a refusal reads and checks a file of up to 32 MiB first. Counted before the body
  is read.

The client address is ``request.remote_addr``: behind a proxy it is the real client
only when ``PROXY_HOPS`` is set (see ``hosting``). Storage: ``RATELIMIT_STORAGE_URI``,
``memory://`` (per worker process) or ``redis://host:port/db`` (shared by every worker
and host). A refused request gets 429 with ``Retry-After`` and a message in the
user's language (the API's error shape under ``/api/``) and changes nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta
from functools import lru_cache
from typing import Any

from flask import Flask, current_app, g, has_request_context, jsonify, render_template, request
from flask_babel import format_timedelta
from flask_babel import lazy_gettext as _l
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address
from limits import RateLimitItem, parse
from werkzeug.exceptions import TooManyRequests
from werkzeug.routing import Rule
from werkzeug.wrappers import Response

from .services.store.signals import token_refused

EXTENSION = "scorekeeper.limiter"
WRITE_METHODS = ("POST", "PUT", "PATCH", "DELETE")
# The endpoints that create a circle (a test checks that each exists).
CIRCLE_CREATION = ("home.index", "api.create_circle", "api.import_circle", "home.restore")
# Arguments of a route that carry (or stand for) a secret: circle links, seat links,
# the seat pages (seat cookie). Every API route reads a token from its headers or body.
TOKEN_ARGUMENTS = frozenset({"token", "seat_token", "table_id"})
# Where an API request carries a token: these headers (api.auth, api.routes_table), or the body
# of the endpoints named here (joining a seat with its seat token).
TOKEN_HEADERS = ("Authorization", "X-Circle-Token", "X-Seat-Token")
BODY_TOKEN_ENDPOINTS = frozenset({"api.join"})
EVENING_ARGUMENTS = ("evening_id", "table_id")
# The endpoints that restore an export file (a test checks that each exists).
IMPORTING = ("api.import_circle", "home.restore")

NEW_CIRCLES = "new-circles"
WRONG_TOKENS = "wrong-tokens"
EVENING_WRITES = "evening-writes"
IMPORTS = "imports"
TITLE = _l("Too many requests")
MESSAGES = {
    NEW_CIRCLES: _l("Too many new circles from your address. Try again in %(wait)s."),
    WRONG_TOKENS: _l("Too many links that open nothing from your address. Try again in %(wait)s."),
    EVENING_WRITES: _l("Too many changes to this evening at once. Nothing was written. Try again in %(wait)s."),
    IMPORTS: _l("Too many export files from your address. Nothing was written. Try again in %(wait)s."),
}
FALLBACK_MESSAGE = _l("Too many requests. Nothing was written. Try again in %(wait)s.")


def _note_refused(_sender: Any, **_kwargs: Any) -> None:
    """A service refused a token: this request counts against the wrong-token limit."""
    if has_request_context():
        g.token_refused = True


token_refused.connect(_note_refused, weak=False)


def carries_token() -> bool:
    """Whether the request presents a token (right or wrong): in its path (a circle, seat or table
    link), in a header, or in the body of an endpoint that takes one there. Only such requests
    are counted or refused by the wrong-token limit."""
    if TOKEN_ARGUMENTS & (request.view_args or {}).keys():
        return True
    if any(request.headers.get(name) for name in TOKEN_HEADERS):
        return True
    return request.endpoint in BODY_TOKEN_ENDPOINTS


def _evening_key() -> str:
    args = request.view_args or {}
    for name in EVENING_ARGUMENTS:
        if name in args:
            return f"{name}:{args[name]}"
    return ""  # pragma: no cover - only routes with one of EVENING_ARGUMENTS get this limit


def kinds_of(endpoint: str, rules: list[Rule]) -> set[str]:
    """Which limits apply to an endpoint (by name, route arguments and methods)."""
    kinds: set[str] = set()
    if endpoint in CIRCLE_CREATION:
        kinds.add(NEW_CIRCLES)
    if endpoint in IMPORTING:
        kinds.add(IMPORTS)
    for rule in rules:
        if endpoint.startswith("api.") or rule.arguments & TOKEN_ARGUMENTS:
            kinds.add(WRONG_TOKENS)
        if rule.arguments & set(EVENING_ARGUMENTS) and set(rule.methods or ()) & set(WRITE_METHODS):
            kinds.add(EVENING_WRITES)
    return kinds


def limiter_of(app: Flask) -> Limiter | None:
    found: Limiter | None = app.extensions.get(EXTENSION)
    return found


def init_app(app: Flask) -> None:
    """Apply the limits to the registered endpoints; call after the pages and the API are registered."""
    app.register_error_handler(429, too_many_requests)
    if not app.config.get("RATELIMIT_ENABLED", True):
        return
    limiter = Limiter(get_remote_address, app=app)
    app.extensions[EXTENSION] = limiter

    def setting(name: str) -> Callable[[], str]:
        return lambda: str(current_app.config[name])

    decorators = {
        NEW_CIRCLES: limiter.shared_limit(
            setting("LIMIT_NEW_CIRCLES"), NEW_CIRCLES, methods=["POST"], deduct_when=lambda r: r.status_code < 400
        ),
        WRONG_TOKENS: limiter.shared_limit(
            setting("LIMIT_WRONG_TOKENS"),
            WRONG_TOKENS,
            deduct_when=lambda _r: bool(g.get("token_refused")),
            exempt_when=lambda: not carries_token(),
        ),
        EVENING_WRITES: limiter.shared_limit(
            setting("LIMIT_EVENING_WRITES"), EVENING_WRITES, key_func=_evening_key, methods=list(WRITE_METHODS)
        ),
        IMPORTS: limiter.shared_limit(setting("LIMIT_IMPORTS"), IMPORTS, methods=["POST"]),  # every one counts
    }
    rules: dict[str, list[Rule]] = {}
    for rule in app.url_map.iter_rules():
        rules.setdefault(rule.endpoint, []).append(rule)
    for endpoint, its_rules in rules.items():
        kinds = kinds_of(endpoint, its_rules)
        if not kinds or endpoint not in app.view_functions:
            continue
        view: Callable[..., Any] = app.view_functions[endpoint]
        for kind in sorted(kinds):
            view = decorators[kind](view)
        app.view_functions[endpoint] = view


@lru_cache(maxsize=8)
def _parsed(limit: str) -> RateLimitItem:
    return parse(limit)


def wrong_tokens_exhausted(app: Flask, address: str) -> bool:
    """Whether ``address`` used up its wrong-token limit (every request with a token is refused
    then): the same question Flask-Limiter asks, for a path that answers before it (web/poll.py).
    A storage that cannot answer counts as exhausted: the full path then decides."""
    limiter = limiter_of(app)
    if limiter is None:
        return False
    prefix = app.config.get("RATELIMIT_KEY_PREFIX")
    keys = [prefix, address, WRONG_TOKENS] if prefix else [address, WRONG_TOKENS]
    try:
        return not limiter.limiter.test(_parsed(str(app.config["LIMIT_WRONG_TOKENS"])), *keys)
    except Exception:  # noqa: BLE001 - the full request path handles a failing storage
        return True


def _retry_after() -> int:
    limiter = limiter_of(current_app)
    current = limiter.current_limit if limiter is not None else None
    if current is None:
        return 60
    return max(1, int(current.reset_at - time.time()))


def too_many_requests(err: TooManyRequests) -> Response | tuple[str, int, dict[str, str]]:
    """429: the page or the API error, in the user's language, with ``Retry-After``."""
    kind = ""
    if isinstance(err, RateLimitExceeded):
        scope = err.limit.scope
        kind = scope if isinstance(scope, str) else ""
    wait = _retry_after()
    template = MESSAGES.get(kind, FALLBACK_MESSAGE)
    message = str(template) % {"wait": format_timedelta(timedelta(seconds=wait), threshold=1.1)}
    headers = {"Retry-After": str(wait), "Cache-Control": "no-store"}
    if request.path.startswith("/api/"):
        body = {"error": {"code": "rate_limited", "message": message, "params": {"limit": kind, "retry_after": wait}}}
        response = jsonify(body)
        response.status_code = 429
        response.headers.update(headers)
        return response
    if request.headers.get("HX-Request"):
        return message, 429, headers
    return render_template("errors/error.html", title=str(TITLE), text=message), 429, headers
