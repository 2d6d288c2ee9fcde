"""Helpers for tests of every layer (``tests/`` is on the path: ``from shared_helpers import ...``).

- ``SOAK``: ``SCOREKEEPER_SOAK=1`` asks property tests for long runs (many more examples).
- Rule sets and deals for hands of cards: ``any_ruleset`` (one row playable as any
  contract), ``contracts_for`` (every contract a table of that size plays),
  ``row_contracts`` (every contract a row accepts), ``deck_for`` (a deck that deals
  rigged hands).

A layer's own helpers live in one module per test folder (``engine_helpers``,
``bots_helpers``, ``scoring_helpers``, ``render_helpers``), which hands these on, so
a test module imports its helpers from one place.
"""

from __future__ import annotations

import os
import random

from scorekeeper.engine.actions import CONTRACTS
from scorekeeper.game.cards import parse_cards
from scorekeeper.game.contracts import Contract, Kind, all_contracts
from scorekeeper.game.rulesets import BarrelRule, Row, RuleSet, Variant

SOAK = os.environ.get("SCOREKEEPER_SOAK", "").strip().lower() in ("1", "true", "yes", "on")

ANY_ROW = Row("any", tuple(Kind), 1)


def any_ruleset(n_players: int, teams: bool = False, six11: bool = False) -> RuleSet:
    """One row (key ``any``) that may be played as any contract, with 3 or 4 players."""
    variant = Variant.THREE if n_players == 3 else (Variant.TEAMS if teams else Variant.SOLO4)
    return RuleSet(variant=variant, rows=(ANY_ROW,), barrel=BarrelRule.BOOK, undenufe_six11=six11)


def contracts_for(n_players: int) -> list[Contract]:
    """Every concrete contract a table of that size plays (Gustav is the three-player split)."""
    return [c for c in CONTRACTS if not (c.kind is Kind.GUSTAV and n_players == 4)]


def row_contracts(row: Row) -> list[Contract]:
    """Every concrete contract a row accepts."""
    return [c for k in row.kinds for c in all_contracts(k) if row.allows(c)]


def deck_for(hands: dict[int, str], n_players: int, dealer: int = 0, seed: int = 0) -> list[int]:
    """A deck order that deals the given (possibly partial) hands to their seats; the
    other cards at random (``seed``)."""
    per = 36 // n_players
    wanted = {seat: [int(c) for c in parse_cards(text)] for seat, text in hands.items()}
    used = {c for cs in wanted.values() for c in cs}
    assert len(used) == sum(len(cs) for cs in wanted.values()), "a card is given twice"
    rest = [c for c in range(36) if c not in used]
    random.Random(seed).shuffle(rest)
    full: dict[int, list[int]] = {}
    for seat in range(n_players):
        cs = list(wanted.get(seat, []))
        assert len(cs) <= per
        while len(cs) < per:
            cs.append(rest.pop())
        full[seat] = cs
    first = (dealer + 1) % n_players
    deck = []
    taken = dict.fromkeys(range(n_players), 0)
    for i in range(36):
        seat = (first + i // 3) % n_players
        deck.append(full[seat][taken[seat]])
        taken[seat] += 1
    return deck
