"""Statistics worked by hand from RULES.md, and their invariants over a synthetic circle."""

from __future__ import annotations

from dataclasses import replace

import pytest
from history_helpers import BOOK, at, circle, evening, hand_for, players, table

from scorekeeper.game.contracts import Contract, Kind
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.history.housekeeping import view
from scorekeeper.history.outcome import clear_cache, outcome
from scorekeeper.history.records import CircleRecord, Housekeeping, HousekeepingKind, Status
from scorekeeper.history.sample import sample_circle
from scorekeeper.history.stats import Filter, Season, card_points, circle_stats

THREE = default_ruleset(Variant.THREE)
TEAMS = default_ruleset(Variant.TEAMS)
CLUB = default_ruleset(Variant.CLUB)
ROSTER = players("Ann", "Beth", "Cath", "Dora", "Ella")


def team_entries() -> list[HandEntry]:
    """Team 0 (seats 0+2) makes 100 in every row, team 1 (seats 1+3) 60.

    Totals: 10 x (1+2+...+8) = 360 against 6 x 36 = 216; the difference 144 at
    10 Rappen per 10 points is CHF 1.44, 72 Rappen per partner, rounded to 5: 70.
    Seat 0 declares the four suit rows, seat 2 the rest; seat 1 declares every row of team 1.
    """
    out = []
    for i, row in enumerate(TEAMS.rows):
        out.append(hand_for(TEAMS, row.key, 0 if i < 4 else 2, 100))
        out.append(hand_for(TEAMS, row.key, 1, 60))
    return out


def book_and_team() -> CircleRecord:
    book = evening("book", THREE, ["p1", "p2", "p3"], table(THREE, BOOK), day=0)
    team = evening("team", TEAMS, ["p1", "p2", "p3", "p4"], team_entries(), day=1)
    return circle(ROSTER, [book, team])


def test_per_player_evenings_wins_money_sticks_and_potatoes() -> None:
    stats = circle_stats(view(book_and_team()))
    got = {p.name: (p.evenings, p.wins, p.net_rappen, p.sticks, p.potatoes) for p in stats.players}
    # Book: Ann 16 sticks 3 potatoes (+13), Beth 3/12 (-9), Cath 3/7 (-4), CHF 1 a stick;
    # team game: Ann and Cath +70 each, Beth and Dora -70.
    assert got == {
        "Ann": (2, 2, 1300 + 70, 16, 3),
        "Beth": (2, 0, -900 - 70, 3, 12),
        "Cath": (2, 1, -400 + 70, 3, 7),
        "Dora": (1, 0, -70, 0, 0),
        "Ella": (0, 0, 0, 0, 0),
    }
    assert stats.evenings == 2 and stats.hands == 30 + 16
    assert sum(p.net_rappen for p in stats.players) == 0


def test_per_player_and_contract() -> None:
    stats = circle_stats(view(book_and_team()))
    ann_suit = next(c for c in stats.contracts_of("p1") if c.kind is Kind.SUIT)
    # Book: suit_C match (157), hearts/shields/bells 120 each, both jokers played as a suit (40, 80);
    # team game: the four suit rows at 100.
    assert ann_suit.hands == 6 + 4
    assert ann_suit.points == 157 + 3 * 120 + 40 + 80 + 4 * 100
    assert ann_suit.matches == 1 and ann_suit.countermatches == 0
    assert ann_suit.average == pytest.approx(1037 / 10) and ann_suit.match_rate == pytest.approx(0.1)
    assert (ann_suit.best.evening, ann_suit.best.row_key, ann_suit.best.scored) == ("book", "suit_C", 257)
    assert (ann_suit.worst.evening, ann_suit.worst.row_key, ann_suit.worst.points) == ("book", "joker1", 40)
    beth_gustav = next(c for c in stats.contracts_of("p2") if c.kind is Kind.GUSTAV)
    assert (beth_gustav.hands, beth_gustav.points, beth_gustav.countermatches) == (1, 0, 1)
    assert beth_gustav.countermatch_rate == 1.0
    cath = {c.kind for c in stats.contracts_of("p3")}
    assert Kind.OBENABE in cath and Kind.UNDENUFE in cath  # declared by seat 2 in the team game


def test_team_pairings_and_head_to_head() -> None:
    stats = circle_stats(view(book_and_team()))
    pairs = {p.players: (p.evenings, p.wins, p.net_rappen, p.points) for p in stats.pairings}
    assert pairs == {("p1", "p3"): (1, 1, 70, 360), ("p2", "p4"): (1, 0, -70, 216)}
    h2h = {h.players: (h.evenings, h.ahead, h.level) for h in stats.head_to_head}
    assert h2h == {
        ("p1", "p2"): (2, (2, 0), 0),
        ("p2", "p3"): (2, (0, 2), 0),
        ("p1", "p3"): (1, (1, 0), 0),  # partners in the team game: only the book evening
        ("p1", "p4"): (1, (1, 0), 0),
        ("p3", "p4"): (1, (1, 0), 0),
    }


