"""Whole evenings played by the computer players, for the outlook's table and benchmark.

    play_evening(ruleset, seed, level="easy", on_hand=None) -> Evening

Every hand is dealt by the engine from ``random.Random(seed)``, every seat's
bidding, Komisch blocks and cards come from ``scorekeeper.bots.choose_action``
(each seat sees only its own view; the slate's cells are passed as ``scores``, as
the digital table does), and the result goes onto the slate as the table would
write it. Not a pure package: it joins the engine, the bots and the slate, which
only the services (and tools like this one) may do.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorekeeper.bots import choose_action
from scorekeeper.engine import HandSetup, HandState
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import RuleSet
from scorekeeper.scoring import Slate
from scorekeeper.scoring.entries import outcome_of


@dataclass(frozen=True, slots=True)
class Hand:
    """One played hand: who declared which row, and the outcome written."""

    entry: HandEntry
    side: int
    open_before: int  # rows open for the declaring side before this hand (0 for Seich)
    outcome: int | None  # entries.outcome_of; None for a Seich hand


@dataclass(slots=True)
class Evening:
    ruleset: RuleSet
    first_dealer: int
    hands: list[Hand] = field(default_factory=list)
    slate: Slate | None = None

    @property
    def entries(self) -> list[HandEntry]:
        return [h.entry for h in self.hands]


def play_hand(slate: Slate, rng: random.Random, level: str) -> HandEntry:
    rs = slate.ruleset
    state = HandState.new(HandSetup.from_slate(slate), rng)
    scores = {key: cell.value for key, cell in slate.cells.items()}
    while not state.is_terminal():
        seat = state.current_player()
        state.apply(choose_action(state.observation(seat), rs, level, rng, scores=scores), seat=seat)
    return state.result().to_entry()


def play_evening(
    ruleset: RuleSet,
    seed: str | int,
    level: str = "easy",
    on_hand: Callable[[Slate, Hand], None] | None = None,
) -> Evening:
    """Play a whole evening; ``on_hand(slate, hand)`` is called after every hand."""
    rng = random.Random(seed)
    first_dealer = rng.randrange(ruleset.n_players)
    evening = Evening(ruleset, first_dealer)
    slate = Slate.build(ruleset, first_dealer, [])
    while not slate.complete:
        entry = play_hand(slate, rng, level)
        side = ruleset.side_of(entry.declarer_seat)
        if entry.seich:
            hand = Hand(entry, side, 0, None)
        else:
            hand = Hand(entry, side, len(slate.open_rows(side)), outcome_of(ruleset, entry))
        evening.hands.append(hand)
        slate = Slate.build(ruleset, first_dealer, evening.entries)
        if on_hand is not None:
            on_hand(slate, hand)
    evening.slate = slate
    return evening
