"""The hand state: deal, illegal cards, results, replays, views, whole evenings."""

from __future__ import annotations

import random

import pytest
from engine_helpers import play_codes, random_finish, start
from shared_helpers import any_ruleset, deck_for

from scorekeeper.engine import (
    TERMINAL,
    HandSetup,
    HandState,
    IllegalAction,
    IllegalCard,
    build_view,
    deal_hands,
    seeded_deck,
)
from scorekeeper.engine.bitmasks import card_ints
from scorekeeper.game.cards import Card, Suit, parse_cards
from scorekeeper.game.contracts import OBENABE, Contract, Kind, Mode, suit_contract
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import default_ruleset
from scorekeeper.scoring import Slate, verify_entry

HEARTS = suit_contract(Suit.HEARTS)


def test_deal_in_threes_from_dealers_right() -> None:
    deck = list(range(36))
    hands = deal_hands(deck, 4, dealer=2)
    # seat 3 (dealer's right) gets cards 0-2, seat 0 cards 3-5, seat 1 6-8, seat 2 9-11, then round again
    assert card_ints(hands[3])[:3] == (0, 1, 2)
    assert card_ints(hands[0])[:3] == (3, 4, 5)
    assert card_ints(hands[2])[:3] == (9, 10, 11)
    assert card_ints(hands[3])[3:6] == (12, 13, 14)
    three = deal_hands(deck, 3, dealer=0)
    assert [h.bit_count() for h in three] == [12, 12, 12]
    assert card_ints(three[1])[:3] == (0, 1, 2)
    assert sum(hands) == (1 << 36) - 1


def test_shuffle_comes_from_the_injected_source() -> None:
    rs = default_ruleset("teams")
    a = HandState.new(HandSetup(rs, 0), random.Random(42))
    b = HandState.new(HandSetup(rs, 0), random.Random(42))
    assert a.deck == b.deck == seeded_deck(42)
    default = HandState.new(HandSetup(rs, 0))  # secrets.SystemRandom by default
    assert sorted(default.deck) == list(range(36))
    with pytest.raises(ValueError):
        HandState(HandSetup(rs, 0), [0] * 36)


def rigged() -> HandState:
    # dealer 0, forehand 1 declares hearts trump; seat 1 leads SA, 2 plays HK, 3 plays H9
    deck = deck_for(
        {1: "SA S6 C6 C7 C8 D7 D8 D9 DT", 2: "HK CA CK CQ CJ CT C9 DA DK", 3: "H9 SK SQ SJ ST S9 S8 S7 DQ", 0: "HA D6"},
        4,
    )
    return start(HEARTS, deck=deck)


def test_illegal_card_changes_nothing_and_says_why() -> None:
    s = rigged()
    play_codes(s, ["SA", "HK", "H9"])
    assert s.current_player() == 0
    before = (list(s.hands), list(s.history), list(s.trick), s.trick_no, list(s.points))
    with pytest.raises(IllegalCard) as e:
        s.play(Card.HA)
    assert e.value.code == "undertrump"
    assert e.value.params == {"card": Card.HA, "high": Card.H9}
    assert "HA" in str(e.value) and "H9" in str(e.value)
    with pytest.raises(IllegalCard) as e2:
        s.play(Card.SK)  # seat 3's card
    assert e2.value.code == "card_not_in_hand"
    assert (list(s.hands), list(s.history), list(s.trick), s.trick_no, list(s.points)) == before
    assert not s.can_apply(int(Card.HA))
    with pytest.raises(IllegalAction):
        s.play(Card.D6, seat=1)
    assert s.can_apply(int(Card.D6), seat=0)
    s.play(Card.D6, seat=0)
    t = s.tricks[0]
    assert (t.winner, t.points, t.leader) == (3, 11 + 4 + 14, 1)
    assert s.current_player() == 3


def test_match_is_every_trick_and_257() -> None:
    # Obenabe: the declarer holds the four aces, four kings and a queen
    deck = deck_for({1: "CA DA SA HA CK DK SK HK CQ"}, 4, seed=7)
    s = start(OBENABE, deck=deck)
    rng = random.Random(3)
    random_finish(s, rng)
    r = s.result()
    assert r.match and not r.countermatch and r.declarer_points == 157 and r.defender_points == 0
    assert r.tricks[1] == 9
    assert s.returns()[1] == 257.0 and s.returns()[0] == 0.0


def test_match_and_countermatch_come_from_tricks_not_points() -> None:
    for seed in range(100):
        s = start(HEARTS, seed=seed)
        random_finish(s, random.Random(seed))
        r = s.result()
        assert r.match == (r.tricks[1] == 9)
        assert r.countermatch == (r.tricks[1] == 0)


