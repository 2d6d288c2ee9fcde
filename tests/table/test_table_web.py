"""The table pages through the test client, CSRF on: open from the slate, links and QR,
the seat cookie, a hand played from the phones, refusals explained, polling, headers."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select
from table_helpers import ANY_CARD, CHOICE, LEGAL_CARD, Phone, csrf, join, open_table, start_evening

from scorekeeper.extensions import db
from scorekeeper.game.rulesets import Variant
from scorekeeper.models import Evening
from scorekeeper.services import digital_table as tables
from scorekeeper.services import evenings


@pytest.fixture
def app_config() -> dict[str, Any]:
    return {"WTF_CSRF_ENABLED": True, "TABLE_COMPUTER_LEVEL": "easy"}


SEQ = re.compile(r'name="seq" value="(\d+)"')


def _error_text(html: str) -> str:
    m = re.search(r"data-error>([^<]*)<", html)
    assert m, "no error shown"
    return m.group(1)


def test_a_hand_from_the_slate_to_the_slate(app: Flask) -> None:
    write, evening_id = start_evening(app, Variant.THREE)
    admin = app.test_client()
    links = open_table(admin, write, evening_id, computers=(2,))
    assert len(links) == 2
    phones = [join(app, link) for link in links]
    rng = random.Random(3)
    refused = 0
    for _ in range(200):
        htmls = [p.open() for p in phones]
        if "data-result" in htmls[0]:
            break
        mover = next((i for i, h in enumerate(htmls) if "Your turn." in h), None)
        assert mover is not None
        phone, html = phones[mover], htmls[mover]
        choices = CHOICE.findall(html)
        if choices:
            status, body = phone.post(
                "/act",
                action=rng.choice(choices),
                seq=SEQ.search(html).group(1),  # type: ignore[union-attr]  # the page holds it
            )
            assert status == 200, body
            continue
        legal = LEGAL_CARD.findall(html)
        illegal = [c for c in ANY_CARD.findall(html) if c not in legal]
        seq = re.search(r'name="seq" value="(\d+)"', html).group(1)  # type: ignore[union-attr]  # the page holds it
        if illegal and refused < 3:  # tapping an illegal card explains why, and changes nothing
            status, body = phone.post("/act", action=illegal[0], seq=seq)
            assert status == 422 and "data-error" in body
            if refused == 0:  # in the player's language
                phone.client.set_cookie("lang", "de_CH")
                status, german = phone.post("/act", action=illegal[0], seq=seq)
                phone.client.delete_cookie("lang")
                assert status == 422 and _error_text(german) != _error_text(body)
            refused += 1
        other = phones[1 - mover]
        status, _body = other.post("/act", action=legal[0], seq=seq)
        assert status == 422  # out of turn (and not her card)
        chosen = rng.choice(legal)
        status, body = phone.post("/act", action=chosen, seq=seq)
        assert status == 200, body
        assert phone.post("/act", action=chosen, seq=seq)[0] == 200  # a double tap: no error, nothing twice
        status, body = phone.post("/act", action=legal[0] if legal[0] != chosen else legal[-1], seq=seq)
        assert status == 409 or len(legal) == 1  # a stale tap (another card on the old picture)
    else:
        pytest.fail("the hand did not end")
    with app.app_context():
        ev = next(e for e in db.session.scalars(select(Evening)) if e.public_id == evening_id)
        assert len(evenings.load_slate(ev).entries) == 1
    slate = admin.get(f"/c/{write}/e/{evening_id}").get_data(as_text=True)
    assert "data-table-open" in slate  # the table stays open for the next hand
    assert "Deal the next hand" in phones[0].open()


def test_seat_cookie_handover_and_poll(app: Flask) -> None:
    write, evening_id = start_evening(app, Variant.TEAMS)
    admin = app.test_client()
    links = open_table(admin, write, evening_id)
    phone = join(app, links[1])
    r = phone.client.get(phone.seat_url)
    assert r.headers["Cache-Control"] == "no-store"
    version = re.search(r'data-version="(\d+)"', r.text).group(1)  # type: ignore[union-attr]  # the page holds it
    assert phone.client.get(phone.seat_url + f"/poll?v={version}").status_code == 204
    assert phone.client.get(phone.seat_url + "/poll?v=999").status_code == 200
    # a stranger without the cookie sees nothing
    refused = app.test_client().get(phone.seat_url)
    assert refused.status_code == 403 and "Seat link not valid" in refused.get_data(as_text=True)
    # hand the seat to another phone: the old one is shut out
    manage = admin.get(f"/c/{write}/e/{evening_id}/table").get_data(as_text=True)
    r = admin.post(f"/c/{write}/e/{evening_id}/table/links", data={"csrf_token": csrf(manage), "seat": 1})
    new_link = re.findall(r'value="(http[^"]+/s/[^"]+)"', r.get_data(as_text=True))
    assert len(new_link) == 1
    assert phone.client.get(phone.seat_url).status_code == 403
    assert app.test_client().get("/" + links[1].split("/", 3)[3]).status_code == 403  # the old link too
    table_url = f"/c/{write}/e/{evening_id}/table"
    live = admin.get(table_url).text
    found = re.search(r'id="table-live" data-version="(\d+)"', live)
    version = found.group(1)  # type: ignore[union-attr]  # the page holds it
    assert admin.get(f"{table_url}/poll?v={version}").status_code == 204
    newphone = join(app, new_link[0])
    assert "Beat" in newphone.html
    fresh = admin.get(f"{table_url}/poll?v={version}")  # the organizer sees the new phone join
    assert fresh.status_code == 200 and "joined" in fresh.get_data(as_text=True)
    # give seat 1 to the computer: it plays its turn at once (seat 1 is forehand)
    r = admin.post(f"/c/{write}/e/{evening_id}/table/computer", data={"csrf_token": csrf(manage), "seat": 1})
    assert r.status_code == 302
    assert newphone.client.get(newphone.seat_url).status_code == 403
    with app.app_context():
        st = tables.load(tables.get_table(newphone.seat_url.rsplit("/", 1)[1]))
        assert st.seq >= 1


def test_back_to_real_cards(app: Flask) -> None:
    write, evening_id = start_evening(app, Variant.THREE)
    admin = app.test_client()
    links = open_table(admin, write, evening_id)
    phone = join(app, links[0])
    status, body = phone.post("/close")
    assert status == 200 and "closed" in body
    slate = admin.get(f"/c/{write}/e/{evening_id}")
    assert slate.status_code == 200
    page = slate.get_data(as_text=True)
    assert "data-table-open" not in page and "Deal digitally" in page


def test_a_restart_in_the_middle_of_a_hand_loses_nothing(app: Flask, db_url: str, app_factory: Any) -> None:
    """A new app instance (a restarted server, another worker) on the same database: the
    phone keeps its seat (the cookie), sees the same hand, and the hand goes on."""
    write, evening_id = start_evening(app, Variant.TEAMS)
    admin = app.test_client()
    links = open_table(admin, write, evening_id, computers=(1, 2, 3))
    phone = join(app, links[0])
    html = phone.open()
    assert "Your turn." in html  # the computers chose and played until it was Anna's turn
    hand_before = re.findall(r'data-card="(\w\w)"', html.split("data-hand", 1)[1])
    cookie = phone.client.get_cookie("sk_seat", domain="localhost", path=phone.seat_url)
    assert cookie is not None
    other = app_factory(db_url, WTF_CSRF_ENABLED=True, TABLE_COMPUTER_LEVEL="easy")
    client = other.test_client()
    client.set_cookie("sk_seat", cookie.value, domain="localhost", path=phone.seat_url)
    again = Phone(client, phone.seat_url)
    html2 = again.open()
    assert re.findall(r'data-card="(\w\w)"', html2.split("data-hand", 1)[1]) == hand_before
    seq = re.search(r'name="seq" value="(\d+)"', html2).group(1)  # type: ignore[union-attr]  # the page holds it
    action = (CHOICE.findall(html2) or LEGAL_CARD.findall(html2))[0]
    status, body = again.post("/act", action=action, seq=seq)
    assert status == 200, body
    assert int(SEQ.search(body).group(1)) > int(seq)  # type: ignore[union-attr]  # the page holds it
