"""Helpers for service tests: build valid hands for any slate, and play them through the services."""

from __future__ import annotations

from collections.abc import Iterator

from shared_helpers import rid

from scorekeeper.game.contracts import Contract
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import RuleSet
from scorekeeper.models import Evening
from scorekeeper.scoring import Slate
from scorekeeper.services import evenings

NAMES = ("Anna", "Beat", "Carla", "Dölf")


def contract_for(ruleset: RuleSet, row_key: str, pick: int = 0) -> Contract | None:
    row = ruleset.row(row_key)
    if not row.is_choice:
        return None
    return row.contracts[pick % len(row.contracts)]


def next_hand(slate: Slate, turn: int) -> HandEntry:
    """A valid next hand: the next side with open rows declares its first open row;
    points vary with ``turn``; every 7th hand a match, every 11th a countermatch."""
    rs = slate.ruleset
    open_sides = [s for s in range(rs.n_sides) if slate.open_rows(s)]
    side = open_sides[turn % len(open_sides)]
    seat = rs.seats_of(side)[turn % len(rs.seats_of(side))]
    row_key = slate.open_rows(side)[0]
    contract = contract_for(rs, row_key, turn)
    if turn % 7 == 3:
        return HandEntry(row_key, seat, contract, 157, 0, match=True)
    if turn % 11 == 5:
        return HandEntry(row_key, seat, contract, 0, 157, countermatch=True)
    points = (turn * 37 + 11) % 158
    return HandEntry(row_key, seat, contract, points, 157 - points)


def play_hands(evening: Evening, count: int | None = None, *, start_turn: int = 0) -> Iterator[HandEntry]:
    """Record hands until the slate is complete (or ``count`` hands); yields each entry recorded."""
    turn = start_turn
    while count is None or turn - start_turn < count:
        slate = evenings.load_slate(evening)
        if slate.complete:
            return
        entry = next_hand(slate, turn)
        evenings.record_hand(evening, entry, expected_version=evening.version, request_id=rid("hand"))
        turn += 1
        yield entry
