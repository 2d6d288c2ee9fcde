"""The fast path's own promises: its documented example runs, a playout runs once, and
``Playout.of`` takes only a hand in play. (Agreement with ``HandState`` card for card, and
what a chooser is promised, are properties in test_engine_properties.)"""

from __future__ import annotations

import doctest
import random

import pytest
from engine_helpers import start
from shared_helpers import any_ruleset

from scorekeeper.engine import HandSetup, HandState, fast
from scorekeeper.engine.bitmasks import POINTS, VAL_OBENABE, card_ints
from scorekeeper.engine.fast import Playout, Uniform, points_table, schedule_ids
from scorekeeper.game.cards import Suit
from scorekeeper.game.contracts import KOMISCH, OBE, OBENABE, UNE, Mode, TrickMode

TRUMP_H = TrickMode(Mode.TRUMP, Suit.HEARTS)


def test_the_documented_example_runs() -> None:
    result = doctest.testmod(fast, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_a_playout_runs_once() -> None:
    game = Playout.of(start(OBENABE, seed=3))
    points, winners = game.run(Uniform(random.Random(1).random))
    assert sum(points) == 157 and len(winners) == 9
    assert game.hands == [0, 0, 0, 0] and game.trick == []
    with pytest.raises(ValueError):
        game.run(Uniform(random.Random(1).random))


def test_of_takes_only_a_hand_in_play() -> None:
    bidding = HandState.new(HandSetup(any_ruleset(4), 0), random.Random(0))
    with pytest.raises(ValueError):
        Playout.of(bidding)  # no contract yet
    komisch = start(KOMISCH, seed=2)
    komisch.apply(komisch.legal_actions()[0])  # the first block only
    with pytest.raises(ValueError):
        Playout.of(komisch)  # later blocks are not chosen yet


def test_uniform_picks_like_a_random_player_on_the_legal_actions() -> None:
    rnd = random.Random(5).random
    same = random.Random(5).random
    player = Uniform(rnd)
    for mask in (0b1, 0b1011, (1 << 36) - 1, 0b111 << 20):
        legal = card_ints(mask)
        assert player(0, mask) == legal[int(same() * len(legal))]


def test_schedule_and_points_of_a_komisch_hand_need_its_blocks() -> None:
    with pytest.raises(ValueError):
        schedule_ids(KOMISCH, 9)
    assert points_table(KOMISCH, komisch=(OBE, UNE, TRUMP_H)) == POINTS[VAL_OBENABE]  # the first block's
