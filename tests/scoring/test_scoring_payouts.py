"""Money: Rappen, rounding, zero-sum, the fewest transfers."""

from __future__ import annotations

from fractions import Fraction

import pytest
from scoring_helpers import assert_settles, min_transfers_brute

from scorekeeper.game.rulesets import RuleSet, Stake, Variant, default_ruleset
from scorekeeper.scoring import Result, Transfer, payout, settle
from scorekeeper.scoring.payouts import apportion, round_half_up


def _result(rs: RuleSet, totals: tuple[int, ...], net: tuple[int, ...] | None = None) -> Result:
    return Result(rs.variant, True, totals, (), tuple((0, 0) for _ in totals), net, (0,))


def _teams(rappen: int, per_points: int, round_to: int = 5) -> RuleSet:
    return default_ruleset(Variant.TEAMS, stake=Stake(rappen=rappen, per_points=per_points, round_to=round_to))


def test_three_players_per_stick_exact() -> None:
    rs = default_ruleset(Variant.THREE, stake=Stake(rappen=50))
    pay = payout(rs, _result(rs, (0, 0, 0), (-3, 7, -4)))
    assert pay.net == [-150, 350, -200]
    assert pay.transfers == [Transfer(0, 1, 150), Transfer(2, 1, 200)]


def test_teams_losers_pay_split_and_rounded_to_5() -> None:
    rs = _teams(10, 10)  # 10 Rappen per 10 points
    pay = payout(rs, _result(rs, (300, 257)))  # 43 points: 43 Rappen, 21.5 each -> 20
    assert pay.net == [20, -20, 20, -20]
    assert pay.transfers == [Transfer(1, 0, 20), Transfer(3, 2, 20)]


def test_teams_half_rounds_up() -> None:
    rs = _teams(1, 1)
    assert payout(rs, _result(rs, (0, 25))).net == [-15, 15, -15, 15]  # 12.5 each -> 15
    assert payout(rs, _result(rs, (0, 24))).net == [-10, 10, -10, 10]  # 12 -> 10
    exact = _teams(1, 1, round_to=1)
    assert payout(exact, _result(exact, (0, 24))).net == [-12, 12, -12, 12]


def test_club_uses_the_same_team_rule() -> None:
    rs = default_ruleset(Variant.CLUB, stake=Stake(rappen=10, per_points=100))
    pay = payout(rs, _result(rs, (5000, 6356)))  # 1356 points: 135.6 Rappen, 67.8 each -> 70
    assert pay.net == [-70, 70, -70, 70]


def test_equal_totals_nobody_pays() -> None:
    rs = _teams(10, 10)
    pay = payout(rs, _result(rs, (400, 400)))
    assert pay.net == [0, 0, 0, 0] and pay.transfers == []


def test_solo4_every_pair_settles_its_difference() -> None:
    rs = default_ruleset(Variant.SOLO4, stake=Stake(rappen=1, per_points=1, round_to=1))
    totals = (100, 50, 30, 20)
    pay = payout(rs, _result(rs, totals))
    pairwise = [sum(totals[i] - totals[j] for j in range(4)) for i in range(4)]
    assert pay.net == pairwise == [200, 0, -80, -120]
    assert len(pay.transfers) == 2


def test_solo4_rounding_keeps_zero_sum() -> None:
    rs = default_ruleset(Variant.SOLO4, stake=Stake(rappen=10, per_points=3, round_to=5))
    pay = payout(rs, _result(rs, (101, 50, 37, 20)))
    assert sum(pay.net) == 0 and all(x % 5 == 0 for x in pay.net)
    exact = [Fraction((4 * t - 208) * 10, 3) for t in (101, 50, 37, 20)]
    assert all(abs(n - e) < 5 for n, e in zip(pay.net, exact, strict=False))


def test_apportion_largest_remainder_ties_to_lower_seat() -> None:
    assert apportion([Fraction(7, 3), Fraction(7, 3), Fraction(-14, 3)], 5) == [5, 0, -5]
    assert apportion([Fraction(5), Fraction(-5)], 5) == [5, -5]
    with pytest.raises(ValueError):
        apportion([Fraction(1)], 5)


def test_round_half_up() -> None:
    assert [round_half_up(Fraction(x, 2), 5) for x in (0, 4, 5, 9, 10)] == [0, 0, 5, 5, 5]


@pytest.mark.parametrize(
    ("net", "count"),
    [
        ([0, 0, 0], 0),
        ([1300, -900, -400], 2),
        ([5, -5, 3, -3], 2),  # two independent pairs
        ([3, -5, 5, -3], 2),  # pairs not adjacent
        ([4, -1, -1, -2], 3),
        ([2, 3, -1, -4], 3),
        ([0, 7, 0, -7], 1),
    ],
)
def test_fewest_transfers_known_cases(net: list[int], count: int) -> None:
    transfers = settle(net)
    assert len(transfers) == count
    assert_settles(net, transfers)


def test_settle_is_deterministic_and_ordered() -> None:
    net = [3, -5, 5, -3]
    assert settle(net) == settle(list(net))
    assert settle(net) == sorted(settle(net), key=lambda t: (t.payer, t.payee))
    assert settle(net) == [Transfer(1, 2, 5), Transfer(3, 0, 3)]


def test_settle_needs_zero_sum() -> None:
    with pytest.raises(ValueError):
        settle([1, 0, 0])


def test_settle_matches_brute_force_on_small_tables() -> None:
    cases = [[a, b, c, -(a + b + c)] for a in (-3, 0, 2, 5) for b in (-2, 1, 3) for c in (-5, 0, 2)]
    for net in cases:
        assert len(settle(net)) == min_transfers_brute(net)
