"""No URL with a write token leaves the page (issue 20.5): the slate picture is shared as its
file or by its picture link (``/p/<key>/slate.png``: that picture and nothing else), and
neither the manifest, the picture's own bytes nor a log line carries a circle's link.

The browser side (the share button at 360 px where the phone shares links but not files)
is in tests/e2e/test_e2e_links.py.
"""

from __future__ import annotations

import datetime
import re
import struct
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest
import segno
from flask import Flask
from flask.testing import FlaskClient
from gunicorn.config import Config
from shared_helpers import hidden, rid
from sqlalchemy import select
from web_helpers import create_circle, start_evening

from scorekeeper import limits
from scorekeeper.accesslog import RedactingLogger
from scorekeeper.extensions import db
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.models import DigitalTable, TableSeat
from scorekeeper.services import circles, evenings, picture_links, restore
from scorekeeper.services.store import link_seal

NAMES = ["Anna", "Beat", "Cla", "Dora"]
# The chunks the slate picture is made of: pixels and palette, no text, no time, no EXIF.
IMAGE_CHUNKS = {b"IHDR", b"PLTE", b"tRNS", b"IDAT", b"IEND"}


def _evening(app: Flask, name: str = "Donnschtig-Jass") -> tuple[str, str, str]:
    """(write token, view token, evening id): a teams evening with one hand."""
    with app.app_context():
        rs = default_ruleset(Variant.TEAMS)
        circle, write, view = circles.create_circle(name)
        ev = evenings.start_evening(circle, ruleset=rs, player_names=NAMES, first_dealer=0, request_id=rid("pic"))
        key = rs.rows[0].key
        evenings.record_hand(ev, HandEntry(key, 0, None, 100, 57), expected_version=ev.version, request_id=rid("pic"))
        return write, view, ev.public_id


def _picture_link(client: FlaskClient, token: str, evening_id: str) -> str:
    r = client.get(f"/c/{token}/e/{evening_id}/picture")
    assert r.status_code == 302, r.text
    assert r.headers["Cache-Control"] == "no-store"
    location = r.headers["Location"]
    assert location.startswith("/p/") and location.endswith("/slate.png?lang=en"), location
    return location


def _key(link: str) -> str:
    return link.split("/")[2]


def test_the_picture_link_opens_the_picture_and_nothing_else(app: Flask, client: FlaskClient) -> None:
    write, view, evening_id = _evening(app)
    link = _picture_link(client, write, evening_id)
    assert write not in link and view not in link
    assert _picture_link(client, view, evening_id) == link  # the onlookers' page shares the same one
    picture = client.get(link)
    assert picture.status_code == 200 and picture.mimetype == "image/png"
    assert picture.data == client.get(f"/c/{view}/e/{evening_id}/slate.png?lang=en").data
    assert picture.headers["X-Robots-Tag"] == "noindex, nofollow"
    assert picture.headers["Referrer-Policy"] == "no-referrer"
    key = _key(link)
    # the key opens no slate, no circle, no other file
    for path in (f"/p/{key}", f"/p/{key}/", f"/p/{key}/slate.svg", f"/c/{key}", f"/c/{key}/e/{evening_id}"):
        assert client.get(path).status_code == 404, path
    # nor does anything made from it
    evening_part, mac = key.split(".")
    flipped = mac[:-1] + ("A" if mac[-1] != "A" else "B")
    _w2, other_view, other_evening = _evening(app, "Mittwuch-Jass")
    other_key = _key(_picture_link(client, other_view, other_evening))
    for bad in (
        f"{evening_part}.{flipped}",
        f"{evening_part}.{mac[:-1]}",
        f"{other_evening}.{mac}",  # another circle's evening with this MAC
        f"{evening_part}.{other_key.split('.')[1]}",  # this evening with another's MAC
        evening_part,
        f"{evening_part}.{mac[:-1]}é",
        "." * 23,
    ):
        assert client.get(f"/p/{bad}/slate.png").status_code == 404, bad
    assert client.get(f"/p/{other_key}/slate.png").status_code == 200  # its own key opens its own picture


