"""A past evening typed from a paper slate: its final cells, row by row, without
replaying the hands (the pure side of the import).

Each typed cell becomes a ``HandEntry.paper`` (the scoring core's imported cell: the
value instead of card points, clearly marked), written by the first seat of its side
(a paper slate does not say which partner declared), in row order and side by side.
``Slate.build`` then runs every check a hand gets (the row exists, one cell per row
and side, a value some hand in that row could write), so the slate, the result and
the money come from the same code as for a played evening. Cells may be left out
(an evening that ended early); ties of the three-player game still need their cuts
(``paper_ties`` names them, so a page can ask how the table cut them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..game.contracts import Contract
from ..game.errors import N_, RuleError
from ..game.hand_entry import HandEntry
from ..game.rulesets import RuleSet
from ..scoring.final import Tie, ties
from ..scoring.slate import Slate


@dataclass(frozen=True, slots=True)
class PaperCell:
    row_key: str
    side: int  # the column: a player (three players, all against all) or a team
    value: int  # as written on the paper slate
    contract: Contract | None = None  # what a joker row was played as, if the slate says
    match: bool = False
    countermatch: bool = False


def paper_entries(ruleset: RuleSet, cells: Sequence[PaperCell]) -> tuple[HandEntry, ...]:
    """The entries of a typed slate, checked; RuleError (with ``hand``) names the first bad cell."""
    keys = [r.key for r in ruleset.rows]
    for cell in cells:
        if type(cell.side) is not int or not 0 <= cell.side < ruleset.n_sides:
            raise RuleError(N_("There is no column %(side)s on this slate."), "paper_side", side=cell.side)
    ordered = sorted(cells, key=lambda c: (keys.index(c.row_key) if c.row_key in keys else -1, c.side))
    entries = tuple(
        HandEntry.paper(
            c.row_key,
            ruleset.seats_of(c.side)[0],
            c.value,
            contract=c.contract,
            match=c.match,
            countermatch=c.countermatch,
        )
        for c in ordered
    )
    Slate.build(ruleset, 0, entries)
    return entries


def paper_ties(ruleset: RuleSet, cells: Sequence[PaperCell]) -> list[Tie]:
    """The ties of the typed slate that need a cut (three players), in row order; RuleError
    as ``paper_entries`` for a bad cell."""
    return ties(Slate.build(ruleset, 0, paper_entries(ruleset, cells)))
