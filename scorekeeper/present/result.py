"""The end of the evening as shown: winners, totals, sticks and potatoes, cuts, money."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..game.rulesets import Variant
from ..i18n import _
from ..scoring.final import Cut
from ..services.read.snapshot import EveningSnapshot
from .labels import EveningWords, marks_text
from .slate import words_of


@dataclass(frozen=True)
class ResultRow:
    key: str
    label: str
    factor: int
    values: list[int | None]
    marks: list[str]
    cut: str | None  # how a tie was decided


@dataclass(frozen=True)
class ResultView:
    variant: Variant
    complete: bool
    sides: list[str]
    winners: list[str]
    totals: list[int]
    rows: list[ResultRow]  # THREE only (sticks and potatoes per row)
    match_row: list[str] | None
    net_sticks: list[int] | None
    money: list[tuple[str, int]]  # per player (name, Rappen)
    heads: list[list[str]]  # per side: its players' short names (the table's headers)
    key: list[tuple[str, str]]  # (short, full) where the short form differs
    transfers: list[tuple[str, str, int]]  # (payer, payee, Rappen)


def cut_text(cut: Cut, sides: Sequence[str]) -> str:
    how = _("drawn by the app") if cut.drawn else _("cut at the table")
    if cut.end == "low":
        what = _("tie for the potatoes")
    elif cut.end == "high":
        what = _("tie for the sticks")
    else:
        what = _("three-way tie")
    order = cut.order or (cut.winner,)
    ranking = " > ".join(sides[s] for s in order)
    return _("%(what)s: %(ranking)s (highest card first, %(how)s)", what=what, ranking=ranking, how=how)


def result_view(snap: EveningSnapshot) -> ResultView | None:
    """The result section of the slate page (and the picture's words); None while undecided."""
    return result_in(snap, words_of(snap))


def result_in(snap: EveningSnapshot, words: EveningWords) -> ResultView | None:
    """``result_view`` in the evening's ``words``."""
    result, pay = snap.result, snap.payout
    if result is None or pay is None:
        return None
    names, sides = snap.names, words.sides
    three = snap.ruleset.variant is Variant.THREE
    rows = [
        ResultRow(
            key=r.row_key,
            label=words.narrow_rows[r.row_key],
            factor=r.factor,
            values=list(r.values),
            marks=[marks_text(s, p) for s, p in r.marks],
            cut=cut_text(r.cut, sides) if r.cut is not None else None,
        )
        for r in result.rows
        if three
    ]
    return ResultView(
        variant=snap.ruleset.variant,
        complete=result.complete,
        sides=list(sides),
        winners=[sides[s] for s in result.winners],
        totals=list(result.totals),
        rows=rows,
        match_row=[marks_text(s, p) for s, p in result.match_row] if three else None,
        net_sticks=list(result.net) if result.net is not None else None,
        money=[(names[seat], pay.net[seat]) for seat in range(snap.ruleset.n_players)],
        heads=[list(m) for m in words.members],
        key=list(words.key),
        transfers=[(names[t.payer], names[t.payee], t.rappen) for t in pay.transfers],
    )
