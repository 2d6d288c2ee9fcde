"""Cell values from RULES.md 6 (every worked example) and every check of RULES.md 7."""

from __future__ import annotations

from typing import Any

import pytest
from scoring_helpers import hand

from scorekeeper.game.cards import Suit
from scorekeeper.game.contracts import (
    OBENABE,
    UNDENUFE,
    ZWUESCHEDUERE,
    Contract,
    Kind,
    Mode,
    suit_contract,
)
from scorekeeper.game.errors import RuleError
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import RuleSet, Variant, default_ruleset
from scorekeeper.scoring import ERROR_CODES, Slate, cell_value, verify_entry

THREE = default_ruleset(Variant.THREE)
TEAMS = default_ruleset(Variant.TEAMS)
SOLO4 = default_ruleset(Variant.SOLO4)
CLUB = default_ruleset(Variant.CLUB)
MISERE_OBE = Contract(Kind.MISERE, misere_as=Kind.OBENABE)
SLALOM_OBE = Contract(Kind.SLALOM, start=Mode.OBENABE)


# --- worked examples ---------------------------------------------------------------
def test_hearts_x4_with_129_writes_48() -> None:
    assert TEAMS.row("suit_H").factor == 4
    assert cell_value(TEAMS, hand("suit_H", 0, 129)) == 48


def test_match_in_hearts_x4_writes_100() -> None:
    assert cell_value(TEAMS, hand("suit_H", 0, 157, match=True)) == 100


def test_shields_x3_with_126_writes_36() -> None:
    swiss = default_ruleset(Variant.TEAMS, suit_order="swiss")
    assert swiss.row("suit_S").factor == 3  # acorns, roses, shields, bells
    assert cell_value(swiss, hand("suit_S", 1, 126)) == 36


def test_club_slalom_match_is_1356() -> None:
    assert CLUB.row("slalom").factor == 8
    assert cell_value(CLUB, hand("slalom", 0, 157, contract=SLALOM_OBE, match=True)) == 157 * 8 + 100 == 1356


def test_divide_and_floor_first_then_multiply() -> None:
    # 129 x 4 / 10 would be 51; the rule is floor(129 / 10) x 4 = 48.
    assert cell_value(TEAMS, hand("suit_H", 0, 129)) != 129 * 4 // 10
    assert cell_value(SOLO4, hand("undenufe", 2, 99)) == 9 * 6


@pytest.mark.parametrize(
    ("ruleset", "entry", "value"),
    [
        (THREE, hand("suit_C", 0, 0), 0),
        (THREE, hand("suit_C", 0, 157), 157),  # 157 without every trick is no match
        (THREE, hand("suit_C", 0, 157, match=True), 257),
        (THREE, hand("gustav", 0, 0, countermatch=True), 0),
        (THREE, hand("joker1", 2, 101, contract=OBENABE), 101),
        (TEAMS, hand("suit_S", 0, 9), 0),
        (TEAMS, hand("joker2", 1, 157, contract=suit_contract(Suit.HEARTS), match=True), 25 * 8),
        (TEAMS, hand("joker1", 1, 0, contract=UNDENUFE, countermatch=True), 0),
        (SOLO4, hand("obenabe", 3, 157), 15 * 5),
        (CLUB, hand("suit_D", 0, 157), 157),
        (CLUB, hand("suit_D", 0, 157, match=True), 257),
        (CLUB, hand("komisch", 1, 80), 880),
        (CLUB, hand("twelve", 1, 100, contract=ZWUESCHEDUERE), 1200),
        (CLUB, hand("obenabe", 1, 0, countermatch=True), 0),
    ],
)
def test_cell_value_table(ruleset: RuleSet, entry: HandEntry, value: int) -> None:
    assert cell_value(ruleset, entry) == value


# --- Misère (club, RULES 6.4) -----------------------------------------------------
def test_misere_writes_the_opponents_points_times_five() -> None:
    assert cell_value(CLUB, hand("misere_zwueschi", 0, 40, contract=MISERE_OBE)) == 117 * 5


