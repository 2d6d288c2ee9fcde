"""A variant's defaults, decided once in the rule set (docs/DECISIONS.md): the suit names it
is played with and its stake; three players always pay per stick."""

from __future__ import annotations

import pytest

from scorekeeper.game.cards import DeckStyle
from scorekeeper.game.rulesets import DEFAULT_STAKES, Stake, Variant, default_deck, default_ruleset, stake_of


@pytest.mark.parametrize("variant", list(Variant), ids=[v.value for v in Variant])
def test_the_deck_and_the_stake_of_a_variant(variant: Variant) -> None:
    expected = DeckStyle.FRENCH if variant is Variant.CLUB else DeckStyle.SWISS  # Ecke, Kreuz, Schaufel, Herz
    assert default_deck(variant) is expected and default_ruleset(variant).deck is expected
    assert default_ruleset(variant, deck="swiss").deck is DeckStyle.SWISS  # the table may choose
    assert stake_of(variant) == DEFAULT_STAKES[variant] == default_ruleset(variant).stake


def test_default_stakes() -> None:
    assert DEFAULT_STAKES == {
        Variant.THREE: Stake(100, 1),
        Variant.TEAMS: Stake(10, 10),
        Variant.SOLO4: Stake(10, 10),
        Variant.CLUB: Stake(10, 100),
    }


def test_three_players_pay_per_stick_whatever_is_asked() -> None:
    assert stake_of(Variant.THREE, rappen=50, per_points=50, round_to=1) == Stake(50, 1, 1)
    assert stake_of("three", per_points=0) == Stake(100, 1)  # ignored, not refused
    assert stake_of(Variant.TEAMS, per_points=50) == Stake(10, 50)
    with pytest.raises(ValueError):
        stake_of(Variant.TEAMS, per_points=0)
