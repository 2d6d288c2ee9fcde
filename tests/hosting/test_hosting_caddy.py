"""Debian's Caddy with its internal CA in front of gunicorn, as docs/DEPLOY.md sets it up (both
on free ports, no root, no system service): HTTPS links built from the public URL, Secure
cookies, HSTS, forms working under HTTPS, and the client's real address reaching the rate
limiter through one trusted hop (a header the client forges does not)."""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hosting_helpers import STARTUP_S, csrf, free_port, gunicorn, stop

pytestmark = [pytest.mark.caddy, pytest.mark.slow]

CADDYFILE = """
{{
    admin off
    auto_https disable_redirects
    local_certs
    skip_install_trust
    storage file_system {storage}
    http_port {http_port}
    https_port {https_port}
}}

https://localhost:{https_port} {{
    tls internal
    reverse_proxy 127.0.0.1:{upstream}
}}
"""


def _caddy() -> str:
    path = shutil.which("caddy")
    if path is None:
        if os.environ.get("SCOREKEEPER_REQUIRE_CADDY", "").strip().lower() in ("1", "true", "yes", "on"):
            pytest.fail("Caddy required (SCOREKEEPER_REQUIRE_CADDY=1) but `caddy` is not installed")
        pytest.skip("Debian's caddy is not installed")
    return path


@dataclass
class Site:
    port: int
    context: ssl.SSLContext

    @property
    def url(self) -> str:
        return f"https://localhost:{self.port}"

    def request(
        self, method: str, path: str, *, source: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, http.client.HTTPMessage, str]:
        """One request from the loopback address ``source`` (each one a different client)."""
        raw = socket.create_connection(("127.0.0.1", self.port), timeout=30, source_address=(source, 0))
        sock = self.context.wrap_socket(raw, server_hostname="localhost")
        conn = http.client.HTTPSConnection("localhost", self.port, context=self.context, timeout=30)
        conn.sock = sock
        sent = dict(headers or {})
        data = None
        if isinstance(body, dict) and sent.get("Content-Type") != "application/x-www-form-urlencoded":
            data = json.dumps(body)
            sent["Content-Type"] = "application/json"
        elif isinstance(body, dict):
            from urllib.parse import urlencode

            data = urlencode(body)
        conn.request(method, path, body=data, headers=sent)
        resp = conn.getresponse()
        text = resp.read().decode()
        conn.close()
        return resp.status, resp.headers, text


@pytest.fixture
def site(db_url: str, tmp_path: Path) -> Iterator[Site]:
    https_port = free_port()
    yield from _site(db_url, tmp_path, https_port, {"PUBLIC_URL": f"https://localhost:{https_port}"})


@pytest.fixture
def site_without_public_url(db_url: str, tmp_path: Path) -> Iterator[Site]:
    """As the issue found it: one trusted hop, no PUBLIC_URL (links follow the proxied request)."""
    yield from _site(db_url, tmp_path, free_port(), {})