def test_misere_declaring_team_took_no_trick_adds_100() -> None:
    entry = hand("misere_zwueschi", 0, 0, contract=MISERE_OBE, countermatch=True)
    assert cell_value(CLUB, entry) == 157 * 5 + 100


def test_misere_declaring_team_took_every_trick_writes_0() -> None:
    entry = hand("misere_zwueschi", 0, 157, contract=MISERE_OBE, match=True)
    assert cell_value(CLUB, entry) == 0


def test_misere_in_the_twelve_row_uses_factor_12() -> None:
    assert cell_value(CLUB, hand("twelve", 1, 57, contract=MISERE_OBE)) == 100 * 12


def test_zwuescheduere_in_its_row_scores_own_points() -> None:
    assert cell_value(CLUB, hand("misere_zwueschi", 0, 40, contract=ZWUESCHEDUERE)) == 200


def test_seich_writes_no_cell() -> None:
    with pytest.raises(ValueError):
        cell_value(CLUB, HandEntry.seich_hand(0))


# --- every bad entry ---------------------------------------------------------------
def _code(ruleset: RuleSet, entries: list[HandEntry], entry: HandEntry, first_dealer: int = 0, **kw: Any) -> str:
    slate = Slate.build(ruleset, first_dealer, entries)
    with pytest.raises(RuleError) as info:
        verify_entry(ruleset, slate, entry, **kw)
    err = info.value
    assert err.message == ERROR_CODES[err.code]
    assert "%(" not in err.render()  # every placeholder got its param
    return err.code


FULL_SIDE0 = [hand(r.key, 0, 50, contract=OBENABE if r.is_choice else None) for r in THREE.rows]


@pytest.mark.parametrize(
    ("ruleset", "entries", "entry", "code"),
    [
        (THREE, [], hand("suit_C", 3, 50), "declarer_unknown"),
        (THREE, [], hand("suit_C", -1, 50), "declarer_unknown"),
        (THREE, [], HandEntry(None, 0, None, 50, 107), "row_required"),
        (THREE, [], hand("misere_zwueschi", 0, 50), "row_unknown"),
        (THREE, FULL_SIDE0, hand("suit_C", 0, 50), "side_full"),
        (THREE, [hand("suit_C", 1, 50)], hand("suit_C", 1, 60), "row_closed"),
        (TEAMS, [hand("suit_C", 1, 50)], hand("suit_C", 3, 60), "row_closed"),  # the partner's cell
        (THREE, [], hand("joker1", 0, 50), "contract_required"),
        (CLUB, [], hand("misere_zwueschi", 0, 50), "contract_required"),
        (CLUB, [], hand("twelve", 0, 50), "contract_required"),
        (THREE, [], hand("suit_C", 0, 50, contract=suit_contract(Suit.HEARTS)), "contract_not_allowed"),
        (THREE, [], hand("obenabe", 0, 50, contract=UNDENUFE), "contract_not_allowed"),
        (TEAMS, [], hand("joker1", 0, 50, contract=SLALOM_OBE), "contract_not_allowed"),
        (CLUB, [], hand("misere_zwueschi", 0, 50, contract=OBENABE), "contract_not_allowed"),
        (THREE, [], HandEntry("suit_C", 0, None, 50.5, 106.5), "points_not_whole"),  # type: ignore[arg-type]  # forged
        (THREE, [], HandEntry("suit_C", 0, None, True, 156), "points_not_whole"),  # forged: a bool is an int
        (THREE, [], HandEntry("suit_C", 0, None, 158, -1), "points_range"),
        (THREE, [], HandEntry("suit_C", 0, None, -1, 158), "points_range"),
        (THREE, [], HandEntry("suit_C", 0, None, 100, 56), "points_sum"),
        (THREE, [], HandEntry("suit_C", 0, None, 157, 0, match=True, countermatch=True), "match_and_countermatch"),
        (THREE, [], HandEntry("suit_C", 0, None, 150, 7, match=True), "match_needs_all"),
        (THREE, [], HandEntry("suit_C", 0, None, 7, 150, countermatch=True), "countermatch_needs_none"),
        (TEAMS, [], HandEntry.seich_hand(0), "seich_not_allowed"),
        (THREE, [], HandEntry.seich_hand(0), "seich_not_allowed"),
        (CLUB, [], HandEntry("obenabe", 1, None, 0, 0, seich=True), "seich_with_result"),
        (CLUB, [], HandEntry(None, 1, None, 100, 57, seich=True), "seich_with_result"),
        (CLUB, [], HandEntry(None, 1, None, 0, 0, match=True, seich=True), "seich_with_result"),
        # first dealer 0: forehand 1 is in the barrel (online rule), not seat 2
        (CLUB, [], HandEntry.seich_hand(2), "not_in_barrel"),
        # after one hand dealer is 1 and seat 2 is forehand, so seat 1 is not in the barrel
        (CLUB, [hand("suit_D", 1, 50)], HandEntry.seich_hand(1), "not_in_barrel"),
    ],
)
def test_every_bad_entry_code(ruleset: RuleSet, entries: list[HandEntry], entry: HandEntry, code: str) -> None:
    assert _code(ruleset, entries, entry) == code


