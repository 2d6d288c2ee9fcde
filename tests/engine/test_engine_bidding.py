"""Choosing the contract (RULES.md 5) through the state API."""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable
from typing import cast

import pytest
from engine_helpers import start
from shared_helpers import deck_for

from scorekeeper.engine import (
    KOMISCH_OBENABE,
    KOMISCH_TRUMP,
    KOMISCH_UNDENUFE,
    PASS,
    SEICH,
    HandSetup,
    HandState,
    IllegalAction,
    Phase,
    announce_action,
    decode_announce,
    format_action,
    parse_action,
)
from scorekeeper.engine.actions import CONTRACTS
from scorekeeper.game.cards import Card, Suit
from scorekeeper.game.contracts import KOMISCH, OBENABE, Contract, Kind, Mode, suit_contract
from scorekeeper.game.rulesets import default_ruleset
from scorekeeper.game.turns import turn_to_choose


def new(
    variant: str,
    dealer: int = 0,
    open_rows: Iterable[Iterable[str]] | None = None,
    seich_used: Collection[int] = (),
    barrel: str | None = None,
) -> HandState:
    rs = default_ruleset(variant, barrel=barrel)
    return HandState.new(HandSetup.build(rs, dealer, open_rows, seich_used), random.Random(1))


def test_forehand_speaks_first_and_passes_go_round_opponents_included() -> None:
    s = new("teams", dealer=2)
    assert s.current_player() == 3
    order = []
    for _ in range(4):
        order.append(s.current_player())
        assert PASS in s.legal_actions()
        s.apply(PASS)
    assert order == [3, 0, 1, 2]
    # online rule: after a full round the first eligible must choose
    assert s.current_player() == 3
    assert PASS not in s.legal_actions()
    assert SEICH not in s.legal_actions()  # not the club variant


def test_book_rule_back_to_forehand() -> None:
    s = new("three", dealer=0)
    for seat in (1, 2, 0):
        assert s.current_player() == seat
        s.apply(PASS)
    assert s.current_player() == 1 and not s.may_pass
    with pytest.raises(IllegalAction) as e:
        s.apply(PASS)
    assert e.value.code == "must_choose"
    assert s.history == [PASS] * 3


def test_book_rule_forehand_full_last_eligible_may_not_pass() -> None:
    rs = default_ruleset("three")
    keys = tuple(r.key for r in rs.rows)
    s = new("three", dealer=0, open_rows=[keys, (), keys])  # seat 1 (forehand) is full
    assert s.current_player() == 2
    s.apply(PASS)
    assert s.current_player() == 0
    assert PASS not in s.legal_actions()


@pytest.mark.parametrize("variant", ["three", "teams", "solo4", "club"])
@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_turns_agree_with_game_turns(variant: str, dealer: int) -> None:
    s = new(variant, dealer=dealer)
    passes = 0
    while PASS in s.legal_actions():
        t = turn_to_choose(s.ruleset, dealer, set(), passes)
        assert (s.current_player(), s.may_pass) == (t.seat, t.may_pass)
        s.apply(PASS)
        passes += 1
    t = turn_to_choose(s.ruleset, dealer, set(), passes)
    assert (s.current_player(), t.may_pass) == (t.seat, False)


def test_full_team_is_skipped() -> None:
    rs = default_ruleset("teams")
    keys = tuple(r.key for r in rs.rows)
    s = new("teams", dealer=0, open_rows=[keys, ()])  # team of seats 1 and 3 is full
    assert s.current_player() == 2
    s.apply(PASS)
    assert s.current_player() == 0
    s.apply(PASS)
    assert s.current_player() == 2 and not s.may_pass


def test_only_one_eligible_must_choose_at_once() -> None:
    rs = default_ruleset("three")
    s = new("three", dealer=0, open_rows=[("obenabe",), (), ()])
    assert s.current_player() == 0 and not s.may_pass
    assert s.legal_actions() == [announce_action(rs, "obenabe", OBENABE)]


def test_only_open_rows_and_allowed_contracts() -> None:
    rs = default_ruleset("teams")
    s = new("teams", dealer=0, open_rows=[("suit_H",), ("suit_S", "joker1")])
    legal = s.legal_actions()  # seat 1, side 1
    decoded = cast(list[tuple[str, Contract]], [decode_announce(rs, a) for a in legal if a != PASS])
    assert ("suit_S", suit_contract(Suit.SPADES)) in decoded
    assert not any(k == "suit_H" for k, _ in decoded)
    assert ("suit_S", suit_contract(Suit.HEARTS)) not in decoded
    joker = {c for k, c in decoded if k == "joker1"}
    assert joker == {suit_contract(s) for s in Suit} | {OBENABE, Contract(Kind.UNDENUFE)}
    with pytest.raises(IllegalAction) as e:
        s.apply(announce_action(rs, "suit_H", suit_contract(Suit.HEARTS)))
    assert e.value.code == "contract_not_open"
    assert s.history == [] and s.phase is Phase.BIDDING


