"""House rules (docs/DECISIONS.md "House rules"): a circle's own rows and options, their check
naming the field, and the presets stored exactly as before."""

from __future__ import annotations

import pickle
from dataclasses import replace
from typing import Any, cast

import pytest
from house_rules_helpers import eleven_rows_with_tutti_and_misere, house_rulesets
from hypothesis import given, settings

from scorekeeper.game.cards import Suit
from scorekeeper.game.contracts import Kind
from scorekeeper.game.errors import RuleError
from scorekeeper.game.hand_entry import COUNTERMATCH, MATCH_POINTS, OUTCOMES
from scorekeeper.game.rules_input import rules_from_dict
from scorekeeper.game.rulesets import (
    BarrelRule,
    RuleSet,
    Scoring,
    Shape,
    Variant,
    default_ruleset,
)

PRESET_KEYS = {"variant", "rows", "barrel", "undenufe_six11", "seich", "stake", "deck"}


@pytest.mark.parametrize("variant", list(Variant))
def test_a_preset_is_stored_as_before_and_reads_its_variants_options(variant: Variant) -> None:
    rs = default_ruleset(variant, factors={rs_row.key: 9 for rs_row in default_ruleset(variant).rows[:2]})
    stored = rs.to_dict()
    assert set(stored) == PRESET_KEYS and all("name" not in r for r in stored["rows"])
    assert rs.is_preset and rs.all_playable and rs.digital_rows == tuple(r.key for r in rs.rows)
    assert RuleSet.from_dict(stored) == rs
    assert rules_from_dict(rs.rules_dict()) == rs
    assert rs.scoring is {"three": Scoring.RAW, "club": Scoring.FULL}.get(variant.value, Scoring.TENTHS)
    assert (rs.match_points, rs.match_bonus) == ((157, 100) if variant is Variant.CLUB else (257, 0))
    assert rs.shape is (Shape.TEAMS if variant is Variant.CLUB else Shape(variant.value))


def test_a_stored_dict_of_today_loads_unchanged() -> None:
    today = {
        "variant": "teams",
        "rows": [{"key": "suit_S", "kinds": ["suit"], "factor": 1, "suit": "S"}],
        "barrel": "online",
        "undenufe_six11": False,
        "seich": False,
        "stake": {"rappen": 10, "per_points": 10, "round_to": 5},
        "deck": "swiss",
    }
    rs = RuleSet.from_dict(today)
    assert rs.to_dict() == today and rs.scoring is Scoring.TENTHS and rs.countermatch_cost == 0


def test_the_issues_example_is_house_rules_and_round_trips() -> None:
    rs = eleven_rows_with_tutti_and_misere()
    rs.check()
    assert not rs.is_preset and not rs.all_playable
    assert "bock" not in rs.digital_rows and len(rs.digital_rows) == 10
    assert not rs.row("bock").playable and rs.row("tutti").playable
    stored = rs.to_dict()
    assert stored["match_bonus"] == 500 and stored["countermatch_cost"] == 50 and "scoring" not in stored
    assert RuleSet.from_dict(stored) == rs == rules_from_dict(rs.rules_dict())
    shown = rs.rules_dict()
    assert shown["shape"] == "teams" and shown["preset"] is False and shown["scoring"] == "tenths"
    assert [r["factor"] for r in shown["rows"]] == list(range(1, 12))


def house(variant: Variant = Variant.TEAMS, **changes: Any) -> RuleSet:
    return replace(eleven_rows_with_tutti_and_misere(), variant=variant, **changes)


def row_at(i: int, **changes: Any) -> Any:
    return lambda rows: (*rows[:i], replace(rows[i], **changes), *rows[i + 1 :])


@pytest.mark.parametrize(
    ("rs", "code", "field"),
    [
        (house(rows=()), "rows_count", "rows"),
        (house(rows=eleven_rows_with_tutti_and_misere().rows[:3]), "rows_count", "rows"),
        (house(rows=eleven_rows_with_tutti_and_misere().rows * 2), "rows_count", "rows"),
        (house(rows=row_at(2, factor=0)(eleven_rows_with_tutti_and_misere().rows)), "factor_range", "rows[2].factor"),
        (house(rows=row_at(5, factor=-3)(eleven_rows_with_tutti_and_misere().rows)), "factor_range", "rows[5].factor"),
        (
            house(rows=row_at(5, kinds=(Kind.OBENABE,))(eleven_rows_with_tutti_and_misere().rows)),
            "row_twice",
            "rows[5]",
        ),
        (house(rows=row_at(1, suit=list(Suit)[0])(eleven_rows_with_tutti_and_misere().rows)), "row_twice", "rows[1]"),
        (
            house(rows=row_at(6, kinds=(Kind.GUSTAV,))(eleven_rows_with_tutti_and_misere().rows)),
            "row_gustav",
            "rows[6].kinds",
        ),
        (
            house(Variant.THREE, rows=row_at(6, kinds=(Kind.RIESENSLALOM,))(eleven_rows_with_tutti_and_misere().rows)),
            "row_shape",
            "rows[6].kinds",
        ),
        (house(rows=row_at(8, name="")(eleven_rows_with_tutti_and_misere().rows)), "row_name_required", "rows[8].name"),
        (house(rows=row_at(3, key="obenabe")(eleven_rows_with_tutti_and_misere().rows)), "row_key", "rows[4].key"),
        (
            house(rows=row_at(0, suit=None)(eleven_rows_with_tutti_and_misere().rows)),
            "row_suit_required",
            "rows[0].suit",
        ),
        (
            house(rows=row_at(4, suit=Suit.HEARTS)(eleven_rows_with_tutti_and_misere().rows)),
            "row_suit_not_allowed",
            "rows[4].suit",
        ),
        (house(match_points=100), "option_range", "match_points"),
        (house(match_bonus=-1), "option_range", "match_bonus"),
        (house(countermatch_cost=-5), "option_range", "countermatch_cost"),
        (house(seich=True, seich_times=0), "option_range", "seich_times"),
    ],
)
def test_a_bad_rule_set_is_refused_naming_the_field(rs: RuleSet, code: str, field: str) -> None:
    with pytest.raises(RuleError) as err:
        rs.check()
    assert err.value.code == code and err.value.params["field"] == field
    with pytest.raises(RuleError) as again:  # the API's reading says the same
        rules_from_dict(rs.to_dict())
    assert again.value.params["field"] == field


