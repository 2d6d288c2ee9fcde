"""Home, language, headers, links, read-only view, corrections, undo, the poll."""

from __future__ import annotations

import re
import socket

import pytest
from flask.testing import FlaskClient
from shared_helpers import flashes, hidden
from web_helpers import create_circle, post_hand, start_evening, version_of

from scorekeeper import address
from scorekeeper.game.rulesets import Variant

GOOD = {"declarer": "1", "row": "suit_H", "declarer_points": "100", "defender_points": "57"}


def test_home_page_is_a_phone_page(client: FlaskClient) -> None:
    r = client.get("/")
    assert r.status_code == 200
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in r.text
    assert "/static/vendor/htmx-2.0.11.min.js" in r.text
    assert 'id="my-circles"' in r.text  # filled from localStorage, never from the server
    assert "/lang/de_CH" in r.text and 'name="csrf_token"' in r.text


def test_create_circle_shows_both_links_once(client: FlaskClient) -> None:
    write, view = create_circle(client, "Jassrunde Mättmi")
    assert write != view and len(write) > 40 and len(view) > 40
    page = client.get(write)
    assert page.status_code == 200 and "Jassrunde Mättmi" in page.text
    assert write.split("/")[-1] not in client.get(view).text  # the write token never shows on the read-only page
    assert "Start an evening" in page.text and "Start an evening" not in client.get(view).text


def test_create_circle_needs_a_name(client: FlaskClient) -> None:
    page = client.get("/").text
    r = client.post("/", data={"name": "   ", **hidden(page, "/")})
    assert r.status_code == 422
    assert "Give the circle a name." in r.text
    r = client.post("/", data={"name": "x"})  # no CSRF token
    assert r.status_code == 400 and "write-link" not in r.text and "Nothing was written" in r.text


def test_private_pages_send_no_referrer_and_noindex(client: FlaskClient) -> None:
    write, _view = create_circle(client)
    for url in ("/", write):
        r = client.get(url)
        assert r.headers["Referrer-Policy"] == "no-referrer"
        assert "noindex" in r.headers["X-Robots-Tag"]
    assert client.get(write).headers["Cache-Control"] == "no-store"


def test_unknown_links_are_a_plain_404(client: FlaskClient) -> None:
    write, _view = create_circle(client)
    forged = "A" * 43
    for url in (f"/c/{forged}", f"/c/{forged}/e/whatever", f"{write}/e/nope", f"{write}/e/nope/version?v=0"):
        r = client.get(url)
        assert r.status_code == 404
        assert forged not in r.text and "nope" not in r.text
        assert "Check the link you were given." in r.text


def test_language_switch_comes_back_to_the_page(client: FlaskClient) -> None:
    write, _view = create_circle(client)
    r = client.get("/lang/de_CH", headers={"Referer": f"http://localhost{write}"})
    assert r.status_code == 302 and r.headers["Location"] == write
    assert "lang=de_CH" in r.headers["Set-Cookie"]
    r = client.get("/lang/en", headers={"Referer": "https://evil.example/x"})
    assert r.headers["Location"] == "/"
    assert client.get("/lang/xx").status_code == 404


def test_german_messages(client: FlaskClient) -> None:
    write, _view = create_circle(client)
    ev = start_evening(client, write, Variant.THREE)
    client.get("/lang/de_CH")
    page = client.get(ev).text
    assert 'lang="de-CH"' in page
    r = post_hand(client, ev, {**GOOD, "defender_points": "50"})
    assert any("157" in m and "zusammen" in m for m in flashes(r.text)), flashes(r.text)
    assert "Rose" in r.text  # Swiss suits in German


def test_read_only_link_cannot_write(client: FlaskClient) -> None:
    write, view = create_circle(client)
    ev = start_evening(client, write, Variant.THREE)
    post_hand(client, ev, GOOD)
    ro = ev.replace(write, view)
    page = client.get(ro)
    assert page.status_code == 200
    assert "<form" not in page.text.split("</header>")[1]  # no form below the header
    assert re.search(r'<td class="filled[^"]*">\s*<span class="cell">\s*100', page.text)
    fields = hidden(client.get(ev).text, "/hands")
    for path in ("/hands", "/undo", "/end", "/cuts/draw", "/entries/0"):
        r = client.post(ro + path, data={**fields, **GOOD})
        assert r.status_code == 403, path
    assert client.get(ro + "/entries/0").status_code == 403
    assert client.post(f"{view}/players", data={"name": "Eve", **fields}).status_code == 403
    assert client.get(f"{view}/start?variant=three").status_code == 403
    assert version_of(client.get(ev).text) == 1


