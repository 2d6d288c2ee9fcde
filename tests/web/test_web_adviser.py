""" "Which row?" on the slate (issue 25): the hand is posted, answered, and kept nowhere."""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from shared_helpers import hidden
from sqlalchemy import select
from web_helpers import create_circle, fill_evening, start_evening

from scorekeeper.extensions import db
from scorekeeper.game.rulesets import Variant

HAND = ["HJ", "H9", "HA", "HK", "HQ", "HT", "SA", "CA", "DA"]  # a sure trump hand in hearts
TWELVE = HAND + ["H8", "H7", "H6"]


def _everything() -> dict[str, list[tuple[Any, ...]]]:
    out = {}
    for table in db.metadata.sorted_tables:
        out[table.name] = sorted((tuple(r) for r in db.session.execute(select(table)).all()), key=repr)
    db.session.remove()
    return out


@pytest.fixture
def evening(client: FlaskClient) -> dict[str, str]:
    write, view = create_circle(client)
    path = start_evening(client, write, Variant.TEAMS)
    return {"write": path, "view": view + "/e/" + path.rsplit("/e/", 1)[1]}


def _ask(client: FlaskClient, path: str, cards: list[str], **extra: str) -> Any:
    page = client.get(f"{path}/adviser")
    assert page.status_code == 200
    data: dict[str, Any] = {**hidden(page.text, "/adviser"), "seat": "1", "card": cards, **extra}
    return client.post(f"{path}/adviser", data=data)


def test_the_slate_links_to_the_adviser_for_writers_only(client: FlaskClient, evening: dict[str, str]) -> None:
    assert "data-adviser-link" in client.get(evening["write"]).text
    assert "data-adviser-link" not in client.get(evening["view"]).text


def test_the_page_offers_the_36_cards_of_the_evenings_deck(client: FlaskClient, evening: dict[str, str]) -> None:
    page = client.get(f"{evening['write']}/adviser")
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    codes = re.findall(r'name="card" value="(\w\w)"', page.text)
    assert len(codes) == 36 == len(set(codes))
    assert "cards/swiss.svg" in page.text  # the teams variant's deck


def test_a_hand_is_answered_for_every_open_row(client: FlaskClient, evening: dict[str, str]) -> None:
    r = _ask(client, evening["write"], HAND)
    assert r.status_code == 200, r.text
    rows = re.findall(r'<tr data-row="(\w+)"', r.text)
    assert sorted(rows) == sorted(["suit_S", "suit_C", "suit_D", "suit_H", "obenabe", "undenufe", "joker1", "joker2"])
    assert 'class="pick"' in r.text and "data-pick" in r.text
    assert "Win odds" in r.text  # the outlook is shown: the moves too
    assert r.headers["Cache-Control"] == "no-store"


def test_htmx_gets_the_answer_alone(client: FlaskClient, evening: dict[str, str]) -> None:
    page = client.get(f"{evening['write']}/adviser")
    data = {**hidden(page.text, "/adviser"), "seat": "0", "card": HAND, "must_choose": "1"}
    r = client.post(f"{evening['write']}/adviser", data=data, headers={"HX-Request": "true"})
    assert r.status_code == 200
    assert "<html" not in r.text and "data-answer" in r.text
    assert "passing is not offered" in r.text


@pytest.mark.parametrize(
    ("cards", "english", "german"),
    [
        (HAND[:8], "Choose exactly 9 cards", "Wähle genau 9 Karten"),
        (HAND[:8] + ["HJ"], "HJ: chosen twice", "HJ: zweimal gewählt"),
        (HAND[:8] + ["H5"], "H5: not a card of this deck", "H5: keine Karte dieses Spiels"),
    ],
)
def test_an_illegal_hand_is_named_in_the_users_language(
    client: FlaskClient, evening: dict[str, str], app: Flask, cards: list[str], english: str, german: str
) -> None:
    with app.app_context():
        before = _everything()
    r = _ask(client, evening["write"], cards)
    assert r.status_code == 422 and english in r.text and "data-answer" not in r.text
    client.set_cookie("lang", "de")
    page = client.get(f"{evening['write']}/adviser?lang=de")
    data = {**hidden(page.text, "/adviser"), "seat": "1", "card": cards}
    r = client.post(f"{evening['write']}/adviser?lang=de", data=data)
    assert r.status_code == 422 and german in r.text, r.text[-2000:]
    with app.app_context():
        assert _everything() == before


def test_a_seat_that_cannot_choose_is_refused(client: FlaskClient, evening: dict[str, str]) -> None:
    r = _ask(client, evening["write"], HAND, seat="7")
    assert r.status_code == 422 and "Choose who is asking" in r.text


def test_onlookers_may_not_ask(client: FlaskClient, evening: dict[str, str]) -> None:
    assert client.get(f"{evening['view']}/adviser").status_code == 403
    page = client.get(f"{evening['write']}/adviser")
    r = client.post(f"{evening['view']}/adviser", data={**hidden(page.text, "/adviser"), "seat": "0", "card": HAND})
    assert r.status_code == 403


def test_without_the_token_nothing_is_answered(client: FlaskClient, evening: dict[str, str]) -> None:
    r = client.post(f"{evening['write']}/adviser", data={"seat": "0", "card": HAND})
    assert r.status_code in (400, 403) and "data-answer" not in r.text


def test_the_hand_is_stored_nowhere_and_logged_nowhere(
    client: FlaskClient, evening: dict[str, str], app: Flask, caplog: pytest.LogCaptureFixture
) -> None:
    with app.app_context():
        before = _everything()
    caplog.set_level(logging.DEBUG)
    for cards in (HAND, HAND[:5]):
        _ask(client, evening["write"], cards)
    with app.app_context():
        after = _everything()
    assert after == before  # nothing written at all, the hand least of all
    text = "\n".join(r.getMessage() for r in caplog.records)
    hand_in_log = [c for c in ("HJ H9", "HJ,H9", "card=HJ", "'HJ'") if c in text]
    assert hand_in_log == [], text
    for rec in caplog.records:  # no record carries the form either
        assert "HJ" not in repr(rec.args)


def test_a_three_player_evening_asks_for_twelve_cards(client: FlaskClient) -> None:
    write, _view = create_circle(client)
    path = start_evening(client, write, Variant.THREE)
    assert "tap 12 cards" in client.get(f"{path}/adviser").text
    r = _ask(client, path, TWELVE)
    assert r.status_code == 200 and "data-answer" in r.text
    assert re.search(r'<tr data-row="suit_H" class="pick"', r.text)


def test_a_filled_slate_has_nothing_to_advise(client: FlaskClient) -> None:
    write, _view = create_circle(client)
    path = start_evening(client, write, Variant.THREE)
    fill_evening(client, path, Variant.THREE)
    page = client.get(f"{path}/adviser")
    assert page.status_code == 200 and 'name="card"' not in page.text
