"""A past evening typed from a paper slate, in one go: the final cells of each row (and
their match marks), without replaying the hands one by one.

The cells become ``HandEntry.paper`` entries (``history.paper.paper_entries``: every
check a hand gets, a value some hand in that row could write), clearly marked as
imported on the slate. The evening is written ended, in one transaction: its players
(housekeeping honoured, as when starting an evening), its entries, the cuts of its ties
(three players: as the table cut them, or drawn by the app when not given) and whether
an evening with empty cells counts in money. Such cells count in money and ratings,
never in the card-point statistics.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import select

from ..game.errors import N_, RuleError
from ..game.rulesets import RuleSet
from ..game.table import verify_table
from ..history.paper import PaperCell, paper_entries
from ..models import Circle, CutRow, EntryRow, Evening, Seat, utcnow
from ..scoring.final import Cut, draw_cut, final_result, ties
from ..scoring.slate import Slate
from .circles import PLAYER_NAME_MAX, clean_name
from .evenings import players_for
from .read import memory
from .read.replay import hand_fields, ranking_text
from .store import tx

__all__ = ["import_evening"]


def _cuts(slate: Slate, given: Sequence[Cut], rng: random.Random) -> list[tuple[Cut, tuple[int, ...]]]:
    """Each tie's cut (as given, else drawn) with its ranking; a given cut without a tie is refused."""
    pending = {(t.row_key, t.end): t for t in ties(slate)}
    out = []
    for cut in given:
        tie = pending.pop((cut.row_key, cut.end), None)
        if tie is None:
            raise RuleError(N_("Row “%(row)s” has no tie to cut."), "no_tie", row=cut.row_key)
        out.append((cut, cut.ranking(tie)))
    for tie in pending.values():
        drawn = draw_cut(tie, rng)
        out.append((drawn, drawn.ranking(tie)))
    return out


def import_evening(
    circle: Circle,
    *,
    ruleset: RuleSet,
    player_names: Sequence[str],
    first_dealer: int,
    cells: Sequence[PaperCell],
    request_id: str,
    cuts: Sequence[Cut] = (),
    played_at: datetime | None = None,
    counts_in_money: bool = True,
    author: str | None = None,
    rng: random.Random | None = None,
) -> Evening:
    """Write the typed slate as an ended evening; RuleError (nothing written) when a cell,
    a name or a cut breaks a rule. A repeated request id returns the evening it wrote."""
    tx.check_request_id(request_id)
    ruleset.check()
    names = [clean_name(name, limit=PLAYER_NAME_MAX, code="player_name") for name in player_names]
    verify_table(ruleset, names, first_dealer)
    who = None if author is None or not author.strip() else clean_name(author, limit=PLAYER_NAME_MAX, code="author")
    if played_at is not None and played_at.tzinfo is None:
        raise ValueError("played_at must be timezone-aware")
    entries = paper_entries(ruleset, cells)
    if not entries:
        raise RuleError(N_("Type at least one cell of the slate."), "paper_empty")
    slate = Slate.build(ruleset, first_dealer, entries)
    decided = _cuts(slate, cuts, rng or secrets.SystemRandom())
    final_result(slate, [c for c, _order in decided])  # the result stands before anything is written
    when = played_at or utcnow()
    circle_id = circle.id
    with tx.write() as s:
        found = s.execute(
            select(Evening).where(Evening.circle_id == circle_id, Evening.start_request_id == request_id)
        ).scalar_one_or_none()
        if found is not None:
            return found
        players = players_for(s, circle_id, names)
        ev = Evening(
            circle_id=circle_id,
            ruleset=ruleset.to_dict(),
            first_dealer=first_dealer,
            start_request_id=request_id,
            version=len(entries) + len(decided) + 1,
            status="ended",
            ended_early=not slate.complete,
            counts_in_money=slate.complete or bool(counts_in_money),
            created_at=when,
            ended_at=when,
        )
        s.add(ev)
        s.flush()
        for seat, player in enumerate(players):
            s.add(Seat(evening_id=ev.id, seat=seat, player_id=player.id))
        for seq, entry in enumerate(entries, start=1):
            s.add(
                EntryRow(
                    evening_id=ev.id,
                    seq=seq,
                    kind="hand",
                    supersedes=None,
                    digital=False,
                    request_id=f"paper:{seq}",
                    author=who,
                    created_at=when,
                    **hand_fields(entry),
                )
            )
        for i, (cut, order) in enumerate(decided, start=1):
            s.add(
                CutRow(
                    evening_id=ev.id,
                    row_key=cut.row_key,
                    end=cut.end,
                    ranking=ranking_text(order),
                    winner=order[0],
                    drawn=cut.drawn,
                    request_id=f"paper:cut:{i}",
                    created_at=when,
                )
            )
    tx.after_write(("circle", circle_id), lambda: memory.store_after_write(circle))  # its outcome, the runs
    return ev
