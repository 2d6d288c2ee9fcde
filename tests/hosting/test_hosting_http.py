"""Answers as a careful host sends them: Secure cookies and HSTS under HTTPS, the security
headers everywhere, compressed bodies (brotli, gzip), static files cached by version."""

from __future__ import annotations

import gzip
import re
import zlib
from collections.abc import Callable
from pathlib import Path

import brotli
import pytest
from flask import Flask
from hosting_helpers import API, bearer, circle_tokens, csrf, start_evening
from werkzeug.test import TestResponse

from scorekeeper.hosting import IMMUTABLE, PERMISSIONS_POLICY, static_version

ASSET = re.compile(r'(?:src|href)="(/static/[^"?]+)\?v=([0-9a-f]+)"')


def _cookies(resp: TestResponse) -> dict[str, str]:
    return {c.split("=", 1)[0]: c for c in resp.headers.getlist("Set-Cookie")}


def _secure(cookie: str) -> bool:
    return "secure" in {p.strip().lower() for p in cookie.split(";")[1:]}


def _every_cookie(app: Flask, base_url: str) -> tuple[dict[str, str], list[TestResponse]]:
    """The session (CSRF), the language and the seat cookie, and the answers that set them."""
    client = app.test_client()
    home = client.get("/", base_url=base_url)
    form = {"name": "Runde", "csrf_token": csrf(home.get_data(as_text=True))}
    created = client.post("/", data=form, base_url=base_url)
    lang = client.get("/lang/de_CH", base_url=base_url)
    write, _view = circle_tokens(client)
    evening = start_evening(client, write)
    assert client.post(f"{API}/evenings/{evening['id']}/table", json={}, headers=bearer(write)).status_code == 200
    seat = client.post(f"{API}/evenings/{evening['id']}/table/seats/0/token", headers=bearer(write)).get_json()
    joined = client.get(f"/s/{seat['token']}", base_url=base_url)
    assert joined.status_code == 302
    answers = [home, created, lang, joined]
    cookies: dict[str, str] = {}
    for resp in answers:
        cookies.update(_cookies(resp))
    assert {"session", "lang", "sk_seat"} <= set(cookies), cookies
    return cookies, answers


@pytest.fixture
def make(app_factory: Callable[..., Flask], db_url: str) -> Callable[..., Flask]:
    return lambda **config: app_factory(db_url, WTF_CSRF_ENABLED=True, **config)


def test_plain_http_at_a_table_has_no_secure_cookies_and_no_hsts(make: Callable[..., Flask]) -> None:
    cookies, answers = _every_cookie(make(), "http://192.168.1.23:5000")
    assert not any(_secure(c) for c in cookies.values()), cookies
    assert all("Strict-Transport-Security" not in r.headers for r in answers)


@pytest.mark.parametrize(
    ("config", "base_url"),
    [
        ({}, "https://jass.example.ch"),  # served over HTTPS directly
        ({"PUBLIC_URL": "https://jass.example.ch"}, "http://127.0.0.1:8000"),  # TLS ends at a proxy
    ],
)
def test_https_makes_every_cookie_secure_and_sends_hsts(
    make: Callable[..., Flask], config: dict[str, str], base_url: str
) -> None:
    cookies, answers = _every_cookie(make(**config), base_url)
    assert all(_secure(c) for c in cookies.values()), cookies
    assert all(c.lower().count("secure") == 1 for c in cookies.values()), cookies  # the seat cookie had it already
    assert all(r.headers["Strict-Transport-Security"] == "max-age=31536000" for r in answers)


def test_hsts_can_be_tuned_or_switched_off(make: Callable[..., Flask]) -> None:
    longer = make(HSTS="max-age=63072000; includeSubDomains").test_client().get("/", base_url="https://x.example")
    assert longer.headers["Strict-Transport-Security"] == "max-age=63072000; includeSubDomains"
    assert "Strict-Transport-Security" not in make(HSTS="").test_client().get("/", base_url="https://x.example").headers


