"""The outlook's definitions (issue 13): examples worked by hand for every variant,
and Hypothesis properties against brute force.

Default rows used below:
- teams / solo4: suit_S x1, suit_C x2, suit_D x3, suit_H x4, obenabe x5, undenufe x6,
  joker1 x7, joker2 x8 (factors sum to 36; a match is 25 x factor, so 900 in all);
- club: suit_D x1, suit_C x2, suit_S x3, suit_H x4, misere_zwueschi x5, obenabe x6,
  undenufe x7, slalom x8, tutti x9, riesenslalom x10, komisch x11, twelve x12
  (factors sum to 78; a match is 157 x factor + 100);
- three: suit_C, suit_H, suit_S, suit_D x1, obenabe, undenufe, slalom x2, gustav,
  joker1, joker2 x3 (values sum to 19).
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scoring_helpers import BOOK, hand, outcome_entry, random_evening, slate_of
from shared_helpers import SOAK

from scorekeeper.game.contracts import Contract, Kind
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.scoring import Cut, Slate, cell_value, draw_cut, final_result, ties
from scorekeeper.scoring.outlook import POINTS_LINE, CellOutlook, Need, Outlook, outlook, ruleset_row_maxima
from scorekeeper.scoring.outlook_three import row_range

PROFILE = settings(
    max_examples=300 if SOAK else 30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=not SOAK,
)
THREE = default_ruleset(Variant.THREE)
TEAMS = default_ruleset(Variant.TEAMS)
SOLO4 = default_ruleset(Variant.SOLO4)
CLUB = default_ruleset(Variant.CLUB)
OBENABE = Contract(Kind.OBENABE)


def side_fields(out: Outlook, side: int) -> tuple[object, ...]:
    s = out.sides[side]
    return (s.total, s.min, s.max, s.decided, s.catch_up, s.clinch)


def cell(out: Outlook, row_key: str, side: int) -> CellOutlook:
    return next(r for r in out.rows if r.key == row_key).cells[side]


# --- team game (6.2) --------------------------------------------------------------------
def test_teams_after_two_hands() -> None:
    # Team 0 (seats 0+2): hearts x4 with 129 -> 12 x 4 = 48. Team 1: Obenabe x5 match -> 25 x 5 = 125.
    slate = Slate.build(TEAMS, 0, [hand("suit_H", 0, 129), hand("obenabe", 1, 157, match=True)])
    out = outlook(slate)
    # Team 0: open factors 1+2+3+5+6+7+8 = 32, max = 48 + 25 x 32 = 848.
    # catch_up: needs more than 125 - 48 = 77: 3 tenths x 32 = 96 > 77, 2 x 32 = 64 is not -> 30.
    # clinch: needs more than 900 - 48 = 852, but 25 x 32 = 800 -> None.
    assert side_fields(out, 0) == (48, 48, 848, "open", 30, None)
    # Team 1: open factors 1+2+3+4+6+7+8 = 31, max = 125 + 775 = 900; ahead -> catch_up 0.
    # clinch: more than 848 - 125 = 723: 15 tenths x 31 = 465 is not, a match 25 x 31 = 775 is -> 257.
    assert side_fields(out, 1) == (125, 125, 900, "open", 0, 257)
    # Shares of the lines: joker2 x8 at 30 points is 3 x 8 = 24; the shares add up to 96.
    assert cell(out, "joker2", 0).catch_up_share == 24
    assert sum(c.cells[0].catch_up_share or 0 for c in out.rows if c.cells[0].open) == 96
    assert cell(out, "joker2", 0).clinch_share is None
    assert cell(out, "joker2", 1).catch_up_share == 0 and cell(out, "joker2", 1).clinch_share == 200
    # A match alone clinches nowhere yet: 125 + 25 x 8 = 325 is far below 848.
    assert not any(c.match_enough for r in out.rows for c in r.cells if c.open)
    # Written cells are closed and carry their value.
    assert cell(out, "suit_H", 0) == cell(out, "suit_H", 0).__class__(0, False, 48, None, None, None)
    assert [r.max for r in out.rows] == [25 * f for f in (1, 2, 3, 4, 5, 6, 7, 8)]


def test_teams_the_least_each_side_needs() -> None:
    # The slate of test_teams_after_two_hands: team 0 has 48, team 1 125; team 0's max 848, team 1's 900.
    out = outlook(Slate.build(TEAMS, 0, [hand("suit_H", 0, 129), hand("obenabe", 1, 157, match=True)]))
    team0, team1 = out.sides
    # Team 0 needs more than 77 for the lead: one hand does it, 100 points in joker2 x8 (10 x 8 = 80);
    # joker1 x7 needs 120 (12 x 7 = 84). The line "30 in every open row" is only an average.
    assert team0.lead_need == Need("cell", 100, ("joker2",))
    assert cell(out, "joker2", 0).lead_alone == 100 and cell(out, "joker1", 0).lead_alone == 120
    assert cell(out, "suit_S", 0).lead_alone is None  # x1: 25 at most
    # A sure win is not in its own hands (848 < 900): it wins only if team 1 scores little.
    assert team0.sure_need == Need("others")
    # Team 1 leads; to be sure it needs more than 848 - 125 = 723: no single row (25 x 8 = 200),
    # and 157 in every open row gives 15 x 31 = 465; each match adds 10 x factor more, the
    # largest first: 80 + 70 + 60 + 40 = 250 is not enough (715), a fifth (30) is (745).
    assert team1.lead_need == Need("there")
    assert team1.sure_need == Need("matches", None, (), 5)
    assert not any(c.match_enough or c.sure_alone for r in out.rows for c in r.cells)


def test_the_star_and_the_words_name_the_same_cells() -> None:
    # One row left for team 1 (joker2 x8): a match there alone is enough, and it is what the
    # words say (not "a match in every open row").
    out = outlook(_teams_last_row(None))
    assert out.sides[1].sure_need == Need("cell", 257, ("joker2",))
    assert out.sides[1].lead_need == Need("cell", 257, ("joker2",))
    assert cell(out, "joker2", 1).match_enough and cell(out, "joker2", 1).sure_alone == 257
    assert out.sides[0].lead_need == Need("there") and out.sides[0].sure_need == Need("others")


def test_nothing_is_needed_once_the_evening_is_over() -> None:
    slate = Slate.build(TEAMS, 0, [hand("suit_H", 0, 129), hand("obenabe", 1, 157, match=True)])
    ended = outlook(slate, ended=True)  # ended early
    assert all(s.lead_need is None and s.sure_need is None for s in ended.sides)
    full = outlook(_teams_last_row(150))  # every cell written
    assert all(s.lead_need is None and s.sure_need is None for s in full.sides)
    tied = outlook(
        Slate.build(
            TEAMS,
            0,
            [HandEntry(r.key, s, OBENABE if r.is_choice else None, 100, 57) for r in TEAMS.rows for s in (0, 1)],
        )
    )
    assert all(s.lead_need is None and s.sure_need is None for s in tied.sides)


def test_club_one_point_is_enough() -> None:
    # Equal totals: one point in any open row takes the lead (points x factor; one point is a
    # singular the words must get right).
    slate = Slate.build(CLUB, 0, [hand("suit_D", 0, 100), hand("suit_D", 1, 100)])
    out = outlook(slate)
    assert out.sides[0].lead_need == Need("cell", 1, tuple(r.key for r in CLUB.rows if r.key != "suit_D"))


def _teams_last_row(last_points: int | None) -> Slate:
    # Team 0 writes 100 in all eight rows: 10 tenths x 36 = 360.
    # Team 1 writes 60 in all but joker2: 6 x (36 - 8) = 168.
    entries = []
    for row in TEAMS.rows:
        c = OBENABE if row.is_choice else None
        entries.append(HandEntry(row.key, 0, c, 100, 57))
        if row.key != "joker2":
            entries.append(HandEntry(row.key, 1, c, 60, 97))
    if last_points is not None:
        entries.append(HandEntry("joker2", 1, OBENABE, last_points, 157 - last_points))
    return Slate.build(TEAMS, 0, entries)


def test_teams_one_row_left_a_match_is_enough() -> None:
    out = outlook(_teams_last_row(None))
    # Team 0 is full: 360..360; ahead of 168 -> catch_up 0; 360 is not above team 1's max 368 -> no clinch.
    assert side_fields(out, 0) == (360, 360, 360, "open", 0, None)
    # Team 1: max 168 + 25 x 8 = 368. It needs more than 192: 15 x 8 = 120 is not, 25 x 8 = 200 is -> 257.
    assert side_fields(out, 1) == (168, 168, 368, "open", 257, 257)
    last = cell(out, "joker2", 1)
    assert last.open and last.match_enough and last.catch_up_share == 200 and last.clinch_share == 200


def test_teams_decided_after_the_last_row() -> None:
    out = outlook(_teams_last_row(150))  # 15 x 8 = 120 -> 288 < 360
    assert side_fields(out, 0) == (360, 360, 360, "won", 0, 0)
    assert side_fields(out, 1) == (288, 288, 288, "lost", None, None)


def test_teams_tied_at_the_end_stay_open() -> None:
    # Team 1's last row: 24 tenths are impossible, so make the totals equal another way:
    # team 1 writes 100 in every row too -> 360 : 360, a shared win, neither "won".
    entries = [HandEntry(r.key, s, OBENABE if r.is_choice else None, 100, 57) for r in TEAMS.rows for s in (0, 1)]
    out = outlook(Slate.build(TEAMS, 0, entries))
    assert side_fields(out, 0) == side_fields(out, 1) == (360, 360, 360, "open", None, None)


# --- all against all (6.3) ----------------------------------------------------------------
def test_solo4_two_hands() -> None:
    # Seat 0: hearts x4 with 157 without a match -> 15 x 4 = 60. Seat 1: joker2 x8 as Obenabe, 95 -> 9 x 8 = 72.
    slate = Slate.build(SOLO4, 0, [hand("suit_H", 0, 157), hand("joker2", 1, 95, contract=OBENABE)])
    out = outlook(slate)
    # Seat 0: open factors 32 -> max 60 + 800 = 860; needs more than 72 - 60 = 12: 1 tenth x 32 -> 10.
    assert side_fields(out, 0) == (60, 60, 860, "open", 10, None)
    # Seat 1: open factors 28 -> max 72 + 700 = 772; ahead -> 0; more than 900 - 72 = 828 is out of reach.
    assert side_fields(out, 1) == (72, 72, 772, "open", 0, None)
    # Seats 2 and 3: 0..900; more than 72: 2 x 36 = 72 is not, 3 x 36 = 108 is -> 30;
    # more than the others' best max 900: 900 is not -> None.
    assert side_fields(out, 2) == side_fields(out, 3) == (0, 0, 900, "open", 30, None)


# --- club variant (6.4) ----------------------------------------------------------------------
def test_club_row_maxima() -> None:
    # 157 x factor + 100 (Misère as the row is scored: 157 x 5 + 100 for a countermatch).
    assert ruleset_row_maxima(CLUB) == {
        "suit_D": 257,
        "suit_C": 414,
        "suit_S": 571,
        "suit_H": 728,
        "misere_zwueschi": 885,
        "obenabe": 1042,
        "undenufe": 1199,
        "slalom": 1356,
        "tutti": 1513,
        "riesenslalom": 1670,
        "komisch": 1827,
        "twelve": 1984,
    }
    assert sum(ruleset_row_maxima(CLUB).values()) == 157 * 78 + 12 * 100 == 13446


def test_club_slalom_match_against_misere() -> None:
    misere = Contract(Kind.MISERE, misere_as=Kind.OBENABE)
    slate = Slate.build(
        CLUB,
        0,
        [
            hand("slalom", 0, 157, match=True),  # 157 x 8 + 100 = 1356
            hand("misere_zwueschi", 1, 40, contract=misere),  # the opponents' 117 x 5 = 585
        ],
    )
    out = outlook(slate)
    # Team 0: max = 13446 (a match is what it wrote). Needs more than 13146 - 1356 = 11790 to clinch:
    # 157 x 70 = 10990 is not, 10990 + 11 x 100 = 12090 is -> 257.
    assert side_fields(out, 0) == (1356, 1356, 13446, "open", 0, 257)
    # Team 1: open factors 73 -> max 585 + 157 x 73 + 1100 = 13146.
    # catch_up: more than 1356 - 585 = 771: 10 x 73 = 730 is not, 11 x 73 = 803 is -> 11.
    # clinch: more than 13446 - 585 = 12861: even 12561 (every row a match) is not -> None.
    assert side_fields(out, 1) == (585, 585, 13146, "open", 11, None)
    assert cell(out, "twelve", 1).catch_up_share == 11 * 12
    assert cell(out, "twelve", 0).clinch_share == 1984
    assert not cell(out, "twelve", 0).match_enough  # 1356 + 1984 = 3340 < 13146


def test_ended_early_closes_the_open_rows() -> None:
    slate = Slate.build(TEAMS, 0, [hand("suit_H", 0, 129), hand("obenabe", 1, 157, match=True)])
    out = outlook(slate, ended=True)
    assert side_fields(out, 0) == (48, 48, 48, "lost", None, None)
    assert side_fields(out, 1) == (125, 125, 125, "won", 0, 0)
    assert not any(c.open for r in out.rows for c in r.cells)


# --- three players (6.1) ----------------------------------------------------------------------
def test_three_row_with_one_open_cell() -> None:
    # Ann 100, Beth 40, Cath open, a suit row (1 stick, 1 potato).
    # Cath above 100 (or a match): Cath sticks, Beth potatoes; at 100: a cut for the sticks;
    # between: Ann sticks, Beth potatoes; at 40: a cut for the potatoes; below (or countermatch):
    # Ann sticks, Cath potatoes. Her match adds +2 / -1 / -1, her countermatch -2 / +1 / +1.
    r = row_range((100, 40, None), 1)
    # Ann: most +1 and +1 (Cath's countermatch) = 2; least: Cath's match, Ann in the middle, -1.
    # Beth: most: Cath's countermatch, Beth in the middle, +1; least: -1 potato, -1 for Cath's match.
    # Cath: most +1 +2 = 3; least -1 -2 = -3.
    assert (r.lo, r.hi) == ((-1, -2, -3), (2, 1, 3))
    assert (r.sticks, r.potatoes) == ((0, 2), (1, 2))
    assert not r.determined


def test_three_net_ranges_at_the_start_of_an_evening() -> None:
    out = outlook(Slate.build(THREE, 0, []))
    # Best case for one player: a match in each of her ten rows and countermatches of both
    # others: the sticks of every row (19), +2 x 10 for her matches, +1 x 20 for theirs: 59.
    assert [side_fields(out, s) for s in range(3)] == [(0, -59, 59, "open", None, None)] * 3
    assert all(r.sticks == r.potatoes == (0, 1, 2) for r in out.rows)


def test_three_ranges_with_a_half_written_row() -> None:
    slate = Slate.build(THREE, 0, [hand("suit_C", 0, 100), hand("suit_C", 1, 40)])
    out = outlook(slate)
    # Nine untouched rows (values 18) give each player -(18 + 4 x 9) .. 18 + 4 x 9 = -54..54,
    # plus suit_C as above: Ann -1..2, Beth -2..1, Cath -3..3.
    assert [side_fields(out, s)[:3] for s in range(3)] == [(0, -55, 56), (0, -56, 55), (0, -57, 57)]
    row = next(r for r in out.rows if r.key == "suit_C")
    assert (row.sticks, row.potatoes) == ((0, 2), (1, 2))
    assert [c.open for c in row.cells] == [False, False, True]


def _book(without: str | None = None, **changes: tuple[int | None, ...]) -> Slate:
    return slate_of(THREE, {k: v for k, v in {**BOOK, **changes}.items() if k != without})


def test_three_the_books_evening() -> None:
    out = outlook(_book())
    assert [side_fields(out, s) for s in range(3)] == [
        (13, 13, 13, "won", None, None),
        (-9, -9, -9, "lost", None, None),
        (-4, -4, -4, "lost", None, None),
    ]
    # Before joker2 x3 (Ann 80, Beth 40, Cath 120: Cath's sticks, Beth's potatoes): Ann 13,
    # Beth -9 + 3 = -6, Cath -4 - 3 = -7. The untouched row can give each -3 - 4 .. 3 + 4.
    # Ann's least, 6, is above Beth's most, 1, and Cath's, 0: she has won with a row to go.
    out = outlook(_book(without="joker2"))
    assert [side_fields(out, s)[:4] for s in range(3)] == [
        (13, 6, 20, "won"),
        (-6, -13, 1, "lost"),
        (-7, -14, 0, "lost"),
    ]
    # Before gustav x3 too (Ann 120, Beth countermatch, Cath 80: Ann +3, Beth -3, and the
    # countermatch's marks Ann +1, Beth -2, Cath +1): Ann 13 - 4 = 9, Beth -6 + 5 = -1,
    # Cath -7 - 1 = -8; two untouched rows x3 give each -14 .. 14.
    out = outlook(_book(without="joker2", gustav=(None, None, None)))
    assert [side_fields(out, s)[:4] for s in range(3)] == [
        (9, -5, 23, "open"),
        (-1, -15, 13, "open"),
        (-8, -22, 6, "open"),
    ]


def test_three_pending_tie_is_either_way_until_cut() -> None:
    slate = _book(suit_H=(100, 100, 40))  # Ann and Beth tie for the stick of suit_H; Cath's potato is sure
    out = outlook(slate)
    # Without suit_H's stick: Ann 13 - 1 = 12, Beth -9, Cath -4 (her potato counts); the cut gives Ann or Beth +1.
    assert [side_fields(out, s)[:4] for s in range(3)] == [
        (12, 12, 13, "won"),  # 12 is above Beth's best -8 and Cath's -4
        (-9, -9, -8, "lost"),
        (-4, -4, -4, "lost"),
    ]
    row = next(r for r in out.rows if r.key == "suit_H")
    assert (row.sticks, row.potatoes) == ((0, 1), (2,))
    cut = outlook(slate, cuts=[Cut("suit_H", "high", 1, drawn=False)])
    assert [side_fields(cut, s)[:3] for s in range(3)] == [(12, 12, 12), (-8, -8, -8), (-4, -4, -4)]
    assert next(r for r in cut.rows if r.key == "suit_H").sticks == (1,)
    # as for the result: a later cut that does not fit the tie (Cath is not in it) is ignored
    stale = outlook(slate, cuts=[Cut("suit_H", "high", 1, drawn=False), Cut("suit_H", "high", 2, drawn=False)])
    assert stale.sides == cut.sides


def test_to_dict_is_plain_json() -> None:
    out = outlook(Slate.build(TEAMS, 0, [hand("suit_H", 0, 129)]))
    data = json.loads(json.dumps(out.to_dict()))
    assert set(data) >= {"sides", "rows"}
    assert set(data["sides"][0]) == {
        "side",
        "total",
        "min",
        "max",
        "decided",
        "catch_up",
        "clinch",
        "win",
        "shared",
        "expected",
        "lead_need",
        "sure_need",
    }
    assert data["sides"][0]["lead_need"] == {"kind": "there", "points": None, "rows": [], "matches": None}
    assert set(data["rows"][0]) == {"key", "factor", "max", "cells", "sticks", "potatoes"}
    assert set(data["rows"][0]["cells"][0]) == {
        "side",
        "open",
        "value",
        "match_enough",
        "catch_up_share",
        "clinch_share",
        "lead_alone",
        "sure_alone",
    }


# --- properties -------------------------------------------------------------------------------
variants = st.sampled_from([Variant.TEAMS, Variant.SOLO4, Variant.CLUB])
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def _open_cells(slate: Slate) -> list[tuple[str, int]]:
    rs = slate.ruleset
    return [(r.key, s) for s in range(rs.n_sides) for r in rs.rows if (r.key, s) not in slate.cells]


def _value(slate: Slate, row_key: str, side: int, outcome: int) -> int:
    """A cell's value by the slate's own arithmetic (a real entry), independent of the outlook."""
    return cell_value(slate.ruleset, outcome_entry(slate.ruleset, row_key, slate.ruleset.seats_of(side)[0], outcome))


def _late_slate(variant: Variant, seed: int, open_cells: int) -> Slate:
    rs = default_ruleset(variant)
    rng = random.Random(seed)
    return Slate.build(rs, 0, random_evening(rs, rng, stop=rs.n_hands - open_cells, seich_rate=0.0))


@PROFILE
@given(variant=variants, seed=seeds, stop=st.integers(min_value=0, max_value=48))
def test_min_total_max(variant: Variant, seed: int, stop: int) -> None:
    rs = default_ruleset(variant)
    slate = Slate.build(rs, 0, random_evening(rs, random.Random(seed), stop=stop))
    out = outlook(slate)
    for s in out.sides:
        assert s.min <= s.total <= s.max
        assert s.total == slate.totals[s.side]
        assert s.max == s.total + sum(_value(slate, k, s.side, 257) for k, side in _open_cells(slate) if side == s.side)
    won = [s.side for s in out.sides if s.decided == "won"]
    assert len(won) <= 1
    if won:
        assert all(s.decided == "lost" for s in out.sides if s.side != won[0])


@PROFILE
@given(variant=variants, seed=seeds, n_open=st.integers(min_value=0, max_value=7))
def test_decided_agrees_with_brute_force(variant: Variant, seed: int, n_open: int) -> None:
    slate = _late_slate(variant, seed, n_open)
    cells = _open_cells(slate)
    n = slate.ruleset.n_sides
    results: list[list[Any]] = []  # per completion: the set of strict winners, or None for a shared win
    for combo in itertools.product((0, 257), repeat=len(cells)):
        totals = list(slate.totals)
        for (key, side), o in zip(cells, combo, strict=True):
            totals[side] += _value(slate, key, side, o)
        results.append([all(totals[s] > totals[o] for o in range(n) if o != s) for s in range(n)] + [totals])
    out = outlook(slate)
    for s in range(n):
        always_wins = all(r[s] for r in results)
        always_beaten = all(any(r[-1][o] > r[-1][s] for o in range(n)) for r in results)
        expected = "won" if always_wins else "lost" if always_beaten else "open"
        assert out.sides[s].decided == expected


@PROFILE
@given(variant=variants, seed=seeds, stop=st.integers(min_value=0, max_value=48))
def test_catch_up_and_clinch_are_minimal_and_sufficient(variant: Variant, seed: int, stop: int) -> None:
    rs = default_ruleset(variant)
    slate = Slate.build(rs, 0, random_evening(rs, random.Random(seed), stop=stop))
    out = outlook(slate)
    cells = _open_cells(slate)

    def lifted(side: int, p: int) -> int:
        return slate.totals[side] + sum(_value(slate, k, s, p) for k, s in cells if s == side)

    for s in out.sides:
        others = [o for o in out.sides if o.side != s.side]
        for line, bar in ((s.catch_up, max(o.total for o in others)), (s.clinch, max(o.max for o in others))):
            if line is None:
                assert lifted(s.side, 257) <= bar  # not even a match everywhere
                continue
            assert lifted(s.side, line) > bar  # sufficient
            i = POINTS_LINE.index(line)
            assert i == 0 or lifted(s.side, POINTS_LINE[i - 1]) <= bar  # minimal
        ceiling = max(o.max for o in others)
        for row in out.rows:
            c = row.cells[s.side]
            if not c.open:
                continue
            assert c.match_enough == (s.decided != "won" and s.total + _value(slate, row.key, s.side, 257) > ceiling)
            if s.catch_up is not None:
                assert c.catch_up_share == _value(slate, row.key, s.side, s.catch_up)
            if s.clinch is not None:
                assert c.clinch_share == _value(slate, row.key, s.side, s.clinch)


@PROFILE
@given(variant=variants, seed=seeds, stop=st.integers(min_value=0, max_value=48))
def test_the_least_a_side_needs_is_least_and_enough(variant: Variant, seed: int, stop: int) -> None:
    rs = default_ruleset(variant)
    slate = Slate.build(rs, 0, random_evening(rs, random.Random(seed), stop=stop))
    out = outlook(slate)
    cells = _open_cells(slate)
    for s in out.sides:
        if not cells or s.decided != "open":  # over, or decided: nothing left to need, no star
            assert s.lead_need is None and s.sure_need is None
            assert not any(r.cells[s.side].match_enough for r in out.rows)
            continue
        mine = [k for k, side in cells if side == s.side]
        others = [o for o in out.sides if o.side != s.side]
        needs = (
            (s.lead_need, s.catch_up, max(o.total for o in others)),
            (s.sure_need, s.clinch, max(o.max for o in others)),
        )
        for need, line, bar in needs:
            assert need is not None
            gap = bar - s.total

            def alone(key: str) -> int | None:  # brute force: the least outcome in this row alone
                return next((p for p in POINTS_LINE if _value(slate, key, s.side, p) > gap), None)

            least = {k: alone(k) for k in mine}
            if need.kind == "there":
                assert gap < 0
            elif need.kind == "cell":  # one hand is enough, and no hand with fewer points is
                assert gap >= 0 and need.points == min(p for p in least.values() if p is not None)
                assert set(need.rows) == {k for k, p in least.items() if p == need.points}
            else:  # no single hand does it
                assert all(p is None for p in least.values())
                if need.kind == "average":
                    assert need.points == line and line is not None and line < 257
                elif need.kind == "matches":
                    assert line == 257 and need.matches is not None
                    full = sum(_value(slate, k, s.side, 157) for k in mine)
                    extra = {k: _value(slate, k, s.side, 257) - _value(slate, k, s.side, 157) for k in mine}
                    best = [sum(extra[k] for k in combo) for combo in itertools.combinations(mine, need.matches)]
                    fewer = [sum(extra[k] for k in c) for c in itertools.combinations(mine, need.matches - 1)]
                    assert full + max(best) > gap and full + max(fewer) <= gap
                else:
                    assert need.kind in ("others", "out") and line is None
        # the star on the slate and the words come from the same cells
        starred = {r.key for r in out.rows if r.cells[s.side].match_enough}
        assert starred == {r.key for r in out.rows if r.cells[s.side].sure_alone}
        assert bool(starred) == (s.sure_need is not None and s.sure_need.kind == "cell")
        if s.sure_need is not None and s.sure_need.kind == "cell":
            assert set(s.sure_need.rows) <= starred


ALL_OUTCOMES = (-1, *range(158), 257)


def _brute_row(
    values: tuple[int | None, ...], factor: int, outcomes: tuple[int, ...] = ALL_OUTCOMES
) -> tuple[list[int], list[int], set[int], set[int]]:
    """Every completion of a three-player row and every cut: per player least and most term."""
    open_seats = [s for s, v in enumerate(values) if v is None]
    lo, hi = [99] * 3, [-99] * 3
    sticks: set[int] = set()
    potatoes: set[int] = set()
    for combo in itertools.product(outcomes, repeat=len(open_seats)):
        vals = [0 if v is None else v for v in values]  # the open seats are filled below
        marks = [0, 0, 0]
        for seat, o in zip(open_seats, combo, strict=True):
            vals[seat] = max(o, 0)
            if o in (257, -1):
                sign = 1 if o == 257 else -1
                for p in range(3):
                    marks[p] += sign * (2 if p == seat else -1)
        top_v, low_v = max(vals), min(vals)
        # a cut may give the sticks to any of the highest and the potatoes to any of the
        # lowest (with three equal cells one cut of three: two different players)
        pairs = [(t, b) for t in range(3) for b in range(3) if vals[t] == top_v and vals[b] == low_v and t != b]
        for t, b in pairs:
            sticks.add(t)
            potatoes.add(b)
            for p in range(3):
                term = (factor if p == t else 0) - (factor if p == b else 0) + marks[p]
                lo[p] = min(lo[p], term)
                hi[p] = max(hi[p], term)
    return lo, hi, sticks, potatoes


cell_values = st.one_of(st.none(), st.sampled_from((0, 1, 2, 40, 78, 79, 80, 155, 156, 157, 257)))


@settings(max_examples=60 if SOAK else 12, deadline=None, derandomize=not SOAK)
@given(values=st.tuples(cell_values, cell_values, cell_values), factor=st.integers(min_value=1, max_value=3))
def test_three_row_range_is_exact(values: tuple[int | None, ...], factor: int) -> None:
    if values.count(None) == 3:  # 160**3 completions: the untouched row has its own test
        values = (None, None, 80)
    lo, hi, sticks, potatoes = _brute_row(values, factor)
    r = row_range(values, factor)
    assert (list(r.lo), list(r.hi), set(r.sticks), set(r.potatoes)) == (lo, hi, sticks, potatoes)
    assert all(a <= k <= b for a, k, b in zip(r.lo, r.known, r.hi, strict=True))


def test_three_untouched_row_range_is_exact() -> None:
    # With no cell written only the order matters: outcomes -1, 0..3 and 257 reach every order.
    for factor in (1, 2, 3):
        lo, hi, sticks, potatoes = _brute_row((None, None, None), factor, (-1, 0, 1, 2, 3, 257))
        r = row_range((None, None, None), factor)
        assert (list(r.lo), list(r.hi), set(r.sticks), set(r.potatoes)) == (lo, hi, sticks, potatoes)


@PROFILE
@given(seed=seeds, stop=st.integers(min_value=0, max_value=30), cut=st.booleans())
def test_three_min_total_max_and_sound_decisions(seed: int, stop: int, cut: bool) -> None:
    rng = random.Random(seed)
    slate = Slate.build(THREE, 0, random_evening(THREE, rng, stop=stop))
    cuts = [draw_cut(t, rng) for t in ties(slate)] if cut else []
    out = outlook(slate, cuts=cuts)
    for s in out.sides:
        assert s.min <= s.total <= s.max
    # every known stick has its potato, but for the row that waits for its cut: of a tie for the
    # sticks only the potatoes are known, of a tie for the potatoes only the sticks
    waiting = [t for t in ties(slate) if not cut]
    factor = {r.key: r.factor for r in THREE.rows}
    unmatched = sum({"high": -1, "low": 1, "all": 0}[t.end] * factor[t.row_key] for t in waiting)
    assert sum(s.total for s in out.sides) == unmatched
    won = [s.side for s in out.sides if s.decided == "won"]
    if won:
        assert all(s.decided == "lost" for s in out.sides if s.side != won[0])
    if slate.complete and cut:  # everything known: the outlook is the result
        res = final_result(slate, cuts)
        assert res.net == tuple(s.total for s in out.sides) == tuple(s.min for s in out.sides)
