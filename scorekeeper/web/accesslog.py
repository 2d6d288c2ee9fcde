"""Gunicorn access log without secrets: the token in ``/c/<token>/...`` and ``/s/<token>`` is written as ``…``.

``make run`` passes ``--logger-class scorekeeper.web.accesslog.RedactingLogger``. The
links are the only access to a circle, so they must not end up in a log file.
"""

from __future__ import annotations

import re
from typing import Any

from gunicorn.glogging import Logger

# Circle links /c/<token>/... and seat links /s/<token> (the digital table).
_TOKEN_PATH = re.compile(r"(/[cs]/)[^/?#\s\"]+")


def redact(text: str) -> str:
    """``GET /c/SeCrEt/e/abc HTTP/1.1`` -> ``GET /c/…/e/abc HTTP/1.1``."""
    return _TOKEN_PATH.sub(r"\1…", text)


class RedactingLogger(Logger):  # type: ignore[misc]  # gunicorn ships no types: its Logger is Any
    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        """Every atom (request line, path, referer, Location, environ...) with tokens redacted."""
        atoms: dict[str, Any] = super().atoms(resp, req, environ, request_time)
        return {key: redact(value) if isinstance(value, str) else value for key, value in atoms.items()}