def test_a_new_onlookers_link_stops_the_picture_links(app: Flask, client: FlaskClient) -> None:
    """Every read-only link handed out stops with the onlookers' link: the picture links too."""
    write, view, evening_id = _evening(app)
    old = _picture_link(client, view, evening_id)
    assert client.get(old).status_code == 200
    with app.app_context():
        circle, _ = circles.open_circle(write)
        circles.new_view_link(circle)
    assert client.get(old).status_code == 404
    assert client.get(f"/c/{view}/e/{evening_id}/picture").status_code == 410  # the old onlookers' link: replaced
    new = _picture_link(client, write, evening_id)
    assert new != old and client.get(new).status_code == 200


def test_a_guessed_picture_link_counts_as_a_wrong_token(app_factory: Callable[..., Flask], db_url: str) -> None:
    app = app_factory(db_url, LIMIT_WRONG_TOKENS="3 per 10 minutes", RATELIMIT_STORAGE_URI="memory://")
    client = app.test_client()
    write, _view, evening_id = _evening(app)
    link = _picture_link(client, write, evening_id)
    for _ in range(3):
        assert client.get(link).status_code == 200  # the right key never counts
    evening_part = _key(link).split(".")[0]
    for n in range(3):
        assert client.get(f"/p/{evening_part}.{str(n) * 22}/slate.png").status_code == 404
    assert client.get(link).status_code == 429
    rule = next(r for r in app.url_map.iter_rules() if r.endpoint == "picture.shared_png")
    assert limits.WRONG_TOKENS in limits.kinds_of(rule.endpoint, [rule])


def _chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    out, at = [], 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind, data = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        out.append((kind, data))
        at += 12 + length
    return out


def test_no_write_token_in_the_manifest_the_picture_or_a_log_line(app: Flask, client: FlaskClient) -> None:
    write, view, evening_id = _evening(app)
    page = f"http://localhost/c/{write}/e/{evening_id}"
    assert client.get(page).status_code == 200  # the phone is on the slate (its cookies, its language)
    link = _picture_link(client, write, evening_id)
    secrets = (write, view, _key(link))

    # the manifest: the app's root, never the circle it was installed from
    manifest = client.get("/manifest.webmanifest", headers={"Referer": page})
    text = manifest.get_data(as_text=True)
    assert manifest.get_json()["start_url"] == "/" and manifest.get_json()["scope"] == "/"
    assert "/c/" not in text and not any(s in text for s in secrets)

    # the picture's own bytes: pixels and palette only, no text chunk, no link
    for source in (link, f"/c/{write}/e/{evening_id}/slate.png"):
        png = client.get(source).data
        kinds = {kind for kind, _data in _chunks(png)}
        assert kinds <= IMAGE_CHUNKS, kinds
        assert not any(s.encode() in png for s in secrets)

    # the access log: every request the share makes, with the slate as its Referer
    logger = RedactingLogger(Config())
    for path in (f"/c/{write}/e/{evening_id}/picture", link, f"/c/{write}/e/{evening_id}/slate.png"):
        answer = client.get(path, headers={"Referer": page})
        environ = {
            "REQUEST_METHOD": "GET",
            "RAW_URI": path,
            "PATH_INFO": path.split("?")[0],
            "QUERY_STRING": path.partition("?")[2],
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "192.168.1.5",
            "HTTP_REFERER": page,
        }
        resp = SimpleNamespace(status=answer.status, sent=len(answer.data), headers=list(answer.headers.items()))
        req = SimpleNamespace(headers=[("REFERER", page)])
        atoms = logger.atoms(resp, req, environ, datetime.timedelta(milliseconds=5))
        line = repr(atoms)
        assert not any(s in line for s in secrets), (path, line)
        if not path.endswith("/slate.png"):  # the redirect's Location, the picture link's request line
            assert "/p/…/slate.png" in line, line


