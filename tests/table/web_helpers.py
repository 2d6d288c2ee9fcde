"""Helpers for the table page tests: phones (test clients) that join seats and play from their pages."""

from __future__ import annotations

import re
from dataclasses import dataclass

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.game.cards import ALL_CARDS, DeckStyle, card_name
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.services import circles, evenings

from .table_helpers import NAMES, rid

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
    """Every way a card can be written on a page: names in both decks and languages."""
    out: dict[int, list[str]] = {}
    for c in ALL_CARDS:
        names = {card_name(c, deck, lang) for deck in DeckStyle for lang in ("en", "de")}
        out[int(c)] = [f'data-card="{c.name}"', f'"{c.name}"', *names]
    return out
