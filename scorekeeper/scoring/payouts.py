"""Money at the end of an evening, in whole Rappen, always zero-sum.

Rules (RULES.md 6.1-6.3, ``Stake``):

- THREE: net sticks x ``stake.rappen`` per stick, exact (no rounding).
- TEAMS / CLUB: the losing team pays the difference of the team totals x
  ``rappen / per_points``, split between the two partners. Each partner's share
  is rounded to the nearest multiple of ``stake.round_to`` Rappen, an exact half
  rounded up; each losing partner pays that share and each winning partner
  receives it, so the sum stays exactly zero. Equal totals: nobody pays.
- SOLO4: every pair settles the difference of their totals, so a player's exact
  net is (4 x her total - sum of totals) x rappen / per_points. The nets are
  rounded to multiples of ``round_to`` by the largest-remainder rule: every net
  is first rounded down, then the Rappen left over (a whole number of
  ``round_to`` units, because the exact nets sum to zero) go one unit each to the
  players with the largest remainders, ties to the lower seat. Each amount is
  therefore its exact value rounded down or up, and the sum is zero.

Transfers (``settle``): the fewest that settle every net exactly. With k players
owed or owing money, the minimum is k minus the largest number of disjoint
groups whose nets sum to zero; the groups are found exactly by a search over
subsets (seats <= 4 here, fine up to ~15). Inside a group, debtors and creditors
are paired in seat order (the first debtor pays the first creditor as much as
both allow), which needs at most size-1 transfers. Transfers are listed by
payer, then payee.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import floor
from typing import Any

from ..game.rulesets import RuleSet, Variant
from .final import Result


@dataclass(frozen=True, slots=True)
class Transfer:
    payer: int  # seat
    payee: int  # seat
    rappen: int  # > 0


@dataclass(frozen=True, slots=True)
class Payout:
    net: list[int]  # per seat, Rappen; positive receives; sums to 0
    transfers: list[Transfer]

    def to_dict(self) -> dict[str, Any]:
        return {
            "net": list(self.net),
            "transfers": [{"payer": t.payer, "payee": t.payee, "rappen": t.rappen} for t in self.transfers],
        }


def round_half_up(amount: Fraction, step: int) -> int:
    """``amount`` (>= 0) rounded to the nearest multiple of ``step``, an exact half up."""
    return floor(amount / step + Fraction(1, 2)) * step


def apportion(exact: Sequence[Fraction], step: int) -> list[int]:
    """Round amounts that sum to zero to multiples of ``step``, keeping the sum zero (largest remainder)."""
    if sum(exact) != 0:
        raise ValueError("amounts must sum to zero")
    units = [a / step for a in exact]
    base = [floor(u) for u in units]
    left = -sum(base)
    by_remainder = sorted(range(len(units)), key=lambda i: (-(units[i] - base[i]), i))
    for i in by_remainder[:left]:
        base[i] += 1
    return [b * step for b in base]


def _net_per_seat(ruleset: RuleSet, result: Result) -> list[int]:
    stake = ruleset.stake
    n_seats = ruleset.n_players
    if ruleset.variant is Variant.THREE:
        assert result.net is not None
        return [result.net[s] * stake.rappen for s in range(n_seats)]
    rate = Fraction(stake.rappen, stake.per_points)
    totals = result.totals
    if ruleset.teams:
        a, b = totals[0], totals[1]
        share = round_half_up(abs(a - b) * rate / 2, stake.round_to)
        side_sign = [0, 0] if a == b else ([1, -1] if a > b else [-1, 1])
        return [side_sign[ruleset.side_of(seat)] * share for seat in range(n_seats)]
    total = sum(totals)
    exact = [(len(totals) * t - total) * rate for t in totals]
    return apportion(exact, stake.round_to)


@lru_cache(maxsize=4096)
def _best_groups(amounts: tuple[int, ...], mask: int) -> tuple[int, tuple[int, ...]]:
    """Max number of disjoint zero-sum groups covering ``mask`` (which sums to zero), and the groups."""
    if mask == 0:
        return 0, ()
    low = mask & -mask
    rest = mask ^ low
    best: tuple[int, tuple[int, ...]] = (-1, ())
    sub = rest
    candidates = []
    while True:  # every submask of rest, combined with the lowest member
        candidates.append(sub | low)
        if sub == 0:
            break
        sub = (sub - 1) & rest
    for group in sorted(candidates):
        if sum(amounts[i] for i in range(len(amounts)) if group >> i & 1) != 0:
            continue
        count, groups = _best_groups(amounts, mask ^ group)
        if count + 1 > best[0]:
            best = (count + 1, (group,) + groups)
    return best


def settle(net: Sequence[int]) -> list[Transfer]:
    """The fewest transfers that settle ``net`` (per seat, sums to zero) exactly."""
    if sum(net) != 0:
        raise ValueError("nets must sum to zero")
    amounts = tuple(int(x) for x in net)
    mask = sum(1 << i for i, x in enumerate(amounts) if x != 0)
    _, groups = _best_groups(amounts, mask)
    out: list[Transfer] = []
    for group in groups:
        members = [i for i in range(len(amounts)) if group >> i & 1]
        debt = {i: -amounts[i] for i in members if amounts[i] < 0}
        credit = {i: amounts[i] for i in members if amounts[i] > 0}
        debtors, creditors = sorted(debt), sorted(credit)
        d = c = 0
        while d < len(debtors) and c < len(creditors):
            payer, payee = debtors[d], creditors[c]
            x = min(debt[payer], credit[payee])
            out.append(Transfer(payer, payee, x))
            debt[payer] -= x
            credit[payee] -= x
            d += debt[payer] == 0
            c += credit[payee] == 0
    return sorted(out, key=lambda t: (t.payer, t.payee))


def payout(ruleset: RuleSet, result: Result) -> Payout:
    """Each seat's net in Rappen and the fewest transfers that settle it."""
    net = _net_per_seat(ruleset, result)
    return Payout(net, settle(net))
