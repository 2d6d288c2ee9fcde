"""The phases of a hand (shared by the state and the views)."""

from __future__ import annotations

from enum import Enum

TERMINAL = -4  # OpenSpiel's terminal player id


class Phase(str, Enum):
    BIDDING = "bidding"  # choosing the contract
    KOMISCH = "komisch"  # the leader picks the next Komisch block
    PLAYING = "playing"
    DONE = "done"
