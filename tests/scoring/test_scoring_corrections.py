"""Corrections: ``verify_entry(..., replacing=i)`` checks against the slate before hand i
and keeps every later hand valid."""

from __future__ import annotations

import pytest
from scoring_helpers import hand
from shared_helpers import row_contracts

from scorekeeper.game.contracts import Contract
from scorekeeper.game.errors import RuleError
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import RuleSet, Variant, default_ruleset
from scorekeeper.scoring import Slate, verify_entry

THREE = default_ruleset(Variant.THREE)
CLUB = default_ruleset(Variant.CLUB)


def _code(ruleset: RuleSet, entries: list[HandEntry], entry: HandEntry, replacing: int) -> str:
    slate = Slate.build(ruleset, 0, entries)
    with pytest.raises(RuleError) as info:
        verify_entry(ruleset, slate, entry, replacing=replacing)
    return info.value.code


def test_correcting_points_in_place_is_fine() -> None:
    entries = [hand("suit_C", 1, 50), hand("obenabe", 2, 60)]
    slate = Slate.build(THREE, 0, entries)
    verify_entry(THREE, slate, hand("suit_C", 1, 90), replacing=0)  # its own cell counts as open
    fixed = Slate.build(THREE, 0, [hand("suit_C", 1, 90), entries[1]])
    assert fixed.totals == [0, 90, 60]


def test_correction_may_move_to_another_open_row() -> None:
    entries = [hand("suit_C", 1, 50), hand("obenabe", 2, 60)]
    verify_entry(THREE, Slate.build(THREE, 0, entries), hand("suit_H", 1, 50), replacing=0)


def test_correction_onto_a_row_filled_later_is_refused() -> None:
    entries = [hand("suit_C", 1, 50), hand("suit_H", 1, 60)]
    assert _code(THREE, entries, hand("suit_H", 1, 50), replacing=0) == "row_closed"


def test_correction_still_checks_points() -> None:
    entries = [hand("suit_C", 1, 50)]
    assert _code(THREE, entries, HandEntry("suit_C", 1, None, 50, 100), replacing=0) == "points_sum"


def test_unknown_index() -> None:
    entries = [hand("suit_C", 1, 50)]
    assert _code(THREE, entries, hand("suit_C", 1, 50), replacing=1) == "entry_unknown"
    assert _code(THREE, entries, hand("suit_C", 1, 50), replacing=-1) == "entry_unknown"


def _choice(rs: RuleSet, key: str) -> Contract | None:
    row = rs.row(key)
    return row_contracts(row)[0] if row.is_choice else None


def test_correction_into_a_seich_checks_the_barrel_and_the_teams_seich() -> None:
    # Club, first dealer 0: hand 1 has seat 1 in the barrel, hand 2 seat 2.
    entries = [hand("suit_D", 1, 50), HandEntry.seich_hand(2)]
    slate = Slate.build(CLUB, 0, entries)
    verify_entry(CLUB, slate, HandEntry.seich_hand(1), replacing=0)  # seat 1 was in the barrel
    assert _code(CLUB, entries, HandEntry.seich_hand(3), replacing=0) == "not_in_barrel"


def test_correction_that_breaks_a_later_seich_is_a_conflict() -> None:
    rows = [r.key for r in CLUB.rows]
    team1 = [hand(k, 1, 50, contract=_choice(CLUB, k)) for k in rows]  # team 1 fills all 12 rows
    team0 = [hand(k, 0, 50, contract=_choice(CLUB, k)) for k in rows[:10]]
    # hand 23: dealer 2, forehand 3 belongs to the full team, so seat 0 is in the barrel
    entries = team1 + team0 + [HandEntry.seich_hand(0)]
    slate = Slate.build(CLUB, 0, entries)
    assert slate.seich_used == {0}
    # Moving team 1's first hand to team 0 leaves team 1 a row open: forehand 3 is then in the barrel.
    with pytest.raises(RuleError) as info:
        verify_entry(CLUB, slate, hand(rows[10], 0, 50, contract=_choice(CLUB, rows[10])), replacing=0)
    assert info.value.code == "correction_conflict"
    assert info.value.params == {"hand": 23, "reason": "not_in_barrel"}
    assert "hand 23" in info.value.render()


def test_correction_onto_a_later_seich_teams_seich_is_refused() -> None:
    entries = [hand("suit_D", 1, 50), hand("suit_D", 2, 50), HandEntry.seich_hand(3)]
    slate = Slate.build(CLUB, 0, entries)  # hand 3: dealer 2, forehand 3 in the barrel
    assert slate.seich_used == {1}
    assert _code(CLUB, entries, HandEntry.seich_hand(1), replacing=0) == "seich_used"


def test_correction_onto_the_same_row_as_a_later_hand() -> None:
    rows = [r.key for r in THREE.rows]
    entries = [hand("suit_C", 1, 70)] + [hand(k, 0, 50, contract=_choice(THREE, k)) for k in rows]
    slate = Slate.build(THREE, 0, entries)
    assert slate.full_sides() == {0}
    assert _code(THREE, entries, hand("suit_C", 0, 70), replacing=0) == "row_closed"
    assert _code(THREE, entries, hand("gustav", 0, 70), replacing=0) == "row_closed"
