"""Privacy: random games driven through the web layer, every seat a phone or a computer;
every response every phone gets (pages, fragments, refusals, polls, the JSON API), its
headers and its cookies, and every log line, are searched for the cards still in OTHER
seats' hands.

Default: one game per variant; ``SCOREKEEPER_SOAK=1`` plays many more.
"""

from __future__ import annotations

import logging
import random
import re
from typing import Any

import pytest
from flask import Flask
from shared_helpers import SOAK
from table_helpers import ANY_CARD, CHOICE, LEGAL_CARD, Phone, csrf, every_card_name, join, open_table, start_evening
from werkzeug.test import TestResponse

from scorekeeper.engine.bitmasks import card_ints
from scorekeeper.game.rulesets import Variant
from scorekeeper.services import digital_table as tables

GAMES = 24 if SOAK else 1
NAMES_OF = every_card_name()
CARD_WORD = re.compile(r"\b[CDSH][6789TJQKA]\b")


@pytest.fixture
def app_config() -> dict[str, Any]:
    return {"WTF_CSRF_ENABLED": True, "TABLE_COMPUTER_LEVEL": "easy"}


def _hidden(app: Flask, table_id: str, seat: int) -> list[int]:
    """The cards in the other seats' hands now (the truth, from the stored game)."""
    with app.app_context():
        st = tables.load(tables.get_table(table_id))
        assert st.state is not None
        return [c for s, mask in enumerate(st.state.hands) if s != seat for c in card_ints(mask)]


def _check(app: Flask, table_id: str, seat: int, response: TestResponse, phone: Phone) -> None:
    text = response.get_data(as_text=True)
    head = "\n".join(f"{k}: {v}" for k, v in response.headers.items())
    cookies = phone.client._cookies.values()  # type: ignore[union-attr]  # the test client keeps some
    jar = " ".join(f"{c.key}={c.value}" for c in cookies)
    for c in _hidden(app, table_id, seat):
        for needle in NAMES_OF[c]:
            assert needle not in text, f"seat {seat} sees {needle!r}"
            assert needle not in head and needle not in jar
    if response.status_code != 204:
        assert response.headers.get("Cache-Control") == "no-store"


@pytest.mark.parametrize("variant", list(Variant), ids=[v.value for v in Variant])
def test_no_response_carries_another_seats_cards(
    app: Flask, variant: Variant, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    for game in range(GAMES):
        rng = random.Random(1000 * game + len(variant.value))
        write, evening_id = start_evening(app, variant)
        n = 3 if variant is Variant.THREE else 4
        computers = tuple(s for s in range(n) if rng.random() < 0.35 and s != 0)
        admin = app.test_client()
        links = open_table(admin, write, evening_id, computers=computers)
        humans = [s for s in range(n) if s not in computers]
        phones = dict(zip(humans, (join(app, link) for link in links), strict=False))
        table_id = next(iter(phones.values())).seat_url.rsplit("/", 1)[1]
        for _step in range(400):
            pages: dict[int, str] = {}
            for seat, phone in phones.items():
                poll = phone.client.get(phone.seat_url + "/poll?v=-1", headers={"HX-Request": "true"})
                _check(app, table_id, seat, poll, phone)
                page = phone.client.get(phone.seat_url)
                _check(app, table_id, seat, page, phone)
                token = phone.client.get_cookie("sk_seat", domain="localhost", path=phone.seat_url)
                assert token is not None
                api = phone.client.get(f"/api/v1/tables/{table_id}/seat", headers={"X-Seat-Token": token.value})
                assert api.status_code == 200
                _check(app, table_id, seat, api, phone)  # the JSON API: the same single view
                phone.html = pages[seat] = page.get_data(as_text=True)
                if _step == 0:  # the check itself works: this page shows cards hidden from the next seat
                    with pytest.raises(AssertionError):
                        _check(app, table_id, (seat + 1) % n, page, phone)
            if any("data-result" in h for h in pages.values()):
                break
            mover = next(s for s, h in pages.items() if "Your turn." in h)
            html = pages[mover]
            seq = re.search(r'name="seq" value="(\d+)"', html).group(1)  # type: ignore[union-attr]  # the page holds it
            options = CHOICE.findall(html) or LEGAL_CARD.findall(html)
            tries = [*(c for c in ANY_CARD.findall(html) if c not in options)][:1]  # an illegal tap
            for seat, phone in phones.items():  # out of turn: every other phone taps a card
                if seat != mover and ANY_CARD.findall(phone.html):
                    tries_other = ANY_CARD.findall(phone.html)[:1]
                    r = phone.client.post(
                        phone.seat_url + "/act",
                        headers={"HX-Request": "true"},
                        data={"csrf_token": csrf(phone.html), "action": tries_other[0], "seq": seq},
                    )
                    assert r.status_code == 422
                    _check(app, table_id, seat, r, phone)
            phone = phones[mover]
            for action in [*tries, rng.choice(options)]:
                r = phone.client.post(
                    phone.seat_url + "/act",
                    headers={"HX-Request": "true"},
                    data={"csrf_token": csrf(html), "action": action, "seq": seq},
                )
                _check(app, table_id, mover, r, phone)
        else:
            pytest.fail("the hand did not end")
    for record in caplog.records:
        message = record.getMessage()
        assert not CARD_WORD.search(message) and "data-card" not in message
        for names in NAMES_OF.values():
            assert not any(n in message for n in names[2:])