def test_filters_by_season_and_variant() -> None:
    v = view(book_and_team())
    assert circle_stats(v, Filter(variant=Variant.TEAMS)).evenings == 1
    assert circle_stats(v, Filter(Season(start=at(1)))).evenings == 1  # start included
    assert circle_stats(v, Filter(Season(end=at(1)))).evenings == 1  # end excluded
    only_book = circle_stats(v, Filter(Season(at(-1), at(1)), Variant.THREE))
    assert only_book.player("p4").evenings == 0 and only_book.player("p1").net_rappen == 1300


def test_open_and_deleted_evenings_count_nowhere() -> None:
    c = book_and_team()
    still_open = evening("open", THREE, ["p3", "p4", "p5"], table(THREE, BOOK), day=2, status=Status.OPEN)
    c = replace(
        c,
        evenings=(*c.evenings, still_open),
        housekeeping=(Housekeeping(1, HousekeepingKind.DELETE_EVENING, evening="team"),),
    )
    stats = circle_stats(view(c))
    assert stats.evenings == 1 and stats.player("p4").evenings == 0 and stats.player("p5").evenings == 0


def test_a_merge_and_a_rename_are_honoured() -> None:
    c = book_and_team()
    events = (
        Housekeeping(1, HousekeepingKind.MERGE, player="p4", into="p5"),  # Dora is Ella
        Housekeeping(2, HousekeepingKind.RENAME, player="p5", name="Ella Dora"),
    )
    stats = circle_stats(view(replace(c, housekeeping=events)))
    assert [p.name for p in stats.players] == ["Ann", "Beth", "Cath", "Ella Dora"]
    assert stats.player("p5").evenings == 1 and stats.player("p5").net_rappen == -70
    assert ("p2", "p5") in {p.players for p in stats.pairings}


def test_an_evening_ended_early_counts_in_money_only_if_the_table_says_so() -> None:
    early = table(THREE, {"suit_C": (120, 80, 40)})  # one row: Ann 1 stick, Cath 1 potato
    for counts, money in ((True, 100), (False, 0)):
        c = circle(ROSTER, [evening("e", THREE, ["p1", "p2", "p3"], early, counts_in_money=counts)])
        ann = circle_stats(view(c)).player("p1")
        assert (ann.evenings, ann.wins, ann.sticks, ann.net_rappen, ann.money_evenings) == (
            1,
            1,
            1,
            money,
            int(counts),
        )


def test_paper_cells_count_in_money_but_not_in_hand_statistics() -> None:
    played = evening("a", THREE, ["p1", "p2", "p3"], table(THREE, BOOK))
    typed = [
        HandEntry.paper(
            e.row_key or "",
            e.declarer_seat,
            257 if e.match else e.declarer_points,
            match=e.match,
            countermatch=e.countermatch,
        )
        for e in played.entries
    ]
    paper = replace(played, id="b", log=tuple(replace(r, entry=t) for r, t in zip(played.log, typed, strict=True)))
    s_played = circle_stats(view(circle(ROSTER, [played])))
    s_paper = circle_stats(view(circle(ROSTER, [paper])))
    money = [(p.net_rappen, p.wins, p.sticks, p.potatoes) for p in s_played.players]
    assert money == [(p.net_rappen, p.wins, p.sticks, p.potatoes) for p in s_paper.players]
    assert s_paper.hands == 0 and s_paper.contracts == () and s_paper.player("p1").paper_cells == 10
    assert card_points(view(circle(ROSTER, [paper]))) == {}


def test_misere_best_and_worst_read_the_opponents_pile() -> None:
    misere = Contract(Kind.MISERE, misere_as=Kind.OBENABE)
    entries = [
        HandEntry("misere_zwueschi", 0, misere, 10, 147),  # writes 147 x 5
        HandEntry("misere_zwueschi", 1, misere, 0, 157, countermatch=True),  # writes 157 x 5 + 100
    ]
    c = circle(ROSTER, [evening("m", CLUB, ["p1", "p2", "p3", "p4"], entries, counts_in_money=False)])
    stats = circle_stats(view(c))
    ann = stats.contracts_of("p1")[0]
    beth = stats.contracts_of("p2")[0]
    assert (ann.kind, ann.points, ann.best.scored, ann.best.value) == (Kind.MISERE, 10, 147, 735)
    assert (beth.points, beth.best.scored, beth.best.value) == (0, 257, 885)


def test_card_points_per_contract_code() -> None:
    points = card_points(view(book_and_team()))
    assert points[("p1", "suit:C")][0] == 157  # the book's first row, a fixed suit row
    assert points[("p2", "gustav")] == [0]
    assert sum(len(v) for v in points.values()) == 46


def test_invariants_over_a_synthetic_circle() -> None:
    c = sample_circle(7, evenings=60)
    v = view(c)
    stats = circle_stats(v)
    assert sum(p.net_rappen for p in stats.players) == 0
    assert sum(p.evenings for p in stats.players) == sum(ev.ruleset.n_players for ev in c.evenings)
    assert sum(c_.hands for c_ in stats.contracts) == stats.hands == sum(p.hands for p in stats.players)
    played = sum(1 for ev in c.evenings for e in ev.entries if not e.seich and not e.imported)
    assert stats.hands == played
    assert all(c_.worst.scored <= c_.best.scored for c_ in stats.contracts)
    # the version key gives the same outcome as the content key
    clear_cache()
    versioned = [outcome(replace(ev, version=3)) for ev in c.evenings]
    assert [o.result for o in versioned] == [outcome(ev).result for ev in c.evenings]
