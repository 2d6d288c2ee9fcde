"""One hand as the table reports it, and what a hand is worth (RULES.md 1 and 7).

``HandEntry`` is the value the slate records and a digital hand produces
(``engine.HandResult.to_entry()``): play and slate share it through this
vocabulary and meet only in the services. Its checks live with the slate
(``scoring.slate.verify_entry``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .contracts import Contract

TOTAL_POINTS: Final = 157  # card points of every hand, the last trick's 5 included
MATCH_BONUS: Final = 100  # for the side that takes every trick
MATCH_POINTS: Final = TOTAL_POINTS + MATCH_BONUS  # 257
# What a hand writes is one number, its outcome (``scoring.entries.outcome_of``): the written
# pile's card points 0..157, ``MATCH_POINTS`` for a match, ``COUNTERMATCH`` for a countermatch.
COUNTERMATCH: Final = -1  # 0 points, and no trick taken
OUTCOMES: Final = (COUNTERMATCH, *range(TOTAL_POINTS + 1), MATCH_POINTS)  # every one


@dataclass(frozen=True, slots=True)
class HandEntry:
    """One recorded hand, as the table reports it."""

    row_key: str | None  # None only for a Seich (thrown-in) hand
    declarer_seat: int
    contract: Contract | None  # required for choice rows; None allowed for fixed rows
    declarer_points: int  # the declaring side's card points 0..157 (before the match bonus)
    defender_points: int  # 0..157; declarer_points + defender_points == 157
    match: bool = False  # declaring side took every trick (needs 157/0)
    countermatch: bool = False  # declaring side took no trick (needs 0/157)
    seich: bool = False  # club variant: thrown in, no row, no points
    cell: int | None = None  # imported from a paper slate: the value written; no card points known

    @classmethod
    def seich_hand(cls, declarer_seat: int) -> HandEntry:
        """A thrown-in hand called by ``declarer_seat`` from the barrel."""
        return cls(None, declarer_seat, None, 0, 0, seich=True)

    @classmethod
    def paper(
        cls,
        row_key: str,
        declarer_seat: int,
        value: int,
        *,
        contract: Contract | None = None,
        match: bool = False,
        countermatch: bool = False,
    ) -> HandEntry:
        """A cell typed from a paper slate: ``value`` as written, no card points (both piles 0).

        ``declarer_seat``: any seat of the side that wrote it (the team game's paper slate
        does not say which partner declared). ``match``/``countermatch``: as for a hand.
        """
        return cls(row_key, declarer_seat, contract, 0, 0, match=match, countermatch=countermatch, cell=value)

    @property
    def imported(self) -> bool:
        """True for a cell typed from a paper slate (no card points, not played here)."""
        return self.cell is not None
