"""Helpers of the scoring tests: random but valid evenings, short constructors, the
book's evening (``BOOK``, ``slate_of``), and checks of a settlement."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from shared_helpers import row_contracts

from scorekeeper.game.contracts import Contract
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import RuleSet
from scorekeeper.scoring import Slate, Transfer


def hand(
    row: str,
    seat: int,
    points: int,
    *,
    contract: Contract | None = None,
    match: bool = False,
    countermatch: bool = False,
) -> HandEntry:
    return HandEntry(row, seat, contract, points, 157 - points, match=match, countermatch=countermatch)


def random_entry(ruleset: RuleSet, slate: Slate, rng: random.Random, *, seich_rate: float = 0.1) -> HandEntry:
    """A valid next hand: a seat reached by passes, an open row, a contract, points.

    On a complete slate: a hand that would otherwise be fine (refused as evening_complete).
    """
    if slate.complete:
        row = rng.choice(ruleset.rows)
        return HandEntry(row.key, rng.randrange(ruleset.n_players), rng.choice(row_contracts(row)), 80, 77)
    speakers = [slate.turn(0)]
    while speakers[-1].may_pass:
        speakers.append(slate.turn(len(speakers)))
    seat = (speakers[0] if rng.random() < 0.5 else rng.choice(speakers)).seat
    barrel = slate.barrel_seat
    assert barrel is not None  # the slate is not complete
    side = ruleset.side_of(seat)
    barrel_side = ruleset.side_of(barrel)
    if ruleset.seich and barrel_side not in slate.seich_used and rng.random() < seich_rate:
        return HandEntry.seich_hand(barrel)
    row = ruleset.row(rng.choice(slate.open_rows(side)))
    played = row.playable and (row.is_choice or rng.random() < 0.5)  # a house row: no contract
    contract = rng.choice(row_contracts(row)) if played else None
    roll = rng.random()
    if roll < 0.08:
        return HandEntry(row.key, seat, contract, 157, 0, match=True)
    if roll < 0.14:
        return HandEntry(row.key, seat, contract, 0, 157, countermatch=True)
    points = rng.choice([0, 157, rng.randint(0, 157), rng.randint(0, 157), 70])
    return HandEntry(row.key, seat, contract, points, 157 - points)


def random_evening(
    ruleset: RuleSet, rng: random.Random, *, first_dealer: int = 0, stop: int | None = None, seich_rate: float = 0.1
) -> list[HandEntry]:
    """Valid entries of a whole evening (or its first ``stop`` hands)."""
    entries: list[HandEntry] = []
    slate = Slate.build(ruleset, first_dealer, entries)
    while not slate.complete and (stop is None or len(entries) < stop):
        entries.append(random_entry(ruleset, slate, rng, seich_rate=seich_rate))
        slate = Slate.build(ruleset, first_dealer, entries)
    return entries


def min_transfers_brute(net: list[int]) -> int:
    """Fewest transfers settling ``net``, by brute force independent of ``settle``.

    Passing each seat's running balance along a chain of seats costs one transfer per
    non-zero running balance; every grouping into zero-sum blocks is some chain order.
    """
    from itertools import permutations

    best = len(net)
    for order in permutations(range(len(net))):
        running, count = 0, 0
        for seat in order[:-1]:
            running += net[seat]
            count += running != 0
        best = min(best, count)
    return best


def assert_settles(net: Sequence[int], transfers: Sequence[Transfer]) -> None:
    """``transfers`` move exactly ``net``: positive amounts, nobody pays herself, at most
    one transfer fewer than there are players."""
    assert len(transfers) <= max(0, len(net) - 1)
    balance = [0] * len(net)
    for t in transfers:
        assert t.rappen > 0 and t.payer != t.payee
        balance[t.payer] -= t.rappen
        balance[t.payee] += t.rappen
    assert balance == list(net)


def outcome_entry(ruleset: RuleSet, row_key: str, seat: int, outcome: int) -> HandEntry:
    """A hand in ``row_key`` writing ``outcome``: points 0..157, 257 a match, -1 a countermatch.

    A choice row is played as its first non-Misère contract (Misère swaps the piles)."""
    row = ruleset.row(row_key)
    contract = next(c for c in row_contracts(row) if not c.is_misere) if row.is_choice else None
    if outcome == 257:
        return HandEntry(row_key, seat, contract, 157, 0, match=True)
    if outcome == -1:
        return HandEntry(row_key, seat, contract, 0, 157, countermatch=True)
    return HandEntry(row_key, seat, contract, outcome, 157 - outcome)


def slate_of(ruleset: RuleSet, table: Mapping[str, tuple[int | None, ...]], first_dealer: int = 0) -> Slate:
    """A slate with the outcomes of ``table`` (row key -> one outcome per side; None: open), row by row."""
    entries = [
        outcome_entry(ruleset, key, ruleset.seats_of(side)[0], v)
        for key, vals in table.items()
        for side, v in enumerate(vals)
        if v is not None
    ]
    return Slate.build(ruleset, first_dealer, entries)


# The book's end (RULES 6.1): Ann +13, Beth -9, Cath -4. Ann made a match (suit_C), Beth
# was matched against (gustav, -1: a countermatch), and Cath's stick and potato in the
# match row cancel.
BOOK: dict[str, tuple[int | None, ...]] = {
    "suit_C": (257, 40, 80),
    "suit_H": (120, 80, 40),
    "suit_S": (120, 80, 40),
    "suit_D": (120, 80, 40),
    "obenabe": (120, 40, 80),
    "undenufe": (120, 80, 40),
    "slalom": (120, 80, 40),
    "gustav": (120, -1, 80),
    "joker1": (40, 120, 80),
    "joker2": (80, 40, 120),
}
