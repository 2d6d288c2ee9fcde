"""The strict Content-Security-Policy: sent with every kind of answer (page, fragment, JSON,
PNG, static file, error), and every page the app renders holds nothing it would refuse
(no inline script or style, no event handler attribute, no ``javascript:`` URL).

The browser half (every journey at 360 px without one violation) is tests/e2e/test_e2e_csp.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hosting_helpers import API, bearer, circle_tokens, hand, inline_code, start_evening
from shared_helpers import hidden
from werkzeug.test import TestResponse

from scorekeeper.config import CONTENT_SECURITY_POLICY

ROOT = Path(__file__).resolve().parents[2]


def _directives(policy: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for part in policy.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


def test_the_policy_is_strict() -> None:
    """No inline code and no eval anywhere; nothing from another origin; no framing, no <base>."""
    d = _directives(CONTENT_SECURITY_POLICY)
    assert d["default-src"] == ["'self'"]
    for name in ("script-src", "style-src", "connect-src", "font-src", "worker-src", "manifest-src"):
        assert d[name] == ["'self'"], name
    assert d["img-src"] == ["'self'", "data:"]
    assert d["object-src"] == d["base-uri"] == d["frame-ancestors"] == ["'none'"]
    assert d["form-action"] == ["'self'"]
    assert not re.search(r"unsafe-|nonce-|sha\d+-|\*|https?:", CONTENT_SECURITY_POLICY)


class Walk:
    """A client that keeps every answer, to look at all of them afterwards."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.answers: list[tuple[str, TestResponse]] = []

    def __call__(self, method: str, path: str, status: int | tuple[int, ...] = 200, **kw: Any) -> TestResponse:
        resp = self.client.open(path, method=method, **kw)
        self.answers.append((f"{method} {path}", resp))
        wanted = status if isinstance(status, tuple) else (status,)
        assert resp.status_code in wanted, (method, path, resp.status_code, resp.get_data(as_text=True)[:300])
        return resp

    def html(self) -> list[tuple[str, str]]:
        return [(what, r.get_data(as_text=True)) for what, r in self.answers if r.mimetype == "text/html"]


def _walk_everything(client: FlaskClient) -> Walk:
    """Every page and fragment of the web half, in both languages' shapes: home and a new circle,
    the circle (write and onlookers), every variant's start form (and its htmx factor swap),
    a slate empty, with hands, refused, a correction form, the live fragment, the result,
    the digital table (organiser, links with QR codes, a seat, its fragment, a refused card),
    and the error pages."""
    walk = Walk(client)
    walk("GET", "/")
    walk("POST", "/", data={"name": ""}, status=422)  # refused: the form with its message
    created = walk("POST", "/", data={"name": "Runde"})
    write = re.search(r'id="write-link"[^>]*value="https?://[^/]+/c/([^"]+)"', created.text)
    view = re.search(r'id="view-link"[^>]*value="https?://[^/]+/c/([^"]+)"', created.text)
    assert write and view
    w, v = write.group(1), view.group(1)
    walk("GET", f"/c/{w}")
    walk("GET", f"/c/{v}")
    for variant in ("three", "teams", "solo4", "club"):
        walk("GET", f"/c/{w}/start?variant={variant}")
    walk("GET", f"/c/{w}/start?variant=teams&suit_order=french&extra_rows=slalom", headers={"HX-Request": "true"})
    walk("POST", f"/c/{w}/start?variant=teams", data={"seat_0": ""}, status=(200, 422))  # refused start
    ev = start_evening(client, w)
    e = f"/c/{w}/e/{ev['id']}"
    walk("GET", e)
    walk("POST", f"{e}/hands", data={"declarer": "0", "row": "", "declarer_points": "999"}, status=(200, 409, 422))
    first = client.post(f"{API}/evenings/{ev['id']}/hands", json=hand(ev), headers=bearer(w))
    assert first.status_code == 200, first.text
    walk("GET", e)
    walk("GET", f"/c/{v}/e/{ev['id']}")
    walk("GET", f"{e}/version?v=-1")  # the live fragment
    walk("GET", f"{e}/entries/0")
    walk("POST", f"{e}/entries/0", data={"declarer_points": "999"}, status=(200, 409, 422))
    walk("GET", f"{e}/slate.png")
    # the digital table
    opened = walk("POST", f"{e}/table/open", data={}, status=(200, 302))
    assert opened.status_code in (200, 302)
    walk("GET", f"{e}/table")
    walk("GET", f"{e}/table/poll?v=-1")
    walk("GET", f"{e}/table/poll?v=0", status=(200, 204))
    links = walk("POST", f"{e}/table/links", data={})
    seat_link = re.search(r'id="seat-link-1"[^>]*value="https?://[^/]+(/s/[^"]+)"', links.text)
    assert seat_link, "no seat link on the links page"
    joined = walk("GET", seat_link.group(1), status=302)
    table = joined.headers["Location"]
    seat_page = walk("GET", table).text
    walk("GET", f"{table}/poll?v=-1")
    act = {**hidden(seat_page, "/act"), "action": "99999"}
    walk("POST", f"{table}/act", data=act, status=(409, 422), headers={"HX-Request": "true"})
    # the evening ends early: the result
    walk("POST", f"{e}/table/close", data={}, status=(200, 302))
    walk("POST", f"{e}/end", data={}, status=(200, 302))
    walk("GET", e)
    # errors
    walk("GET", "/c/not-a-token", status=404)
    walk("POST", f"/c/{v}/e/{ev['id']}/undo", data={}, status=403)
    walk("POST", f"/c/{w}/view-link")  # a new onlookers link, shown once
    walk("GET", f"{API}/evenings/{ev['id']}", headers=bearer(w))
    walk("GET", f"{API}/nowhere", status=404)
    walk("GET", "/static/css/app.css")
    walk("GET", "/healthz")
    walk("GET", f"/c/{w}/write-link")  # replacing the write link: the confirm page, then the new link
    walk("POST", f"/c/{w}/write-link")
    return walk


