"""Helpers for the digital table tests: evenings with a table, players for human seats
(the service), and phones that join seats and play from their pages (the pages)."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from flask import Flask
from flask.testing import FlaskClient
from shared_helpers import rid

from scorekeeper.bots import choose_action
from scorekeeper.game.cards import ALL_CARDS, NAME_LANGUAGES, DeckStyle, card_name
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.models import DigitalTable, Evening
from scorekeeper.render.faces import symbol_id
from scorekeeper.services import circles, evenings
from scorekeeper.services import digital_table as tables

NAMES = ("Anna", "Beat", "Carla", "Dölf")
LEVEL = "easy"  # the computers' level in these tests: the bots' fastest (microseconds a move)


# --- the service ----------------------------------------------------------------------
def start(variant: Variant = Variant.TEAMS, first_dealer: int = 0) -> Evening:
    rs = default_ruleset(variant)
    circle, _w, _v = circles.create_circle("Runde")
    return evenings.start_evening(
        circle, ruleset=rs, player_names=list(NAMES[: rs.n_players]), first_dealer=first_dealer, request_id=rid("start")
    )


def human_move(table: DigitalTable, seat: int, rng: random.Random) -> tables.TableState:
    """The human in ``seat`` makes a random legal move, seen only through her view."""
    st = tables.load(table)
    view = st.view(seat)
    assert view is not None and view.my_turn
    action = rng.choice(view.legal_actions) if rng.random() < 0.5 else choose_action(view, st.ruleset, LEVEL)
    return tables.act(table, seat, action, expected_seq=st.seq)


def play_out(table: DigitalTable, rng: random.Random) -> tables.TableState:
    """Play the current hand to its end (human seats move randomly)."""
    st = tables.run_computers(table)
    while not st.hand_over:
        mover = st.to_move()
        assert mover is not None and mover not in st.computers
        st = human_move(table, mover, rng)
    return st


# --- the pages ------------------------------------------------------------------------
CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')
LEGAL_CARD = re.compile(r'name="action" value="(\d+)" class="card[^"]*\blegal\b')
ANY_CARD = re.compile(r'name="action" value="(\d+)" class="card')
CHOICE = re.compile(r'name="action" value="(\d+)"[^>]*data-(?:choice|pass)')


def csrf(html: str) -> str:
    m = CSRF.search(html)
    assert m, "no CSRF token on the page"
    return m.group(1)


def start_evening(app: Flask, variant: Variant) -> tuple[str, str]:
    """(circle write token, evening public id)."""
    with app.app_context():
        rs = default_ruleset(variant)
        _c, write, _v = circles.create_circle("Runde")
        circle, _w = circles.open_circle(write)
        ev = evenings.start_evening(
            circle, ruleset=rs, player_names=list(NAMES[: rs.n_players]), first_dealer=0, request_id=rid("start")
        )
        return write, ev.public_id


@dataclass
class Phone:
    client: FlaskClient
    seat_url: str
    html: str = ""

    def open(self) -> str:
        r = self.client.get(self.seat_url)
        assert r.status_code == 200
        self.html = r.get_data(as_text=True)
        return self.html

    def post(self, path: str, **data: object) -> tuple[int, str]:
        r = self.client.post(
            self.seat_url + path, data={"csrf_token": csrf(self.html), **data}, headers={"HX-Request": "true"}
        )
        return r.status_code, r.get_data(as_text=True)


def every_card_name() -> dict[int, list[str]]:
    """Every way a card can be written on a page: its code (as data, a key, in quotes), its face
    in a sprite (``#HA"``, ``#HJ-de"``), its names in both decks and every language."""
    out: dict[int, list[str]] = {}
    for c in ALL_CARDS:
        names = {card_name(c, deck, lang) for deck in DeckStyle for lang in NAME_LANGUAGES}
        faces = {f'#{symbol_id(c, deck, lang)}"' for deck in DeckStyle for lang in NAME_LANGUAGES}
        out[int(c)] = [f'data-card="{c.name}"', f'"{c.name}"', f'card-{c.name}"', *sorted(faces), *names]
    return out


def open_table(client: FlaskClient, write: str, evening_id: str, computers: tuple[int, ...] = ()) -> list[str]:
    """Deal digitally from the slate page; returns the seat links shown for the human seats."""
    slate = client.get(f"/c/{write}/e/{evening_id}")
    assert slate.status_code == 200
    page = slate.get_data(as_text=True)
    assert f"/c/{write}/e/{evening_id}/table/open" in page
    r = client.post(
        f"/c/{write}/e/{evening_id}/table/open",
        data={"csrf_token": csrf(page), "computer": [str(c) for c in computers]},
    )
    assert r.status_code == 302 and r.headers["Location"].endswith("/table")
    manage = client.get(f"/c/{write}/e/{evening_id}/table")
    assert manage.status_code == 200 and manage.headers["Cache-Control"] == "no-store"
    html = manage.get_data(as_text=True)
    r = client.post(f"/c/{write}/e/{evening_id}/table/links", data={"csrf_token": csrf(html)})
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store"
    links_html = r.get_data(as_text=True)
    assert links_html.count("<svg") == links_html.count('class="qr"')  # one inline SVG QR code per link
    return re.findall(r'value="(http[^"]+/s/[^"]+)"', links_html)


def join(app: Flask, link: str) -> Phone:
    client = app.test_client()
    path = link.split("://", 1)[1].split("/", 1)[1]
    r = client.get("/" + path)
    assert r.status_code == 302
    cookie = r.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    location = r.headers["Location"]
    assert "/s/" not in location and path.rsplit("/", 1)[1] not in location  # the token-free address
    phone = Phone(client, location)
    phone.open()
    if 'class="sit"' in phone.html:  # what the seat page posts once open: the seat noted as joined
        status, phone.html = phone.post("/sit")
        assert status == 200
    return phone
