"""Helpers for the scoring tests: random but valid evenings, and short constructors."""

from __future__ import annotations

import random

from scorekeeper.game.contracts import Contract, all_contracts
from scorekeeper.game.rulesets import Row, RuleSet
from scorekeeper.scoring import HandEntry, Slate


def contracts_for(row: Row) -> list[Contract]:
    """Every concrete contract a row accepts."""
    return [c for k in row.kinds for c in all_contracts(k) if row.allows(c)]


def hand(row: str, seat: int, points: int, *, contract: Contract | None = None, match: bool = False,
         countermatch: bool = False) -> HandEntry:
    return HandEntry(row, seat, contract, points, 157 - points, match=match, countermatch=countermatch)


def random_entry(ruleset: RuleSet, slate: Slate, rng: random.Random, *, seich_rate: float = 0.1) -> HandEntry:
    """A valid next hand: a seat reached by passes, an open row, a contract, points."""
    speakers = [slate.turn(0)]
    while speakers[-1].may_pass:
        speakers.append(slate.turn(len(speakers)))
    seat = (speakers[0] if rng.random() < 0.5 else rng.choice(speakers)).seat
    barrel = slate.barrel_seat
    side = ruleset.side_of(seat)
    barrel_side = ruleset.side_of(barrel)  # type: ignore[arg-type]
    if ruleset.seich and barrel_side not in slate.seich_used and rng.random() < seich_rate:
        return HandEntry.seich_hand(barrel)  # type: ignore[arg-type]
    row = ruleset.row(rng.choice(slate.open_rows(side)))
    contract = rng.choice(contracts_for(row)) if row.is_choice or rng.random() < 0.5 else None
    roll = rng.random()
    if roll < 0.08:
        return HandEntry(row.key, seat, contract, 157, 0, match=True)
    if roll < 0.14:
        return HandEntry(row.key, seat, contract, 0, 157, countermatch=True)
    points = rng.choice([0, 157, rng.randint(0, 157), rng.randint(0, 157), 70])
    return HandEntry(row.key, seat, contract, points, 157 - points)


def random_evening(ruleset: RuleSet, rng: random.Random, *, first_dealer: int = 0, stop: int | None = None,
                   seich_rate: float = 0.1) -> list[HandEntry]:
    """Valid entries of a whole evening (or its first ``stop`` hands)."""
    entries: list[HandEntry] = []
    slate = Slate.build(ruleset, first_dealer, entries)
    while not slate.complete and (stop is None or len(entries) < stop):
        entries.append(random_entry(ruleset, slate, rng, seich_rate=seich_rate))
        slate = Slate.build(ruleset, first_dealer, entries)
    return entries