@pytest.mark.parametrize("token_kind", ["write", "view"])
def test_the_slate_page_shows_no_picture_url_with_a_link(app: Flask, client: FlaskClient, token_kind: str) -> None:
    write, view, evening_id = _evening(app)
    token = write if token_kind == "write" else view
    html = client.get(f"/c/{token}/e/{evening_id}").get_data(as_text=True)
    assert f'data-share-picture="/c/{token}/e/{evening_id}/picture"' in html
    # the picture link itself, copied or shared within the tap (WebKit): that picture only
    with app.test_request_context():
        circle, _w = circles.open_circle(write)
        key = picture_links.picture_key(app.config["SECRET_KEY"], circle, evening_id)
    assert f'data-share-link="/p/{key}/slate.png?lang=en"' in html
    assert html.count("/slate.png") == 1 and "data-share-url" not in html
    assert write not in html.split("data-share-link=")[1].split(">")[0]
    assert client.get(f"/c/{token}/e/{evening_id}").headers["Referrer-Policy"] == "no-referrer"


# --- the circle's links as QR codes (issue 20.12) ------------------------------------------
def _qr(url: str) -> str:
    return segno.make(url, error="m").svg_inline(scale=4, dark="#111", light="#fff")


def _field(html: str, id_: str) -> str | None:
    m = re.search(rf'id="{id_}"[^>]*value="([^"]+)"', html)
    return m.group(1) if m else None


def test_the_circle_page_shows_both_links_as_qr_codes(client: FlaskClient) -> None:
    write, view = create_circle(client)
    write_url, view_url = f"http://localhost{write}", f"http://localhost{view}"
    page = client.get(write).text
    share = page.split('id="share"', 1)[1].split("</section>", 1)[0]
    # the onlookers link: its field and its code, shown at once inside "Links of this circle"
    assert _field(share, "view-link") == view_url
    assert re.search(r'id="view-qr" role="img" aria-label="QR code of the onlookers link">', share)
    assert _qr(view_url) in share
    # the write link's code only behind its own tap (a closed <details>)
    reveal = share.split('<details class="qr-reveal">', 1)[1].split("</details>", 1)[0]
    assert "Show the QR code of the write link" in reveal and _qr(write_url) in reveal
    assert page.count(_qr(write_url)) == 1
    # an onlooker's page: its own link and code, nothing of the write link
    seen = client.get(view).text
    assert _field(seen, "view-link") == view_url and _qr(view_url) in seen
    assert write.removeprefix("/c/") not in seen and 'id="write-qr"' not in seen and 'id="share"' not in seen


def test_the_onlookers_link_follows_every_new_link(client: FlaskClient, app: Flask) -> None:
    write, view = create_circle(client)
    # a new onlookers link, made on the page: the circle page shows the new one
    page = client.get(write).text
    made = client.post(f"{write}/view-link", data=hidden(page, "/view-link")).text
    assert _qr(_field(made, "view-link") or "") in made  # the page that shows it once has its code too
    new_view = _field(client.get(write).text, "view-link")
    assert new_view and new_view != f"http://localhost{view}" and new_view == _field(made, "view-link")
    # a new write link, made on the page: the onlookers link stays shown with it
    confirm = client.get(f"{write}/write-link").text
    replaced = client.post(f"{write}/write-link", data=hidden(confirm, "/write-link")).text
    new_write = (_field(replaced, "write-link") or "").removeprefix("http://localhost")
    assert new_write.startswith("/c/") and 'id="write-qr"' in replaced
    assert _field(client.get(new_write).text, "view-link") == new_view
    # through the API, with the write token: the same
    token = new_write.removeprefix("/c/")
    api = client.post("/api/v1/circle/view-token", headers={"Authorization": f"Bearer {token}"})
    assert api.status_code == 200
    assert _field(client.get(new_write).text, "view-link") == f"http://localhost/c/{api.get_json()['view_token']}"
    # the operator's new write link knows no old one to open it with: the page offers a new one
    with app.app_context():
        circle, _ = circles.open_circle(token)
        operator = circles.new_write_link(circle)
    page = client.get(f"/c/{operator}").text
    assert _field(page, "view-link") is None and 'id="view-qr"' not in page
    assert "The onlookers link is shown only once." in page
    client.post(f"/c/{operator}/view-link", data=hidden(page, "/view-link"))
    assert _field(client.get(f"/c/{operator}").text, "view-link") is not None


