"""Who may sit at a table, and which games take the optional rows: one rule each, in game/
(the start of an evening, a paper slate and the start page all ask these)."""

from __future__ import annotations

import pytest

from scorekeeper.game.errors import RuleError
from scorekeeper.game.rulesets import (
    EXTRA_ROWS,
    Variant,
    default_ruleset,
    takes_extra_rows,
)
from scorekeeper.game.table import verify_seated_once, verify_table


def test_only_the_four_player_games_take_the_optional_rows() -> None:
    assert {v for v in Variant if takes_extra_rows(v)} == {Variant.TEAMS, Variant.SOLO4}
    for variant in Variant:
        if takes_extra_rows(variant):
            assert {r.key for r in default_ruleset(variant, extra_rows=EXTRA_ROWS).rows} >= set(EXTRA_ROWS)
        else:
            with pytest.raises(RuleError) as refused:
                default_ruleset(variant, extra_rows=EXTRA_ROWS[:1])
            assert refused.value.code == "extra_rows_variant"


@pytest.mark.parametrize(
    ("names", "first_dealer", "code"),
    [
        (["Anna", "Beat"], 0, "players_count"),
        (["Anna", "Beat", "Cla", "Dora"], 0, "players_count"),
        (["Anna", "Beat", "anna"], 0, "players_distinct"),
        (["Anna", "Beat", "Cla"], 3, "first_dealer"),
        (["Anna", "Beat", "Cla"], -1, "first_dealer"),
        (["Anna", "Beat", "Cla"], True, "first_dealer"),
        (["Anna", "Beat", "Cla"], "0", "first_dealer"),
    ],
)
def test_a_table_is_the_games_players_each_once_and_a_dealer_among_them(
    names: list[str], first_dealer: object, code: str
) -> None:
    with pytest.raises(RuleError) as refused:
        verify_table(default_ruleset(Variant.THREE), names, first_dealer)
    assert refused.value.code == code


def test_a_good_table_passes_and_ids_are_seated_once() -> None:
    verify_table(default_ruleset(Variant.THREE), ["Anna", "Beat", "Cla"], 2)
    verify_seated_once(["1", "2", "3"])
    with pytest.raises(RuleError) as refused:
        verify_seated_once(["1", "2", "1"])
    assert refused.value.code == "players_distinct"
