"""The rule-based player ("easy"): contract choice and card play by the sources' advice."""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest
from shared_helpers import deck_for

from scorekeeper.bots import choose_action, rule_based_card
from scorekeeper.engine import KOMISCH_OBENABE, PASS, SEICH, HandSetup, HandState, announce_action, decode_announce
from scorekeeper.game.cards import Card, Suit, parse_cards
from scorekeeper.game.contracts import OBENABE, UNDENUFE, Contract, Kind, suit_contract
from scorekeeper.game.rulesets import RuleSet, default_ruleset

TEAMS = default_ruleset("teams")


def bid(
    rs: RuleSet,
    hand: str,
    open_rows: tuple[tuple[str, ...], ...] = (),
    scores: Mapping[tuple[str, int], int] | None = None,
    level: str = "easy",
) -> int:
    """Seat 0 is forehand (dealer is the last seat) and holds ``hand``."""
    dealer = rs.n_players - 1
    state = HandState(HandSetup(rs, dealer, open_rows), deck_for({0: hand}, rs.n_players, dealer=dealer))
    return choose_action(state.observation(0), rs, level, random.Random(1), 100, scores)


def announced(rs: RuleSet, action: int) -> tuple[str, Contract]:
    d = decode_announce(rs, action)
    assert d is not None, f"expected an announcement, got {action}"
    return d


@pytest.mark.parametrize(
    ("hand", "trump"),
    [
        ("HJ H9 HA H7 H6 SA C6 D7 S8", Suit.HEARTS),
        ("SJ S9 SK S8 CA C7 D6 DK H8", Suit.SPADES),
        ("CJ C9 CT C7 C6 DA D8 S7 H7", Suit.CLUBS),
    ],
)
def test_trumps_with_the_jack_and_nine(hand: str, trump: Suit) -> None:
    _, contract = announced(TEAMS, bid(TEAMS, hand))
    assert contract == suit_contract(trump)


def test_obenabe_with_aces() -> None:
    _, contract = announced(TEAMS, bid(TEAMS, "CA CK DA DK SA SQ HA H7 C8"))
    assert contract == OBENABE


def test_undenufe_with_sixes() -> None:
    _, contract = announced(TEAMS, bid(TEAMS, "C6 C7 D6 D7 S6 S8 H6 H7 CT"))
    assert contract == UNDENUFE


def test_a_very_strong_hand_goes_to_a_joker_row() -> None:
    row, contract = announced(TEAMS, bid(TEAMS, "HJ H9 HA HK HQ HT H8 SA CA"))
    assert row.startswith("joker") and contract == suit_contract(Suit.HEARTS)


def test_a_used_row_is_never_chosen_and_a_joker_stands_in() -> None:
    rows = tuple(r.key for r in TEAMS.rows if r.key != "suit_H")
    row, contract = announced(TEAMS, bid(TEAMS, "HJ H9 HA H7 H6 SA C6 D7 S8", (rows, rows)))
    assert row != "suit_H"
    assert row.startswith("joker") and contract == suit_contract(Suit.HEARTS)


def test_a_poor_forehand_passes_when_it_may() -> None:
    assert bid(TEAMS, "C8 CQ D7 DT DQ S8 ST H7 HQ") == PASS


def test_three_players_a_poor_hand_goes_where_the_others_scored_low() -> None:
    rs = default_ruleset("three")
    keys = tuple(r.key for r in rs.rows)
    scores = {("undenufe", 1): 104, ("undenufe", 2): 28, ("suit_C", 1): 20, ("suit_C", 2): 15}
    hand = "C8 C9 DT D9 D8 S9 SQ H8 HT CJ SJ DJ"
    # in the barrel (everybody passed): it must choose
    dealer = 2
    state = HandState(HandSetup(rs, dealer, (keys, keys, keys)), deck_for({0: hand}, 3, dealer=dealer))
    for _ in range(3):
        state.apply(PASS)
    view = state.observation(0)
    assert not view.may_pass
    row, _ = announced(rs, choose_action(view, rs, "easy", random.Random(1), 0, scores))
    assert row == "suit_C"


def test_club_contract_choices_are_complete() -> None:
    rs = default_ruleset("club")
    row, contract = announced(rs, bid(rs, "C6 C7 D6 D7 S6 S7 H6 H7 D8"))
    assert rs.row(row).allows(contract)
    assert contract.kind in (Kind.UNDENUFE, Kind.SLALOM, Kind.MISERE, Kind.RIESENSLALOM) or row == "twelve"