@pytest.fixture
def walked(app: Flask) -> Walk:
    return _walk_everything(app.test_client())


def test_every_kind_of_answer_carries_the_policy(walked: Walk) -> None:
    kinds = {r.mimetype for _what, r in walked.answers}
    assert {"text/html", "application/json", "image/png", "text/css"} <= kinds, kinds
    for what, resp in walked.answers:
        assert resp.headers.get("Content-Security-Policy") == CONTENT_SECURITY_POLICY, what
        assert resp.headers["X-Frame-Options"] == "DENY", what
        assert resp.headers["X-Content-Type-Options"] == "nosniff", what
        assert resp.headers["Referrer-Policy"] == "no-referrer", what
        assert "camera=()" in resp.headers["Permissions-Policy"], what
    fragments = [what for what, r in walked.answers if "/poll" in what or "/version" in what]
    assert fragments and all("<html" not in r.text for what, r in walked.answers if what in fragments)


def test_no_page_holds_what_the_policy_refuses(walked: Walk) -> None:
    pages = walked.html()
    assert len(pages) >= 25
    assert any("<svg" in html and "qrline" in html for _what, html in pages)  # the QR codes were looked at
    assert any('type="application/json"' in html for _what, html in pages)  # and a data island
    for what, html in pages:
        assert inline_code(html) == [], what
        if "<head>" in html:
            assert '<meta name="htmx-config"' in html and '"includeIndicatorStyles": false' in html, what


def test_the_checker_finds_what_it_looks_for() -> None:
    """The page check itself: each kind of refused code is found, a clean page passes."""
    clean = (
        '<head><script src="/static/js/app.js" defer></script><link rel="stylesheet" href="/static/css/app.css">'
        '</head><body><svg><path fill="#fff" d="M0 0"/></svg>'
        '<script type="application/json" class="x">{"a": 1}</script></body>'
    )
    assert inline_code(clean) == []
    for bad in (
        "<script>alert(1)</script>",
        '<script type="application/json">alert(1)</script>',
        '<script src="https://cdn.example/x.js"></script>',
        "<style>p{}</style>",
        '<p style="color:red">',
        '<svg><rect style="fill:red"/></svg>',
        '<button onclick="go()">',
        '<a href="javascript:go()">',
        '<form action=" JavaScript:go()">',
        '<link rel="stylesheet" href="//cdn.example/x.css">',
    ):
        assert inline_code(bad), bad


SOURCES = [
    *sorted((ROOT / "templates").rglob("*.html")),
    *sorted((ROOT / "static" / "js").rglob("*.js")),
]
JS_REFUSED = [
    (re.compile(r"\beval\s*\("), "eval"),
    (re.compile(r"new\s+Function\s*\("), "new Function"),
    (re.compile(r"setAttribute\(\s*[\"']style"), "a style attribute set from script"),
    (re.compile(r"setTimeout\(\s*[\"']"), "setTimeout with a string"),
    (re.compile(r"\.innerHTML\s*=|insertAdjacentHTML"), "HTML written from script"),
]
TEMPLATE_REFUSED = [
    (re.compile(r"\sstyle\s*=", re.I), "style attribute"),
    (re.compile(r"<style\b", re.I), "<style> element"),
    (re.compile(r"\son[a-z]+\s*=", re.I), "event handler attribute"),
    (re.compile(r"javascript:", re.I), "javascript: URL"),
    (re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", re.I), "inline script"),
    (re.compile(r"\bhx-on\b|hx-vals=['\"]js:|hx-vars", re.I), "htmx evaluating script"),
]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_templates_and_scripts_hold_no_inline_code(path: Path) -> None:
    """Every template and script, also the branches no test renders."""
    text = path.read_text()
    rules = TEMPLATE_REFUSED if path.suffix == ".html" else JS_REFUSED
    found = [f"{what}: {m.group(0)!r}" for pattern, what in rules for m in pattern.finditer(text)]
    assert found == [], path


@pytest.mark.parametrize(
    ("policy", "sent"), [("default-src 'none'", "default-src 'none'"), ("", None)], ids=["tuned", "off"]
)
def test_the_policy_can_be_tuned_or_switched_off(
    app_factory: Callable[..., Flask], db_url: str, policy: str, sent: str | None
) -> None:
    client = app_factory(db_url, CONTENT_SECURITY_POLICY=policy).test_client()
    write, _view = circle_tokens(client)
    for resp in (client.get("/"), client.get(f"{API}/circle", headers=bearer(write))):
        assert resp.headers.get("Content-Security-Policy") == sent