def test_two_jokers_may_be_the_same_row_but_two_house_rows_not() -> None:
    rows = eleven_rows_with_tutti_and_misere().rows
    house(rows=(*rows[:10], replace(rows[10], key="joker2"))).check()  # the joker, twice
    with pytest.raises(RuleError) as err:
        house(rows=(*rows[:9], replace(rows[8], key="bock2", name=" bock "))).check()
    assert err.value.code == "row_twice" and err.value.params["field"] == "rows[9]"


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (lambda d: d.pop("rows"), "rows"),
        (lambda d: d.update(rows="x"), "rows"),
        (lambda d: d.update(variant="five"), "variant"),
        (lambda d: d.update(shape="three"), "shape"),
        (lambda d: d.update(scoring="double"), "scoring"),
        (lambda d: d.update(seich="yes"), "seich"),
        (lambda d: d.update(match_bonus="500"), "match_bonus"),
        (lambda d: d["stake"].update(rappen=1.5), "stake.rappen"),
        (lambda d: d["rows"][2].update(kinds=["poker"]), "rows[2].kinds"),
        (lambda d: d["rows"][2].update(suit="X"), "rows[2].suit"),
        (lambda d: d["rows"][2].update(factor=None), "rows[2].factor"),
        (lambda d: d["rows"].__setitem__(3, 7), "rows[3]"),
    ],
)
def test_the_api_reading_names_the_field_of_a_wrong_value(edit: Any, field: str) -> None:
    d = eleven_rows_with_tutti_and_misere().rules_dict()
    edit(d)
    with pytest.raises(RuleError) as err:
        rules_from_dict(d)
    assert err.value.params["field"] == field


def test_the_shape_alone_stands_for_its_variant_and_left_out_options_are_its() -> None:
    rows = [{"kinds": ["suit"], "suit": s.letter, "factor": 1} for s in Suit] + [
        {"kinds": [], "name": "Bock", "factor": 2}
    ]
    rs = rules_from_dict({"shape": "solo4", "rows": rows})
    assert rs.variant is Variant.SOLO4 and rs.barrel is BarrelRule.ONLINE and rs.scoring is Scoring.TENTHS
    assert [r.key for r in rs.rows] == ["row1", "row2", "row3", "row4", "row5"]


@settings(max_examples=60, deadline=None)
@given(house_rulesets())
def test_every_house_rule_set_round_trips(rs: RuleSet) -> None:
    assert RuleSet.from_dict(rs.to_dict()) == rs
    assert rules_from_dict(rs.rules_dict()) == rs
    assert set(rs.digital_rows) == {r.key for r in rs.rows if r.kinds}


@settings(max_examples=30, deadline=None)
@given(house_rulesets())
def test_a_rule_set_finds_each_row_by_key_also_when_copied(rs: RuleSet) -> None:
    """``row_of`` is filled in on construction, survives pickling (the outlook's benchmark
    sends rule sets to other processes) and a changed copy, and names only the rule set's rows."""
    for same in (rs, pickle.loads(pickle.dumps(rs)), replace(rs, seich_times=rs.seich_times)):
        assert same == rs and hash(same) == hash(rs)
        assert dict(same.row_of) == {r.key: r for r in rs.rows}
        assert all(same.row(r.key) is same.row_of[r.key] for r in rs.rows)
    with pytest.raises(KeyError):
        rs.row("no such row")


@settings(max_examples=30, deadline=None)
@given(house_rulesets())
def test_a_rule_set_keeps_what_each_outcome_writes_in_each_row(rs: RuleSet) -> None:
    """``writes`` is ``Cells.written`` of every row and outcome, filled in on construction
    (also in a pickled or changed copy): the slate reads a cell instead of computing it."""
    cells = rs.cells
    expected = {r.key: {o: cells.written(r.factor, o) for o in OUTCOMES} for r in rs.rows}
    for same in (rs, pickle.loads(pickle.dumps(rs)), replace(rs, seich_times=rs.seich_times)):
        assert {k: dict(v) for k, v in same.writes.items()} == expected
    assert rs.writes[rs.rows[0].key][MATCH_POINTS] == cells.match(rs.rows[0].factor)
    assert rs.writes[rs.rows[0].key][COUNTERMATCH] == cells.countermatch(rs.rows[0].factor)


def test_a_rule_set_whose_options_are_not_whole_numbers_writes_nothing_and_is_refused() -> None:
    """A forged rule set (``match_points`` a text) is built without a crash, writes no cell,
    and ``check`` refuses it naming the field."""
    rs = replace(default_ruleset(Variant.TEAMS), match_points=cast(int, "257"))
    assert rs.writes == {}
    with pytest.raises(RuleError) as e:
        rs.check()
    assert e.value.params["field"] == "match_points"