# --- card play -----------------------------------------------------------------------


def in_play(contract: Contract, hands: dict[int, str], plays: str) -> HandState:
    """Seat 0 declares ``contract`` and leads; ``plays`` are played in order."""
    state = HandState(HandSetup(TEAMS, 3), deck_for(hands, 4, dealer=3))
    row = f"suit_{contract.suit.letter}" if contract.suit is not None else contract.kind.value
    state.apply(announce_action(TEAMS, row, contract))
    for c in parse_cards(plays):
        state.apply(int(c))
    return state


def easy_card(state: HandState) -> Card:
    return Card(rule_based_card(state.observation(state.current_player()), TEAMS))


def test_smears_points_on_the_partners_sure_trick() -> None:
    s = in_play(OBENABE, {0: "CA", 1: "C7", 2: "DT D6 D7 S6 S7 S8 H6 H7 H8"}, "CA C7")
    assert easy_card(s) == Card.DT


def test_does_not_overtake_the_partners_sure_trick_with_a_big_trump() -> None:
    s = in_play(suit_contract(Suit.HEARTS), {0: "HJ", 1: "H7", 2: "H9 H6 D6 D7 S6 S7 S8 C6 C7"}, "HJ H7")
    assert easy_card(s) == Card.H6


def test_takes_a_trick_worth_taking_when_last() -> None:
    s = in_play(OBENABE, {0: "CK", 1: "C6", 2: "CQ", 3: "CA C7 D6 D7 S6 S7 S8 H6 H7"}, "CK C6 CQ")
    assert easy_card(s) == Card.CA


def test_discards_low_when_it_cannot_win() -> None:
    s = in_play(OBENABE, {0: "CA", 1: "DA DK S6 S7 DQ HQ HK SK SQ"}, "CA")
    assert easy_card(s) in (Card.S6, Card.S7)


def test_declarer_leads_trumps_when_holding_the_top_one() -> None:
    s = in_play(suit_contract(Suit.SPADES), {0: "SJ S9 SA S7 CA C6 D6 D7 H6"}, "")
    assert easy_card(s) == Card.SJ


def test_cashes_a_master_card() -> None:
    s = in_play(OBENABE, {0: "DA DK C6 C7 S6 S7 H6 H7 H8"}, "")
    assert easy_card(s) == Card.DA


def test_seich_only_from_the_barrel_and_rarely() -> None:
    rs = default_ruleset("club")
    rng = random.Random(4)
    calls = 0
    for seed in range(120):
        state = HandState.new(HandSetup(rs, 3), random.Random(seed))
        for _ in range(4):
            view = state.observation(state.current_player())
            action = choose_action(view, rs, "easy", rng)
            assert action != SEICH  # may pass: never throws in
            state.apply(PASS if PASS in view.legal_actions else action)
            if state.phase.value != "bidding":
                break
        if state.phase.value != "bidding":
            continue
        view = state.observation(state.current_player())
        assert SEICH in view.legal_actions and not view.may_pass
        calls += choose_action(view, rs, "easy", rng) == SEICH
    assert calls <= 12  # rarely: only a hopeless hand


def test_a_hopeless_hand_in_the_barrel_calls_seich() -> None:
    rs = default_ruleset("club")
    hand = "C8 CQ D7 DT DQ S8 ST H7 HQ"  # (Misère would suit it: that row is filled)
    keys = tuple(r.key for r in rs.rows)
    state = HandState(HandSetup(rs, 3, (("suit_D", "suit_C"), keys)), deck_for({0: hand}, 4, dealer=3))
    for _ in range(4):
        state.apply(PASS)
    view = state.observation(0)
    assert choose_action(view, rs, "easy", random.Random(1)) == SEICH


def test_komisch_blocks_follow_the_hand() -> None:
    rs = default_ruleset("club")
    hand = "CA CK DA DK SA SQ HA H7 C8"  # aces: Obenabe first
    state = HandState(HandSetup(rs, 3), deck_for({0: hand}, 4, dealer=3))
    state.apply(announce_action(rs, "komisch", Contract(Kind.KOMISCH)))
    view = state.observation(0)
    assert view.phase == "komisch"
    assert choose_action(view, rs, "normal", random.Random(1), 5) == KOMISCH_OBENABE