def test_the_onlookers_link_is_kept_sealed(app: Flask) -> None:
    """The database holds no link in the clear: the onlookers token is sealed under the write token."""
    with app.app_context():
        circle, write, view = circles.create_circle("Versiegelt")
        sealed = circle.view_token_sealed or ""
        assert sealed and view not in sealed and write not in sealed
        assert link_seal.unseal(sealed, write, circle.view_token_hash) == view
        assert link_seal.unseal(sealed, view, circle.view_token_hash) is None  # the onlookers link opens nothing
        assert link_seal.unseal(sealed, write + "x", circle.view_token_hash) is None
        assert link_seal.unseal(sealed, write, "0" * 64) is None  # an onlookers link replaced since
        assert link_seal.unseal(sealed[:-4] + "AAAA", write, circle.view_token_hash) is None
        assert link_seal.unseal("not base64!", write, circle.view_token_hash) is None
        assert link_seal.unseal(None, write, circle.view_token_hash) is None
        assert link_seal.seal(view, write) != link_seal.seal(view, write)  # a fresh nonce every time
        restored, r_write, r_view = restore.restore(restore.export_json(circle).text)
        assert circles.onlookers_link(restored, r_write) == r_view


# --- playing against the computers: this phone's seat opened here (issue 20.13) ---------------
def _seat_cookie(answer: Any, table_id: str) -> str:
    cookie: str = next(c for c in answer.headers.getlist("Set-Cookie") if c.startswith("sk_seat="))
    assert f"Path=/t/{table_id}" in cookie and "HttpOnly" in cookie, cookie
    return cookie


def test_playing_against_the_computers_opens_this_phones_seat(client: FlaskClient, app: Flask) -> None:
    write, _view = create_circle(client)
    slate = start_evening(client, write, Variant.TEAMS)
    page = client.get(slate).text
    assert "Play against the computers" in page
    form = hidden(page, "/table/open")
    opened = client.post(f"{slate}/table/open", data={**form, "against": "computers", "me": "2"})
    assert opened.status_code == 302 and opened.headers["Location"].startswith("/t/"), opened.text
    table_id = opened.headers["Location"].removeprefix("/t/")
    _seat_cookie(opened, table_id)
    seat_page = client.get(opened.headers["Location"])
    assert seat_page.status_code == 200 and "Cla" in seat_page.text
    with app.app_context():
        seats = db.session.execute(
            select(TableSeat.seat, TableSeat.computer, TableSeat.joined_at)
            .join(DigitalTable, DigitalTable.id == TableSeat.table_id)
            .where(DigitalTable.public_id == table_id)
            .order_by(TableSeat.seat)
        ).all()
        db.session.remove()
    assert [(s, c) for s, c, _j in seats] == [(0, True), (1, True), (2, False), (3, True)]
    assert seats[2][2] is not None  # this phone has joined
    # the organiser's page lists the seat as joined and offers no link to copy for it
    manage = client.get(f"{slate}/table").text
    assert "joined" in manage
    assert not any("/s/" in u for u in re.findall(r'value="([^"]+)"', manage))


def test_the_organiser_takes_a_seat_on_the_table_page(client: FlaskClient, app: Flask) -> None:
    write, _view = create_circle(client)
    slate = start_evening(client, write, Variant.TEAMS)
    page = client.get(slate).text
    assert client.post(f"{slate}/table/open", data=hidden(page, "/table/open")).status_code == 302
    manage = client.get(f"{slate}/table").text
    assert manage.count("Play it on this phone") == 4  # every seat a phone may play
    taken = client.post(f"{slate}/table/take", data={**hidden(manage, "/table/take"), "seat": "1"})
    assert taken.status_code == 302 and taken.headers["Location"].startswith("/t/")
    _seat_cookie(taken, taken.headers["Location"].removeprefix("/t/"))
    assert "Beat" in client.get(taken.headers["Location"]).text
    again = client.get(f"{slate}/table").text
    seat_blocks = {n: again.split(f'<li data-seat="{n}">', 1)[1].split("</li>", 1)[0] for n in range(4)}
    take_confirm = 'data-take data-confirm="Play this seat on this phone? The phone holding it now is shut out."'
    assert take_confirm in seat_blocks[1]  # taken: taking it again asks first
    assert take_confirm not in seat_blocks[0] and "data-take" in seat_blocks[0]
    for bad in ("9", "-1", "x"):
        assert client.post(f"{slate}/table/take", data={**hidden(again, "/table/take"), "seat": bad}).status_code == 400
