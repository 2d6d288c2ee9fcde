"""Slate.build: cells, open rows, totals, turn guide, match marks, Seich."""

from __future__ import annotations

import pytest
from scoring_helpers import hand
from shared_helpers import row_contracts

from scorekeeper.game.contracts import OBENABE
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import RuleSet, Variant, default_ruleset
from scorekeeper.scoring import Slate

THREE = default_ruleset(Variant.THREE)
TEAMS = default_ruleset(Variant.TEAMS)
SOLO4 = default_ruleset(Variant.SOLO4)
CLUB = default_ruleset(Variant.CLUB)


def _fill(rs: RuleSet, seat: int, points: int = 50) -> list[HandEntry]:
    return [hand(r.key, seat, points, contract=row_contracts(r)[0] if r.is_choice else None) for r in rs.rows]


def test_empty_slate() -> None:
    s = Slate.build(THREE, 2, [])
    assert s.cells == {} and s.totals == [0, 0, 0] and s.hands_dealt == 0
    assert s.dealer == 2 and s.forehand == 0 and s.barrel_seat == 0  # book rule: back to forehand
    assert s.open_rows(1) == [r.key for r in THREE.rows]
    assert s.full_sides() == set() and not s.complete
    assert s.match_marks == [(0, 0)] * 3 and s.seich_used == set()


def test_first_dealer_must_be_a_seat() -> None:
    with pytest.raises(ValueError):
        Slate.build(THREE, 3, [])


def test_cells_and_raw_totals_three_players() -> None:
    entries = [hand("suit_C", 0, 80), hand("suit_C", 1, 157, match=True), hand("joker1", 1, 101, contract=OBENABE)]
    s = Slate.build(THREE, 0, entries)
    match, joker = s.cell("suit_C", 1), s.cell("joker1", 1)
    assert match is not None and match.value == 257 and match.index == 1
    assert joker is not None and joker.contract == OBENABE
    assert s.cell("suit_C", 2) is None
    assert s.totals == [80, 358, 0]  # raw sums, 257 for the match
    assert s.open_rows(1) == [r.key for r in THREE.rows if r.key not in ("suit_C", "joker1")]
    assert s.entries == tuple(entries)


def test_team_totals_are_multiplied_and_partners_share_a_column() -> None:
    entries = [hand("suit_H", 1, 129), hand("suit_H", 2, 157, match=True), hand("obenabe", 3, 57)]
    s = Slate.build(TEAMS, 0, entries)
    assert s.totals == [100, 48 + 25]
    assert set(s.cells) == {("suit_H", 1), ("suit_H", 0), ("obenabe", 1)}
    assert s.match_marks == [(0, 0), (0, 0)]  # no match row outside the three-player game


def test_solo4_columns_per_player() -> None:
    s = Slate.build(SOLO4, 0, [hand("suit_H", 3, 129), hand("suit_H", 1, 100)])
    assert s.totals == [0, 40, 0, 48]


def test_dealer_moves_right_after_every_hand_including_seich() -> None:
    entries = [hand("suit_D", 1, 50), HandEntry.seich_hand(2), hand("suit_C", 3, 70)]
    s = Slate.build(CLUB, 0, entries)
    assert s.hands_dealt == 3
    assert s.dealer == 3 and s.forehand == 0
    assert s.seich_used == {0}
    assert len(s.cells) == 2  # the Seich wrote nothing
    assert s.totals == [0, 50 * 1 + 70 * 2]  # seats 1 and 3 write in team 1's column (club: no division)


def test_match_row_marks_three_players() -> None:
    s = Slate.build(THREE, 0, [hand("suit_C", 0, 157, match=True)])
    assert s.match_marks == [(2, 0), (0, 1), (0, 1)]
    s = Slate.build(THREE, 0, [hand("suit_C", 1, 0, countermatch=True)])
    assert s.match_marks == [(1, 0), (0, 2), (1, 0)]
    s = Slate.build(THREE, 0, [hand("suit_C", 0, 157, match=True), hand("suit_H", 1, 0, countermatch=True)])
    assert s.match_marks == [(3, 0), (0, 3), (1, 1)]  # drawn as is; final.py cancels


def test_157_without_match_is_no_match() -> None:
    s = Slate.build(THREE, 0, [hand("suit_C", 0, 157)])
    assert s.match_marks == [(0, 0)] * 3 and s.totals == [157, 0, 0]


def test_full_side_is_skipped_and_complete_evening() -> None:
    entries = _fill(THREE, 0)
    s = Slate.build(THREE, 0, entries)
    assert s.full_sides() == {0} and s.open_rows(0) == []
    assert 0 not in s.eligible_seats()
    entries += _fill(THREE, 1) + _fill(THREE, 2)
    s = Slate.build(THREE, 0, entries)
    assert s.complete and s.hands_dealt == 30 and s.barrel_seat is None
    assert s.totals == [500, 500, 500]


@pytest.mark.parametrize(("rs", "hands"), [(THREE, 30), (TEAMS, 16), (SOLO4, 32), (CLUB, 24)])
def test_hands_per_evening(rs: RuleSet, hands: int) -> None:
    entries = [e for side in range(rs.n_sides) for e in _fill(rs, side)]
    s = Slate.build(rs, 0, entries)
    assert s.complete and len(entries) == hands == rs.n_hands


def test_book_barrel_via_slate_first_player_full() -> None:
    # Seat 0 full. Dealer 2 makes seat 0 forehand: she passes (skipped), seat 1 passes,
    # seat 2 is in the barrel and must choose.
    entries = _fill(THREE, 0)
    first_dealer = (2 - len(entries)) % 3
    s = Slate.build(THREE, first_dealer, entries)
    assert s.dealer == 2 and s.forehand == 0
    assert s.eligible_seats() == [1, 2]
    assert s.turn(0).seat == 1 and s.turn(0).may_pass
    assert s.turn(1).seat == 2 and not s.turn(1).may_pass
    assert s.barrel_seat == 2


def test_single_eligible_side_must_choose_every_deal() -> None:
    entries = _fill(TEAMS, 0)
    s = Slate.build(TEAMS, 0, entries)
    assert s.full_sides() == {0}
    assert s.dealer == 0 and s.forehand == 1
    assert s.eligible_seats() == [1, 3]  # only team 1 may choose: it declares on every deal
    assert s.barrel_seat == 1
    s = Slate.build(TEAMS, 1, entries)  # forehand 2 is full: the turn starts at seat 3
    assert s.eligible_seats() == [3, 1] and s.barrel_seat == 3


def test_single_eligible_player_must_choose_at_once() -> None:
    entries = _fill(THREE, 0) + _fill(THREE, 2)
    s = Slate.build(THREE, 0, entries)
    assert s.eligible_seats() == [1]
    assert not s.turn(0).may_pass and s.barrel_seat == 1
