"""The access log never holds a circle's secret link."""

from __future__ import annotations

import datetime
from types import SimpleNamespace

from gunicorn.config import Config

from scorekeeper.accesslog import RedactingLogger, redact

TOKEN = "q1W2e3R4t5Y6u7I8o9P0a1S2d3F4g5H6j7K8l9Z0x1C"


def test_redact_paths() -> None:
    assert redact(f"GET /c/{TOKEN}/e/abc/version?v=3 HTTP/1.1") == "GET /c/…/e/abc/version?v=3 HTTP/1.1"
    assert redact(f"http://192.168.1.2:5000/c/{TOKEN}") == "http://192.168.1.2:5000/c/…"
    assert redact(f"GET /s/{TOKEN} HTTP/1.1") == "GET /s/… HTTP/1.1"
    assert redact("GET /static/css/app.css HTTP/1.1") == "GET /static/css/app.css HTTP/1.1"


def test_logger_atoms_hold_no_token() -> None:
    logger = RedactingLogger(Config())
    environ = {
        "REQUEST_METHOD": "POST",
        "RAW_URI": f"/c/{TOKEN}/e/abc/hands",
        "PATH_INFO": f"/c/{TOKEN}/e/abc/hands",
        "QUERY_STRING": "",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "192.168.1.5",
        "HTTP_REFERER": f"http://192.168.1.2:5000/c/{TOKEN}/e/abc",
    }
    resp = SimpleNamespace(status="302 FOUND", sent=0, headers=[("Location", f"/c/{TOKEN}/e/abc#slate")])
    req = SimpleNamespace(headers=[("REFERER", environ["HTTP_REFERER"])])
    atoms = logger.atoms(resp, req, environ, datetime.timedelta(milliseconds=12))
    assert TOKEN not in repr(atoms)
    assert atoms["r"] == "POST /c/…/e/abc/hands HTTP/1.1"
    assert atoms["{location}o"] == "/c/…/e/abc#slate" and atoms["h"] == "192.168.1.5"
