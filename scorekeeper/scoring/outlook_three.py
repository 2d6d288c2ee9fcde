"""The three-player outlook (RULES.md 6.1): per row, who can still get the sticks
or the potatoes, and what the row can still add to each player's net.

A row's *term* for a player is what it adds to her net sticks: ``factor`` for
the sticks, ``-factor`` for the potatoes, plus the match-row marks of the cells
still open in it (a match: +2 to its declarer and -1 to each opponent; a
countermatch: -2 and +1). The marks of cells already written are in the
player's current net (``Slate.match_marks``).

A row is *determined* when all three cells are written and its ends are known
(no tie, or a valid cut for its tie); its term is then part of the current net.
Any other row is enumerated: every open cell runs over a finite set of outcomes
that realizes every possible order of the three cells (``outcomes``), and a tie
may be cut either way. The sets are exact, not approximations: every order of
the open values among themselves and against the written ones is reached, and
only the order, the ties and the match flags matter to a row.

Rows are independent (a cell belongs to one row), so a player's least and most
net over all completions are the sums of her per-row least and most terms. The
*known* net sums the parts of the terms that are certain now; it lies between.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from ..game.hand_entry import COUNTERMATCH, MATCH_POINTS, TOTAL_POINTS
from .final import Cut, _ends, effective_cuts, ties
from .slate import Slate

N_THREE = 3
MATCH_MARK = 2  # to the declarer of a match (potatoes: countermatch)
OPPONENT_MARK = 1  # to each opponent


@dataclass(frozen=True, slots=True)
class RowRange:
    """What one row can still add to each player's net, and who can get its ends."""

    lo: tuple[int, ...]  # per player: the least term
    hi: tuple[int, ...]  # per player: the most
    sticks: tuple[int, ...]  # players who can still get the sticks (ascending)
    potatoes: tuple[int, ...]  # players who can still get the potatoes
    determined: bool  # written by all three and its ends known: lo == hi
    known: tuple[int, ...] = (0, 0, 0)  # per player: the part of the term known now (lo <= known <= hi)


def outcomes(written: Sequence[int], n_open: int) -> tuple[int, ...]:
    """Outcomes an open cell runs over: a countermatch, a match, and plain points that
    reach every order against the ``written`` cell values (ranking values: 257 for a
    match) and among ``n_open`` open cells: ``n_open`` distinct values in every gap,
    and every written value itself (a tie)."""
    plain = set(range(n_open))
    for v in written:
        if v <= TOTAL_POINTS:
            plain.update(range(v - n_open, v + n_open + 1))
    return (COUNTERMATCH, *sorted(p for p in plain if 0 <= p <= TOTAL_POINTS), MATCH_POINTS)


def marks(outcome: int, seat: int, player: int) -> int:
    """Net match-row marks for ``player`` from a cell of ``seat`` with ``outcome``."""
    if outcome == MATCH_POINTS:
        return MATCH_MARK if seat == player else -OPPONENT_MARK
    if outcome == COUNTERMATCH:
        return -MATCH_MARK if seat == player else OPPONENT_MARK
    return 0


def rank_value(outcome: int) -> int:
    """The cell value an outcome writes in the three-player game (what rows compare)."""
    return max(outcome, 0)


def ends(values: Sequence[int], factor: int) -> tuple[tuple[int, ...], tuple[int, ...], list[int], list[int]]:
    """(tops, bottoms, best term, worst term per player) of a written row, a tie cut either way."""
    hi, lo = max(values), min(values)
    tops = tuple(s for s, v in enumerate(values) if v == hi)
    bottoms = tuple(s for s, v in enumerate(values) if v == lo)
    if hi == lo:  # one cut of three cards: any of them first, any last
        return tops, bottoms, [factor] * N_THREE, [-factor] * N_THREE
    best = [(factor if s in tops else 0) - (factor if bottoms == (s,) else 0) for s in range(N_THREE)]
    worst = [(factor if tops == (s,) else 0) - (factor if s in bottoms else 0) for s in range(N_THREE)]
    return tops, bottoms, best, worst


