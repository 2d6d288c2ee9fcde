"""The committed card sprites: in step with their generator, complete, CSP-safe and small."""

from __future__ import annotations

import gzip
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from scorekeeper.game.cards import Card, DeckStyle
from scorekeeper.render import card_sprites
from scorekeeper.render.faces import BACK_SYMBOL, CARD_VIEWBOX, SUIT_VIEWBOX, TRUMP_SYMBOL, sprite_file, sprite_symbols

STATIC = Path(__file__).resolve().parents[2] / "static"
SVG = "{http://www.w3.org/2000/svg}"
SPRITES = [(DeckStyle.SWISS, False), (DeckStyle.FRENCH, False), (DeckStyle.FRENCH, True)]
IDS = ["swiss", "french", "french-4c"]


def _tree(style: DeckStyle, four: bool) -> ET.Element:
    return ET.fromstring((STATIC / sprite_file(style, four_colour=four)).read_text(encoding="utf-8"))


def _local(tag: str) -> str:
    return tag.removeprefix(SVG)


def test_the_committed_sprites_are_the_generators_output() -> None:
    """Regenerate with `make assets` after changing the drawing."""
    made = card_sprites.sprites()
    assert sorted(made) == ["cards/french-4c.svg", "cards/french.svg", "cards/swiss.svg"]
    for rel, text in made.items():
        assert (STATIC / rel).read_text(encoding="utf-8") == text, f"static/{rel} is stale"


@pytest.mark.parametrize(("style", "four"), SPRITES, ids=IDS)
def test_every_symbol_is_there_with_its_viewbox(style: DeckStyle, four: bool) -> None:
    root = _tree(style, four)
    symbols = {el.get("id", ""): el for el in root.iter(f"{SVG}symbol")}
    cards = sprite_symbols(style)
    assert set(symbols) == set(cards) | {"suit-C", "suit-D", "suit-S", "suit-H", BACK_SYMBOL, TRUMP_SYMBOL}
    for sid, el in symbols.items():
        assert el.get("viewBox") == (SUIT_VIEWBOX if sid.startswith("suit-") else CARD_VIEWBOX)
    ids = [el.get("id") for el in root.iter() if el.get("id")]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize(("style", "four"), SPRITES, ids=IDS)
def test_each_card_shows_its_mark_and_only_its_own_suit(style: DeckStyle, four: bool) -> None:
    root = _tree(style, four)
    for sid, mark in sprite_symbols(style).items():
        symbol = root.find(f".//{SVG}symbol[@id='{sid}']")
        assert symbol is not None
        refs = [u.get("href", "") for u in symbol.iter(f"{SVG}use")]
        glyphs = "".join(r.removeprefix("#g") for r in refs if r.startswith("#g"))
        assert glyphs == mark, sid
        suit = Card[sid.split("-")[0]].suit.letter
        assert {r for r in refs if r.startswith("#suit-")} == {f"#suit-{suit}"}, sid
        assert "#frame" in refs


@pytest.mark.parametrize(("style", "four"), SPRITES, ids=IDS)
def test_a_strict_content_security_policy_allows_it(style: DeckStyle, four: bool) -> None:
    """Presentation attributes only: no style, no script, no event handler, nothing from elsewhere."""
    root = _tree(style, four)
    ids = {el.get("id") for el in root.iter()}
    for el in root.iter():
        assert _local(el.tag) not in ("style", "script", "foreignObject", "image", "a"), el.tag
        for name, value in el.attrib.items():
            assert name != "style" and not name.lower().startswith("on"), (el.tag, name)
            if name in ("href", "{http://www.w3.org/1999/xlink}href"):
                assert value.startswith("#") and value[1:] in ids, value  # only internal references
            for ref in re.findall(r"url\(([^)]*)\)", value):
                assert ref.startswith("#") and ref[1:] in ids, ref


@pytest.mark.parametrize(("style", "four"), SPRITES, ids=IDS)
def test_the_sprite_stays_small(style: DeckStyle, four: bool) -> None:
    raw = (STATIC / sprite_file(style, four_colour=four)).read_bytes()
    assert len(raw) < 40_000
    assert len(gzip.compress(raw, 9)) < 4_000  # a seat page loads it once, then from the cache


def test_four_colours_change_only_the_french_clubs_and_diamonds() -> None:
    two = card_sprites.sprite("french")
    four = card_sprites.sprite("french", four_colour=True)
    assert two != four
    assert card_sprites.sprite("swiss", four_colour=True) == card_sprites.sprite("swiss")
    assert card_sprites.FRENCH_COLOURS_4C["S"] == card_sprites.FRENCH_COLOURS["S"]
    assert card_sprites.FRENCH_COLOURS_4C["H"] == card_sprites.FRENCH_COLOURS["H"]
    assert len(set(card_sprites.FRENCH_COLOURS_4C.values())) == 4


def _luminance(hex_colour: str) -> float:
    h = hex_colour.lstrip("#")
    h = "".join(c * 2 for c in h) if len(h) == 3 else h
    channels = [int(h[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(a: str, b: str) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize(("style", "four"), SPRITES, ids=IDS)
def test_every_corner_mark_stands_out_in_bright_light(style: DeckStyle, four: bool) -> None:
    """The index colours on the white card: at least WCAG's 4.5:1 for text (the marks are large)."""
    deck = card_sprites.Deck(style, four)
    for letter in "CDSH":
        assert _contrast(deck.suit_colour(letter), card_sprites.PAPER) >= 4.5, letter
