"""Deal, forehand, passing and the barrel (RULES.md 5; game/turns.py)."""

from __future__ import annotations

import pytest

from scorekeeper.game.errors import RuleError
from scorekeeper.game.rulesets import BarrelRule, RuleSet, Variant, default_ruleset
from scorekeeper.game.turns import Turn, barrel_seat, dealer_after, eligible_order, forehand, turn_to_choose

THREE = default_ruleset(Variant.THREE)  # book barrel rule
TEAMS = default_ruleset(Variant.TEAMS)  # online rule
SOLO4 = default_ruleset(Variant.SOLO4)
THREE_ONLINE = default_ruleset(Variant.THREE, barrel=BarrelRule.ONLINE)


def _speakers(rs: RuleSet, dealer: int, full: set[int]) -> list[Turn]:
    """Every turn of a hand in which everybody who may pass passes."""
    out = [turn_to_choose(rs, dealer, full, 0)]
    while out[-1].may_pass:
        out.append(turn_to_choose(rs, dealer, full, len(out)))
    return out


def test_defaults() -> None:
    assert THREE.barrel is BarrelRule.BOOK and TEAMS.barrel is BarrelRule.ONLINE


def test_forehand_is_the_dealers_right_and_the_deal_passes_right() -> None:
    assert [forehand(THREE, d) for d in range(3)] == [1, 2, 0]
    assert [forehand(TEAMS, d) for d in range(4)] == [1, 2, 3, 0]
    assert [dealer_after(THREE, 2, n) for n in range(5)] == [2, 0, 1, 2, 0]
    assert dealer_after(TEAMS, 3, 17) == 0


def test_book_rule_everybody_passed_back_to_forehand() -> None:
    assert _speakers(THREE, 0, set()) == [Turn(1, True), Turn(2, True), Turn(0, True), Turn(1, False)]
    assert barrel_seat(THREE, 0, set()) == 1


def test_book_example_first_player_full_second_passes_third_must_choose() -> None:
    # Dealer 2: forehand is seat 0, who is full and skipped; seat 1 passes; seat 2 may not pass.
    assert eligible_order(THREE, 2, {0}) == [1, 2]
    assert _speakers(THREE, 2, {0}) == [Turn(1, True), Turn(2, False)]
    assert barrel_seat(THREE, 2, {0}) == 2
    with pytest.raises(RuleError) as info:
        turn_to_choose(THREE, 2, {0}, 2)
    assert info.value.code == "must_choose"


def test_book_rule_non_forehand_full_still_returns_to_forehand() -> None:
    assert _speakers(THREE, 0, {2}) == [Turn(1, True), Turn(0, True), Turn(1, False)]


def test_online_rule_first_eligible_after_a_full_round() -> None:
    assert _speakers(TEAMS, 0, set()) == [Turn(1, True), Turn(2, True), Turn(3, True), Turn(0, True), Turn(1, False)]
    # forehand's team full: the first eligible seat after the round must choose
    assert _speakers(TEAMS, 0, {1}) == [Turn(2, True), Turn(0, True), Turn(2, False)]
    assert barrel_seat(THREE_ONLINE, 2, {0}) == 1  # differs from the book rule (2)


def test_passing_goes_to_the_next_player_opponents_included() -> None:
    order = [t.seat for t in _speakers(TEAMS, 3, set())]
    assert order[:4] == [0, 1, 2, 3]  # not to the partner first, as in Schieber


def test_single_eligible_player_must_choose_at_once() -> None:
    assert _speakers(THREE, 0, {0, 2}) == [Turn(1, False)]
    assert barrel_seat(SOLO4, 1, {0, 1, 3}) == 2
    with pytest.raises(RuleError) as info:
        turn_to_choose(THREE, 0, {0, 2}, 1)
    assert info.value.code == "must_choose"


def test_single_eligible_team_always_declares() -> None:
    for dealer in range(4):
        turns = _speakers(TEAMS, dealer, {0})
        assert {t.seat % 2 for t in turns} == {1}
        assert not turns[-1].may_pass


def test_everybody_full_is_the_end() -> None:
    with pytest.raises(RuleError) as info:
        turn_to_choose(THREE, 0, {0, 1, 2}, 0)
    assert info.value.code == "evening_complete"


def test_negative_passes_are_a_programming_error() -> None:
    with pytest.raises(ValueError):
        turn_to_choose(THREE, 0, set(), -1)


@pytest.mark.parametrize("rs", [THREE, THREE_ONLINE, TEAMS, SOLO4])
def test_barrel_seat_is_always_eligible_and_reached(rs: RuleSet) -> None:
    sides = range(rs.n_sides)
    for dealer in range(rs.n_players):
        for mask in range(2**rs.n_sides - 1):  # every set of full sides but "all full"
            full = {s for s in sides if mask >> s & 1}
            turns = _speakers(rs, dealer, full)
            seat = barrel_seat(rs, dealer, full)
            assert turns[-1] == Turn(seat, False)
            assert all(rs.side_of(t.seat) not in full for t in turns)
            assert len(turns) <= len(eligible_order(rs, dealer, full)) + 1
