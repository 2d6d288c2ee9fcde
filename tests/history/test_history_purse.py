"""The purse: running balances, settlements (append-only, correctable), fewest transfers."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations

import pytest
from history_helpers import BOOK, at, circle, evening, players, table
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.game.errors import RuleError
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.history.housekeeping import view
from scorekeeper.history.purse import (
    ERROR_CODES,
    EXACT_LIMIT,
    check_log,
    fewest_transfers,
    purse,
    settlements_in_force,
    verify_settlement,
)
from scorekeeper.history.records import CircleRecord, PaymentKind, Settlement
from scorekeeper.history.sample import sample_circle
from scorekeeper.history.stats import Filter, Season

THREE = default_ruleset(Variant.THREE)
ROSTER = players("Ann", "Beth", "Cath", "Dora")
IDS = ("p1", "p2", "p3", "p4")
P = PaymentKind


def pay(seq: int, payer: str, payee: str, rappen: int, day: int = 1) -> Settlement:
    return Settlement(seq, P.PAYMENT, None, payer, payee, rappen, at(day), "Ann")


def book_circle(settlements: Sequence[Settlement] = ()) -> CircleRecord:
    return circle(ROSTER, [evening("e1", THREE, ["p1", "p2", "p3"], table(THREE, BOOK))], settlements=settlements)


def test_the_books_evening_then_beth_pays() -> None:
    before = purse(view(book_circle()))
    assert before.balances == {"p1": 1300, "p2": -900, "p3": -400, "p4": 0}
    assert [(t.payer, t.payee, t.rappen) for t in before.transfers] == [("p2", "p1", 900), ("p3", "p1", 400)]
    after = purse(view(book_circle([pay(1, "p2", "p1", 900)])))
    assert after.balances == {"p1": 400, "p2": 0, "p3": -400, "p4": 0}
    assert [(t.payer, t.payee, t.rappen) for t in after.transfers] == [("p3", "p1", 400)]
    assert [line.evening or line.payment for line in after.lines] == ["e1", 1]
    assert after.lines[-1].balances == tuple(after.balances.items())
    assert after.owes() == [("p3", 400)] and after.owed() == [("p1", 400)] and after.exact


def test_a_correction_supersedes_and_a_void_takes_back() -> None:
    log = [pay(1, "p2", "p1", 500), pay(2, "p3", "p1", 400)]
    fixed = [*log, Settlement(3, P.CORRECTION, 1, "p2", "p1", 900, at(1), "Beth")]
    assert [s.rappen for s in settlements_in_force(fixed)] == [900, 400]
    voided = [*fixed, Settlement(4, P.VOID, 2)]
    assert [s.seq for s in settlements_in_force(voided)] == [3]
    check_log(IDS, voided)
    assert purse(view(book_circle(voided))).balances == {"p1": 400, "p2": 0, "p3": -400, "p4": 0}


@pytest.mark.parametrize(
    ("new", "code"),
    [
        (pay(3, "p2", "p2", 100), "payment_same_player"),
        (pay(3, "p2", "p9", 100), "player_unknown"),
        (pay(3, "p2", "p1", 0), "payment_amount"),
        (pay(3, "p2", "p1", -5), "payment_amount"),
        (replace(pay(3, "p2", "p1", 5), rappen=5.0), "payment_amount"),  # type: ignore[arg-type]  # a float on purpose
        (replace(pay(3, "p2", "p1", 5), paid_at=None), "payment_date"),
        (Settlement(3, P.CORRECTION, 7, "p2", "p1", 5, at(1)), "payment_unknown"),
        (Settlement(3, P.VOID, 1), "payment_unknown"),  # already voided
        (replace(pay(3, "p2", "p1", 5), supersedes=2), "payment_unknown"),
        (pay(2, "p2", "p1", 100), "payment_order"),
    ],
)
def test_settlement_gate(new: Settlement, code: str) -> None:
    second = Settlement(2, P.VOID, 1) if new.kind is P.VOID else pay(2, "p3", "p1", 400)
    log = [pay(1, "p2", "p1", 500), second]
    with pytest.raises(RuleError) as info:
        verify_settlement(IDS, log, new)
    assert info.value.code == code


def test_a_season_takes_its_evenings_and_its_payments() -> None:
    c = book_circle([pay(1, "p2", "p1", 900, day=40)])
    assert purse(view(c), Filter(Season(end=at(30)))).balances["p2"] == -900
    assert purse(view(c), Filter(Season(start=at(30)))).balances == {"p1": -900, "p2": 900, "p3": 0, "p4": 0}


def min_transfers_brute(amounts: list[int]) -> int:
    """n - the most disjoint zero-sum groups, by trying every partition (small n only)."""
    items = [a for a in amounts if a]

    def most(rest: tuple[int, ...]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        best = 0
        for k in range(len(others) + 1):
            for pick in combinations(range(len(others)), k):
                if first + sum(others[i] for i in pick) == 0:
                    left = tuple(x for i, x in enumerate(others) if i not in pick)
                    best = max(best, 1 + most(left))
        return best

    return len(items) - most(tuple(items))


balances = st.lists(st.integers(-40, 40).map(lambda x: 5 * x), min_size=1, max_size=7).map(lambda xs: [*xs, -sum(xs)])


@settings(max_examples=60, deadline=None, derandomize=True)
@given(amounts=balances)
def test_transfers_settle_exactly_and_are_fewest(amounts: list[int]) -> None:
    ids = [f"q{i}" for i in range(len(amounts))]
    bal = dict(zip(ids, amounts, strict=True))
    transfers, exact = fewest_transfers(ids, bal)
    left = dict(bal)
    for t in transfers:
        assert t.rappen > 0 and t.payer != t.payee
        left[t.payer] += t.rappen
        left[t.payee] -= t.rappen
    assert set(left.values()) <= {0} and exact
    assert len(transfers) == min_transfers_brute(amounts)


def test_beyond_the_exact_limit_it_still_settles_in_at_most_k_minus_one() -> None:
    rng = random.Random(5)
    amounts = [5 * rng.randint(-300, 300) for _ in range(EXACT_LIMIT + 8)]
    amounts.append(-sum(amounts))
    ids = [f"q{i}" for i in range(len(amounts))]
    transfers, exact = fewest_transfers(ids, dict(zip(ids, amounts, strict=True)))
    assert not exact
    assert len(transfers) <= sum(1 for a in amounts if a) - 1
    left = dict(zip(ids, amounts, strict=True))
    for t in transfers:
        left[t.payer] += t.rappen
        left[t.payee] -= t.rappen
    assert set(left.values()) == {0}


@settings(max_examples=15, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**31), n_pay=st.integers(0, 12))
def test_the_purse_is_zero_sum_rappen_exact(seed: int, n_pay: int) -> None:
    c = sample_circle(seed, evenings=12, players=6)
    rng = random.Random(seed)
    log: list[Settlement] = []
    for seq in range(1, n_pay + 1):
        payer, payee = rng.sample([p.id for p in c.players], 2)
        if log and rng.random() < 0.2:
            row = Settlement(seq, P.VOID, rng.choice(settlements_in_force(log) or [log[0]]).seq)
            try:
                verify_settlement([p.id for p in c.players], log, row)
            except RuleError:
                continue
        else:
            row = Settlement(seq, P.PAYMENT, None, payer, payee, 5 * rng.randint(1, 400), at(rng.randint(0, 90)))
        log.append(row)
    check_log([p.id for p in c.players], log)
    p = purse(view(replace(c, settlements=tuple(log))))
    assert sum(p.balances.values()) == 0
    assert all(sum(b for _, b in line.balances) == 0 for line in p.lines)
    assert all(type(b) is int for b in p.balances.values())
    left = dict(p.balances)
    for t in p.transfers:
        left[t.payer] += t.rappen
        left[t.payee] -= t.rappen
    assert set(left.values()) <= {0}


def test_every_code_is_exercised() -> None:
    import pathlib

    text = pathlib.Path(__file__).read_text()
    assert [c for c in ERROR_CODES if f'"{c}"' not in text] == []
