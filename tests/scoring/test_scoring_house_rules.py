"""House rules in the scoring (docs/DECISIONS.md "House rules"): cells by a rule set's own
scoring, match and countermatch; Seich as often as allowed; a whole evening of any valid rule
set scores, its money sums to zero, and the outlook's lines hold; no odds for house rules."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from house_rules_helpers import eleven_rows_with_tutti_and_misere, house_rulesets
from hypothesis import given, settings
from hypothesis import strategies as st
from scoring_helpers import assert_settles, hand, random_evening

from scorekeeper.game.contracts import Contract, Kind
from scorekeeper.game.errors import RuleError
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import BarrelRule, Row, RuleSet, Scoring, Variant, default_ruleset
from scorekeeper.scoring import Slate, cell_value, draw_cut, final_result, ties
from scorekeeper.scoring.forecast import forecast, odds_known
from scorekeeper.scoring.outlook import LOST, WON, evening_outlook, outlook
from scorekeeper.scoring.payouts import payout

HOUSE = eleven_rows_with_tutti_and_misere()  # teams, floor(points / 10) x factor, 257 + 500, countermatch 50


@pytest.mark.parametrize(
    ("rs", "row", "entry", "value"),
    [
        (HOUSE, "suit_H", hand("suit_H", 0, 129), 12 * 4),  # as the presets: tenths first
        (HOUSE, "suit_H", hand("suit_H", 0, 157, match=True), 25 * 4 + 500),  # the bonus after the factor
        (HOUSE, "bock", hand("bock", 1, 0, countermatch=True), -5 * 9),  # a countermatch costs 50 points
        (HOUSE, "bock", hand("bock", 1, 88), 8 * 9),  # a house row is written like any other
        (replace(HOUSE, scoring=Scoring.FULL), "tutti", hand("tutti", 0, 157, match=True), 257 * 7 + 500),
        (replace(HOUSE, scoring=Scoring.RAW, match_bonus=0), "tutti", hand("tutti", 0, 157, match=True), 257),
        (replace(HOUSE, scoring=Scoring.RAW), "obenabe", hand("obenabe", 0, 0, countermatch=True), -50),
        (replace(HOUSE, match_points=157 + 300), "obenabe", hand("obenabe", 0, 157, match=True), 45 * 5 + 500),
    ],
)
def test_a_cell_is_written_by_the_circles_rules(rs: RuleSet, row: str, entry: HandEntry, value: int) -> None:
    rs.check()
    assert cell_value(rs, entry) == value


def test_a_misere_row_of_a_circle_writes_the_opponents_pile() -> None:
    entry = HandEntry("misere", 0, Contract(Kind.MISERE, misere_as=Kind.OBENABE), 100, 57)
    assert cell_value(HOUSE, entry) == 5 * 8


def test_a_seich_as_often_as_the_rules_allow() -> None:
    rs = replace(HOUSE, seich=True, seich_times=2)
    entries: list[HandEntry] = []
    used: list[set[int]] = []
    for _ in range(4):  # whoever is in the barrel throws the hand in
        entries.append(HandEntry.seich_hand(Slate.build(rs, 0, entries).barrel_seat or 0))
        used.append(set(Slate.build(rs, 0, entries).seich_used))
    calls = [rs.side_of(e.declarer_seat) for e in entries]
    for i, sides in enumerate(used):
        assert sides == {s for s in range(2) if calls[: i + 1].count(s) >= 2}
    slate = Slate.build(rs, 0, entries)
    assert slate.seich_calls == {s: calls.count(s) for s in set(calls)}
    # where every Seich went, in order; the first as before (``seich_hands``)
    assert slate.seich_all == {s: [i for i, c in enumerate(calls) if c == s] for s in set(calls)}
    assert slate.seich_hands == {s: at[0] for s, at in slate.seich_all.items()}
    if len(slate.seich_used) == 2:  # both sides called twice: a fifth Seich is refused
        with pytest.raises(RuleError) as err:
            Slate.build(rs, 0, [*entries, HandEntry.seich_hand(slate.barrel_seat or 0)])
        assert err.value.code == "seich_used"


def test_a_house_row_takes_no_contract() -> None:
    with pytest.raises(RuleError) as err:
        Slate.build(HOUSE, 0, [HandEntry("bock", 0, Contract(Kind.OBENABE), 80, 77)])
    assert err.value.code == "contract_not_allowed"


def test_no_odds_are_known_for_house_rules_and_none_are_guessed() -> None:
    slate = Slate.build(HOUSE, 0, [hand("suit_S", 0, 120)])
    assert not odds_known(HOUSE) and odds_known(default_ruleset(Variant.TEAMS, factors={"obenabe": 9}))
    out = evening_outlook(slate, "e1", 1, simulations=50)
    assert out.odds_known is False and out.simulations == 0 and all(s.win is None for s in out.sides)
    assert out.to_dict()["odds_known"] is False
    with pytest.raises(ValueError):
        forecast(slate, seed=1, simulations=10)
    assert evening_outlook(Slate(default_ruleset(Variant.TEAMS), 0), "e1", 0, simulations=50).odds_known


def test_a_costly_countermatch_lowers_the_least_total() -> None:
    out = outlook(Slate.build(HOUSE, 0, [hand("suit_S", 0, 120)]))
    open_rows_1 = list(HOUSE.rows)
    least = sum(-(50 // 10) * r.factor for r in open_rows_1)
    assert out.sides[1].min == least and out.sides[1].total == 0
    assert out.sides[0].min == 12 * 3 + least + (50 // 10) * 3  # suit_S: factor 3


@settings(max_examples=40, deadline=None)
@given(house_rulesets(), st.integers(0, 2**32 - 1))
def test_every_house_rule_set_plays_a_whole_evening_to_zero_sum_money(rs: RuleSet, seed: int) -> None:
    rng = random.Random(seed)
    entries = random_evening(rs, rng, seich_rate=0.2)
    slate = Slate.build(rs, 0, entries)
    assert slate.complete and len(slate.cells) == rs.n_hands
    assert slate.totals == [sum(c.value for c in slate.cells.values() if c.side == s) for s in range(rs.n_sides)]
    cuts = [draw_cut(t, rng) for t in ties(slate)]
    result = final_result(slate, cuts)
    pay = payout(rs, result)
    assert sum(pay.net) == 0
    assert_settles(pay.net, pay.transfers)
    assert result.winners


@settings(max_examples=30, deadline=None)
@given(house_rulesets(), st.integers(0, 2**32 - 1), st.integers(0, 40))
def test_the_outlook_lines_hold_for_house_rules(rs: RuleSet, seed: int, stop: int) -> None:
    rng = random.Random(seed)
    entries = random_evening(rs, rng)
    part = Slate.build(rs, 0, entries[:stop])
    out = outlook(part)
    final = Slate.build(rs, 0, entries)
    cuts = [draw_cut(t, rng) for t in ties(final)]
    end = final_result(final, cuts)
    assert out.odds_known is (rs.is_preset)
    for side in out.sides:
        assert side.min <= side.total <= side.max or rs.variant is Variant.THREE
        score = end.score[side.side]
        assert side.min <= score <= side.max  # the evening ends within the lines
        if side.decided == WON:
            assert end.winners == (side.side,)
        if side.decided == LOST:
            assert side.side not in end.winners
    for row in out.rows:
        assert row.max >= max((c.value or 0) for c in row.cells)


def test_three_players_write_card_points_whatever_else_is_asked() -> None:
    three = default_ruleset(Variant.THREE)
    for change in ({"scoring": Scoring.TENTHS}, {"match_bonus": 100}, {"countermatch_cost": 10}):
        with pytest.raises(RuleError) as err:
            replace(three, **change).check()
        assert err.value.code == "three_writes_points" and err.value.params["field"] == next(iter(change))
    own = replace(three, rows=(*three.rows[:6], Row("bock", (), 3, name="Bock")), barrel=BarrelRule.ONLINE)
    own.check()
    assert not own.is_preset
