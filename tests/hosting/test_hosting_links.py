"""Every link and QR code the app shows comes from one function (``hosting.absolute_url``):
from SCOREKEEPER_PUBLIC_URL when set (the Host header is never trusted then), from the LAN
address ``make run`` printed when the laptop itself opens 127.0.0.1, else from the request."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import segno
from flask import Flask
from hosting_helpers import API, bearer, circle_tokens, csrf, start_evening

from scorekeeper import address
from scorekeeper.hosting import check_url

EVIL = "evil.example"
LINK = re.compile(r"(?:https?://[^\s\"'<>]+)")


def _links(html: str) -> list[str]:
    return [u for u in LINK.findall(html) if "/c/" in u or "/s/" in u]


def _every_link(app: Flask, host: str) -> list[str]:
    """Create a circle on the page, open its share section, make a new onlookers link, start an
    evening with a digital table and hand out seat links (page and API): every link shown."""
    client = app.test_client()
    environ: dict[str, Any] = {"base_url": f"http://{host}"}
    page = client.get("/", **environ).get_data(as_text=True)
    created = client.post("/", data={"name": "Runde", "csrf_token": csrf(page)}, **environ)
    assert created.status_code == 200
    shown = _links(created.get_data(as_text=True))
    write_token = shown[0].rsplit("/c/", 1)[1]
    circle_page = client.get(f"/c/{write_token}", **environ).get_data(as_text=True)
    shown += _links(circle_page)
    renewed = client.post(f"/c/{write_token}/view-link", data={"csrf_token": csrf(circle_page)}, **environ)
    shown += _links(renewed.get_data(as_text=True))
    evening = start_evening(client, write_token, **environ)
    opened = client.post(
        f"{API}/evenings/{evening['id']}/table", json={"computers": [1, 2, 3]}, headers=bearer(write_token)
    )
    assert opened.status_code == 200, opened.get_data(as_text=True)
    manage = client.get(f"/c/{write_token}/e/{evening['id']}/table", **environ).get_data(as_text=True)
    links = client.post(
        f"/c/{write_token}/e/{evening['id']}/table/links",
        data={"seat": "0", "csrf_token": csrf(manage)},
        **environ,
    )
    seat_page = links.get_data(as_text=True)
    seat_links = [u for u in _links(seat_page) if "/s/" in u]
    assert seat_links
    for url in seat_links:  # the QR code on the page encodes exactly that link
        assert segno.make(url, error="m").svg_inline(scale=4, dark="#111", light="#fff") in seat_page
    shown += seat_links
    api_link = client.post(
        f"{API}/evenings/{evening['id']}/table/seats/0/token", headers=bearer(write_token), **environ
    )
    assert api_link.status_code == 200, api_link.get_data(as_text=True)
    shown.append(api_link.get_json()["link"])
    confirm = client.get(f"/c/{write_token}/write-link", **environ).get_data(as_text=True)
    replaced = client.post(f"/c/{write_token}/write-link", data={"csrf_token": csrf(confirm)}, **environ)
    assert replaced.status_code == 200
    shown += _links(replaced.get_data(as_text=True))  # the new write link, shown once
    return shown


@pytest.fixture
def csrf_app(app_factory: Callable[..., Flask], db_url: str) -> Callable[..., Flask]:
    return lambda **config: app_factory(db_url, WTF_CSRF_ENABLED=True, **config)


def test_without_public_url_links_follow_the_host_header(csrf_app: Callable[..., Flask]) -> None:
    """The behaviour the issue found (kept for a laptop at a table): document it, so PUBLIC_URL is set when hosted."""
    links = _every_link(csrf_app(), EVIL)
    assert links and all(u.startswith(f"http://{EVIL}/") for u in links), links


def test_public_url_builds_every_link_whatever_the_host_header(csrf_app: Callable[..., Flask]) -> None:
    links = _every_link(csrf_app(PUBLIC_URL="https://jass.example.ch/"), EVIL)
    assert len(links) >= 6
    assert all(u.startswith("https://jass.example.ch/") for u in links), links
    assert not any(EVIL in u for u in links)
    kinds = {u.split("/")[3] for u in links}
    assert kinds == {"c", "s"}


def test_public_url_with_a_path(csrf_app: Callable[..., Flask]) -> None:
    links = _every_link(csrf_app(PUBLIC_URL="https://club.example/jass"), "127.0.0.1:8000")
    assert all(re.match(r"https://club\.example/jass/[cs]/[\w-]+$", u) for u in links), links


@pytest.mark.parametrize("host", ["127.0.0.1:5000", "localhost:5000", "[::1]:5000"])
def test_make_run_links_point_at_the_lan_address_on_the_laptop(csrf_app: Callable[..., Flask], host: str) -> None:
    links = _every_link(csrf_app(LAN_URL="http://192.168.1.23:5000"), host)
    assert all(u.startswith("http://192.168.1.23:5000/") for u in links), links


def test_make_run_links_from_a_phone_keep_its_address(csrf_app: Callable[..., Flask]) -> None:
    links = _every_link(csrf_app(LAN_URL="http://192.168.1.23:5000"), "192.168.1.23:5000")
    assert all(u.startswith("http://192.168.1.23:5000/") for u in links), links


def test_public_url_wins_over_lan_url(app_factory: Callable[..., Flask], db_url: str) -> None:
    app = app_factory(db_url, PUBLIC_URL="https://jass.example.ch", LAN_URL="http://10.0.0.2:5000")
    write, _view = circle_tokens(app.test_client())
    with app.test_request_context("/", base_url="http://127.0.0.1:5000"):
        from flask import url_for

        assert url_for("circles.circle", token=write, _external=True) == f"https://jass.example.ch/c/{write}"
        assert url_for("circles.circle", token=write) == f"/c/{write}"  # relative links stay relative


def test_proxy_headers_are_ignored_by_default(app_factory: Callable[..., Flask], db_url: str) -> None:
    app = app_factory(db_url, WTF_CSRF_ENABLED=True)
    client = app.test_client()
    forwarded = {"X-Forwarded-Host": EVIL, "X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"}
    page = client.get("/", headers=forwarded).get_data(as_text=True)
    created = client.post("/", data={"name": "Runde", "csrf_token": csrf(page)}, headers=forwarded)
    links = _links(created.get_data(as_text=True))
    assert links and all(u.startswith("http://localhost/") for u in links), links
    assert "Strict-Transport-Security" not in created.headers


def test_proxy_headers_from_one_trusted_hop(app_factory: Callable[..., Flask], db_url: str) -> None:
    app = app_factory(db_url, WTF_CSRF_ENABLED=True, PROXY_HOPS=1)
    client = app.test_client()
    forwarded = {"X-Forwarded-Host": "jass.example.ch", "X-Forwarded-Proto": "https"}
    page = client.get("/", headers=forwarded).get_data(as_text=True)
    created = client.post("/", data={"name": "Runde", "csrf_token": csrf(page)}, headers=forwarded)
    links = _links(created.get_data(as_text=True))
    assert links and all(u.startswith("https://jass.example.ch/") for u in links), links


# What a client may send past the documented proxy: Caddy replaces X-Forwarded-For, -Proto and
# -Host, and passes X-Forwarded-Port and -Prefix on as the client sent them.
FORGED_PORT_PREFIX = {"X-Forwarded-Port": "6666", "X-Forwarded-Prefix": "/evil"}
ASSET = re.compile(r'(?:href|src)="([^"]+\?v=[0-9a-f]+)"')


@pytest.mark.parametrize("public_url", ["", "https://jass.example.ch"])
def test_a_forged_port_or_prefix_moves_no_link(app_factory: Callable[..., Flask], db_url: str, public_url: str) -> None:
    """Behind one trusted proxy (PROXY_HOPS=1), with and without PUBLIC_URL: a client's
    X-Forwarded-Port and X-Forwarded-Prefix reach no link, no relative link and no asset URL."""
    app = app_factory(db_url, WTF_CSRF_ENABLED=True, PROXY_HOPS=1, PUBLIC_URL=public_url)
    client = app.test_client()
    forwarded = {"X-Forwarded-Host": "jass.example.ch", "X-Forwarded-Proto": "https", **FORGED_PORT_PREFIX}
    page = client.get("/", headers=forwarded).get_data(as_text=True)
    created = client.post("/", data={"name": "Runde", "csrf_token": csrf(page)}, headers=forwarded)
    assert created.status_code == 200
    html = created.get_data(as_text=True)
    links = _links(html)
    assert links and all(u.startswith("https://jass.example.ch/c/") for u in links), links
    assert "6666" not in html and "/evil" not in html
    write = links[0].rsplit("/c/", 1)[1]
    circle_page = client.get(f"/c/{write}", headers=forwarded).get_data(as_text=True)
    assets = ASSET.findall(circle_page)
    assert assets and all(a.startswith("/static/") for a in assets), assets
    assert f'href="/c/{write}/start?variant=' in circle_page  # relative links: no prefix either
    assert "6666" not in circle_page and "/evil" not in circle_page
    manifest = client.get("/manifest.webmanifest", headers=forwarded).get_json()
    assert manifest["start_url"] == "/" and all(i["src"].startswith("/static/") for i in manifest["icons"])


def test_the_proxy_fix_trusts_only_what_caddy_sets(app_factory: Callable[..., Flask], db_url: str) -> None:
    """The middleware itself: For, Proto and Host from one hop; Port and Prefix never."""
    from werkzeug.middleware.proxy_fix import ProxyFix

    app = app_factory(db_url, PROXY_HOPS=1)
    fix = app.wsgi_app  # outermost: the fast poll's layer sits inside it
    assert isinstance(fix, ProxyFix)
    assert (fix.x_for, fix.x_proto, fix.x_host, fix.x_port, fix.x_prefix) == (1, 1, 1, 0, 0)


@pytest.mark.parametrize("bad", ["jass.example.ch", "ftp://x.example", "https://", "https://x.example/?a=1"])
def test_a_malformed_public_url_stops_the_start(app_factory: Callable[..., Flask], db_url: str, bad: str) -> None:
    with pytest.raises(ValueError, match="PUBLIC_URL"):
        app_factory(db_url, PUBLIC_URL=bad)
    assert check_url("X", "https://jass.example.ch/") == "https://jass.example.ch"


def test_address_prints_the_lan_url_for_make_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert address.main(["--lan-url", "8080"]) == 0
    printed = capsys.readouterr().out.strip()
    assert printed == address.urls(8080)[0].rstrip("/")
    assert address.main(["8080"]) == 0
    assert f"    {printed}/" in capsys.readouterr().out.splitlines()[1]


def test_make_run_hands_the_printed_address_to_the_app() -> None:
    root = Path(__file__).resolve().parents[2]
    dry = subprocess.run(["make", "-n", "run"], cwd=root, capture_output=True, text=True)
    recipe = dry.stdout
    assert "scorekeeper.address --lan-url" in recipe, recipe
    assert 'SCOREKEEPER_LAN_URL="' in recipe and "-c python:scorekeeper.gunicorn_conf" in recipe
