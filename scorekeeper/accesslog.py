"""Gunicorn access log without secrets: tokens in paths and query strings are written as ``…``.

The gunicorn config (``scorekeeper.gunicorn_conf``) sets this logger class. The links are
the only access to a circle or a seat, so they must not end up in a log file:

- the token in ``/c/<token>/...``, ``/s/<token>`` and ``/p/<key>/slate.png`` (a picture link);
- in a query string (``?token=...``, ``&seat_token=...``), the value of any parameter
  whose name speaks of a secret (token, secret, key, password, auth), and any value
  that looks like a token (20 or more URL-safe characters), whatever its name or
  without one.
"""

from __future__ import annotations

import re
from typing import Any

from gunicorn.glogging import Logger

# Circle links /c/<token>/..., seat links /s/<token> (the digital table), picture links /p/<key>/...
_TOKEN_PATH = re.compile(r"(/[csp]/)[^/?#\s\"]+")
# name=value in a query string (also the bare query string atom, which has no '?').
_QUERY_PARAM = re.compile(r"(^|[?&;])([^=&;#\s\"?]+)=([^&;#\s\"]*)")
_SECRET_NAME = re.compile(r"token|secret|key|passw|auth", re.IGNORECASE)
_TOKEN_LIKE = re.compile(r"[A-Za-z0-9_%-]{20,}")
_BARE_TOKEN = re.compile(r"([?&;])[A-Za-z0-9_%-]{20,}(?=$|[&;#\s\"])")  # ?<token> without a name


def _param(match: re.Match[str]) -> str:
    lead, name, value = match.groups()
    if value and (_SECRET_NAME.search(name) or _TOKEN_LIKE.fullmatch(value)):
        value = "…"
    return f"{lead}{name}={value}"


def redact(text: str) -> str:
    """``GET /c/SeCrEt/e/abc?token=SeCrEt HTTP/1.1`` -> ``GET /c/…/e/abc?token=… HTTP/1.1``."""
    text = _TOKEN_PATH.sub(r"\1…", text)
    return _BARE_TOKEN.sub(r"\1…", _QUERY_PARAM.sub(_param, text))


class RedactingLogger(Logger):  # type: ignore[misc]  # gunicorn ships no types: its Logger is Any
    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        """Every atom (request line, path, query, referer, Location, environ...) with tokens redacted."""
        atoms: dict[str, Any] = super().atoms(resp, req, environ, request_time)
        return {key: redact(value) if isinstance(value, str) else value for key, value in atoms.items()}
