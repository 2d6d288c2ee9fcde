"""The outlook of an evening (issue 13): what each side still needs, and who is
likely to win. PURE: the slate in, frozen values out.

Outcomes. A cell is written from one number, its *outcome* (``entries.outcome_of``):
the written pile's card points 0..157, 257 (``MATCH_POINTS``) for a match, -1
(``COUNTERMATCH``) for a countermatch; Misère already swapped (the opponents' pile,
"match" when the declaring team took no trick). ``Cells.written`` turns an
outcome into the cell's value, the same arithmetic the slate uses.

Team game (6.2), all against all (6.3), club variant (6.4), per side:

- ``total``: the slate total. ``min``: ``total`` (every open row scores 0).
  ``max``: ``total`` + each open row's match value (25 x factor; club:
  157 x factor + 100, Misère as the row is scored, so its maximum is the same).
- ``decided``: ``won`` when ``min`` > every other side's ``max``; ``lost`` when
  ``max`` < some other side's ``min``; else ``open``. Equal totals share the win,
  so winning means strictly more; a finished evening with tied leaders stays
  ``open`` for them (their ``win`` is 0 and ``shared`` 1).
- ``catch_up``: the smallest p of 0..157 or 257 (a match) that, scored in every open
  row of the side, lifts its total above every other side's current total (nobody
  else scoring again); 0 for a side already ahead; ``None`` when not even a match in
  every open row does (and for a side without open rows that is not ahead).
- ``clinch``: the smallest such p that lifts it above every other side's ``max``
  (0 for a side that has ``won``); ``None`` when none does.
- per open cell: ``lead_alone`` and ``sure_alone``, the least outcome in this cell alone
  (every other open row of the side scoring 0) that lifts the side above every other
  side's current total, and above every other side's ``max`` (``None``: not even a match
  does); ``match_enough`` is ``sure_alone`` above 0 (the star on the slate: a match here
  makes the win sure, and it is not sure yet; a side that has won needs 0). And its
  shares of the lines: the cell value at ``catch_up`` and at ``clinch`` points (``None``
  without a line). The shares of a side sum to what the line adds to its total.
- per side, the least it needs in words a table uses (``Need``), for the lead
  (``lead_need``) and for a sure win (``sure_need``), derived from the cells and the lines
  above: already there; else the one cell that is enough on its own, with the fewest
  points (every open row that needs as few); else the line, an average over its open rows
  (their factors weigh); else, when not even 157 in every open row does, the fewest
  matches that do (157 in the other open rows); else it depends on the others (a sure
  win), or it is out of reach. ``None`` once the evening is over (ended, or every cell
  written) and for a decided side: nothing is left to need.

In the team game p is a multiple of 10 (or 0, or 257): only tenths count.

Three players (6.1): ``total`` is the net sticks known now (the match row, the
rows written by all three, and of a row waiting for its cut the end that is not
tied; a row with an open cell adds nothing yet), ``min`` and ``max`` the least and
most net over every completion (``outlook_three``), ``decided`` as above on those
ranges (sound: never claims what a completion could undo). Per row, ``sticks`` and
``potatoes`` list the players who can still get them (a tie not cut yet: every tied
player). ``catch_up``, ``clinch`` and the cell fields are ``None`` there.

``ended`` (an evening ended early): nothing else is written; open cells are closed, and
nobody needs anything any more.

The win probability (``win``, ``shared``, ``expected``) comes from
``forecast.forecast`` (a seeded simulation); ``evening_outlook`` does both.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Literal

from ..game.hand_entry import COUNTERMATCH, MATCH_POINTS, TOTAL_POINTS
from ..game.rulesets import Cells, Row, RuleSet, Variant
from . import outlook_three
from .final import Cut
from .forecast import SIMULATIONS, Forecast, History, Table, odds_known, outlook_seed
from .forecast import forecast as simulate
from .slate import Slate

Decided = Literal["won", "lost", "open"]
NeedKind = Literal["there", "cell", "average", "matches", "others", "out"]
WON: Final = "won"
LOST: Final = "lost"
OPEN: Final = "open"

# The points a line may ask for, in increasing value: 0..157, then a match.
POINTS_LINE: Final[tuple[int, ...]] = (*range(TOTAL_POINTS + 1), MATCH_POINTS)


@dataclass(frozen=True, slots=True)
class Need:
    """The least a side needs for a line (the lead, or a sure win), as a table says it.

    ``there``: nothing (already in the lead). ``cell``: one open cell alone is enough; ``rows``
    the side's open rows where the fewest outcome points do it, ``points`` those points
    (``MATCH_POINTS``: a match). ``average``: no single cell is enough; ``points`` in every
    open row would do (the line: an average, the rows' factors weighing). ``matches``: not
    even 157 in every open row does; at least ``matches`` matches (157 in the other open
    rows) do. ``others``: no result of its own hands makes the win sure, but it can still
    win if the others score little. ``out``: out of its reach.
    """

    kind: NeedKind
    points: int | None = None
    rows: tuple[str, ...] = ()
    matches: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "points": self.points, "rows": list(self.rows), "matches": self.matches}


@dataclass(frozen=True, slots=True)
class CellOutlook:
    side: int
    open: bool  # still to be written (False once written, or when the evening ended)
    value: int | None  # the written value, None while open
    match_enough: bool | None  # open cells (not three players): sure_alone > 0 (the star)
    catch_up_share: int | None  # open cells: the cell value at the side's catch_up points
    clinch_share: int | None  # open cells: the cell value at the side's clinch points
    lead_alone: int | None = None  # open cells: the least outcome here alone that takes the lead
    sure_alone: int | None = None  # open cells: the least outcome here alone that makes the win sure

    def to_dict(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "open": self.open,
            "value": self.value,
            "match_enough": self.match_enough,
            "catch_up_share": self.catch_up_share,
            "clinch_share": self.clinch_share,
            "lead_alone": self.lead_alone,
            "sure_alone": self.sure_alone,
        }


@dataclass(frozen=True, slots=True)
class RowOutlook:
    key: str
    factor: int
    max: int  # the most one cell of this row can hold (a match)
    cells: tuple[CellOutlook, ...]  # per side
    sticks: tuple[int, ...] | None  # three players: who can still get the sticks; None otherwise
    potatoes: tuple[int, ...] | None  # three players: who can still get the potatoes

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "factor": self.factor,
            "max": self.max,
            "cells": [c.to_dict() for c in self.cells],
            "sticks": None if self.sticks is None else list(self.sticks),
            "potatoes": None if self.potatoes is None else list(self.potatoes),
        }


@dataclass(frozen=True, slots=True)
class SideOutlook:
    side: int
    total: int  # slate total (three players: net sticks known now)
    min: int
    max: int
    decided: Decided
    catch_up: int | None  # points 0..157 or 257 (a match); None: out of reach or three players
    clinch: int | None
    win: float | None = None  # probability of winning alone (None: no forecast asked for)
    shared: float | None = None  # probability of sharing the win with another side
    expected: float | None = None  # expected final total (three players: net sticks)
    lead_need: Need | None = None  # the least it needs to take the lead (None: nothing left to need)
    sure_need: Need | None = None  # the least it needs to be sure of the win

    def to_dict(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "total": self.total,
            "min": self.min,
            "max": self.max,
            "decided": self.decided,
            "catch_up": self.catch_up,
            "clinch": self.clinch,
            "win": self.win,
            "shared": self.shared,
            "expected": self.expected,
            "lead_need": None if self.lead_need is None else self.lead_need.to_dict(),
            "sure_need": None if self.sure_need is None else self.sure_need.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class Outlook:
    variant: Variant
    sides: tuple[SideOutlook, ...]
    rows: tuple[RowOutlook, ...]
    shared: float | None = None  # probability that the evening ends in a shared win
    simulations: int = 0  # simulated evenings behind the probabilities (0: none)
    seed: int | None = None
    odds_known: bool = True  # False: no shipped table fits the rule set (house rules), no odds

    def to_dict(self) -> dict[str, Any]:
        """``{"sides": [...], "rows": [...], ...}``: plain JSON-able data for the API."""
        return {
            "variant": self.variant.value,
            "sides": [s.to_dict() for s in self.sides],
            "rows": [r.to_dict() for r in self.rows],
            "shared": self.shared,
            "simulations": self.simulations,
            "seed": self.seed,
            "odds_known": self.odds_known,
        }


# --- the arithmetic of lines ----------------------------------------------------------
def row_max(cells: Cells, row: Row) -> int:
    """The most one cell of ``row`` can hold: a match (club: 157 x factor + 100)."""
    return cells.written(row.factor, MATCH_POINTS)


def gain(cells: Cells, rows: Sequence[Row], points: int) -> int:
    """What ``points`` scored in every one of ``rows`` adds to a total."""
    return sum(cells.written(r.factor, points) for r in rows)


def smallest_points(cells: Cells, rows: Sequence[Row], need: int) -> int | None:
    """The smallest p of ``POINTS_LINE`` whose gain over ``rows`` exceeds ``need``, or None.

    The gain is non-decreasing along ``POINTS_LINE``, so a bisection finds it.
    """
    if gain(cells, rows, MATCH_POINTS) <= need:
        return None
    return POINTS_LINE[bisect_left(POINTS_LINE, need + 1, key=lambda p: gain(cells, rows, p))]


def least_alone(cells: Cells, row: Row, need: int) -> int | None:
    """The least outcome of ``POINTS_LINE`` that, written in one cell of ``row``, adds more
    than ``need``; None when not even a match does."""
    return smallest_points(cells, (row,), need)


def fewest_matches(cells: Cells, rows: Sequence[Row], need: int) -> int | None:
    """The fewest matches among ``rows`` that, with 157 points in the others, add more than
    ``need`` (the matches in the rows where a match adds most over 157); None when none do."""
    full = gain(cells, rows, TOTAL_POINTS)
    extra = sorted(
        (cells.written(r.factor, MATCH_POINTS) - cells.written(r.factor, TOTAL_POINTS) for r in rows),
        reverse=True,
    )
    for k in range(len(extra) + 1):
        if full + sum(extra[:k]) > need:
            return k
    return None


def need_of(cells: Cells, rows: Sequence[Row], alone: Sequence[int | None], line: int | None, need: int) -> Need:
    """The least a side needs to add more than ``need`` (``Need``), from its open ``rows``,
    what each of them needs alone (``alone``, in the same order) and the line over all of
    them (``smallest_points``)."""
    if line == 0:
        return Need("there")
    enough = [(p, r.key) for r, p in zip(rows, alone, strict=True) if p is not None]
    if enough:
        least = min(p for p, _key in enough)
        return Need("cell", least, tuple(key for p, key in enough if p == least))
    if line is None:
        return Need("out")
    if line == MATCH_POINTS:
        return Need("matches", None, (), fewest_matches(cells, rows, need))
    return Need("average", line)


def decide(mins: Sequence[int], maxs: Sequence[int], side: int) -> Decided:
    others = [s for s in range(len(mins)) if s != side]
    if all(mins[side] > maxs[s] for s in others):
        return WON
    if any(maxs[side] < mins[s] for s in others):
        return LOST
    return OPEN


# --- the definitions ---------------------------------------------------------------------
def outlook(
    slate: Slate,
    *,
    cuts: Sequence[Cut] = (),
    ended: bool = False,
    forecast: Forecast | None = None,
) -> Outlook:
    """The outlook of ``slate`` (the definitions above). ``forecast``: a
    ``forecast.Forecast`` of the same slate, whose probabilities are attached (a
    decided side gets exactly 1 or 0)."""
    rs = slate.ruleset
    if rs.variant is Variant.THREE:
        out = _three(slate, cuts, ended)
    else:
        out = _totals(slate, ended)
    if not odds_known(rs):  # house rules: the lines are exact, odds would be a guess
        return replace(out, odds_known=False)
    return out if forecast is None else attach(out, forecast)


def _open_rows(slate: Slate, side: int, ended: bool) -> list[Row]:
    if ended:
        return []
    return [r for r in slate.ruleset.rows if (r.key, side) not in slate.cells]


def _totals(slate: Slate, ended: bool) -> Outlook:
    rs = slate.ruleset
    mode = rs.cells
    n = rs.n_sides
    totals = slate.totals
    open_rows = [_open_rows(slate, s, ended) for s in range(n)]
    over = not any(open_rows)  # ended, or every cell written: nothing is left to need
    maxs = [totals[s] + gain(mode, open_rows[s], MATCH_POINTS) for s in range(n)]
    # A countermatch may cost (house rules): the least a side can end with.
    mins = [totals[s] + min(0, gain(mode, open_rows[s], COUNTERMATCH)) for s in range(n)]
    cells: dict[tuple[str, int], CellOutlook] = {}
    sides: list[SideOutlook] = []
    for s in range(n):
        others = [o for o in range(n) if o != s]
        behind = max(totals[o] for o in others) - totals[s]  # the lead: more than this
        short = max(maxs[o] for o in others) - totals[s]  # a sure win: more than this
        catch_up = smallest_points(mode, open_rows[s], behind)
        clinch = smallest_points(mode, open_rows[s], short)
        lead_alone = [least_alone(mode, r, behind) for r in open_rows[s]]
        sure_alone = [least_alone(mode, r, short) for r in open_rows[s]]
        for r, lead, sure in zip(open_rows[s], lead_alone, sure_alone, strict=True):
            cells[r.key, s] = CellOutlook(
                s,
                True,
                None,
                bool(sure),  # a match here makes the win sure, and it is not sure yet (0: won)
                None if catch_up is None else mode.written(r.factor, catch_up),
                None if clinch is None else mode.written(r.factor, clinch),
                lead,
                sure,
            )
        decided = decide(mins, maxs, s)
        lead_need = sure_need = None
        if not over and decided == OPEN:
            lead_need = need_of(mode, open_rows[s], lead_alone, catch_up, behind)
            sure_need = need_of(mode, open_rows[s], sure_alone, clinch, short)
            if sure_need.kind == "out" and lead_need.kind != "out":
                sure_need = Need("others")  # not in its own hands: it wins if the others score little
        sides.append(
            SideOutlook(
                s, totals[s], mins[s], maxs[s], decided, catch_up, clinch, lead_need=lead_need, sure_need=sure_need
            )
        )
    rows: list[RowOutlook] = []
    for row in rs.rows:
        row_cells: list[CellOutlook] = []
        for s in range(n):
            written = slate.cell(row.key, s)
            found = cells.get((row.key, s))
            if found is None:
                found = CellOutlook(s, False, None if written is None else written.value, None, None, None)
            row_cells.append(found)
        rows.append(RowOutlook(row.key, row.factor, row_max(mode, row), tuple(row_cells), None, None))
    return Outlook(rs.variant, tuple(sides), tuple(rows))


def _three(slate: Slate, cuts: Sequence[Cut], ended: bool) -> Outlook:
    rs = slate.ruleset
    n = rs.n_sides
    ranges = outlook_three.row_ranges(slate, cuts, ended)
    net = outlook_three.current_net(slate, ranges)
    mins = list(net)
    maxs = list(net)
    for r in ranges.values():
        for p in range(n):
            mins[p] += r.lo[p] - r.known[p]
            maxs[p] += r.hi[p] - r.known[p]
    sides = tuple(SideOutlook(s, net[s], mins[s], maxs[s], decide(mins, maxs, s), None, None) for s in range(n))
    rows: list[RowOutlook] = []
    for row in rs.rows:
        cells = []
        for s in range(n):
            cell = slate.cell(row.key, s)
            cells.append(
                CellOutlook(s, cell is None and not ended, None if cell is None else cell.value, None, None, None)
            )
        r = ranges[row.key]
        rows.append(RowOutlook(row.key, row.factor, MATCH_POINTS, tuple(cells), r.sticks, r.potatoes))
    return Outlook(rs.variant, sides, tuple(rows))


def attach(out: Outlook, fc: Forecast) -> Outlook:
    """``out`` with the probabilities of the forecast ``fc`` (``forecast.Forecast``).

    A decided side's figures are exact: ``won`` gives 1 (and 0 to every other side),
    ``lost`` 0; the simulation agrees by construction, this only removes doubt.
    """
    won = [s.side for s in out.sides if s.decided == WON]
    sides = []
    for s in out.sides:
        win, shared = fc.win[s.side], fc.shared[s.side]
        if won:
            win, shared = (1.0 if s.side in won else 0.0), 0.0
        elif s.decided == LOST:
            win, shared = 0.0, 0.0
        sides.append(replace(s, win=win, shared=shared, expected=fc.expected[s.side]))
    any_shared = 0.0 if won else fc.shared_any
    return Outlook(out.variant, tuple(sides), out.rows, any_shared, fc.simulations, fc.seed)


def evening_outlook(
    slate: Slate,
    evening_id: str | int,
    version: int,
    *,
    cuts: Sequence[Cut] = (),
    ended: bool = False,
    history: History | None = None,
    simulations: int = SIMULATIONS,
    table: Table | None = None,
) -> Outlook:
    """The whole outlook of an evening at ``version``: the definitions and the win
    probabilities, simulated with the seed of (evening id, version), so every phone
    and the API get the same figures for the same version. ``history``: see
    ``forecast``; ``table``: the shipped one unless given."""
    if not odds_known(slate.ruleset):
        return outlook(slate, cuts=cuts, ended=ended)
    fc = simulate(
        slate,
        seed=outlook_seed(evening_id, version),
        cuts=cuts,
        ended=ended,
        history=history,
        simulations=simulations,
        table=table,
    )
    return outlook(slate, cuts=cuts, ended=ended, forecast=fc)


def ruleset_row_maxima(ruleset: RuleSet) -> dict[str, int]:
    """The most one cell of each row can hold (documented for the club variant)."""
    return {r.key: row_max(ruleset.cells, r) for r in ruleset.rows}
