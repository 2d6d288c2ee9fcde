"""Cells typed from a paper slate (``HandEntry.paper``): the same row checks as a hand,
a value some hand in that row could write, and the same slate, result and money."""

from __future__ import annotations

import random

import pytest
from house_rules_helpers import house_rulesets
from hypothesis import given, settings
from hypothesis import strategies as st
from scoring_helpers import hand, random_evening

from scorekeeper.game.contracts import OBENABE, Contract, Kind, Mode, all_contracts
from scorekeeper.game.errors import RuleError
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import RuleSet, Variant, default_ruleset
from scorekeeper.scoring import (
    Slate,
    cell_value,
    draw_cut,
    final_result,
    payout,
    possible_cells,
    ties,
    verify_entry,
)

THREE = default_ruleset(Variant.THREE)
TEAMS = default_ruleset(Variant.TEAMS)
SOLO4 = default_ruleset(Variant.SOLO4)
CLUB = default_ruleset(Variant.CLUB)
SLALOM_OBE = Contract(Kind.SLALOM, start=Mode.OBENABE)
MISERE_OBE = Contract(Kind.MISERE, misere_as=Kind.OBENABE)


def paper(row: str, seat: int, value: object, **kw: object) -> HandEntry:
    return HandEntry.paper(row, seat, value, **kw)  # type: ignore[arg-type]  # bad values on purpose


def refused(ruleset: RuleSet, entry: HandEntry, earlier: list[HandEntry] | None = None) -> str:
    slate = Slate.build(ruleset, 0, earlier or [])
    with pytest.raises(RuleError) as info:
        verify_entry(ruleset, slate, entry)
    return info.value.code


def accepted(ruleset: RuleSet, entry: HandEntry) -> int:
    slate = Slate.build(ruleset, 0, [entry])
    cell = next(iter(slate.cells.values()))
    assert cell.imported and cell.entry.imported
    return cell.value


# --- what a row can hold, per variant ---------------------------------------------
@pytest.mark.parametrize(
    ("ruleset", "entry", "value"),
    [
        (THREE, paper("suit_C", 0, 0), 0),  # no countermatch: 0 points with a trick
        (THREE, paper("suit_C", 0, 157), 157),  # 157 without every trick
        (THREE, paper("obenabe", 1, 257, match=True), 257),
        (THREE, paper("joker1", 2, 99), 99),  # what the joker was played as may be unknown
        (TEAMS, paper("suit_H", 0, 48), 48),  # 129 points: 12 x 4
        (TEAMS, paper("suit_H", 1, 60), 60),  # 157 points without a match: 15 x 4
        (TEAMS, paper("suit_H", 1, 100, match=True), 100),  # 25 x 4
        (TEAMS, paper("undenufe", 3, 0, countermatch=True), 0),
        (SOLO4, paper("undenufe", 2, 54), 54),  # 9 x 6
        (SOLO4, paper("joker2", 3, 25 * 8, match=True), 200),
        (CLUB, paper("slalom", 0, 1356, contract=SLALOM_OBE, match=True), 1356),  # 157 x 8 + 100
        (CLUB, paper("slalom", 1, 800), 800),  # 100 x 8, no division by ten
        (CLUB, paper("misere_zwueschi", 0, 157 * 5 + 100, contract=MISERE_OBE, countermatch=True), 885),
        (CLUB, paper("misere_zwueschi", 0, 0, contract=MISERE_OBE, match=True), 0),
        (CLUB, paper("twelve", 1, 12 * 77), 924),
    ],
)
def test_possible_values_are_written_as_typed(ruleset: RuleSet, entry: HandEntry, value: int) -> None:
    assert accepted(ruleset, entry) == value
    assert cell_value(ruleset, entry) == value


@pytest.mark.parametrize(
    ("ruleset", "entry", "code"),
    [
        (THREE, paper("suit_C", 0, 158), "cell_impossible"),
        (THREE, paper("suit_C", 0, 257), "cell_needs_match"),
        (THREE, paper("suit_C", 0, 200, match=True), "cell_match_value"),
        (THREE, paper("suit_C", 0, 3, countermatch=True), "cell_countermatch_value"),
        (THREE, paper("suit_C", 0, -1), "cell_impossible"),
        (TEAMS, paper("suit_H", 0, 49), "cell_impossible"),  # not a multiple of the factor 4
        (TEAMS, paper("suit_H", 0, 64), "cell_impossible"),  # 16 x 4 needs 160 points
        (TEAMS, paper("suit_H", 0, 100), "cell_needs_match"),
        (TEAMS, paper("suit_H", 0, 4, countermatch=True), "cell_countermatch_value"),
        (SOLO4, paper("obenabe", 3, 80, match=True), "cell_match_value"),  # a match writes 25 x 5
        (CLUB, paper("slalom", 0, 1356), "cell_needs_match"),
        (CLUB, paper("slalom", 0, 801), "cell_impossible"),
        # every trick in a Misère: the slate's ✗ countermatch, which writes 0
        (CLUB, paper("misere_zwueschi", 0, 885, contract=MISERE_OBE, match=True), "cell_countermatch_value"),
        # no trick in a Misère: the slate's ★ match, which writes 885
        (CLUB, paper("misere_zwueschi", 0, 0, contract=MISERE_OBE, countermatch=True), "cell_match_value"),
        (THREE, paper("suit_C", 0, 50, match=True, countermatch=True), "match_and_countermatch"),
        (THREE, paper("suit_C", 0, 48.0), "cell_not_whole"),
        (THREE, paper("suit_C", 0, "48"), "cell_not_whole"),
        (THREE, HandEntry("suit_C", 0, None, 40, 117, cell=40), "cell_with_points"),
        (THREE, paper("no_such_row", 0, 10), "row_unknown"),
        (TEAMS, paper("suit_H", 0, 8, contract=OBENABE), "contract_not_allowed"),
        (THREE, paper("suit_C", 5, 10), "declarer_unknown"),
        (CLUB, HandEntry(None, 0, None, 0, 0, seich=True, cell=0), "seich_with_result"),
    ],
)
def test_impossible_values_and_rows_are_refused(ruleset: RuleSet, entry: HandEntry, code: str) -> None:
    assert refused(ruleset, entry) == code


