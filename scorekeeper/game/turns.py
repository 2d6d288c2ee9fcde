"""Whose deal, who is forehand, who speaks, and who is in the barrel (RULES.md 5).

One function answers for both the slate's turn guide and the engine's bidding, so
the two can never disagree.

Seats are in playing order (anticlockwise): forehand is the seat after the dealer.
A seat is *eligible* while its side (player, or team) still has open rows; full
sides are skipped.

Barrel rules:
- BOOK: if forehand is eligible, after everyone passed once the turn comes back
  to her and she must choose; if forehand is full, the last eligible seat of the
  round may not pass.
- ONLINE: after a full round of passes the first eligible seat must choose.
A single eligible seat must choose at once.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from .errors import N_, RuleError
from .rulesets import BarrelRule, RuleSet


def forehand(ruleset: RuleSet, dealer: int) -> int:
    return (dealer + 1) % ruleset.n_players


def next_first_dealer(ruleset: RuleSet, first_dealer: int) -> int:
    """Who deals first at the next evening ("same again"): the seat after this evening's first
    dealer (the deal moves on in playing order, as from hand to hand)."""
    return (first_dealer + 1) % ruleset.n_players


def dealer_after(ruleset: RuleSet, first_dealer: int, hands_dealt: int) -> int:
    """The dealer of the next hand after ``hands_dealt`` hands (Seich hands included)."""
    return (first_dealer + hands_dealt) % ruleset.n_players


def eligible_order(ruleset: RuleSet, dealer: int, full_sides: Collection[int]) -> list[int]:
    """Seats that may choose, in speaking order from forehand."""
    n = ruleset.n_players
    start = forehand(ruleset, dealer)
    seats = [(start + i) % n for i in range(n)]
    return [s for s in seats if ruleset.side_of(s) not in full_sides]


@dataclass(frozen=True, slots=True)
class Turn:
    seat: int  # who speaks now
    may_pass: bool  # False: in the barrel, she must choose (or, club variant, call Seich)


def turn_to_choose(ruleset: RuleSet, dealer: int, full_sides: Collection[int], passes: int) -> Turn:
    """Who speaks after ``passes`` passes in this hand, and whether she may pass."""
    order = eligible_order(ruleset, dealer, full_sides)
    if not order:
        raise RuleError(N_("Every row is filled: the evening is complete."), "evening_complete")
    if passes < 0:
        raise ValueError("passes must be >= 0")
    if len(order) == 1:
        if passes:
            raise RuleError(N_("Nobody can pass any more: a contract must be chosen."), "must_choose")
        return Turn(order[0], False)
    fh_eligible = order[0] == forehand(ruleset, dealer)
    if ruleset.barrel is BarrelRule.BOOK and not fh_eligible:
        last = len(order) - 1
        if passes < last:
            return Turn(order[passes], True)
        if passes == last:
            return Turn(order[last], False)
    else:
        if passes < len(order):
            return Turn(order[passes], True)
        if passes == len(order):
            return Turn(order[0], False)
    raise RuleError(N_("Nobody can pass any more: a contract must be chosen."), "must_choose")


def barrel_seat(ruleset: RuleSet, dealer: int, full_sides: Collection[int]) -> int:
    """The seat that must choose when everybody who may pass has passed."""
    order = eligible_order(ruleset, dealer, full_sides)
    passes = 0
    while True:
        turn = turn_to_choose(ruleset, dealer, full_sides, passes)
        if not turn.may_pass:
            return turn.seat
        passes += 1
        if passes > len(order) + 1:  # pragma: no cover - guarded by turn_to_choose
            raise AssertionError("barrel never reached")
