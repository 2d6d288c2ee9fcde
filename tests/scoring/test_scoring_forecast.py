"""The win probability (issue 13): a seeded simulation of the open cells, the shipped
table, the blend of a circle's history, exact figures when the evening is decided."""

from __future__ import annotations

import itertools
import json
import math
import random
from typing import Any, cast

import pytest
from scoring_helpers import BOOK, hand, outcome_entry, random_evening, slate_of

from scorekeeper.game.contracts import Contract, Kind
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import EXTRA_ROWS, Row, RuleSet, Variant, default_ruleset
from scorekeeper.scoring import Cut, Slate, Tie, final_result, ties
from scorekeeper.scoring.entries import outcome_of
from scorekeeper.scoring.forecast import (
    BLEND,
    ENDS,
    ORDER_CODE,
    STAGE_PRIOR,
    Table,
    _row_ends,  # the tie-cut of one simulated row
    cell_distribution,
    contract_key,
    default_table,
    forecast,
    history_key,
    normalize_history,
    normalize_key,
    outlook_seed,
    row_key_contract,
    slot_of,
)
from scorekeeper.scoring.outlook import evening_outlook, outlook

TEAMS = default_ruleset(Variant.TEAMS)
THREE = default_ruleset(Variant.THREE)


def flat_table(dist: dict[int, int], variants: tuple[str, ...] = ("teams", "solo4", "club", "three")) -> Table:
    """Every slot of every default rule set with the same counts (no stages)."""
    data: dict[str, Any] = {"variants": {}}
    for v in variants:
        rs = default_ruleset(v, extra_rows=EXTRA_ROWS) if v in ("teams", "solo4") else default_ruleset(v)
        slots = {slot_of(rs, r): {"counts": sorted(dist.items())} for r in rs.rows}
        data["variants"][v] = {"slots": slots}
    return Table.from_dict(data)


SEED_42_3 = 9499288878006336341  # golden: sha256("outlook:42:3")[:8]
COIN = flat_table({0: 1, 257: 1})  # every open cell: nothing or a match, half and half


def _one_row_each(rs: RuleSet, open_key: str) -> Slate:
    """Both sides wrote every row but ``open_key``: team 0 100 points (10 tenths), team 1 90 (9)."""
    entries = []
    for row in rs.rows:
        if row.key == open_key:
            continue
        entries.append(outcome_entry(rs, row.key, 0, 100))
        entries.append(outcome_entry(rs, row.key, 1, 90))
    return Slate.build(rs, 0, entries)


def within(p: float, exact: float, n: int) -> bool:
    """A simulated frequency within 4.5 standard errors of the exact probability."""
    return abs(p - exact) <= 4.5 * math.sqrt(max(exact * (1 - exact), 1e-12) / n) + 1e-12


def test_coin_table_matches_exact_enumeration_in_the_team_game() -> None:
    # Open: joker2 x8 for both. Totals: team 0 10 x 28 = 280, team 1 9 x 28 = 252.
    # Outcomes (0 or a match, 25 x 8 = 200): 280 : 252, 280 : 452, 480 : 252, 480 : 452.
    # Team 0 wins in 3 of 4 (0.75), team 1 in 1 (0.25), never shared. Expected: 380 and 352.
    slate = _one_row_each(TEAMS, "joker2")
    fc = forecast(slate, seed=7, simulations=4000, table=COIN)
    assert within(fc.win[0], 0.75, 4000) and within(fc.win[1], 0.25, 4000)
    assert fc.shared_any == 0.0 and fc.shared == (0.0, 0.0)
    assert abs(fc.expected[0] - 380) < 6 and abs(fc.expected[1] - 352) < 6
    assert sum(fc.win) + fc.shared_any == pytest.approx(1.0)


def test_coin_table_shared_wins() -> None:
    # Open: suit_S x1 for both, 10 tenths vs 9 over 35: 350 : 315. A match is 25.
    # 350:315, 350:340, 375:315, 375:340: team 0 always wins. Make it close: team 1 leads by 25
    # instead, then 0:25 behind -> a match for team 0 alone ties: 1 of 4 shared.
    entries = []
    for row in TEAMS.rows:
        if row.key == "suit_S":
            continue
        entries.append(outcome_entry(TEAMS, row.key, 0, 100))
        entries.append(outcome_entry(TEAMS, row.key, 1, 100))
    entries.append(outcome_entry(TEAMS, "suit_S", 1, 257))  # team 1: 350 + 25 = 375, full
    slate = Slate.build(TEAMS, 0, entries)
    # team 0: 350 + (0 or 25): 350 < 375 (half), 375 = 375 (half, shared)
    fc = forecast(slate, seed=3, simulations=4000, table=COIN)
    assert fc.win == (0.0, cast(float, pytest.approx(fc.win[1])))
    assert within(fc.win[1], 0.5, 4000) and within(fc.shared_any, 0.5, 4000)
    assert fc.shared[0] == fc.shared[1] == fc.shared_any
    out = outlook(slate, forecast=fc)
    assert out.sides[1].decided == "open" and out.sides[0].decided == "open"  # a tie is still possible


