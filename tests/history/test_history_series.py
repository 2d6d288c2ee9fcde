"""The numbers behind the charts agree with the statistics and the ratings."""

from __future__ import annotations

import pytest

from scorekeeper.history.housekeeping import view
from scorekeeper.history.ratings import Ladder, ratings
from scorekeeper.history.sample import sample_circle
from scorekeeper.history.series import contract_points, money_over_time, rating_over_time
from scorekeeper.history.stats import circle_stats

VIEW = view(sample_circle(9, evenings=50, players=6))


def test_money_over_time_ends_at_each_players_net() -> None:
    data = money_over_time(VIEW)
    stats = circle_stats(VIEW)
    assert {s.key: s.values[-1] for s in data.series} == {p.player: p.net_rappen for p in stats.players if p.evenings}
    assert [s.values[-1] for s in data.series] == sorted((s.values[-1] for s in data.series), reverse=True)  # type: ignore[type-var]  # each ends with a value
    for s in data.series:
        first = next(i for i, v in enumerate(s.values) if v is not None)
        assert all(v is None for v in s.values[:first]) and all(v is not None for v in s.values[first:])
    rows = data.rows()
    assert len(rows) == len(data.x) and rows[-1][2] == tuple(s.values[-1] for s in data.series)
    assert sum(v for v in rows[-1][2] if v is not None) == 0


def test_rating_over_time_ends_at_the_current_rating() -> None:
    ladder = ratings(VIEW)[Ladder.THREE]
    data = rating_over_time(ladder)
    for s, r in zip(data.series, ladder.players, strict=True):
        assert s.values[-1] == pytest.approx(r.rating.mu)
        assert s.low is not None and s.high is not None  # a rating's band
        assert s.low[-1] == pytest.approx(r.rating.mu - r.rating.sigma)
        assert s.high[-1] == pytest.approx(r.rating.mu + r.rating.sigma)
    assert len(data.x) == len({pt.evening for r in ladder.players for pt in r.history})
    two = rating_over_time(ladder, [ladder.players[0].player])
    assert len(two.series) == 1


def test_contract_points_are_the_statistics_averages() -> None:
    stats = circle_stats(VIEW)
    data = contract_points(stats, ["p1", "p2"])
    for kind, values, hands in data.rows():
        for pid, v, n in zip(("p1", "p2"), values, hands, strict=True):
            found = [c for c in stats.contracts_of(pid) if c.kind is kind]
            assert (v, n) == ((found[0].average, found[0].hands) if found else (None, 0))
