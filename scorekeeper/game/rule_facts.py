"""Tonight's rules as every face needs them, worked out once per rule set (``rule_facts``):
each row with the line the slate draws after it, whether it is always a Misère and what a
choice row may be played as; every contract a choice row allows, and every contract of
every kind (the offline phone names them all); the side of each seat and the seats of each
side; and the turn order for every dealer and every set of full sides (``game.turns``, the
one truth: the offline phone looks it up instead of asking again).

The evening's snapshot (``services.read.snapshot``) carries it, worked out right after the rule
set is parsed, so the slate page, its live fragment, the picture, the offline phone and the API
read it and none of them asks the rule set again. Words are the views' (``present``); here are
only keys, codes and seats.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

from . import turns
from .contracts import Contract, Kind, all_contracts
from .rulesets import Row, RuleSet, Variant


@dataclass(frozen=True, slots=True)
class RowFacts:
    """One row of tonight's slate, as the faces need it."""

    row: Row  # the rule set's row: its key, factor, kinds, suit and the circle's name for it
    group_end: bool  # the next row is of another kind (the slate draws a line after this one)
    misere: bool  # always a Misère: written from the opponents' pile, no trick is its match
    allows: tuple[str, ...]  # a choice row: the codes of the contracts it may be played as, in order


@dataclass(frozen=True, slots=True)
class RuleFacts:
    """Tonight's rules as a table (``rule_facts``)."""

    rows: tuple[RowFacts, ...]  # in slate order
    contracts: tuple[Contract, ...]  # every contract of every kind, kinds in order
    choices: tuple[tuple[str, tuple[str, ...]], ...]  # every contract a choice row allows: (code, its rows)
    misere_codes: frozenset[str]  # the codes among ``choices`` that make a choice row a Misère
    seat_side: tuple[int, ...]  # per seat: the slate column it writes in
    side_seats: tuple[tuple[int, ...], ...]  # per side: its seats
    # (dealer, full sides as a bit mask) -> (forehand, barrel seat, seats that may choose in
    # speaking order), for every set of full sides that leaves someone to choose
    orders: Mapping[tuple[int, int], tuple[int, int, tuple[int, ...]]]

    @property
    def misere_rows(self) -> frozenset[str]:
        """The rows that are always a Misère."""
        return frozenset(r.row.key for r in self.rows if r.misere)


def _category(ruleset: RuleSet, row: Row) -> int:
    """The group a row is drawn in: three players by factor; else suits, the other fixed rows, jokers."""
    if ruleset.variant is Variant.THREE:
        return row.factor
    if row.suit is not None:
        return 0
    return 2 if row.is_joker else 1


def _choices(rows: tuple[Row, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Every contract a choice row may be played as, kinds in order (then by code)."""
    out: dict[str, list[str]] = {}
    for row in rows:
        if not row.is_choice:
            continue
        for c in row.contracts:
            out.setdefault(c.code, []).append(row.key)
    order = {k: i for i, k in enumerate(Kind)}
    codes = sorted(out, key=lambda code: (order[Contract.parse(code).kind], code))
    return tuple((code, tuple(out[code])) for code in codes)


def _orders(ruleset: RuleSet) -> dict[tuple[int, int], tuple[int, int, tuple[int, ...]]]:
    every = (1 << ruleset.n_sides) - 1
    out: dict[tuple[int, int], tuple[int, int, tuple[int, ...]]] = {}
    for dealer in range(ruleset.n_players):
        for mask in range(every):  # the mask of every side full is left out: nobody chooses
            full = [side for side in range(ruleset.n_sides) if mask >> side & 1]
            speaking = tuple(turns.eligible_order(ruleset, dealer, full))
            out[(dealer, mask)] = (turns.forehand(ruleset, dealer), turns.barrel_seat(ruleset, dealer, full), speaking)
    return out


@lru_cache(maxsize=256)
def rule_facts(ruleset: RuleSet) -> RuleFacts:
    """Tonight's rules as a table; the same object for the same rule set (kept per worker, so
    read-only)."""
    rows = ruleset.rows
    facts = []
    for i, row in enumerate(rows):
        nxt = rows[i + 1] if i + 1 < len(rows) else None
        allows = tuple(c.code for c in row.contracts)
        facts.append(
            RowFacts(
                row=row,
                group_end=nxt is not None and _category(ruleset, nxt) != _category(ruleset, row),
                misere=row.always_misere,
                allows=allows if row.is_choice else (),
            )
        )
    choices = _choices(rows)
    return RuleFacts(
        rows=tuple(facts),
        contracts=tuple(c for kind in Kind for c in all_contracts(kind)),
        choices=choices,
        misere_codes=frozenset(code for code, _rows in choices if Contract.parse(code).is_misere),
        seat_side=tuple(ruleset.side_of(seat) for seat in range(ruleset.n_players)),
        side_seats=tuple(ruleset.seats_of(side) for side in range(ruleset.n_sides)),
        orders=MappingProxyType(_orders(ruleset)),
    )