def test_poll_204_when_unchanged_fragment_when_changed(client: FlaskClient) -> None:
    write, view = create_circle(client)
    ev = start_evening(client, write, Variant.TEAMS)
    assert client.get(f"{ev}/version?v=0").status_code == 204
    post_hand(client, ev, {"declarer": "0", "row": "obenabe", "declarer_points": "129", "defender_points": "28"})
    r = client.get(f"{ev.replace(write, view)}/version?v=0")
    assert r.status_code == 200
    assert r.text.lstrip().startswith('<div id="live"')
    assert "version?v=1" in r.text and ">\n            60" in r.text or re.search(r"\b60\b", r.text)
    assert "<html" not in r.text
    assert client.get(f"{ev}/version?v=1").status_code == 204


def test_correct_an_entry_keeps_the_history(client: FlaskClient) -> None:
    write, _view = create_circle(client)
    ev = start_evening(client, write, Variant.TEAMS)
    post_hand(client, ev, {"declarer": "0", "row": "obenabe", "declarer_points": "129", "defender_points": "28"})
    edit = client.get(f"{ev}/entries/0")
    assert edit.status_code == 200
    assert re.search(r'name="declarer_points"[^>]*value="129"', edit.text)
    assert re.search(r'<option value="obenabe"[^>]*data-keep="1"[^>]*selected', edit.text)
    bad = client.post(
        f"{ev}/entries/0",
        data={
            **hidden(edit.text, "/entries/0"),
            "declarer": "0",
            "row": "obenabe",
            "declarer_points": "141",
            "defender_points": "17",
        },
    )
    assert bad.status_code == 422 and any("157" in m for m in flashes(bad.text))
    r = client.post(
        f"{ev}/entries/0",
        data={
            **hidden(edit.text, "/entries/0"),
            "declarer": "0",
            "row": "obenabe",
            "declarer_points": "141",
            "defender_points": "16",
            "author": "Dora",
        },
    )
    assert r.status_code == 302
    page = client.get(ev).text
    assert any(m.startswith("Hand 1 corrected: ") and m.endswith("Obenabe · 141 : 16") for m in flashes(page))
    assert re.search(r"<td>[^<]*Obenabe · 129 : 28 → <strong>[^<]*141 : 16</strong>", page)
    assert re.search(r'<span class="muted">Dora</span></td>', page)  # who corrected it, as the phone said
    forged = client.post(
        f"{ev}/entries/0",
        data={
            **hidden(client.get(f"{ev}/entries/0").text, "/entries/0"),
            "declarer": "0",
            "row": "obenabe",
            "declarer_points": "140",
            "defender_points": "17",
            "author": "Mallory",
        },
    )
    assert forged.status_code == 422 and version_of(client.get(ev).text) == 2
    assert re.search(r'class="filled[^"]*">\s*<a class="cell"[^>]*>\s*70', page)
    assert client.get(f"{ev}/entries/5").status_code == 404


def test_undo_last_entry(client: FlaskClient) -> None:
    write, _view = create_circle(client)
    ev = start_evening(client, write, Variant.THREE)
    post_hand(client, ev, GOOD)
    page = client.get(ev).text
    fields = hidden(page, "/undo")
    # the confirmation names the hand it takes back
    assert 'data-confirm="Undo hand 1: Beat · Roses · 100 : 57?"' in page
    assert client.post(f"{ev}/undo", data={k: v for k, v in fields.items() if k != "csrf_token"}).status_code == 400
    r = client.post(f"{ev}/undo", data=fields)
    assert r.status_code == 302
    page = client.get(ev).text
    assert "Last entry taken back." in flashes(page)
    assert version_of(page) == 2 and 'class="filled' not in page
    assert "taken back:" in page
    stale = client.post(f"{ev}/undo", data=fields)  # an old page's button: same request id, replayed
    assert stale.status_code == 302 and version_of(client.get(ev).text) == 2


def test_address_helper_prints_urls(capsys: pytest.CaptureFixture[str]) -> None:
    ips = address.local_ips()
    assert ips and all(re.fullmatch(r"\d+\.\d+\.\d+\.\d+", ip) for ip in ips)
    assert address.main(["8080"]) == 0
    out = capsys.readouterr().out
    assert f"http://{ips[0]}:8080/" in out
    assert address.main(["eighty"]) == 2


def test_address_falls_back_to_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    class NoNetwork:
        def __init__(self, *args: object) -> None:
            pass

        def connect(self, addr: object) -> None:
            raise OSError("network is unreachable")

        def close(self) -> None:
            pass

    monkeypatch.setattr(socket, "socket", NoNetwork)  # the module scorekeeper.address asks
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: [])
    assert address.local_ips() == ["127.0.0.1"]
    assert address.urls(8080) == ["http://127.0.0.1:8080/"]


def test_assets_are_served_with_a_version_stamp(client: FlaskClient) -> None:
    page = client.get("/").text
    for name in ("css/app.css", "js/app.js"):
        m = re.search(rf"/static/{name}\?v=([0-9a-f]+)", page)  # a hash of the content
        assert m and int(m.group(1), 16) > 0
        assert client.get(f"/static/{name}").status_code == 200
    assert client.get("/static/vendor/htmx-2.0.11.min.js").data.startswith(b"var htmx=")
