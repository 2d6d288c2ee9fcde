"""The result of a played hand, in the shape the slate records.

``to_entry()`` gives the game vocabulary's ``HandEntry``: the engine never
imports ``scoring`` (play and slate meet only in the services).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorekeeper.game.contracts import Contract, TrickMode
from scorekeeper.game.hand_entry import HandEntry


@dataclass(frozen=True, slots=True)
class HandResult:
    declarer_seat: int
    row_key: str | None  # None for a Seich hand
    contract: Contract | None  # what the row was played as (None for Seich)
    declarer_points: int  # the declaring side's pile, 0..157, without a match bonus
    defender_points: int
    match: bool  # the declaring side took every trick
    countermatch: bool  # the declaring side took no trick
    seich: bool
    tricks: tuple[int, ...]  # tricks won, per seat
    komisch_blocks: tuple[TrickMode, ...] = ()  # Komisch: the blocks in the order played

    def to_entry(self) -> HandEntry:
        """The ``HandEntry`` the slate records as it is."""
        return HandEntry(
            row_key=self.row_key,
            declarer_seat=self.declarer_seat,
            contract=self.contract,
            declarer_points=self.declarer_points,
            defender_points=self.defender_points,
            match=self.match,
            countermatch=self.countermatch,
            seich=self.seich,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "declarer_seat": self.declarer_seat,
            "row_key": self.row_key,
            "contract": None if self.contract is None else self.contract.code,
            "declarer_points": self.declarer_points,
            "defender_points": self.defender_points,
            "match": self.match,
            "countermatch": self.countermatch,
            "seich": self.seich,
            "tricks": list(self.tricks),
        }