def test_announce_starts_play_with_declarer_leading() -> None:
    rs = default_ruleset("teams")
    s = new("teams", dealer=0)
    s.apply(PASS)
    s.apply(announce_action(rs, "joker2", suit_contract(Suit.CLUBS)))
    assert (s.declarer, s.row_key, s.contract) == (2, "joker2", suit_contract(Suit.CLUBS))
    assert s.phase is Phase.PLAYING and s.current_player() == 2
    assert all(a < 36 for a in s.legal_actions())
    with pytest.raises(IllegalAction) as e:
        s.apply(PASS)
    assert e.value.code == "play_a_card"


def test_seich_club_only_in_barrel_once_per_team() -> None:
    s = new("club", dealer=0)
    assert SEICH not in s.legal_actions()
    with pytest.raises(IllegalAction) as e:
        s.apply(SEICH)
    assert e.value.code == "seich_not_allowed"
    for _ in range(4):
        s.apply(PASS)
    assert s.current_player() == 1 and SEICH in s.legal_actions() and PASS not in s.legal_actions()
    s.apply(SEICH)
    assert s.is_terminal()
    r = s.result()
    assert r.seich and r.row_key is None and r.contract is None and r.declarer_seat == 1
    assert (r.declarer_points, r.defender_points) == (0, 0)
    used = new("club", dealer=0, seich_used={1})
    for _ in range(4):
        used.apply(PASS)
    assert SEICH not in used.legal_actions()


def test_wrong_seat_is_refused() -> None:
    s = new("teams", dealer=0)
    with pytest.raises(IllegalAction) as card:
        s.apply(int(Card.HA))
    assert card.value.code == "not_playing"
    with pytest.raises(IllegalAction) as e:
        s.apply(PASS, seat=2)
    assert e.value.code == "not_your_turn"
    assert s.history == []


def test_komisch_blocks_chosen_by_leaders_of_tricks_1_4_7() -> None:
    rs = default_ruleset("club")
    s = HandState.new(HandSetup(rs, 0), random.Random(5))
    s.apply(announce_action(rs, "komisch", KOMISCH))
    assert s.phase is Phase.KOMISCH and s.current_player() == 1
    assert s.legal_actions() == [KOMISCH_TRUMP + i for i in range(4)] + [KOMISCH_OBENABE, KOMISCH_UNDENUFE]
    s.apply(KOMISCH_OBENABE)
    rng = random.Random(0)
    for _ in range(3 * 4):
        s.apply(rng.choice(s.legal_actions()))
    assert s.phase is Phase.KOMISCH and s.current_player() == s.tricks[2].winner
    assert s.legal_actions() == [KOMISCH_TRUMP + i for i in range(4)] + [KOMISCH_UNDENUFE]
    s.apply(KOMISCH_UNDENUFE)
    for _ in range(3 * 4):
        s.apply(rng.choice(s.legal_actions()))
    # trump is left: the leader of trick 7 picks its suit
    assert s.phase is Phase.KOMISCH and s.current_player() == s.tricks[5].winner
    assert s.legal_actions() == [KOMISCH_TRUMP + i for i in range(4)]
    s.apply(KOMISCH_TRUMP + Suit.SPADES)
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_actions()))
    modes = [t.mode for t in s.tricks]
    assert [m.mode for m in modes] == [Mode.OBENABE] * 3 + [Mode.UNDENUFE] * 3 + [Mode.TRUMP] * 3
    assert modes[-1].suit is Suit.SPADES
    assert s.result().declarer_points + s.result().defender_points == 157


def test_komisch_last_block_automatic_when_not_trump() -> None:
    s = start(KOMISCH, seed=3)
    s.apply(KOMISCH_TRUMP + Suit.HEARTS)
    assert s.points_table[9 * 3 + 5] == 20  # valued as trump hearts: the Puur 20
    rng = random.Random(1)
    for _ in range(12):
        s.apply(rng.choice(s.legal_actions()))
    s.apply(KOMISCH_UNDENUFE)
    assert len(s.modes) == 9  # Obenabe follows without a choice
    while not s.is_terminal():
        assert s.phase is Phase.PLAYING
        s.apply(rng.choice(s.legal_actions()))


def test_action_notation_round_trip() -> None:
    rs = default_ruleset("club")
    for r in rs.rows:
        for c in CONTRACTS:
            if r.allows(c):
                a = announce_action(rs, r.key, c)
                assert parse_action(format_action(a, rs), rs) == a
    for a in list(range(36)) + [PASS, SEICH, KOMISCH_OBENABE, KOMISCH_UNDENUFE, KOMISCH_TRUMP + 2]:
        assert parse_action(format_action(a)) == a
    assert format_action(KOMISCH_TRUMP + 3) == "block:trump:H"
    assert len(CONTRACTS) == 25 and CONTRACTS[0].code == "suit:C" and CONTRACTS[-1].code == "misere:slalom:undenufe"


def test_rigged_deal_lands_where_asked() -> None:
    deck = deck_for({1: "HA HK HQ HJ HT H9 H8 H7 H6"}, 4, dealer=0)
    s = start(suit_contract(Suit.HEARTS), deck=deck)
    assert s.legal_actions() == [27 + r for r in range(9)]
