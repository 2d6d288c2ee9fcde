"""Sticks and potatoes, ties and cuts, winners, early end (RULES.md 6.1-6.4)."""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest
from scoring_helpers import BOOK
from shared_helpers import row_contracts

from scorekeeper.game.errors import RuleError
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import RuleSet, Variant, default_ruleset
from scorekeeper.scoring import Cut, Slate, Tie, draw_cut, effective_cuts, final_result, payout, ties

THREE = default_ruleset(Variant.THREE)  # rows: 4 suits x1, obenabe/undenufe/slalom x2, gustav/jokers x3
TEAMS = default_ruleset(Variant.TEAMS)
SOLO4 = default_ruleset(Variant.SOLO4)
ANN, BETH, CATH = 0, 1, 2


def _entry(rs: RuleSet, row_key: str, seat: int, value: int) -> HandEntry:
    row = rs.row(row_key)
    contract = row_contracts(row)[0] if row.is_choice else None
    if value == 257:
        return HandEntry(row_key, seat, contract, 157, 0, match=True)
    if value == -1:  # countermatch
        return HandEntry(row_key, seat, contract, 0, 157, countermatch=True)
    return HandEntry(row_key, seat, contract, value, 157 - value)


def _evening(rs: RuleSet, table: Mapping[str, tuple[int | None, ...]]) -> Slate:
    entries = [_entry(rs, key, seat, v) for key, vals in table.items() for seat, v in enumerate(vals) if v is not None]
    return Slate.build(rs, 0, entries)


def test_the_books_evening_ends_13_9_4() -> None:
    slate = _evening(THREE, BOOK)
    assert slate.complete and ties(slate) == []
    assert slate.match_marks == [(3, 0), (0, 3), (1, 1)]
    res = final_result(slate, [])
    assert res.match_row == ((3, 0), (0, 3), (0, 0))  # Cath's stick cancels her potato
    assert res.net == (13, -9, -4)
    assert res.winners == (ANN,)
    assert sum(res.net) == 0
    assert res.rows[0].marks == ((1, 0), (0, 1), (0, 0))
    assert res.rows[7].marks == ((3, 0), (0, 3), (0, 0))  # gustav x3
    pay = payout(THREE, res)  # CHF 1 per stick
    assert pay.net == [1300, -900, -400]
    assert [(t.payer, t.payee, t.rappen) for t in pay.transfers] == [(BETH, ANN, 900), (CATH, ANN, 400)]


def _tied_slate(vals_row: tuple[int, int, int]) -> Slate:
    table = dict(BOOK)
    table["suit_H"] = vals_row
    return _evening(THREE, table)


def test_tie_for_highest_needs_a_cut() -> None:
    slate = _tied_slate((100, 100, 40))
    assert ties(slate) == [Tie("suit_H", "high", (ANN, BETH))]
    with pytest.raises(RuleError) as info:
        final_result(slate, [])
    assert info.value.code == "cut_missing" and info.value.params == {"row": "suit_H"}
    res = final_result(slate, [Cut("suit_H", "high", BETH, drawn=False)])
    assert res.rows[1].marks == ((0, 0), (1, 0), (0, 1))
    assert res.rows[1].cut == Cut("suit_H", "high", BETH, drawn=False)
    assert res.cuts == (Cut("suit_H", "high", BETH, drawn=False),)
    assert res.net is not None and sum(res.net) == 0


def test_tie_for_lowest_the_cut_winner_escapes() -> None:
    slate = _tied_slate((120, 40, 40))
    assert ties(slate) == [Tie("suit_H", "low", (BETH, CATH))]
    res = final_result(slate, [Cut("suit_H", "low", BETH, drawn=False)])
    assert res.rows[1].marks == ((1, 0), (0, 0), (0, 1))
    res = final_result(slate, [Cut("suit_H", "low", CATH, drawn=True, order=(CATH, BETH))])
    assert res.rows[1].marks == ((1, 0), (0, 1), (0, 0))


def test_all_three_equal_one_cut_orders_all() -> None:
    slate = _tied_slate((70, 70, 70))
    assert ties(slate) == [Tie("suit_H", "all", (ANN, BETH, CATH))]
    with pytest.raises(RuleError) as info:
        final_result(slate, [Cut("suit_H", "all", CATH, drawn=False)])
    assert info.value.code == "cut_order_required"
    res = final_result(slate, [Cut("suit_H", "all", CATH, drawn=False, order=(CATH, ANN, BETH))])
    assert res.rows[1].marks == ((0, 0), (0, 1), (1, 0))


def test_cut_naming_someone_outside_the_tie_is_refused() -> None:
    slate = _tied_slate((100, 100, 40))
    for bad in (Cut("suit_H", "high", CATH, False), Cut("suit_H", "high", ANN, False, order=(ANN, CATH))):
        with pytest.raises(RuleError) as info:
            final_result(slate, [bad])
        assert info.value.code == "cut_invalid"