def test_decided_evening_gets_exact_figures() -> None:
    entries = [hand(r.key, s, 100 if s == 0 else 60, contract=_plain(r)) for r in TEAMS.rows for s in (0, 1)]
    slate = Slate.build(TEAMS, 0, entries)
    out = evening_outlook(slate, "evening-1", 16)
    assert [(s.decided, s.win, s.shared) for s in out.sides] == [("won", 1.0, 0.0), ("lost", 0.0, 0.0)]
    assert out.shared == 0.0
    assert [s.expected for s in out.sides] == [360.0, 216.0]


def _plain(row: Row) -> Contract | None:
    return Contract(Kind.OBENABE) if row.is_choice else None


def test_same_version_same_figures_everywhere() -> None:
    rs = default_ruleset("club")
    slate = Slate.build(rs, 0, random_evening(rs, random.Random(5), stop=6))
    a = evening_outlook(slate, "abc", 6)
    b = evening_outlook(Slate.build(rs, 0, slate.entries), "abc", 6)
    assert a == b and a.to_dict() == b.to_dict()
    assert a.seed == outlook_seed("abc", 6) and a.simulations > 0
    c = evening_outlook(slate, "abc", 7)
    assert c.seed != a.seed and c.sides[0].expected != a.sides[0].expected  # another version: another draw
    assert abs((c.sides[0].win or 0) - (a.sides[0].win or 0)) < 0.05  # of the same figure
    json.dumps(a.to_dict())


def test_outlook_seed_is_stable() -> None:
    # The first 8 bytes of sha256("outlook:42:3"), big-endian: the same on every host and Python.
    assert outlook_seed(42, 3) == outlook_seed("42", 3) == SEED_42_3
    assert len({outlook_seed(42, 3), outlook_seed(42, 4), outlook_seed(43, 3)}) == 3


def test_probabilities_add_up_on_random_evenings() -> None:
    rng = random.Random(11)
    for variant in ("three", "teams", "solo4", "club"):
        rs = default_ruleset(variant)
        for stop in (0, 7, rs.n_hands - 3, rs.n_hands):
            slate = Slate.build(rs, 0, random_evening(rs, rng, stop=stop))
            cuts = [Cut(t.row_key, t.end, t.sides[0], False, t.sides) for t in ties(slate)]
            out = evening_outlook(slate, f"{variant}-{stop}", stop, cuts=cuts)
            wins = [s.win for s in out.sides]
            assert all(w is not None and 0.0 <= w <= 1.0 for w in wins)
            assert sum(w or 0.0 for w in wins) + (out.shared or 0.0) == pytest.approx(1.0)
            for s in out.sides:
                assert s.shared is not None and s.shared <= (out.shared or 0.0) + 1e-12
                assert s.expected is not None and s.min - 1e-9 <= s.expected <= s.max + 1e-9
                if s.decided == "lost":
                    assert s.win == 0.0 and s.shared == 0.0
            if slate.complete:  # cuts given: the result is known
                res = final_result(slate, cuts)
                if len(res.winners) == 1:
                    assert out.sides[res.winners[0]].win == 1.0
                else:
                    assert out.shared == 1.0


def _exact_three(slate: Slate) -> tuple[list[float], float]:
    """Win probabilities of a complete three-player slate over every cut (uniform orders)."""
    pending: list[Tie] = ties(slate)
    orders = [list(itertools.permutations(t.sides)) for t in pending]
    win = [0.0, 0.0, 0.0]
    shared = 0.0
    total = 0
    for choice in itertools.product(*orders):
        cuts = [Cut(t.row_key, t.end, o[0], True, o) for t, o in zip(pending, choice, strict=True)]
        res = final_result(slate, cuts)
        total += 1
        if len(res.winners) == 1:
            win[res.winners[0]] += 1
        else:
            shared += 1
    return [w / total for w in win], shared / total


