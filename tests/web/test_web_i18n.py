"""The Swiss German catalog: complete for what it holds, placeholders intact, used by the pages."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path
from typing import cast

from babel.messages.pofile import read_po
from babel.numbers import format_currency
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.game.cards import Card, DeckStyle, Suit
from scorekeeper.game.errors import RuleError
from scorekeeper.present.errors import translate_error
from scorekeeper.present.labels import chf

PO = Path(__file__).resolve().parents[2] / "scorekeeper" / "translations" / "de_CH" / "LC_MESSAGES" / "messages.po"
PLACEHOLDER = re.compile(r"%\(\w+\)s")


def test_catalog_is_translated_with_the_same_placeholders() -> None:
    catalog = read_po(PO.open("rb"), locale="de_CH")
    messages = [m for m in catalog if m.id]
    assert len(messages) > 200
    for m in messages:
        ids = cast(tuple[str, ...], m.id if isinstance(m.id, tuple) else (m.id,))  # plural forms: (singular, plural)
        strings = cast(tuple[str, ...], m.string if isinstance(m.string, tuple) else (m.string,))
        assert all(strings), f"untranslated: {m.id!r}"
        assert "fuzzy" not in m.flags, m.id
        wanted = set(PLACEHOLDER.findall(ids[-1]))
        assert all(set(PLACEHOLDER.findall(s)) == wanted for s in strings), m.id


def test_rule_error_params_in_deck_style_and_language(app: Flask) -> None:
    err = RuleError("You do not hold %(card)s.", "card_not_held", card=Card.parse("HA"))
    with app.test_request_context("/", headers={"Cookie": "lang=de_CH"}):
        assert translate_error(err, DeckStyle.SWISS) == "Du hast Rose Ass nicht."
        assert translate_error(err, DeckStyle.FRENCH) == "Du hast Herz Ass nicht."
    with app.test_request_context("/", headers={"Accept-Language": "en-GB,en;q=0.8"}):
        assert translate_error(err, DeckStyle.FRENCH) == "You do not hold ace of hearts."
        suit_err = RuleError("Play %(suit)s.", "x", suit=Suit.SPADES)
        assert translate_error(suit_err, "swiss") == "Play shields."


def test_browser_language_is_used_without_a_cookie(client: FlaskClient) -> None:
    page = client.get("/", headers={"Accept-Language": "de-CH,de;q=0.9"}).text
    assert "Neue Jassrunde" in page and 'lang="de-CH"' in page
    assert "New circle" in client.get("/", headers={"Accept-Language": "es-ES,en;q=0.5"}).text
    assert "Nouveau cercle" in client.get("/", headers={"Accept-Language": "fr-CH,en;q=0.5"}).text


def test_money_format() -> None:
    """Outside a request: English, as Babel writes Swiss francs in Swiss English (tests/i18n: every language)."""
    assert chf(1235) == format_currency(Decimal("12.35"), "CHF", locale="en_CH")
    assert chf(-5) == format_currency(Decimal("-0.05"), "CHF", locale="en_CH")
    assert chf(900, signed=True) == "+" + format_currency(9, "CHF", locale="en_CH")
    assert chf(0, signed=True) == format_currency(0, "CHF", locale="en_CH")
