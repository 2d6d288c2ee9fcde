"""Typing a past evening from its paper slate, per variant."""

from __future__ import annotations

import random

import pytest

from scorekeeper.game.contracts import Contract, Kind
from scorekeeper.game.errors import RuleError
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.history.paper import PaperCell, paper_entries
from scorekeeper.history.sample import random_entries
from scorekeeper.scoring import Slate, cell_value, draw_cut, final_result, payout, ties


@pytest.mark.parametrize("variant", list(Variant))
def test_a_typed_slate_gives_the_played_evenings_result_and_money(variant: Variant) -> None:
    rs = default_ruleset(variant)
    rng = random.Random(variant.value)
    played = random_entries(rs, rng)
    cells = [
        PaperCell(
            e.row_key or "",
            rs.side_of(e.declarer_seat),
            cell_value(rs, e),
            e.contract if e.contract is not None and e.contract.is_misere else None,
            e.match,
            e.countermatch,
        )
        for e in played
    ]
    rng.shuffle(cells)  # typed in any order; stored row by row
    typed = paper_entries(rs, cells)
    assert [e.row_key for e in typed] == sorted((e.row_key for e in typed), key=[r.key for r in rs.rows].index)  # type: ignore[arg-type]  # no Seich: every row_key is set
    assert all(e.imported and e.declarer_points == e.defender_points == 0 for e in typed)
    a, b = Slate.build(rs, 0, played), Slate.build(rs, 0, typed)
    cuts = [draw_cut(t, rng) for t in ties(a)]
    assert ties(a) == ties(b)
    assert payout(rs, final_result(a, cuts)) == payout(rs, final_result(b, cuts))


def test_a_wrong_cell_is_named() -> None:
    rs = default_ruleset(Variant.TEAMS)
    with pytest.raises(RuleError) as info:
        paper_entries(rs, [PaperCell("suit_S", 0, 15), PaperCell("suit_C", 1, 15)])  # x2: 15 is odd
    assert info.value.code == "cell_impossible" and info.value.params["hand"] == 2
    with pytest.raises(RuleError) as info:
        paper_entries(rs, [PaperCell("suit_S", 2, 15)])
    assert info.value.code == "paper_side"
    with pytest.raises(RuleError) as info:
        paper_entries(rs, [PaperCell("suit_S", 0, 5), PaperCell("suit_S", 0, 6)])
    assert info.value.code == "row_closed"


def test_a_joker_may_say_what_it_was_played_as() -> None:
    rs = default_ruleset(Variant.CLUB)
    misere = Contract(Kind.MISERE, misere_as=Kind.UNDENUFE)
    (entry,) = paper_entries(rs, [PaperCell("twelve", 1, 12 * 157 + 100, misere, countermatch=True)])
    assert entry.contract == misere and entry.declarer_seat == 1