def test_one_cell_per_row_and_side() -> None:
    first = paper("suit_H", 0, 48)
    assert refused(TEAMS, paper("suit_H", 2, 40), [first]) == "row_closed"  # the partner: same side
    Slate.build(TEAMS, 0, [first, paper("suit_H", 1, 40)])  # the other team may


def test_paper_and_played_hands_mix_on_one_slate() -> None:
    slate = Slate.build(TEAMS, 0, [hand("suit_H", 0, 129), paper("obenabe", 1, 50)])
    assert slate.totals == [48, 50]
    assert [c.imported for c in sorted(slate.cells.values(), key=lambda c: c.index)] == [False, True]


def test_three_player_marks_come_from_the_paper_match_marks() -> None:
    slate = Slate.build(THREE, 0, [paper("suit_C", 0, 257, match=True), paper("suit_C", 1, 0, countermatch=True)])
    # match: 2 sticks to seat 0, a potato each to 1 and 2; countermatch: 2 potatoes to 1, a stick each to 0 and 2
    assert slate.match_marks == [(3, 0), (0, 3), (1, 1)]


# --- possible_cells agrees with the rules of RULES.md 6 -----------------------------
def test_possible_cells_per_scoring_mode() -> None:
    assert possible_cells(THREE, "gustav", None)[(False, False)] == frozenset(range(158))
    assert possible_cells(THREE, "gustav", None)[(True, False)] == {257}
    assert possible_cells(TEAMS, "suit_H", None)[(False, False)] == {4 * k for k in range(16)}
    assert possible_cells(TEAMS, "suit_H", None)[(True, False)] == {100}
    assert possible_cells(TEAMS, "suit_H", None)[(False, True)] == {0}
    assert possible_cells(CLUB, "tutti", None)[(False, False)] == {9 * p for p in range(158)}
    assert possible_cells(CLUB, "tutti", None)[(True, False)] == {9 * 157 + 100}
    misere = possible_cells(CLUB, "misere_zwueschi", MISERE_OBE)
    assert misere[(False, True)] == {5 * 157 + 100} and misere[(True, False)] == {0}


@settings(max_examples=40, deadline=None)
@given(house_rulesets(), st.data())
def test_possible_cells_are_the_cells_of_every_hand(rs: RuleSet, data: st.DataObject) -> None:
    """What a paper cell may hold is what some hand of the row writes with the same marks:
    ``cell_value`` of every pile, of taking every trick and of taking none (a Misère too)."""
    row = data.draw(st.sampled_from(rs.rows))
    contract = data.draw(st.sampled_from([None, *(c for k in row.kinds for c in all_contracts(k))]))
    plain = {cell_value(rs, HandEntry(row.key, 0, contract, d, 157 - d)) for d in range(158)}
    every = cell_value(rs, HandEntry(row.key, 0, contract, 157, 0, match=True))
    none = cell_value(rs, HandEntry(row.key, 0, contract, 0, 157, countermatch=True))
    assert possible_cells(rs, row.key, contract) == {
        (False, False): plain,
        (True, False): {every},
        (False, True): {none},
    }


# --- the same slate, result and money as the hands behind the cells -----------------
@settings(max_examples=30, deadline=None, derandomize=True)
@given(variant=st.sampled_from(list(Variant)), seed=st.integers(0, 2**32 - 1))
def test_a_slate_typed_from_paper_scores_like_the_played_one(variant: Variant, seed: int) -> None:
    rs = default_ruleset(variant)
    rng = random.Random(seed)
    played = [e for e in random_evening(rs, rng) if not e.seich]  # a paper slate shows no Seich
    typed = [
        HandEntry.paper(
            e.row_key or "",
            e.declarer_seat,
            cell_value(rs, e),
            # a paper slate may not say what a joker was played as (a Misère it must: it swaps the marks)
            contract=e.contract if (e.contract is not None and e.contract.is_misere) or rng.random() < 0.5 else None,
            match=e.match,
            countermatch=e.countermatch,
        )
        for e in played
    ]
    a = Slate.build(rs, 0, played)
    b = Slate.build(rs, 0, typed)
    assert a.totals == b.totals and a.match_marks == b.match_marks
    cuts = [draw_cut(t, rng) for t in ties(a)]
    res_a, res_b = final_result(a, cuts), final_result(b, cuts)
    assert res_a == res_b
    assert payout(rs, res_a) == payout(rs, res_b)
    assert all(c.imported for c in b.cells.values()) and not any(c.imported for c in a.cells.values())
