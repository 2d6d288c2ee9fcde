"""The end of an evening: sticks and potatoes (three players), totals and winners.

Three players (RULES.md 6.1):

- Only rows filled by all three players count (all rows at the regular end; at an
  early end the rows every player has already filled — a row someone has not
  played yet gives nobody sticks or potatoes).
- In a counted row the highest cell gets ``factor`` sticks, the lowest ``factor``
  potatoes.
- Ties for the highest or the lowest are broken by a cut (``Tie`` / ``Cut``): the
  app draws one with a secure random generator (``draw_cut``, production passes
  ``secrets.SystemRandom()``) or the table enters the result of a real cut
  (``Cut(..., drawn=False)``).
- A cut ranks the tied sides by the card each cut: ``Cut.order`` lists them from
  the highest card to the lowest, ``Cut.winner`` is the first. For a tie at the
  top the winner gets the sticks; for a tie at the bottom the LAST of the order
  gets the potatoes (the winner escapes).
- Decision (the rules are silent): when all three cells of a row are equal there
  is ONE cut of three cards (``end="all"``): the highest card gets the sticks, the
  lowest the potatoes, the middle one nothing. ``Cut.order`` must then list all
  three sides.
- A cut recorded for a tie that no longer exists (after a correction) is ignored;
  when several cuts are given for the same tie, the last one counts (a re-cut).
- The match row: the marks of ``Slate.match_marks``; a stick and a potato in the
  same player's cell cancel (one for one).
- Net = sticks - potatoes per player (the match row included); always zero-sum.

Team and solo games: the slate totals; the highest total wins, equal totals share
the win. The early end uses the standing at that point.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ..game.errors import N_, RuleError
from ..game.rulesets import Variant
from .slate import Slate

End = Literal["high", "low", "all"]


@dataclass(frozen=True, slots=True)
class Tie:
    row_key: str
    end: End  # "high": tie for the sticks, "low": for the potatoes, "all": three equal cells
    sides: tuple[int, ...]  # the tied sides, ascending

    def order_of(self, highest: int, lowest: int | None = None) -> tuple[int, ...]:
        """The ranking of a real cut told as the highest card and (three tied) the lowest:
        the remaining side is in the middle. ``()`` when only the highest is known
        (enough for two tied sides; ``Cut.ranking`` checks the rest)."""
        if lowest is None or lowest == highest:
            return ()
        return (highest, *[s for s in self.sides if s not in (highest, lowest)], lowest)


@dataclass(frozen=True, slots=True)
class Cut:
    row_key: str
    end: End
    winner: int  # the side that ranks first among the tied (highest card)
    drawn: bool  # True: drawn by the app; False: a real cut entered by the table
    order: tuple[int, ...] = ()  # every tied side from highest card to lowest; () = winner first, then the rest

    def ranking(self, tie: Tie) -> tuple[int, ...]:
        """The tied sides from first to last; raises RuleError if the cut does not fit the tie."""
        if self.winner not in tie.sides:
            raise RuleError(
                N_("The cut for row “%(row)s” names a player who is not in the tie."), "cut_invalid", row=tie.row_key
            )
        if self.order:
            order = tuple(self.order)
        elif len(tie.sides) == 2:
            order = (self.winner,) + tuple(s for s in tie.sides if s != self.winner)
        else:
            raise RuleError(
                N_("The cut for row “%(row)s” must rank all three players."), "cut_order_required", row=tie.row_key
            )
        if sorted(order) != sorted(tie.sides) or order[0] != self.winner:
            raise RuleError(
                N_("The cut for row “%(row)s” names a player who is not in the tie."), "cut_invalid", row=tie.row_key
            )
        return order

    def to_dict(self) -> dict[str, Any]:
        return {
            "row_key": self.row_key,
            "end": self.end,
            "winner": self.winner,
            "drawn": self.drawn,
            "order": list(self.order),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Cut:
        return cls(
            d["row_key"], d["end"], int(d["winner"]), bool(d["drawn"]), tuple(int(s) for s in d.get("order", ()))
        )


@dataclass(frozen=True, slots=True)
class RowResult:
    row_key: str
    factor: int
    values: tuple[int | None, ...]  # cell value per side (None: not filled)
    marks: tuple[tuple[int, int], ...]  # (sticks, potatoes) per side; zeros outside the three-player game
    cut: Cut | None = None


@dataclass(frozen=True, slots=True)
class Result:
    variant: Variant
    complete: bool  # every cell filled (False: ended early)
    totals: tuple[int, ...]  # per side: raw points (three players), multiplied values (others)
    rows: tuple[RowResult, ...]  # every row, in row order
    match_row: tuple[tuple[int, int], ...]  # (sticks, potatoes) per side after cancelling (three players)
    net: tuple[int, ...] | None  # sticks - potatoes per side (three players), else None
    winners: tuple[int, ...]  # sides; several on a shared win
    cuts: tuple[Cut, ...] = field(default=())  # the cuts used, in row order

    @property
    def score(self) -> tuple[int, ...]:
        """What decides the evening: net sticks (three players) or totals."""
        return self.net if self.net is not None else self.totals

    def sticks(self, side: int) -> int:
        return sum(r.marks[side][0] for r in self.rows) + self.match_row[side][0]

    def potatoes(self, side: int) -> int:
        return sum(r.marks[side][1] for r in self.rows) + self.match_row[side][1]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data (API, history)."""
        return {
            "variant": self.variant.value,
            "complete": self.complete,
            "totals": list(self.totals),
            "rows": [
                {
                    "row_key": r.row_key,
                    "factor": r.factor,
                    "values": list(r.values),
                    "marks": [list(m) for m in r.marks],
                    "cut": None if r.cut is None else r.cut.to_dict(),
                }
                for r in self.rows
            ],
            "match_row": [list(m) for m in self.match_row],
            "net": None if self.net is None else list(self.net),
            "winners": list(self.winners),
            "cuts": [c.to_dict() for c in self.cuts],
        }


