"""Shuffle and deal (RULES.md 5): in threes, starting at the dealer's right.

The shuffle is a permutation of the 36 cards drawn from an injected source
(``secrets.SystemRandom()`` in production, a seeded ``random.Random`` in tests);
the permutation is all a hand needs to be replayed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from scorekeeper.game.cards import N_CARDS


class RandomSource(Protocol):
    def shuffle(self, x: list[int]) -> None: ...


def shuffle_deck(rng: RandomSource) -> tuple[int, ...]:
    """A uniformly random order of the 36 cards."""
    deck = list(range(N_CARDS))
    rng.shuffle(deck)
    return tuple(deck)


def seeded_deck(seed: int) -> tuple[int, ...]:
    """The deck order of a seeded shuffle (tests, golden files, replays)."""
    return shuffle_deck(random.Random(seed))


def validate_deck(deck: Sequence[int]) -> tuple[int, ...]:
    d = tuple(int(c) for c in deck)
    if sorted(d) != list(range(N_CARDS)):
        raise ValueError("a deal is an order of the 36 cards, each once")
    return d


def deal_hands(deck: Sequence[int], n_players: int, dealer: int) -> list[int]:
    """Hands as masks, by seat: packets of three from the top of ``deck`` go to
    seat dealer+1, dealer+2, ... round and round until the deck is gone."""
    if n_players not in (3, 4):
        raise ValueError("Coiffeur is played by three or four")
    hands = [0] * n_players
    first = (dealer + 1) % n_players
    for i, c in enumerate(deck):
        hands[(first + i // 3) % n_players] |= 1 << c
    return hands
