"""Statistics of evenings of a circle's own rules (issue 24, docs/DECISIONS.md "House rules"):
a variant's filter admits its preset's evenings only, never those of a circle's own rules of the
same shape; ``own`` admits the own rules' evenings of every shape; all evenings are all."""

from __future__ import annotations

from dataclasses import replace

from history_helpers import circle, evening, players
from house_rules_helpers import eleven_rows_with_tutti_and_misere
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.game.contracts import Contract, Kind, all_contracts
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.history.housekeeping import view
from scorekeeper.history.records import CircleRecord
from scorekeeper.history.sample import sample_circle
from scorekeeper.history.stats import Filter, circle_stats

HOUSE = eleven_rows_with_tutti_and_misere()  # two teams of two, like the preset "teams"
TEAMS = default_ruleset(Variant.TEAMS)
SEATS = ("p1", "p2", "p3", "p4")


def _obenabe(points: int) -> HandEntry:
    return HandEntry("obenabe", 0, None, points, 157 - points)


def _two_evenings() -> CircleRecord:
    preset = evening("e1", TEAMS, SEATS, [_obenabe(100)], day=0)
    own = evening("e2", HOUSE, SEATS, [_obenabe(150), HandEntry("bock", 1, None, 90, 67)], day=1)
    return circle(players("Anna", "Beat", "Cla", "Dora"), [preset, own])


def _obenabe_of_p1(flt: Filter) -> tuple[int, int]:
    st_ = circle_stats(view(_two_evenings()), flt)
    (c,) = [c for c in st_.contracts if c.player == "p1" and c.kind is Kind.OBENABE]
    return c.hands, c.points


def test_a_variant_is_its_presets_evenings_only() -> None:
    stats = circle_stats(view(_two_evenings()), Filter(variant=Variant.TEAMS))
    assert stats.evenings == 1 and _obenabe_of_p1(Filter(variant=Variant.TEAMS)) == (1, 100)
    # the team pairings' totals are the preset's slate only (a house bonus of 500 would skew them)
    alone = replace(_two_evenings(), evenings=_two_evenings().evenings[:1])
    assert stats.pairings == circle_stats(view(alone)).pairings and sum(p.points for p in stats.pairings) > 0


def test_own_rules_are_their_own_group() -> None:
    stats = circle_stats(view(_two_evenings()), Filter(own=True))
    assert stats.evenings == 1 and _obenabe_of_p1(Filter(own=True)) == (1, 150)
    assert circle_stats(view(_two_evenings()), Filter(own=True, variant=Variant.TEAMS)).evenings == 1
    assert circle_stats(view(_two_evenings()), Filter(own=True, variant=Variant.THREE)).evenings == 0
    # the house row's hand counts for its declarer, in no contract's figures
    assert stats.player("p2").hands == 1 and not [c for c in stats.contracts if c.player == "p2"]


def test_all_evenings_count_every_hand_of_a_contract() -> None:
    assert circle_stats(view(_two_evenings())).evenings == 2
    assert _obenabe_of_p1(Filter()) == (2, 250)  # card points of one contract: comparable across rules


def test_a_preset_with_other_factors_is_still_its_preset() -> None:
    changed = default_ruleset(Variant.TEAMS, factors={"obenabe": 9})
    assert changed.is_preset
    record = replace(_two_evenings(), evenings=(evening("e3", changed, SEATS, [_obenabe(80)]),))
    assert circle_stats(view(record), Filter(variant=Variant.TEAMS)).evenings == 1
    assert circle_stats(view(record), Filter(own=True)).evenings == 0


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 1000))
def test_the_groups_split_the_evenings(seed: int) -> None:
    base = sample_circle(seed, evenings=12, players=6)
    own = [
        evening(f"h{i}", HOUSE, ("p1", "p2", "p3", "p4"), [HandEntry("tutti", i % 4, None, 100, 57)], day=i)
        for i in range(3)
    ]
    record = replace(base, evenings=(*base.evenings, *own))
    v = view(record)
    everything = circle_stats(v).evenings
    groups = [circle_stats(v, Filter(variant=variant)).evenings for variant in Variant]
    assert sum(groups) + circle_stats(v, Filter(own=True)).evenings == everything
    assert circle_stats(v, Filter(own=True)).evenings == 3


def test_a_contract_hand_of_a_house_row_choice() -> None:
    """A choice row of a circle's own counts in its played contract's figures (own filter)."""
    hand = HandEntry("either", 2, Contract.parse(next(c.code for c in all_contracts(Kind.SLALOM))), 70, 87)
    record = circle(players("Anna", "Beat", "Cla", "Dora"), [evening("e1", HOUSE, SEATS, [hand])])
    stats = circle_stats(view(record), Filter(own=True))
    assert [(c.player, c.kind, c.points) for c in stats.contracts] == [("p3", Kind.SLALOM, 70)]