def _counted(slate: Slate) -> list[str]:
    return [r.key for r in slate.ruleset.rows if slate.row_filled_by_all(r.key)]


def _values(slate: Slate, row_key: str) -> list[int]:
    return [slate.cells[(row_key, s)].value for s in range(slate.ruleset.n_sides)]


def ties(slate: Slate) -> list[Tie]:
    """Ties that need a cut (three players; rows filled by all sides), in row order."""
    if slate.ruleset.variant is not Variant.THREE:
        return []
    out: list[Tie] = []
    for key in _counted(slate):
        vals = _values(slate, key)
        hi, lo = max(vals), min(vals)
        if hi == lo:
            out.append(Tie(key, "all", tuple(range(len(vals)))))
            continue
        top = tuple(s for s, v in enumerate(vals) if v == hi)
        bottom = tuple(s for s, v in enumerate(vals) if v == lo)
        if len(top) > 1:
            out.append(Tie(key, "high", top))
        if len(bottom) > 1:
            out.append(Tie(key, "low", bottom))
    return out


def effective_cuts(slate: Slate, cuts: Sequence[Cut]) -> tuple[list[Cut], list[Tie]]:
    """(the recorded cuts that decide a current tie, in tie order; ties still without a cut).

    ``cuts`` in the order they were recorded: a cut counts only while the slate still
    shows exactly its tie (same row, end and sides: ``Cut.ranking`` accepts it); the
    latest cut of a tie wins.
    """
    current = ties(slate)
    by_key = {(t.row_key, t.end): t for t in current}
    chosen: dict[tuple[str, str], Cut] = {}
    for cut in cuts:
        tie = by_key.get((cut.row_key, cut.end))
        if tie is None:
            continue
        try:
            cut.ranking(tie)
        except RuleError:
            continue  # a cut of an earlier tie (a correction changed the cells)
        chosen[(cut.row_key, cut.end)] = cut
    return [chosen[k] for k in by_key if k in chosen], [t for k, t in by_key.items() if k not in chosen]


