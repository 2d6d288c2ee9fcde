"""The seat view (``present.seat``) from engine views of rigged deals: the deck's own faces,
trump cards marked for the trick they would go to, spoken names, roles in words, the row being
played left out of "open rows", short names under cards unique within the evening."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

from scorekeeper.engine import HandSetup, HandState, announce_action, build_view
from scorekeeper.game.cards import Card, Suit, parse_cards
from scorekeeper.game.contracts import Contract, Kind, Mode, TrickMode
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.present.labels import short_names
from scorekeeper.present.seat import seat_page, trump_of

NAMES = ["Anne-Marie Zurbriggen", "Vreni Schmid-Kalbermatten", "Hans-Peter Oberholzer", "Sepp Imboden-Kalbermatter"]


@pytest.fixture
def english(app: Flask) -> Iterator[None]:
    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        yield


def _deck(hands: list[str]) -> list[int]:
    """A deck that deals these four hands (dealer seat 3: forehand seat 0 gets the first three)."""
    cards = [[int(c) for c in parse_cards(h)] for h in hands]
    deck: list[int] = []
    for i in range(12):
        deck += cards[i % 4][3 * (i // 4) : 3 * (i // 4) + 3]
    return deck


HANDS = [
    "H6 H7 HA C6 C7 C8 D6 D7 D8",
    "HJ H9 HK C9 CT CJ D9 DT DJ",
    "H8 HT HQ CQ CK CA DQ DK DA",
    "S6 S7 S8 S9 ST SJ SQ SK SA",
]


def _teams(deck_style: str = "swiss") -> tuple[HandState, list[str]]:
    rs = default_ruleset(Variant.TEAMS, deck=deck_style)
    state = HandState(HandSetup(rs, dealer=3), _deck(HANDS))
    return state, [r.key for r in rs.rows]


def test_short_names_under_the_cards_are_the_evenings_short_names() -> None:
    # the rule itself: tests/web/test_web_short_names.py
    assert short_names(NAMES) == ["Anne-Marie", "Vreni", "Hans-Peter", "Sepp"]


def test_bidding_shows_the_hand_without_trumps_and_the_roles_in_words(english: None) -> None:
    state, _keys = _teams()
    rs = state.setup.ruleset
    page = seat_page(rs, NAMES, build_view(state, 0))
    assert page.my_turn and page.phase == "bidding"
    assert [c.code for c in page.hand] == ["C6", "C7", "C8", "D6", "D7", "D8", "H6", "H7", "HA"]
    assert all(c.sprite == "cards/swiss.svg" and c.symbol == c.code for c in page.hand)
    assert not any(c.trump for c in page.hand) and page.trump is None
    assert page.hand[-1].name == "ace of roses"
    assert [(p.name, p.roles, p.me, p.to_move) for p in page.ring] == [
        (NAMES[0], ("Choosing", "Forehand"), True, True),
        (NAMES[1], (), False, False),
        (NAMES[2], (), False, False),
        (NAMES[3], ("Dealer",), False, False),
    ]
    heart = next(c for c in page.choices if c.suit is not None and c.suit.symbol == "suit-H")
    assert heart.suit is not None and heart.suit.sprite == "cards/swiss.svg" and heart.label == "Roses"


def test_a_trump_hand_marks_its_trumps_and_the_chosen_row_leaves_open_rows(english: None) -> None:
    state, keys = _teams()
    rs = state.setup.ruleset
    state.apply(announce_action(rs, "suit_H", Contract(Kind.SUIT, Suit.HEARTS)))
    state.play(Card.parse("H6"))  # seat 0 leads a trump
    page = seat_page(rs, NAMES, build_view(state, 1))
    assert page.my_turn and page.phase == "playing"
    assert page.trick_mode == "Trumps: roses" and page.trump is not None and page.trump.symbol == "suit-H"
    trumps = {c.code for c in page.hand if c.trump}
    assert trumps == {"HJ", "H9", "HK"}
    legal = {c.code for c in page.hand if c.legal}
    assert legal == {"HJ", "H9", "HK"}  # trump led: follow with a trump
    named = {c.code: c.name for c in page.hand}
    assert named["HJ"] == "under of roses, trump"
    assert named["C9"] == "9 of acorns (cannot be played now)"
    assert [(p.who, p.card.code, p.card.trump) for p in page.trick] == [("Anne-Marie", "H6", True)]
    assert [p.roles for p in page.ring][:2] == [("Forehand", "Declarer"), ("To play",)]
    side_rows = dict(page.open_rows)
    assert "Roses" not in side_rows["Anne-Marie & Hans-Peter"]
    assert "Roses" in side_rows["Vreni & Sepp"]
    assert len(side_rows["Vreni & Sepp"]) == len(keys)
    # another seat, not on turn: nothing is "cannot be played", nothing legal
    other = seat_page(rs, NAMES, build_view(state, 2))
    assert not any(c.legal or "cannot" in c.name for c in other.hand)
    assert {c.code for c in other.hand if c.trump} == {"H8", "HT", "HQ"}


def test_the_french_deck_draws_french_faces_and_german_court_cards(app: Flask) -> None:
    state, _keys = _teams("french")
    rs = state.setup.ruleset
    state.apply(announce_action(rs, "suit_S", Contract(Kind.SUIT, Suit.SPADES)))
    with app.test_request_context("/", headers={"Accept-Language": "de-CH"}):
        page = seat_page(rs, NAMES, build_view(state, 1))
        assert {c.sprite for c in page.hand} == {"cards/french.svg"}
        assert {c.code: c.symbol for c in page.hand}["CJ"] == "CJ-de"  # the German index: B for Bube
        assert page.trick_mode == "Trumpf: Schaufel"
        assert not any(c.trump for c in page.hand)  # seat 1 holds no spade


def test_the_last_trick_keeps_its_own_trumps_and_tutti_marks_the_led_suit(english: None) -> None:
    state, _keys = _teams()
    rs = state.setup.ruleset
    state.apply(announce_action(rs, "suit_H", Contract(Kind.SUIT, Suit.HEARTS)))
    for code in ("HA", "HJ", "H8", "S6"):
        state.play(Card[code])
    page = seat_page(rs, NAMES, build_view(state, 2))
    assert page.trick == [] and page.last_winner == NAMES[1]
    assert [(p.card.code, p.card.trump) for p in page.last_trick] == [
        ("HA", True),
        ("HJ", True),
        ("H8", True),
        ("S6", False),
    ]
    assert [p.seat for p in page.last_trick] == [0, 1, 2, 3]
    assert trump_of(TrickMode(Mode.TUTTI), []) is None
    assert trump_of(TrickMode(Mode.TUTTI), [Card.parse("D7"), Card.parse("H6")]) is Suit.DIAMONDS
    assert trump_of(TrickMode(Mode.OBENABE), [Card.parse("D7")]) is None
    assert trump_of(None, [Card.parse("D7")]) is None
