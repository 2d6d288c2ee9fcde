"""RULES.md 2-4 as tables of cases: legal cards, trick winners, card points."""

from __future__ import annotations

import pytest
from engine_helpers import ref_legal, ref_winning_index

from scorekeeper.engine.bitmasks import POINTS, mode_id, valuation_id
from scorekeeper.engine.errors import IllegalCard
from scorekeeper.engine.rules import explain_in_trick, legal_in_trick, trick_winner
from scorekeeper.game.cards import Card, Suit, cards_of, mask_of, parse_cards
from scorekeeper.game.contracts import OBE, UNE, Kind, Mode, TrickMode, all_contracts

H = TrickMode(Mode.TRUMP, Suit.HEARTS)
TUTTI = TrickMode(Mode.TUTTI)
ZWUE = TrickMode(Mode.ZWUESCHEDUERE)


def legal(tm: TrickMode, trick: str, hand: str) -> set[str]:
    mask = legal_in_trick(mask_of(parse_cards(hand)), mode_id(tm), [int(c) for c in parse_cards(trick)])
    return {c.name for c in cards_of(mask)}


LEGAL_CASES = [
    # (id, mode, trick so far, hand, legal)
    ("lead-anything", H, "", "HK S7 D8", "HK S7 D8"),
    ("follow-or-trump-in-although-able-to-follow", H, "SA", "S7 HK H6 D8", "S7 HK H6"),
    ("cannot-follow-anything", H, "SA", "HK D8 C6", "HK D8 C6"),
    ("no-undertrump-below-highest-of-two-trumps", H, "SA HK H9", "HA D6", "D6"),
    ("no-undertrump-while-following", H, "SA HK H9", "HA S7", "S7"),
    ("higher-trump-over-the-highest-allowed", H, "SA HK H9", "HJ D6 S7", "HJ S7"),
    ("ace-beats-first-trump-but-not-highest", H, "SK HQ HA", "HK D6", "D6"),
    ("all-trump-hand-may-undertrump", H, "SA HK H9", "HA H6", "HA H6"),
    ("all-trump-hand-single-card", H, "SA H9", "H6", "H6"),
    ("only-lower-trumps-and-others", H, "SA HJ", "H6 H7 D7", "D7"),
    ("trump-led-must-play-trump", H, "H6", "HK S7 D8", "HK"),
    ("trump-led-any-trump-no-need-to-beat", H, "HA", "H6 HK S7", "H6 HK"),
    ("puur-may-be-held-back", H, "H6", "HJ S7 D8", "HJ S7 D8"),
    ("puur-with-other-trump-no-exception", H, "H6", "HJ H7 S7", "HJ H7"),
    ("trump-led-no-trump-anything", H, "H6", "S7 D8", "S7 D8"),
    ("trump-led-no-undertrump-rule", H, "H9 HJ", "H6 S7", "H6"),
    ("obenabe-follow", OBE, "SA", "S6 HA D8", "S6"),
    ("obenabe-cannot-follow", OBE, "SA", "HA D8", "HA D8"),
    ("undenufe-follow", UNE, "C6", "CA C7 H6", "CA C7"),
    ("zwueschedueree-follow", ZWUE, "DT", "D9 HT", "D9"),
    ("tutti-follow-led-suit", TUTTI, "S7", "SK S6 HJ", "SK S6"),
    ("tutti-puur-exception", TUTTI, "S7", "SJ H6 D7", "SJ H6 D7"),
    ("tutti-no-trump-in", TUTTI, "S7", "SK H6", "SK"),
    ("tutti-cannot-follow", TUTTI, "S7", "H6 D7", "H6 D7"),
]


@pytest.mark.parametrize("tm,trick,hand,expected", [c[1:] for c in LEGAL_CASES], ids=[c[0] for c in LEGAL_CASES])
def test_legal_cards(tm: TrickMode, trick: str, hand: str, expected: str) -> None:
    assert legal(tm, trick, hand) == set(expected.split())
    assert ref_legal(hand.split(), tm, trick.split()) == set(expected.split())