def draw_cut(tie: Tie, rng: random.Random) -> Cut:
    """Cut the cards for a tie: a uniformly random ranking of the tied sides."""
    order = list(tie.sides)
    rng.shuffle(order)
    return Cut(tie.row_key, tie.end, order[0], True, tuple(order))


def _ends(vals: list[int], ranking: dict[str, tuple[int, ...]]) -> tuple[int, int]:
    """(side with the sticks, side with the potatoes) of a counted row, cuts applied."""
    hi, lo = max(vals), min(vals)
    top = [s for s, v in enumerate(vals) if v == hi][0]
    bottom = [s for s, v in enumerate(vals) if v == lo][0]
    if "all" in ranking:
        return ranking["all"][0], ranking["all"][-1]
    if "high" in ranking:
        top = ranking["high"][0]
    if "low" in ranking:
        bottom = ranking["low"][-1]
    return top, bottom


def _winners(score: Sequence[int]) -> tuple[int, ...]:
    best = max(score)
    return tuple(s for s, v in enumerate(score) if v == best)


def cancel_marks(marks: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """The match row as it counts: a stick and a potato in the same cell cancel, one for one."""
    return tuple((s - min(s, p), p - min(s, p)) for s, p in marks)


def final_result(slate: Slate, cuts: Sequence[Cut] = ()) -> Result:
    """The standing of the evening (at its end, or now for an early end)."""
    rs = slate.ruleset
    n = rs.n_sides
    three = rs.variant is Variant.THREE
    by_tie: dict[tuple[str, str], Cut] = {}
    for c in cuts:
        by_tie[(c.row_key, c.end)] = c  # the last cut for a tie counts
    pending = {(t.row_key, t.end): t for t in ties(slate)}
    counted = set(_counted(slate)) if three else set()
    rows: list[RowResult] = []
    used: list[Cut] = []
    for row in rs.rows:
        vals_or_none = tuple(slate.cells[(row.key, s)].value if (row.key, s) in slate.cells else None for s in range(n))
        zero = tuple((0, 0) for _ in range(n))
        if row.key not in counted:
            rows.append(RowResult(row.key, row.factor, vals_or_none, zero))
            continue
        vals = _values(slate, row.key)
        row_ties = [t for (k, _), t in pending.items() if k == row.key]
        ranking: dict[str, tuple[int, ...]] = {}
        row_cut: Cut | None = None
        for t in row_ties:
            cut = by_tie.get((t.row_key, t.end))
            if cut is None:
                raise RuleError(N_("Row “%(row)s” is tied: cut the cards first."), "cut_missing", row=row.key)
            ranking[t.end] = cut.ranking(t)
            used.append(cut)
            row_cut = cut
        top, bottom = _ends(vals, ranking)
        marks = [[0, 0] for _ in range(n)]
        marks[top][0] += row.factor
        marks[bottom][1] += row.factor
        rows.append(RowResult(row.key, row.factor, vals_or_none, tuple((a, b) for a, b in marks), row_cut))
    totals = tuple(slate.totals)
    if not three:
        return Result(
            rs.variant, slate.complete, totals, tuple(rows), tuple((0, 0) for _ in range(n)), None, _winners(totals), ()
        )
    match_row = cancel_marks(slate.match_marks)
    net = []
    for side in range(n):
        sticks = sum(r.marks[side][0] for r in rows) + match_row[side][0]
        potatoes = sum(r.marks[side][1] for r in rows) + match_row[side][1]
        net.append(sticks - potatoes)
    if sum(net) != 0:  # pragma: no cover - guarded by construction and property tests
        raise AssertionError(f"sticks and potatoes not zero-sum: {net}")
    return Result(
        rs.variant, slate.complete, totals, tuple(rows), tuple(match_row), tuple(net), _winners(net), tuple(used)
    )
