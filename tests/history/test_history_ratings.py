"""OpenSkill ratings: Plackett-Luce defaults, evenings in end-time order, three ladders."""

from __future__ import annotations

from dataclasses import replace

import pytest
from history_helpers import BOOK, circle, evening, players, table
from openskill.models import PlackettLuce

from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.history import ratings as ratings_module
from scorekeeper.history.housekeeping import view
from scorekeeper.history.ratings import Ladder, ladder_of, ranks, ratings
from scorekeeper.history.records import Housekeeping, HousekeepingKind
from scorekeeper.history.sample import sample_circle
from scorekeeper.history.stats import Filter

THREE = default_ruleset(Variant.THREE)
ROSTER = players("Ann", "Beth", "Cath", "Dora")


def test_every_variant_is_rated_on_a_ladder() -> None:
    """No side map of variants: the ladder follows from the rule set, so a variant added later is
    rated (a team game with the teams, players alone by their number) instead of a KeyError."""
    ladders = {v: ladder_of(default_ruleset(v)) for v in Variant}
    assert ladders == {
        Variant.THREE: Ladder.THREE,
        Variant.SOLO4: Ladder.SOLO,
        Variant.TEAMS: Ladder.TEAM,
        Variant.CLUB: Ladder.TEAM,
    }
    assert set(ladders.values()) == set(Ladder)  # every ladder is some variant's


def test_ranks_share_places_on_equal_scores() -> None:
    assert ranks((13, -9, -4)) == [1, 3, 2]
    assert ranks((360, 360)) == [1, 1]
    assert ranks((5, 9, 9, 1)) == [3, 1, 1, 4]


def test_one_evening_is_one_plackett_luce_update_from_the_defaults() -> None:
    c = circle(ROSTER, [evening("e1", THREE, ["p2", "p1", "p3"], table(THREE, BOOK))])
    ladder = ratings(view(c))[Ladder.THREE]
    model = PlackettLuce()
    a, b, c_ = model.rating(), model.rating(), model.rating()
    expected = model.rate([[a], [b], [c_]], ranks=[1, 3, 2])  # Beth (seat 0) +13, Ann -9, Cath -4
    got = {r.player: (r.rating.mu, r.rating.sigma) for r in ladder.players}
    assert got["p2"] == pytest.approx((expected[0][0].mu, expected[0][0].sigma))
    assert got["p1"] == pytest.approx((expected[1][0].mu, expected[1][0].sigma))
    assert [r.player for r in ladder.players] == ["p2", "p3", "p1"]  # best ordinal first
    assert ladder.default.mu == 25 and ladder.default.sigma == pytest.approx(25 / 3)
    assert ratings(view(c))[Ladder.TEAM].players == ()


def test_evenings_are_rated_in_order_of_their_end_time() -> None:
    first = evening("b", THREE, ["p1", "p2", "p3"], table(THREE, BOOK), day=0)
    second = evening("a", THREE, ["p3", "p2", "p1"], table(THREE, BOOK), day=1)
    one = ratings(view(circle(ROSTER, [first, second])))[Ladder.THREE]
    two = ratings(view(circle(ROSTER, [second, first])))[Ladder.THREE]  # stored order does not matter
    assert one == two
    ann = next(p for p in one.players if p.player == "p1")
    assert [pt.evening for pt in ann.history] == ["b", "a"] and ann.evenings == 2
    assert ann.rating == ann.history[-1].rating


def test_a_merged_player_is_rated_as_one_person_from_the_start() -> None:
    evs = [
        evening("e1", THREE, ["p1", "p2", "p3"], table(THREE, BOOK), day=0),
        evening("e2", THREE, ["p4", "p2", "p3"], table(THREE, BOOK), day=1),
    ]
    merged = view(circle(ROSTER, evs, housekeeping=[Housekeeping(1, HousekeepingKind.MERGE, player="p4", into="p1")]))
    always_one = view(circle(ROSTER, [evs[0], replace(evs[1], seats=("p1", "p2", "p3"))]))
    assert ratings(merged) == ratings(always_one)


def test_ladders_and_the_prefix_memo_agree_with_a_fresh_run() -> None:
    c = sample_circle(11, evenings=80)
    v = view(c)
    cached = ratings(v)
    ratings_module._RUNS.clear()
    assert ratings(v) == cached
    shorter = ratings(v, Filter(variant=Variant.SOLO4))
    assert set(shorter[Ladder.SOLO].players) == set(cached[Ladder.SOLO].players)
    assert shorter[Ladder.THREE].players == ()
    for ladder, rated in cached.items():
        for p in rated.players:
            assert p.rating.sigma < rated.default.sigma  # every evening makes it surer
            assert p.evenings == len(p.history)
        variants = {
            Ladder.THREE: {Variant.THREE},
            Ladder.SOLO: {Variant.SOLO4},
            Ladder.TEAM: {Variant.TEAMS, Variant.CLUB},
        }
        n = sum(1 for ev in c.evenings if ev.ruleset.variant in variants[ladder])
        assert sum(p.evenings for p in rated.players) == n * (3 if ladder is Ladder.THREE else 4)


def test_a_known_run_is_used_as_far_as_its_games_are_the_same() -> None:
    import json

    c = sample_circle(17, evenings=60)
    v = view(c)
    ratings_module._RUNS.clear()
    fresh, runs = ratings_module.rate_ladders(v)

    def through_json(r: ratings_module.Run) -> ratings_module.Run:
        games, rated = ratings_module.run_to_data(r)
        return ratings_module.run_from_data(json.loads(json.dumps(games)), json.loads(json.dumps(rated)))

    assert {ladder: through_json(r) for ladder, r in runs.items()} == runs  # floats kept exactly
    shorter = view(replace(c, evenings=c.evenings[:40]))
    _, early = ratings_module.rate_ladders(shorter)
    wrong = {}  # a run whose fifth game went otherwise: only what comes before it counts
    for ladder, (games, rated) in runs.items():
        if len(games) > 5:
            sides, rank = games[4]
            games = (*games[:4], (sides, tuple(reversed(rank))), *games[5:])
        wrong[ladder] = (games, rated)
    calls: list[int] = []
    real = ratings_module._rate

    def counting(games, start):  # type: ignore[no-untyped-def]  # _rate's stand-in: passes its arguments on
        calls.append(len(games))
        return real(games, start)

    ratings_module._rate = counting
    try:
        for known, most in ((runs, 0), (early, 20), (wrong, 60), ({}, 60)):
            ratings_module._RUNS.clear()
            calls.clear()
            got, again = ratings_module.rate_ladders(v, known=known)
            assert got == fresh and again == runs
            assert sum(calls) <= most
    finally:
        ratings_module._rate = real
    assert ratings_module.MODEL.startswith("openskill ")


@pytest.mark.parametrize("games, rated", [(None, []), ([[[["p1"]], [1]]], []), ([[1]], [[]]), ([], [[["p1", "x", 1]]])])
def test_a_stored_run_that_is_not_one_is_refused(games: object, rated: object) -> None:
    with pytest.raises(ValueError):
        ratings_module.run_from_data(games, rated)
