"""The purse (season ledger): every player's running balance over the evenings and the
recorded settlements, what each owes or is owed now, and the fewest transfers that
settle it. Whole Rappen throughout; always zero-sum.

- An evening adds each seat's ``Payout.net`` (already rounded to the stake's step by
  the scoring core) when it counts in money. A payment of r Rappen from A to B adds r
  to A's balance (her debt shrinks) and takes r from B's. Nothing is rounded here:
  the balances are sums of whole Rappen, so they stay exactly zero-sum.
- Positive balance: the purse owes her (she receives); negative: she owes.
- Settlements are an append-only log (``Settlement``): a ``payment``; a ``correction``
  supersedes a payment (or a correction) with new values; a ``void`` takes a payment
  back. ``verify_settlement`` is the gate; ``settlements_in_force`` the replay.
- A season (``Filter``) takes the evenings that ended in it and the payments made in it.
- Transfers: ``scoring.payouts.settle`` (the exact minimum) after pairing off equal
  and opposite balances (always part of some optimal answer, so still exact). If more
  than ``EXACT_LIMIT`` balances are still open, the exact search would take too long:
  the largest debt is then paid to the largest claim, repeatedly (at most k - 1
  transfers), and ``Purse.exact`` says so.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from ..game.errors import N_, RuleError
from ..scoring.payouts import settle
from .housekeeping import CircleView
from .records import EveningId, PaymentKind, PlayerId, Settlement, replay, when_key
from .stats import Filter, admitted

EXACT_LIMIT: Final = 12
PAYMENT_MAX_RAPPEN: Final = 100_000_000  # CHF 1,000,000: the most one payment may be

ERROR_CODES: Final[dict[str, str]] = {
    "player_unknown": N_("There is no such player in this circle."),
    "payment_same_player": N_("Who paid and who received must be two different players."),
    "payment_amount": N_("The amount must be more than 0 and at most CHF %(max)s, in whole Rappen."),
    "payment_date": N_("Say when the money was paid."),
    "payment_unknown": N_("There is no payment %(seq)s to change."),
    "payment_order": N_("The payments of this circle are out of order (payment %(seq)s)."),
}


def _fail(code: str, **params: object) -> RuleError:
    return RuleError(ERROR_CODES[code], code, **params)


def settlements_in_force(log: Sequence[Settlement]) -> list[Settlement]:
    """The payments that stand, in order (corrections in place, voided ones gone)."""
    return replay(log, last_only=False)


def verify_settlement(players: Collection[PlayerId], log: Sequence[Settlement], new: Settlement) -> None:
    """Check ``new`` as the next row of the purse's log (``players``: those in force).

    Raises RuleError; returns None when fine."""
    if log and new.seq <= max(s.seq for s in log):
        raise _fail("payment_order", seq=new.seq)
    kind = PaymentKind(new.kind)
    if kind is not PaymentKind.PAYMENT:
        if new.supersedes not in {s.seq for s in settlements_in_force(log)}:
            raise _fail("payment_unknown", seq=new.supersedes)
        if kind is PaymentKind.VOID:
            return
    elif new.supersedes is not None:
        raise _fail("payment_unknown", seq=new.supersedes)
    if new.payer not in players or new.payee not in players:
        raise _fail("player_unknown")
    if new.payer == new.payee:
        raise _fail("payment_same_player")
    if type(new.rappen) is not int or not 0 < new.rappen <= PAYMENT_MAX_RAPPEN:
        raise _fail("payment_amount", max=PAYMENT_MAX_RAPPEN // 100)
    if new.paid_at is None:
        raise _fail("payment_date")


def check_log(players: Collection[PlayerId], log: Sequence[Settlement]) -> None:
    """Every row of a stored (or imported) log passes the gate in turn."""
    done: list[Settlement] = []
    for row in sorted(log, key=lambda s: s.seq):
        try:
            verify_settlement(players, done, row)
        except RuleError as err:
            err.params.setdefault("seq", row.seq)
            raise
        done.append(row)


@dataclass(frozen=True, slots=True)
class PurseTransfer:
    payer: PlayerId
    payee: PlayerId
    rappen: int


@dataclass(frozen=True, slots=True)
class PurseLine:
    """One step of the running balance: an evening or a payment, with the balances after it."""

    when: datetime | None
    evening: EveningId | None  # set for an evening
    payment: int | None  # the payment's seq, for a payment
    change: tuple[tuple[PlayerId, int], ...]  # who gained or lost what (Rappen)
    balances: tuple[tuple[PlayerId, int], ...]  # every player's balance after it (purse order)


@dataclass(frozen=True, slots=True)
class Purse:
    players: tuple[PlayerId, ...]  # the circle's players in force (stored order)
    balances: Mapping[PlayerId, int]  # now; positive: is owed; sums to 0
    lines: tuple[PurseLine, ...]  # oldest first
    transfers: tuple[PurseTransfer, ...]  # the fewest that settle ``balances``
    exact: bool  # transfers proven fewest (see EXACT_LIMIT)

    def owes(self) -> list[tuple[PlayerId, int]]:
        return [(p, -b) for p, b in self.balances.items() if b < 0]

    def owed(self) -> list[tuple[PlayerId, int]]:
        return [(p, b) for p, b in self.balances.items() if b > 0]


def fewest_transfers(order: Sequence[PlayerId], balances: Mapping[PlayerId, int]) -> tuple[list[PurseTransfer], bool]:
    """Transfers that settle ``balances`` (sum 0) exactly; (transfers, proven fewest)."""
    if sum(balances.values()) != 0:
        raise ValueError("balances must sum to zero")
    out: list[PurseTransfer] = []
    open_ = [p for p in order if balances.get(p, 0) != 0]
    for p in list(open_):  # equal and opposite pairs first: one transfer each, always optimal
        if p not in open_:
            continue
        match = next((q for q in open_ if q != p and balances[q] == -balances[p]), None)
        if match is not None:
            payer, payee = (p, match) if balances[p] < 0 else (match, p)
            out.append(PurseTransfer(payer, payee, abs(balances[p])))
            open_.remove(p)
            open_.remove(match)
    exact = len(open_) <= EXACT_LIMIT
    if exact:
        out += [PurseTransfer(open_[t.payer], open_[t.payee], t.rappen) for t in settle([balances[p] for p in open_])]
    else:
        left = {p: balances[p] for p in open_}
        while any(left.values()):
            payer = min(left, key=lambda p: (left[p], open_.index(p)))
            payee = max(left, key=lambda p: (left[p], -open_.index(p)))
            amount = min(-left[payer], left[payee])
            out.append(PurseTransfer(payer, payee, amount))
            left[payer] += amount
            left[payee] -= amount
    out.sort(key=lambda t: (order.index(t.payer), order.index(t.payee)))
    return out, exact


@dataclass(frozen=True, slots=True)
class _Step:
    order: tuple[tuple[int, float], int, str, int]  # time, evenings before payments, then id or seq
    evening: EveningId | None
    payment: int | None
    when: datetime | None
    change: dict[PlayerId, int]


def purse(view: CircleView, flt: Filter | None = None) -> Purse:
    """The ledger of the circle (``flt``: a season; the variant too, if given)."""
    flt = flt or Filter()
    players = tuple(p.id for p in view.players)
    steps: list[_Step] = []
    for ev, out in admitted(view, flt):
        if out.decided is None or not (out.complete or ev.counts_in_money):
            continue
        change: dict[PlayerId, int] = {}
        for seat, p in enumerate(ev.seats):
            change[p] = change.get(p, 0) + out.decided.payout[seat]
        steps.append(_Step((when_key(ev.ended_at), 0, ev.id, 0), ev.id, None, ev.ended_at, change))
    for s in settlements_in_force(view.settlements):
        if not flt.season.contains(s.paid_at):
            continue
        assert s.payer is not None and s.payee is not None and s.rappen is not None
        change = {s.payer: s.rappen}
        change[s.payee] = change.get(s.payee, 0) - s.rappen  # a merge may have made them one
        steps.append(_Step((when_key(s.paid_at), 1, "", s.seq), None, s.seq, s.paid_at, change))
    steps.sort(key=lambda step: step.order)
    balance = dict.fromkeys(players, 0)
    lines: list[PurseLine] = []
    for step in steps:
        for p, amount in step.change.items():
            balance[p] += amount
        now = tuple((p, balance[p]) for p in players)
        lines.append(PurseLine(step.when, step.evening, step.payment, tuple(step.change.items()), now))
    transfers, exact = fewest_transfers(players, balance)
    return Purse(players, dict(balance), tuple(lines), tuple(transfers), exact)