def test_seich_only_once_per_team() -> None:
    # first dealer 0: hand 1 barrel = seat 1 (team 1), hand 2 barrel = 2, hand 3 barrel = 3 (team 1 again)
    entries = [HandEntry.seich_hand(1), hand("suit_D", 2, 50)]
    assert _code(CLUB, entries, HandEntry.seich_hand(3)) == "seich_used"
    # the other team still has its Seich
    verify_entry(CLUB, Slate.build(CLUB, 0, entries[:1]), HandEntry.seich_hand(2))


def test_evening_complete_refuses_more_hands() -> None:
    rs = THREE
    entries = [hand(r.key, s, 50, contract=OBENABE if r.is_choice else None) for s in range(3) for r in rs.rows]
    slate = Slate.build(rs, 0, entries)
    assert slate.complete
    assert _code(rs, entries, hand("suit_C", 0, 50)) == "evening_complete"


def _club_barrel_conflict() -> tuple[list[HandEntry], HandEntry]:
    """Team 1 fills all 12 rows, team 0 ten; hand 23's Seich by seat 0 (in the barrel) stands only
    while team 1 is full: moving team 1's first hand to team 0 breaks it."""
    rows = [r.key for r in CLUB.rows]

    def choice(key: str) -> Contract | None:
        row = CLUB.row(key)
        return row.contracts[0] if row.is_choice else None

    team1 = [hand(k, 1, 50, contract=choice(k)) for k in rows]
    team0 = [hand(k, 0, 50, contract=choice(k)) for k in rows[:10]]
    return team1 + team0 + [HandEntry.seich_hand(0)], hand(rows[10], 0, 50, contract=choice(rows[10]))