def test_three_players_pending_cuts_are_drawn_fairly() -> None:
    # Complete evenings whose ties are not cut yet: the simulation only draws the cuts,
    # and must agree with the exact enumeration of every cut.
    rng = random.Random(2)
    checked = 0
    while checked < 3:
        slate = Slate.build(THREE, 0, random_evening(THREE, rng))
        if not 1 <= len(ties(slate)) <= 4:
            continue
        exact_win, exact_shared = _exact_three(slate)
        if all(p in (0.0, 1.0) for p in exact_win):
            continue
        checked += 1
        fc = forecast(slate, seed=checked, simulations=4000, table=COIN)
        assert all(within(p, e, 4000) for p, e in zip(fc.win, exact_win, strict=True)), (fc.win, exact_win)
        assert within(fc.shared_any, exact_shared, 4000)


def test_three_players_open_row_against_enumeration() -> None:
    # The book's evening without joker2 x3's cells for Beth and Cath (Ann wrote 80). With the coin
    # table each of them writes 0 or a match, each of the four cases has 1/4 (and a tie is cut).
    book = {**BOOK, "gustav": (120, 30, 80), "joker2": (80, None, None)}  # no countermatch; joker2 open
    slate = slate_of(THREE, book)
    base = list(slate.entries)
    win = [0.0, 0.0, 0.0]
    shared = 0.0
    for b, c in itertools.product((0, 257), repeat=2):
        last = [outcome_entry(THREE, "joker2", 1, b), outcome_entry(THREE, "joker2", 2, c)]
        done = Slate.build(THREE, 0, [*base, *last])
        w, sh = _exact_three(done)
        win = [x + y / 4 for x, y in zip(win, w, strict=True)]
        shared += sh / 4
    fc = forecast(slate, seed=9, simulations=4000, table=COIN)
    assert all(within(p, e, 4000) for p, e in zip(fc.win, win, strict=True)), (fc.win, win)
    assert within(fc.shared_any, shared, 4000)


# --- history ------------------------------------------------------------------------------
def test_history_is_blended_per_player_with_weight_n_over_n_plus_30() -> None:
    table = flat_table({50: 1})  # the table says: always 50
    row = TEAMS.row("suit_H")
    key = "suit:H"
    assert contract_key(Contract(Kind.SUIT, suit=row.suit)) == key
    # Team 0 is seats 0 and 2; seat 0 has 30 hands in hearts, all 120 (weight 30 / 60 = 1/2),
    # seat 2 none. Each declares half the time: 120 with 1/2 x 1/2 = 1/4, else 50.
    dist = dict(cell_distribution(TEAMS, row, 0, table, {(0, key): [120] * 30}))
    assert dist == pytest.approx({50: 0.75, 120: 0.25})
    # Ninety hands of seat 2 too (weight 90 / 120 = 3/4), 100 points each:
    dist = dict(cell_distribution(TEAMS, row, 0, table, {(0, key): [120] * 30, (2, key): [100] * 90}))
    assert dist == pytest.approx({50: 0.5 * 0.5 + 0.5 * 0.25, 120: 0.25, 100: 0.5 * 0.75})
    assert BLEND == 30
    # A joker row is chosen at the table: no history key, the table alone.
    assert dict(cell_distribution(TEAMS, TEAMS.row("joker1"), 0, table, {(0, key): [120] * 30})) == {50: 1.0}


def test_history_moves_the_forecast() -> None:
    slate = Slate.build(TEAMS, 0, [])
    keys = [row_key_contract(r) for r in TEAMS.rows if not r.is_choice]
    strong = {(seat, key): [257] * 300 for seat in (0, 2) for key in keys if key is not None}
    plain = forecast(slate, seed=1)
    helped = forecast(slate, seed=1, history=strong)
    assert plain.win[0] < 0.7 < helped.win[0]


def test_history_is_checked() -> None:
    slate = Slate.build(TEAMS, 0, [])
    with pytest.raises(ValueError):
        forecast(slate, seed=1, history={(0, "obenabe"): [158]})
    with pytest.raises(ValueError):
        forecast(slate, seed=1, history={("0", "obenabe"): [100]})  # type: ignore[dict-item]  # a seat as text: refused


def test_history_keys_may_be_full_contract_codes() -> None:
    assert [normalize_key(k) for k in ("suit:h", "suit:H", "slalom:obenabe", "slalom", "tuo:S", "misere:obenabe")] == [
        "suit:H",
        "suit:H",
        "slalom",
        "slalom",
        "tuo",
        "misere",
    ]
    with pytest.raises(ValueError):
        normalize_key("nine")
    # Two codes of one contract join: 15 + 15 hands of seat 0 weigh 30 / 60.
    club = default_ruleset("club")
    row = club.row("slalom")
    table = flat_table({50: 1})
    history = {(0, "slalom:obenabe"): [120] * 15, (0, "slalom:undenufe"): [120] * 15}
    dist = dict(cell_distribution(club, row, 0, table, normalize_history(history)))
    assert dist == pytest.approx({50: 0.75, 120: 0.25})