@lru_cache(maxsize=4096)
def row_range(values: tuple[int | None, ...], factor: int) -> RowRange:
    """The range of a row with ``values`` written (``None``: open), no cut known.

    ``known``: nothing while a cell is open; for a row written by all three that
    waits for its cut, the end that is not tied (the potatoes of a tie for the
    sticks, the sticks of a tie for the potatoes; nothing when all three are equal).
    """
    open_seats = [s for s, v in enumerate(values) if v is None]
    written = [v for v in values if v is not None]
    lo = [10**9] * N_THREE
    hi = [-(10**9)] * N_THREE
    sticks: set[int] = set()
    potatoes: set[int] = set()
    cands = outcomes(written, len(open_seats))
    for combo in product(cands, repeat=len(open_seats)):
        vals = list(values)
        for seat, o in zip(open_seats, combo, strict=True):
            vals[seat] = rank_value(o)
        tops, bottoms, best, worst = ends([v for v in vals if v is not None], factor)
        sticks.update(tops)
        potatoes.update(bottoms)
        for p in range(N_THREE):
            m = sum(marks(o, seat, p) for seat, o in zip(open_seats, combo, strict=True))
            lo[p] = min(lo[p], worst[p] + m)
            hi[p] = max(hi[p], best[p] + m)
    known = [0] * N_THREE
    if not open_seats:
        tops, bottoms, _, _ = ends(written, factor)
        if len(tops) == 1:
            known[tops[0]] += factor
        if len(bottoms) == 1:
            known[bottoms[0]] -= factor
    return RowRange(tuple(lo), tuple(hi), tuple(sorted(sticks)), tuple(sorted(potatoes)), False, tuple(known))


def determined_range(values: Sequence[int], factor: int, ranking: Mapping[str, tuple[int, ...]]) -> RowRange:
    """A row written by all three whose tie (if any) is cut: its sticks and potatoes are known."""
    top, bottom = _ends(list(values), dict(ranking))
    term = [0] * N_THREE
    term[top] += factor
    term[bottom] -= factor
    return RowRange(tuple(term), tuple(term), (top,), (bottom,), True, tuple(term))


def row_ranges(slate: Slate, cuts: Sequence[Cut] = (), ended: bool = False) -> dict[str, RowRange]:
    """Every row's range. ``ended``: the evening ended early; rows not written by all
    three give nobody anything (RULES 6.1, DECISIONS: ending early)."""
    rs = slate.ruleset
    decided, _ = effective_cuts(slate, cuts)  # the same rule as the result: the latest cut that fits its tie
    cut_of = {c.row_key: c for c in decided}  # a row has at most one tie with three players
    tie_of = {t.row_key: t for t in ties(slate)}
    out: dict[str, RowRange] = {}
    zero = (0,) * N_THREE
    for row in rs.rows:
        values = tuple(slate.cells[(row.key, s)].value if (row.key, s) in slate.cells else None for s in range(N_THREE))
        if None in values:
            out[row.key] = RowRange(zero, zero, (), (), True, zero) if ended else row_range(values, row.factor)
            continue
        full = [v for v in values if v is not None]
        tie = tie_of.get(row.key)
        if tie is None:
            out[row.key] = determined_range(full, row.factor, {})
        elif row.key in cut_of:
            out[row.key] = determined_range(full, row.factor, {tie.end: cut_of[row.key].ranking(tie)})
        else:  # not cut yet: either way
            out[row.key] = row_range(values, row.factor)
    return out


def current_net(slate: Slate, ranges: Mapping[str, RowRange], *, settled_only: bool = False) -> list[int]:
    """Net sticks known now: the match row's marks and every row's known part
    (``settled_only``: only the determined rows, the base a simulation adds the rest to)."""
    net = [s - p for s, p in slate.match_marks]
    for r in ranges.values():
        if r.determined or not settled_only:
            for p in range(N_THREE):
                net[p] += r.known[p]
    return net