def test_157_without_every_trick_is_not_a_match() -> None:
    # teams, hearts trump: the defenders win one worthless trick (C6 C7 C8 C9), the declaring team the rest
    deck = deck_for(
        {
            1: "C6 HJ H9 HA HK HQ HT H8 H7",
            3: "C8 CA CK CQ CJ CT DA DK DQ",
            2: "C7 H6 DJ DT SA SK SQ SJ ST",
            0: "C9 D6 D7 D8 D9 S6 S7 S8 S9",
        },
        4,
    )
    s = start(HEARTS, deck=deck, teams=True)
    play_codes(s, ["C6", "C7", "C8", "C9", "D6", "HJ", "DT", "DA"])
    assert [t.winner for t in s.tricks] == [0, 1] and s.tricks[0].points == 0
    random_finish(s, random.Random(0))  # seat 1 holds nothing but trumps now and wins the rest
    r = s.result()
    assert (r.declarer_points, r.defender_points) == (157, 0)
    assert not r.match and not r.countermatch
    assert r.tricks[1] + r.tricks[3] == 8


def test_team_result_adds_partners_and_to_entry() -> None:
    rs = any_ruleset(4, teams=True)
    s = start(HEARTS, seed=11, teams=True)
    random_finish(s, random.Random(11))
    r = s.result()
    assert r.declarer_points == s.points[1] + s.points[3]
    assert r.defender_points == s.points[0] + s.points[2]
    assert r.match == (s.won[1] + s.won[3] == 9)
    e = r.to_entry()
    assert (e.row_key, e.declarer_seat, e.contract, e.declarer_points, e.defender_points) == (
        "any",
        1,
        HEARTS,
        r.declarer_points,
        r.defender_points,
    )
    assert rs.side_of(1) == 1


def test_result_before_the_end_is_refused() -> None:
    s = start(HEARTS, seed=1)
    with pytest.raises(IllegalAction):
        s.result()
    assert s.returns() == [0.0] * 4


def test_misere_returns_are_mirrored() -> None:
    c = Contract(Kind.MISERE, misere_as=Kind.UNDENUFE)
    s = start(c, seed=4)
    random_finish(s, random.Random(4))
    r = s.result()
    ret = s.returns()
    assert ret[1] == r.defender_points + (100 if r.countermatch else 0)
    assert ret[0] == r.declarer_points
    assert [t.mode.mode for t in s.tricks] == [Mode.UNDENUFE] * 9


def test_replay_is_exact_and_clone_independent() -> None:
    s = start(Contract(Kind.SLALOM, start=Mode.UNDENUFE), n_players=3, seed=9)
    random_finish(s, random.Random(9))
    again = HandState.replay(s.setup, s.deck, s.history)
    assert again.tricks == s.tricks and again.result() == s.result()
    assert [t.mode.mode for t in s.tricks][:3] == [Mode.UNDENUFE, Mode.OBENABE, Mode.UNDENUFE]
    assert s.current_player() == TERMINAL and s.legal_actions() == []
    with pytest.raises(IllegalAction) as e:
        s.apply(0)
    assert e.value.code == "hand_over"


def test_view_holds_own_cards_only() -> None:
    s = rigged()
    play_codes(s, ["SA"])
    v = build_view(s, 2)
    assert v.hand == tuple(sorted(parse_cards("HK CA CK CQ CJ CT C9 DA DK")))
    assert v.my_turn and set(v.legal_actions) == {int(c) for c in v.hand}  # cannot follow spades
    assert v.trick == (Card.SA,) and v.trick_mode is not None and v.trick_mode.suit is Suit.HEARTS
    other = build_view(s, 3)
    assert other.legal_actions == () and not other.my_turn
    assert Card.HK not in other.hand
    assert v.hand_sizes == (9, 8, 9, 9)
    d = v.to_dict()
    assert d["contract"] == "suit:H" and d["trick"] == ["SA"] and len(d["hand"]) == 9


def test_digital_evening_records_on_the_slate() -> None:
    """Play meets the slate as in the services: every played hand's entry is one the slate accepts."""
    for variant in ("three", "teams", "club"):
        rs = default_ruleset(variant)
        entries: list[HandEntry] = []
        slate = Slate.build(rs, 0, entries)
        rng = random.Random(variant)
        while not slate.complete:
            state = HandState.new(HandSetup.from_slate(slate), rng)
            random_finish(state, rng)
            entry = state.result().to_entry()
            verify_entry(rs, slate, entry)
            entries.append(entry)
            slate = Slate.build(rs, 0, entries)
        assert len([e for e in entries if not e.seich]) == rs.n_hands


def test_hand_round_trips_through_json() -> None:
    import json

    rs = default_ruleset("club")
    setup = HandSetup.build(rs, 1, [("komisch", "tutti"), ("obenabe",)], seich_used={0})
    s = HandState.new(setup, random.Random(5))
    rng = random.Random(5)
    for _ in range(20):
        s.apply(rng.choice(s.legal_actions()))
    again = HandState.from_dict(json.loads(json.dumps(s.to_dict())))
    assert again.setup == setup and again.history == s.history and again.tricks == s.tricks
    assert again.hands == s.hands and again.current_player() == s.current_player()
