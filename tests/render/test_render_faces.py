"""Card faces: every card of both decks maps to one sprite symbol, a corner mark and its name."""

from __future__ import annotations

import pytest

from scorekeeper.game.cards import (
    ALL_CARDS,
    N_CARDS,
    RANK_NAMES,
    Card,
    DeckStyle,
    Rank,
    Suit,
    card_name,
    suit_name,
)
from scorekeeper.render.faces import (
    SUIT_VIEWBOX,
    card_face,
    index_mark,
    sprite_file,
    sprite_symbols,
    suit_face,
    symbol_id,
)

STYLES = list(DeckStyle)
LANGUAGES = ["de", "en", "de-CH", "en-GB", "fr-CH", "it_CH"]


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_card_has_its_own_symbol_and_name(style: DeckStyle, language: str) -> None:
    faces = [card_face(c, style, language) for c in ALL_CARDS]
    assert len({f.symbol for f in faces}) == N_CARDS  # no two cards share a face
    for card, face in zip(ALL_CARDS, faces, strict=True):
        assert face.card == card
        assert face.symbol.split("-")[0] == card.code  # the card's code, maybe with "-de"
        assert face.name == card_name(card, style, language)
        assert face.sprite == sprite_file(style)
        assert face.ref == f"{face.sprite}#{face.symbol}"
        assert face.symbol in sprite_symbols(style)
        assert sprite_symbols(style)[face.symbol] == face.index


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("language", ["de", "en"])
def test_the_corner_shows_the_rank_as_the_deck_names_it(style: DeckStyle, language: str) -> None:
    names = RANK_NAMES[(style, language)]
    for card in ALL_CARDS:
        mark = index_mark(card, style, language)
        name = names[card.rank]
        if card.rank <= Rank.NINE:
            assert mark == name  # 6 7 8 9
        elif card.rank == Rank.TEN:
            assert mark == "10"  # the Banner is the ten
        else:  # court cards and the ace: the initial of their name (Under U, Dame D, jack J ...)
            assert mark == name[0].upper()


def test_the_marks_of_each_deck() -> None:
    assert [index_mark(Card.of(Suit.CLUBS, r), "swiss", "en") for r in Rank] == "6 7 8 9 10 U O K A".split()
    assert [index_mark(Card.of(Suit.CLUBS, r), "french", "en") for r in Rank] == "6 7 8 9 10 J Q K A".split()
    assert [index_mark(Card.of(Suit.CLUBS, r), "french", "de") for r in Rank] == "6 7 8 9 10 B D K A".split()
    assert (
        symbol_id(Card.parse("HJ"), "french", "de") == "HJ-de" and symbol_id(Card.parse("HJ"), "french", "en") == "HJ"
    )
    assert symbol_id(Card.parse("HK"), "french", "de") == "HK"  # König and king share the K
    assert symbol_id(Card.parse("HJ"), "swiss", "de") == symbol_id(Card.parse("HJ"), "swiss", "en") == "HJ"


def test_a_sprite_holds_every_symbol_once() -> None:
    swiss = sprite_symbols("swiss")
    french = sprite_symbols("french")
    assert list(swiss) == [c.code for c in ALL_CARDS]
    # 36 cards plus the German jack and queen of each suit
    assert len(french) == N_CARDS + 8
    assert {s for s in french if s.endswith("-de")} == {f"{s}{r}-de" for s in "CDSH" for r in "JQ"}


def test_four_colours_are_a_french_option() -> None:
    assert sprite_file("swiss") == sprite_file("swiss", four_colour=True) == "cards/swiss.svg"
    assert sprite_file("french") == "cards/french.svg"
    assert sprite_file("french", four_colour=True) == "cards/french-4c.svg"
    face = card_face(Card.parse("DA"), "french", "en", four_colour=True)
    assert face.ref == "cards/french-4c.svg#DA" and face.name == "ace of diamonds"


@pytest.mark.parametrize("style", STYLES)
def test_suit_symbols_for_the_trump_line(style: DeckStyle) -> None:
    faces = [suit_face(s, style, "de") for s in Suit]
    assert [f.symbol for f in faces] == ["suit-C", "suit-D", "suit-S", "suit-H"]
    assert [f.name for f in faces] == [suit_name(s, style, "de") for s in Suit]
    assert all(f.ref.startswith(sprite_file(style) + "#") for f in faces)
    assert SUIT_VIEWBOX == "0 0 100 100"


@pytest.mark.parametrize("bad", [-1, N_CARDS, 99])
def test_no_face_for_a_number_that_is_no_card(bad: int) -> None:
    with pytest.raises(ValueError):
        card_face(bad, "swiss")
    with pytest.raises(ValueError):
        card_face(0, "italian")