def _one_bad_entry(code: str) -> tuple[Any, list[HandEntry], HandEntry, int | None]:
    """(rule set, hands so far, the bad entry, the hand it replaces) for every code of ERROR_CODES."""
    full = [hand(r.key, s, 50, contract=OBENABE if r.is_choice else None) for s in range(3) for r in THREE.rows]
    cases: dict[str, tuple[Any, list[HandEntry], HandEntry, int | None]] = {
        "evening_complete": (THREE, full, hand("suit_C", 0, 50), None),
        "declarer_unknown": (THREE, [], hand("suit_C", 3, 50), None),
        "row_required": (THREE, [], HandEntry(None, 0, None, 50, 107), None),
        "row_unknown": (THREE, [], hand("misere_zwueschi", 0, 50), None),
        "side_full": (THREE, FULL_SIDE0, hand("suit_C", 0, 50), None),
        "row_closed": (THREE, [hand("suit_C", 1, 50)], hand("suit_C", 1, 60), None),
        "contract_required": (THREE, [], hand("joker1", 0, 50), None),
        "contract_not_allowed": (THREE, [], hand("obenabe", 0, 50, contract=UNDENUFE), None),
        "points_not_whole": (
            THREE,
            [],
            HandEntry("suit_C", 0, None, 50.5, 106.5),  # type: ignore[arg-type]  # forged
            None,
        ),
        "points_range": (THREE, [], HandEntry("suit_C", 0, None, 158, -1), None),
        "points_sum": (THREE, [], HandEntry("suit_C", 0, None, 100, 56), None),
        "match_and_countermatch": (
            THREE,
            [],
            HandEntry("suit_C", 0, None, 157, 0, match=True, countermatch=True),
            None,
        ),
        "match_needs_all": (THREE, [], HandEntry("suit_C", 0, None, 150, 7, match=True), None),
        "countermatch_needs_none": (THREE, [], HandEntry("suit_C", 0, None, 7, 150, countermatch=True), None),
        "seich_not_allowed": (TEAMS, [], HandEntry.seich_hand(0), None),
        "seich_with_result": (CLUB, [], HandEntry("obenabe", 1, None, 0, 0, seich=True), None),
        "seich_used": (CLUB, [HandEntry.seich_hand(1), hand("suit_D", 2, 50)], HandEntry.seich_hand(3), None),
        "not_in_barrel": (CLUB, [], HandEntry.seich_hand(2), None),
        "entry_unknown": (THREE, [hand("suit_C", 1, 50)], hand("suit_C", 1, 50), 1),
        "correction_conflict": (CLUB, *_club_barrel_conflict(), 0),
        # cells typed from a paper slate (HandEntry.paper)
        "cell_not_whole": (THREE, [], HandEntry.paper("suit_C", 0, 48.0), None),  # type: ignore[arg-type]  # forged
        "cell_with_points": (THREE, [], HandEntry("suit_C", 0, None, 40, 117, cell=40), None),
        "cell_impossible": (TEAMS, [], HandEntry.paper("suit_H", 0, 49), None),  # not a multiple of 4
        "cell_needs_match": (THREE, [], HandEntry.paper("suit_C", 0, 257), None),
        "cell_match_value": (THREE, [], HandEntry.paper("suit_C", 0, 200, match=True), None),
        "cell_countermatch_value": (THREE, [], HandEntry.paper("suit_C", 0, 3, countermatch=True), None),
    }
    return cases[code]


@pytest.mark.parametrize("code", sorted(ERROR_CODES))
def test_every_code_is_raised_by_a_bad_entry(code: str) -> None:
    """Each code of ERROR_CODES is what ``verify_entry`` raises for one concrete bad entry
    (a new code without its case here fails with KeyError)."""
    ruleset, entries, entry, replacing = _one_bad_entry(code)
    kw = {} if replacing is None else {"replacing": replacing}
    assert _code(ruleset, entries, entry, **kw) == code


def test_good_entries_pass() -> None:
    slate = Slate.build(CLUB, 0, [])
    for entry in [
        hand("suit_H", 1, 100),
        hand("suit_H", 1, 100, contract=suit_contract(Suit.HEARTS)),
        hand("misere_zwueschi", 1, 10, contract=Contract(Kind.MISERE, misere_as=Kind.SLALOM, start=Mode.UNDENUFE)),
        hand("twelve", 3, 157, contract=Contract(Kind.RIESENSLALOM, start=Mode.OBENABE, first=4), match=True),
        HandEntry.seich_hand(1),
    ]:
        verify_entry(CLUB, slate, entry)


def test_the_same_check_runs_in_slate_build_with_the_hand_number() -> None:
    with pytest.raises(RuleError) as info:
        Slate.build(THREE, 0, [hand("suit_C", 0, 50), hand("suit_C", 0, 60)])
    assert info.value.code == "row_closed"
    assert info.value.params["hand"] == 2