def _site(db_url: str, tmp_path: Path, https_port: int, extra: dict[str, str]) -> Iterator[Site]:
    caddy = _caddy()
    settings: dict[str, Any] = {"PROXY_HOPS": "1", "LIMIT_NEW_CIRCLES": "2 per hour", **extra}
    with gunicorn(db_url, tmp_path, **settings) as upstream:
        config = tmp_path / "Caddyfile"
        storage = tmp_path / "caddy"
        config.write_text(
            CADDYFILE.format(storage=storage, http_port=free_port(), https_port=https_port, upstream=upstream.port)
        )
        env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path)}
        log = tmp_path / "caddy.log"
        with log.open("wb") as out:
            process = subprocess.Popen(
                [caddy, "run", "--config", str(config), "--adapter", "caddyfile"],
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        try:
            root = storage / "pki" / "authorities" / "local" / "root.crt"
            deadline = time.monotonic() + STARTUP_S
            context = None
            while time.monotonic() < deadline and process.poll() is None:
                if root.exists():
                    context = ssl.create_default_context(cafile=str(root))
                    try:
                        status, _h, _t = Site(https_port, context).request("GET", "/healthz", source="127.0.0.1")
                        if status == 200:
                            break
                    except (OSError, ssl.SSLError):
                        pass
                time.sleep(0.3)
            else:
                raise RuntimeError(f"caddy did not come up:\n{log.read_text()}")
            assert context is not None
            yield Site(https_port, context)
        finally:
            stop(process)


def _cookie_attributes(headers: http.client.HTTPMessage) -> dict[str, set[str]]:
    return {
        c.split("=", 1)[0]: {p.strip().split("=", 1)[0].lower() for p in c.split(";")[1:]}
        for c in headers.get_all("Set-Cookie") or []
    }


def test_caddy_in_front_of_gunicorn(site: Site) -> None:
    # a page over HTTPS: HSTS, the session cookie Secure
    status, headers, page = site.request("GET", "/", source="127.0.0.2")
    assert status == 200
    assert headers["Strict-Transport-Security"] == "max-age=31536000"
    assert "Secure".lower() in _cookie_attributes(headers)["session"]
    session = headers["Set-Cookie"].split(";", 1)[0]

    # a form works under HTTPS (no Referer is sent: the pages ask for none) and shows HTTPS links
    status, headers, created = site.request(
        "POST",
        "/",
        source="127.0.0.2",
        body={"name": "Club", "csrf_token": csrf(page)},
        headers={"Content-Type": "application/x-www-form-urlencoded", "Cookie": session},
    )
    assert status == 200, created[:500]
    links = re.findall(r"https?://[^\s\"'<>]+/c/[\w-]+", created)
    assert links and all(u.startswith(f"{site.url}/c/") for u in links), links

    # the API's seat link, and the seat cookie it sets: HTTPS and Secure
    status, _h, body = site.request("POST", "/api/v1/circles", source="127.0.0.2", body={"name": "API"})
    assert status == 201
    write = json.loads(body)["write_token"]
    auth = {"Authorization": f"Bearer {write}"}
    start = {"variant": "teams", "players": ["A", "B", "C", "D"], "first_dealer": 0, "request_id": "caddy-1"}
    status, _h, body = site.request("POST", "/api/v1/evenings", source="127.0.0.2", body=start, headers=auth)
    assert status == 201, body
    evening = json.loads(body)["id"]
    status, _h, body = site.request(
        "POST", f"/api/v1/evenings/{evening}/table", source="127.0.0.2", body={}, headers=auth
    )
    assert status == 200, body
    status, _h, body = site.request(
        "POST", f"/api/v1/evenings/{evening}/table/seats/0/token", source="127.0.0.2", headers=auth
    )
    link = json.loads(body)["link"]
    assert link.startswith(f"{site.url}/s/"), link
    status, headers, _t = site.request("GET", link.removeprefix(site.url), source="127.0.0.2")
    assert status == 302 and "secure" in _cookie_attributes(headers)["sk_seat"]


def test_the_real_client_address_reaches_the_rate_limiter(site: Site) -> None:
    def create(source: str, forged: str | None = None) -> int:
        headers = {"X-Forwarded-For": forged} if forged else {}
        status, _h, _b = site.request("POST", "/api/v1/circles", source=source, body={"name": "R"}, headers=headers)
        return status

    assert [create("127.0.0.3"), create("127.0.0.3")] == [201, 201]
    assert create("127.0.0.3") == 429
    assert create("127.0.0.3", forged="198.51.100.1") == 429  # Caddy replaces a forged header
    assert create("127.0.0.4") == 201  # another client: not counted as Caddy's own address


def test_a_forged_port_or_prefix_passes_caddy_but_moves_no_link(site_without_public_url: Site) -> None:
    """Caddy passes a client's X-Forwarded-Port and -Prefix on unchanged (and replaces its -Host);
    the app reads neither: links, relative links and asset URLs stay on the address opened."""
    site = site_without_public_url
    forged = {"X-Forwarded-Port": "6666", "X-Forwarded-Prefix": "/evil", "X-Forwarded-Host": "evil.example"}
    status, headers, page = site.request("GET", "/", source="127.0.0.5", headers=forged)
    assert status == 200
    session = headers["Set-Cookie"].split(";", 1)[0]
    status, _h, created = site.request(
        "POST",
        "/",
        source="127.0.0.5",
        body={"name": "Club", "csrf_token": csrf(page)},
        headers={"Content-Type": "application/x-www-form-urlencoded", "Cookie": session, **forged},
    )
    assert status == 200, created[:500]
    links = re.findall(r"https?://[^\s\"'<>]+/c/[\w-]+", created)
    assert links and all(u.startswith(f"{site.url}/c/") for u in links), links
    write = links[0].rsplit("/c/", 1)[1]
    status, _h, circle = site.request("GET", f"/c/{write}", source="127.0.0.5", headers=forged)
    assert status == 200
    assets = re.findall(r'(?:href|src)="([^"]+\?v=[0-9a-f]+)"', circle)
    assert assets and all(a.startswith("/static/") for a in assets), assets
    for text in (page, created, circle):
        assert "6666" not in text and "/evil" not in text and "evil.example" not in text