def test_imported_cells_give_no_history() -> None:
    paper = HandEntry.paper("suit_H", 0, 48)
    assert history_key(TEAMS, paper) is None
    with pytest.raises(ValueError):
        outcome_of(TEAMS, paper)


def test_history_key_of_recorded_hands() -> None:
    club = default_ruleset("club")
    assert history_key(TEAMS, hand("suit_H", 0, 100)) == "suit:H"
    assert history_key(TEAMS, hand("joker1", 0, 100, contract=Contract(Kind.UNDENUFE))) == "undenufe"
    misere = Contract(Kind.MISERE, misere_as=Kind.SLALOM, start=Contract.parse("slalom:obenabe").start)
    assert history_key(club, hand("misere_zwueschi", 1, 30, contract=misere)) == "misere"
    assert history_key(club, hand("riesenslalom", 1, 30)) == "riesenslalom"


# --- the table ----------------------------------------------------------------------------
def test_stage_counts_are_blended_with_the_plain_distribution() -> None:
    data = {"variants": {"teams": {"slots": {"suit1": {"counts": [[0, 1], [100, 3]], "stages": {"1": [[0, 100]]}}}}}}
    table = Table.from_dict(data)
    assert dict(table.distribution(Variant.TEAMS, "suit1")) == {0: 0.25, 100: 0.75}
    # one open row: 100 hands at stage 1 weigh 100 / (100 + 100) = 1/2
    assert STAGE_PRIOR == 100
    assert dict(table.distribution(Variant.TEAMS, "suit1", 1)) == pytest.approx({0: 0.625, 100: 0.375})
    assert dict(table.distribution(Variant.TEAMS, "suit1", 6)) == {0: 0.25, 100: 0.75}  # no stage-4 counts
    # a slot the table lacks: the variant's pooled counts
    assert dict(table.distribution(Variant.TEAMS, "joker1")) == {0: 0.25, 100: 0.75}
    with pytest.raises(KeyError):
        table.distribution(Variant.CLUB, "suit1")


@pytest.mark.parametrize(
    "bad",
    [
        {"variants": {"teams": {"slots": {"suit1": {"counts": []}}}}},
        {"variants": {"teams": {"slots": {"suit1": {"counts": [[158, 3]]}}}}},
        {"variants": {"teams": {"slots": {"suit1": {"counts": [[3, -1]]}}}}},
        {"variants": {"nine": {"slots": {"suit1": {"counts": [[3, 1]]}}}}},
    ],
)
def test_a_damaged_table_is_refused(bad: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        Table.from_dict(bad)


def test_shipped_table_covers_every_row_the_app_offers() -> None:
    table = default_table()
    for variant in Variant:
        rulesets = [default_ruleset(variant)]
        if variant in (Variant.TEAMS, Variant.SOLO4):
            rulesets.append(default_ruleset(variant, extra_rows=EXTRA_ROWS))
        for rs in rulesets:
            for row in rs.rows:
                counts = table.counts[(variant.value, slot_of(rs, row))]
                assert sum(counts.values()) >= 2000, (variant, row.key)
                for stage in (1, 2, 3, 4):
                    assert (variant.value, slot_of(rs, row), stage) in table.stages


def test_a_rows_ends_in_the_simulation() -> None:
    # A strict order: the sticks to the highest, the potatoes to the lowest.
    for a, b, c in itertools.permutations((10, 20, 30)):
        vals = (a, b, c)
        end = ENDS[ORDER_CODE[(a > b) | (b > c) << 1 | (a > c) << 2]]
        assert end == (vals.index(30), vals.index(10))
    # A tie is cut uniformly among the tied players.
    rng = random.Random(4)
    for vals, expected in (
        ((5, 5, 5), dict.fromkeys(ENDS, 1 / 6)),
        ((5, 5, 9), {(2, 0): 0.5, (2, 1): 0.5}),
        ((9, 5, 5), {(0, 1): 0.5, (0, 2): 0.5}),
        ((5, 9, 5), {(1, 0): 0.5, (1, 2): 0.5}),
        ((9, 9, 5), {(0, 2): 0.5, (1, 2): 0.5}),
        ((5, 1, 5), {(0, 1): 0.5, (2, 1): 0.5}),
    ):
        n = 6000
        seen: dict[tuple[int, int], int] = {}
        for _ in range(n):
            end = ENDS[_row_ends(*vals, rng.random)]
            seen[end] = seen.get(end, 0) + 1
        assert set(seen) == set(expected), vals
        assert all(within(seen[e] / n, p, n) for e, p in expected.items()), (vals, seen)
