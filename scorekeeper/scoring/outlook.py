"""The outlook of an evening (issue 13): what each side still needs, and who is
likely to win. PURE: the slate in, frozen values out.

Outcomes. A cell is written from one number, its *outcome* (``entries.outcome_of``):
the written pile's card points 0..157, 257 (``MATCH_POINTS``) for a match, -1
(``COUNTERMATCH``) for a countermatch; Misère already swapped (the opponents' pile,
"match" when the declaring team took no trick). ``entries.written_value`` turns an
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
- per open cell: ``match_enough`` (a match in this row, every other open row of the
  side scoring 0, lifts it above every other side's ``max``), and its shares of the
  lines: the cell value at ``catch_up`` and at ``clinch`` points (``None`` without a
  line). The shares of a side sum to what the line adds to its total.

In the team game p is a multiple of 10 (or 0, or 257): only tenths count.

Three players (6.1): ``total`` is the net sticks known now (the match row, the
rows written by all three, and of a row waiting for its cut the end that is not
tied; a row with an open cell adds nothing yet), ``min`` and ``max`` the least and
most net over every completion (``outlook_three``), ``decided`` as above on those
ranges (sound: never claims what a completion could undo). Per row, ``sticks`` and
``potatoes`` list the players who can still get them (a tie not cut yet: every tied
player). ``catch_up``, ``clinch`` and the cell fields are ``None`` there.

``ended`` (an evening ended early): nothing else is written; open cells are closed.

The win probability (``win``, ``shared``, ``expected``) comes from
``forecast.forecast`` (a seeded simulation); ``evening_outlook`` does both.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Literal

from ..game.hand_entry import MATCH_POINTS, TOTAL_POINTS
from ..game.rulesets import Row, RuleSet, Scoring, Variant
from . import outlook_three
from .entries import written_value
from .final import Cut
from .forecast import SIMULATIONS, Forecast, History, Table, outlook_seed
from .forecast import forecast as simulate
from .slate import Slate

Decided = Literal["won", "lost", "open"]
WON: Final = "won"
LOST: Final = "lost"
OPEN: Final = "open"

# The points a line may ask for, in increasing value: 0..157, then a match.
POINTS_LINE: Final[tuple[int, ...]] = (*range(TOTAL_POINTS + 1), MATCH_POINTS)


@dataclass(frozen=True, slots=True)
class CellOutlook:
    side: int
    open: bool  # still to be written (False once written, or when the evening ended)
    value: int | None  # the written value, None while open
    match_enough: bool | None  # open cells (not three players): a match here alone clinches
    catch_up_share: int | None  # open cells: the cell value at the side's catch_up points
    clinch_share: int | None  # open cells: the cell value at the side's clinch points

    def to_dict(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "open": self.open,
            "value": self.value,
            "match_enough": self.match_enough,
            "catch_up_share": self.catch_up_share,
            "clinch_share": self.clinch_share,
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
        }


@dataclass(frozen=True, slots=True)
class Outlook:
    variant: Variant
    sides: tuple[SideOutlook, ...]
    rows: tuple[RowOutlook, ...]
    shared: float | None = None  # probability that the evening ends in a shared win
    simulations: int = 0  # simulated evenings behind the probabilities (0: none)
    seed: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """``{"sides": [...], "rows": [...], ...}``: plain JSON-able data for the API."""
        return {
            "variant": self.variant.value,
            "sides": [s.to_dict() for s in self.sides],
            "rows": [r.to_dict() for r in self.rows],
            "shared": self.shared,
            "simulations": self.simulations,
            "seed": self.seed,
        }


# --- the arithmetic of lines ----------------------------------------------------------
def row_max(scoring: Scoring, row: Row) -> int:
    """The most one cell of ``row`` can hold: a match (club: 157 x factor + 100)."""
    return written_value(scoring, row.factor, MATCH_POINTS)


def gain(scoring: Scoring, rows: Sequence[Row], points: int) -> int:
    """What ``points`` scored in every one of ``rows`` adds to a total."""
    return sum(written_value(scoring, r.factor, points) for r in rows)


def smallest_points(scoring: Scoring, rows: Sequence[Row], need: int) -> int | None:
    """The smallest p of ``POINTS_LINE`` whose gain over ``rows`` exceeds ``need``, or None.

    The gain is non-decreasing along ``POINTS_LINE``, so a bisection finds it.
    """
    if gain(scoring, rows, MATCH_POINTS) <= need:
        return None
    return POINTS_LINE[bisect_left(POINTS_LINE, need + 1, key=lambda p: gain(scoring, rows, p))]


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
    return out if forecast is None else attach(out, forecast)


def _open_rows(slate: Slate, side: int, ended: bool) -> list[Row]:
    if ended:
        return []
    return [r for r in slate.ruleset.rows if (r.key, side) not in slate.cells]


def _totals(slate: Slate, ended: bool) -> Outlook:
    rs = slate.ruleset
    mode = rs.scoring
    n = rs.n_sides
    totals = slate.totals
    open_rows = [_open_rows(slate, s, ended) for s in range(n)]
    maxs = [totals[s] + gain(mode, open_rows[s], MATCH_POINTS) for s in range(n)]
    sides: list[SideOutlook] = []
    lines: list[tuple[int | None, int | None]] = []
    for s in range(n):
        others = [o for o in range(n) if o != s]
        lead = max(totals[o] for o in others)
        ceiling = max(maxs[o] for o in others)
        catch_up = smallest_points(mode, open_rows[s], lead - totals[s])
        clinch = smallest_points(mode, open_rows[s], ceiling - totals[s])
        lines.append((catch_up, clinch))
        sides.append(SideOutlook(s, totals[s], totals[s], maxs[s], decide(totals, maxs, s), catch_up, clinch))
    rows: list[RowOutlook] = []
    for row in rs.rows:
        cells: list[CellOutlook] = []
        for s in range(n):
            cell = slate.cell(row.key, s)
            if cell is not None or ended:
                cells.append(CellOutlook(s, False, None if cell is None else cell.value, None, None, None))
                continue
            ceiling = max(maxs[o] for o in range(n) if o != s)
            catch_up, clinch = lines[s]
            cells.append(
                CellOutlook(
                    s,
                    True,
                    None,
                    totals[s] + row_max(mode, row) > ceiling,
                    None if catch_up is None else written_value(mode, row.factor, catch_up),
                    None if clinch is None else written_value(mode, row.factor, clinch),
                )
            )
        rows.append(RowOutlook(row.key, row.factor, row_max(mode, row), tuple(cells), None, None))
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
    return {r.key: row_max(ruleset.scoring, r) for r in ruleset.rows}