def test_stale_cuts_are_ignored_and_the_last_cut_counts() -> None:
    slate = _tied_slate((100, 100, 40))
    stale = Cut("suit_S", "low", BETH, drawn=True)
    res = final_result(slate, [stale, Cut("suit_H", "high", ANN, True), Cut("suit_H", "high", BETH, False)])
    assert res.rows[1].marks[BETH] == (1, 0)
    assert res.cuts == (Cut("suit_H", "high", BETH, False),)


def test_effective_cuts_keep_the_latest_cut_of_each_current_tie() -> None:
    slate = _tied_slate((100, 100, 40))
    stale = Cut("suit_S", "low", BETH, drawn=True)
    other_tie = Cut("suit_H", "high", ANN, False, order=(ANN, CATH))  # a tie the slate no longer shows
    first, last = Cut("suit_H", "high", ANN, True, (ANN, BETH)), Cut("suit_H", "high", BETH, False)
    assert effective_cuts(slate, [stale, first, other_tie, last]) == ([last], [])
    assert effective_cuts(slate, [stale]) == ([], [Tie("suit_H", "high", (ANN, BETH))])


def test_draw_cut_is_a_fair_ranking() -> None:
    tie = Tie("suit_H", "all", (0, 1, 2))
    rng = random.Random(7)
    counts = [0, 0, 0]
    for _ in range(900):
        cut = draw_cut(tie, rng)
        assert cut.drawn and sorted(cut.order) == [0, 1, 2] and cut.order[0] == cut.winner
        counts[cut.winner] += 1
    assert all(240 < c < 360 for c in counts)
    assert draw_cut(tie, random.Random(1)) == draw_cut(tie, random.Random(1))


def test_cut_round_trips_through_a_dict() -> None:
    cut = Cut("joker1", "all", 2, True, (2, 0, 1))
    assert Cut.from_dict(cut.to_dict()) == cut
    assert Cut.from_dict({"row_key": "suit_C", "end": "high", "winner": 1, "drawn": False}).order == ()


def test_early_end_counts_only_rows_filled_by_all() -> None:
    entries = [
        _entry(THREE, "suit_C", ANN, 100),
        _entry(THREE, "suit_C", BETH, 60),
        _entry(THREE, "suit_C", CATH, 20),
        _entry(THREE, "gustav", ANN, 10),
        _entry(THREE, "gustav", BETH, 157),  # Cath has not played gustav
        _entry(THREE, "joker1", CATH, -1),  # a countermatch counts in the match row at once
    ]
    slate = Slate.build(THREE, 0, entries)
    res = final_result(slate, [])
    assert not res.complete
    assert res.rows[0].marks == ((1, 0), (0, 0), (0, 1))
    assert all(r.marks == ((0, 0),) * 3 for r in res.rows[1:])
    assert res.rows[7].values == (10, 157, None)
    assert res.match_row == ((1, 0), (1, 0), (0, 2))
    assert res.net == (2, 1, -3) and res.winners == (ANN,)
    assert res.sticks(ANN) == 2 and res.potatoes(CATH) == 3


def test_team_game_winner_and_shared_win() -> None:
    table = {r.key: (100, 90) for r in TEAMS.rows}
    slate = _evening(TEAMS, table)
    res = final_result(slate)
    assert res.net is None and res.winners == (0,) and res.score == res.totals
    assert res.totals == tuple(slate.totals) == (10 * 36, 9 * 36)
    level = _evening(TEAMS, {r.key: (100, 100) for r in TEAMS.rows})
    assert final_result(level).winners == (0, 1)
    assert ties(level) == []  # no cuts outside the three-player game


def test_solo4_winners_by_totals() -> None:
    slate = _evening(SOLO4, {r.key: (50, 90, 90, 10) for r in SOLO4.rows})
    res = final_result(slate)
    assert res.winners == (1, 2)
    assert res.rows[3].values == (20, 36, 36, 4)


def test_result_to_dict_is_plain_json() -> None:
    import json

    slate = _tied_slate((100, 100, 40))
    res = final_result(slate, [Cut("suit_H", "high", BETH, drawn=True, order=(BETH, ANN))])
    data = json.loads(json.dumps(res.to_dict()))
    assert res.net is not None
    assert data["net"] == list(res.net) and data["winners"] == list(res.winners)
    assert data["rows"][1]["cut"] == {
        "row_key": "suit_H",
        "end": "high",
        "winner": BETH,
        "drawn": True,
        "order": [BETH, ANN],
    }
    assert json.loads(json.dumps(payout(THREE, res).to_dict()))["net"] == payout(THREE, res).net