def test_security_headers_on_pages_api_static_and_errors(app: Flask) -> None:
    client = app.test_client()
    for path in ("/", "/nowhere", "/api/v1/variants", "/api/v1/nowhere", "/static/css/app.css", "/healthz"):
        resp = client.get(path)
        assert resp.headers["Permissions-Policy"] == PERMISSIONS_POLICY, path
        assert resp.headers["X-Content-Type-Options"] == "nosniff", path
        assert resp.headers["X-Frame-Options"] == "DENY", path
        assert resp.headers["Referrer-Policy"] == "no-referrer", path


def _inflate(data: bytes) -> bytes:
    return zlib.decompress(data, -zlib.MAX_WBITS) if data[:1] != b"\x78" else zlib.decompress(data)


DECODE: dict[str, Callable[[bytes], bytes]] = {"br": brotli.decompress, "gzip": gzip.decompress, "deflate": _inflate}


@pytest.mark.parametrize(
    ("accept", "page", "static"),
    [
        ("gzip, deflate, br, zstd", "br", "br"),  # Chromium over HTTPS
        ("gzip, deflate", "gzip", "gzip"),  # Chromium over plain HTTP (make run at a table)
    ],
)
def test_responses_are_compressed(app: Flask, accept: str, page: str, static: str) -> None:
    client = app.test_client()
    write, _view = circle_tokens(client)
    evening = start_evening(client, write)
    for path, headers in (
        ("/", {}),
        (f"/c/{write}/e/{evening['id']}", {}),
        (f"{API}/evenings/{evening['id']}", bearer(write)),
        ("/static/vendor/htmx-2.0.11.min.js", {}),
        ("/static/css/app.css", {}),
    ):
        plain = client.get(path, headers=headers)
        packed = client.get(path, headers={**headers, "Accept-Encoding": accept})
        assert plain.status_code == packed.status_code == 200, path
        assert "Content-Encoding" not in plain.headers
        encoding = static if path.startswith("/static/") else page
        assert packed.headers["Content-Encoding"] == encoding, path
        assert "Accept-Encoding" in packed.headers["Vary"]
        body = DECODE[encoding](packed.get_data())
        if path.startswith("/static"):  # packed once at the strongest setting and kept
            assert body == plain.get_data()
            strong = brotli.compress(body, quality=9) if encoding == "br" else gzip.compress(body, 9)
            assert len(packed.get_data()) <= len(strong) + 20, path
            assert (
                "Accept-Ranges" not in packed.headers
                and packed.get_data() == client.get(path, headers={**headers, "Accept-Encoding": accept}).get_data()
            )
        else:  # pages carry a fresh CSRF token; the rest is the same
            assert len(body) == len(plain.get_data())
        assert len(packed.get_data()) < len(body) * 0.7, path


def test_versioned_static_files_are_immutable_and_others_revalidate(app: Flask) -> None:
    client = app.test_client()
    page = client.get("/").get_data(as_text=True)
    assets = ASSET.findall(page)
    assert {p for p, _v in assets} >= {"/static/css/app.css", "/static/js/app.js", "/static/vendor/htmx-2.0.11.min.js"}
    for path, version in assets:
        with app.test_request_context():
            assert version == static_version(path.removeprefix("/static/"))
        cached = client.get(f"{path}?v={version}")
        assert cached.status_code == 200 and cached.headers["Cache-Control"] == IMMUTABLE, path
        for other in (path, f"{path}?v=0ld"):
            fresh = client.get(other)
            assert fresh.headers["Cache-Control"] == "no-cache", other
            again = client.get(other, headers={"If-None-Match": fresh.headers["ETag"]})
            assert again.status_code == 304, other


def test_the_static_version_is_a_hash_of_the_content(app: Flask, tmp_path: Path) -> None:
    """The same file gives the same version on every host (no modification times), a change a new one."""
    app.static_folder = str(tmp_path)
    target = tmp_path / "x.css"
    target.write_text("a{}")
    with app.test_request_context():
        first = static_version("x.css")
        assert first == static_version("x.css") and re.fullmatch(r"[0-9a-f]{12}", first)
        target.write_text("b{}")
        assert static_version("x.css") != first
        assert static_version("missing.css") == "0"
