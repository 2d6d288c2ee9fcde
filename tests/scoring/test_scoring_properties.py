"""Hypothesis properties over whole random evenings of every variant.

Modest by default; ``SCOREKEEPER_SOAK=1`` runs many more examples.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scoring_helpers import assert_settles, min_transfers_brute, random_entry, random_evening
from shared_helpers import SOAK, row_contracts

from scorekeeper.game.errors import RuleError
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import RuleSet, Stake, Variant, default_ruleset
from scorekeeper.scoring import Slate, cell_value, draw_cut, final_result, payout, settle, ties, verify_entry

PROFILE = settings(
    max_examples=400 if SOAK else 25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=not SOAK,
)

variants = st.sampled_from(list(Variant))
seeds = st.integers(min_value=0, max_value=2**32 - 1)
stakes = st.builds(
    Stake,
    rappen=st.integers(min_value=0, max_value=500),
    per_points=st.integers(min_value=1, max_value=100),
    round_to=st.sampled_from([1, 5, 10, 50]),
)


def _ruleset(variant: Variant, stake: Stake | None = None) -> RuleSet:
    return default_ruleset(variant, stake=stake) if stake else default_ruleset(variant)


@PROFILE
@given(variant=variants, seed=seeds, early=st.booleans(), stake=stakes)
def test_evening_to_payout(variant: Variant, seed: int, early: bool, stake: Stake) -> None:
    rs = _ruleset(variant, stake)
    rng = random.Random(seed)
    first_dealer = rng.randrange(rs.n_players)
    stop = rng.randrange(rs.n_hands) if early else None
    slate = Slate.build(rs, first_dealer, random_evening(rs, rng, first_dealer=first_dealer, stop=stop))
    # team totals equal the sum over rows, and each cell is cell_value of its entry
    for side in range(rs.n_sides):
        assert slate.totals[side] == sum(c.value for c in slate.cells.values() if c.side == side)
    assert all(c.value == cell_value(rs, c.entry) for c in slate.cells.values())
    res = final_result(slate, [draw_cut(t, rng) for t in ties(slate)])
    assert res.totals == tuple(slate.totals)
    if variant is Variant.THREE:
        assert res.net is not None and sum(res.net) == 0
        sticks = sum(res.sticks(s) for s in range(3))
        potatoes = sum(res.potatoes(s) for s in range(3))
        assert sticks == potatoes  # every row and every match mark is zero-sum
        counted = [r for r in res.rows if None not in r.values]
        assert sum(r.factor for r in counted) == sum(sum(m[0] for m in r.marks) for r in counted)
        assert all(min(s, p) == 0 for s, p in res.match_row)  # cancelled
        assert set(res.winners) == {s for s in range(3) if res.net[s] == max(res.net)}
    else:
        assert set(res.winners) == {s for s in range(rs.n_sides) if res.totals[s] == max(res.totals)}
    pay = payout(rs, res)
    assert len(pay.net) == rs.n_players and sum(pay.net) == 0
    assert_settles(pay.net, pay.transfers)


@PROFILE
@given(st.lists(st.integers(min_value=-10_000, max_value=10_000), min_size=1, max_size=5))
def test_settle_any_zero_sum_table(amounts: list[int]) -> None:
    net = amounts + [-sum(amounts)]
    transfers = settle(net)
    assert_settles(net, transfers)
    assert len(transfers) == min_transfers_brute(net)


def _mutate(rs: RuleSet, slate: Slate, rng: random.Random) -> HandEntry:
    """A plausible hand, often wrong in one way or another."""
    good = random_entry(rs, slate, rng)
    row = rng.choice(rs.rows)
    choice = rng.random()
    if choice < 0.15:
        return good
    if choice < 0.3:
        return HandEntry(
            good.row_key,
            rng.randrange(-1, rs.n_players + 1),
            good.contract,
            good.declarer_points,
            good.defender_points,
            good.match,
            good.countermatch,
            good.seich,
        )
    if choice < 0.45:
        contract = rng.choice([None, *row_contracts(rng.choice(rs.rows))])
        return HandEntry(row.key, rng.randrange(rs.n_players), contract, 70, 87)
    if choice < 0.6:
        d = rng.randint(-5, 162)
        return HandEntry(
            good.row_key,
            good.declarer_seat,
            good.contract,
            d,
            rng.choice([157 - d, rng.randint(-5, 162)]),
            rng.random() < 0.2,
            rng.random() < 0.2,
        )
    if choice < 0.75:
        return HandEntry.seich_hand(rng.randrange(rs.n_players))
    if choice < 0.85:
        return HandEntry(
            rng.choice([None, row.key, "nope"]), rng.randrange(rs.n_players), None, 0, 0, seich=rng.random() < 0.5
        )
    return HandEntry(
        row.key,
        rng.randrange(rs.n_players),
        good.contract,
        good.declarer_points,
        good.defender_points,
        good.match,
        good.countermatch,
    )


def _outcome(fn: Callable[[], object]) -> str | None:
    try:
        fn()
    except RuleError as err:
        return err.code
    return None


@PROFILE
@given(variant=variants, seed=seeds)
def test_build_accepts_exactly_what_verify_accepts(variant: Variant, seed: int) -> None:
    rs = _ruleset(variant)
    rng = random.Random(seed)
    entries = random_evening(rs, rng, stop=rng.randrange(rs.n_hands + 1))
    slate = Slate.build(rs, 0, entries)
    for _ in range(12):
        entry = _mutate(rs, slate, rng)
        verdict = _outcome(lambda: verify_entry(rs, slate, entry))
        built = _outcome(lambda: Slate.build(rs, 0, [*entries, entry]))
        assert verdict == built


@PROFILE
@given(variant=variants, seed=seeds)
def test_correction_accepted_exactly_when_the_corrected_list_builds(variant: Variant, seed: int) -> None:
    rs = _ruleset(variant)
    rng = random.Random(seed)
    entries = random_evening(rs, rng, seich_rate=0.3)
    slate = Slate.build(rs, 0, entries)
    for _ in range(6):
        i = rng.randrange(len(entries))
        prefix = Slate.build(rs, 0, entries[:i])
        entry = _mutate(rs, prefix, rng)
        verdict = _outcome(lambda: verify_entry(rs, slate, entry, replacing=i))
        built = _outcome(lambda: Slate.build(rs, 0, [*entries[:i], entry, *entries[i + 1 :]]))
        assert (verdict is None) == (built is None), (verdict, built)