@pytest.mark.parametrize(
    "tm,trick,hand,card,code,params",
    [
        (H, "SA HK H9", "HA D6", "HA", "undertrump", {"card": Card.HA, "high": Card.H9}),
        (H, "H6", "HK S7", "S7", "must_play_trump", {"trump": Suit.HEARTS}),
        (H, "SA", "S7 D8", "D8", "must_follow_or_trump", {"led": Suit.SPADES, "trump": Suit.HEARTS}),
        (OBE, "SA", "S6 D8", "D8", "must_follow", {"led": Suit.SPADES}),
        (TUTTI, "SA", "S6 D8", "D8", "must_follow", {"led": Suit.SPADES}),
        (UNE, "SA", "S6 D8", "CA", "card_not_in_hand", {"card": Card.CA}),
    ],
)
def test_illegal_card_reasons(
    tm: TrickMode, trick: str, hand: str, card: str, code: str, params: dict[str, object]
) -> None:
    err = explain_in_trick(
        mask_of(parse_cards(hand)), int(Card.parse(card)), mode_id(tm), [int(c) for c in parse_cards(trick)]
    )
    assert isinstance(err, IllegalCard)
    assert err.code == code
    assert err.params["card"] == Card.parse(card)
    for k, v in params.items():
        assert err.params[k] == v
    assert card in str(err)  # the English rendering names the card


def test_legal_card_has_no_reason() -> None:
    assert explain_in_trick(mask_of(parse_cards("S6 D8")), int(Card.S6), mode_id(OBE), [int(Card.SA)]) is None


WINNER_CASES = [
    ("trump-beats-led", H, "SA SK HK", 2),
    ("highest-trump", H, "SA HK H9", 2),
    ("puur-highest", H, "H9 HJ HA", 1),
    ("nell-over-ace", H, "HA H9", 1),
    ("led-suit-high", H, "S6 SA SK", 1),
    ("off-suit-never-wins", H, "S6 DA CA", 0),
    ("trump-order-low", H, "H6 H8 H7", 1),
    ("obenabe", OBE, "S6 SA SK", 1),
    ("undenufe", UNE, "SA S6 S7", 1),
    ("undenufe-off-suit", UNE, "S7 D6", 0),
    ("zwue-ten-highest", ZWUE, "S9 ST SJ", 1),
    ("zwue-equal-first-wins-9", ZWUE, "S9 SJ", 0),
    ("zwue-equal-first-wins-J", ZWUE, "SJ S9", 0),
    ("zwue-six-ace-equal", ZWUE, "S6 SA", 0),
    ("zwue-queen-over-king", ZWUE, "SK SQ S6", 1),
    ("tutti-led-suit-trump-order", TUTTI, "S9 SJ SA", 1),
    ("tutti-nell-over-ace", TUTTI, "SA S9", 1),
    ("tutti-no-other-trump", TUTTI, "S6 HJ", 0),
]


@pytest.mark.parametrize("tm,trick,winner", [c[1:] for c in WINNER_CASES], ids=[c[0] for c in WINNER_CASES])
def test_trick_winner(tm: TrickMode, trick: str, winner: int) -> None:
    cards = [int(c) for c in parse_cards(trick)]
    assert ref_winning_index(tm, trick.split()) == winner  # the index of the winning card
    for n in (3, 4):
        for leader in range(n):
            assert trick_winner(mode_id(tm), cards, leader, n) == (leader + winner) % n  # a seat


@pytest.mark.parametrize("kind", list(Kind))
def test_every_valuation_totals_152_plus_last_trick(kind: Kind) -> None:
    for contract in all_contracts(kind):
        val = contract.valuation() or OBE  # Komisch: that of its first block
        for six11 in (False, True):
            assert sum(POINTS[valuation_id(val, six11)]) + 5 == 157


@pytest.mark.parametrize(
    "tm,six11,card,points",
    [
        (H, False, "HJ", 20),
        (H, False, "H9", 14),
        (H, False, "HA", 11),
        (H, False, "SJ", 2),
        (H, False, "S9", 0),
        (H, False, "S8", 0),
        (OBE, False, "S8", 8),
        (OBE, False, "SA", 11),
        (UNE, False, "S6", 0),
        (UNE, False, "SA", 11),
        (UNE, True, "S6", 11),
        (UNE, True, "SA", 0),
        (OBE, True, "S6", 0),
        (TUTTI, False, "S8", 8),
        (ZWUE, False, "SJ", 2),
    ],
)
def test_card_points(tm: TrickMode, six11: bool, card: str, points: int) -> None:
    assert POINTS[valuation_id(tm, six11)][Card.parse(card)] == points
