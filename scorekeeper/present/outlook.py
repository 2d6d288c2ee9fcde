"""The outlook in words (issue 13): per side its range, what it needs to take the lead and
to be sure of the win, whether it is decided, and its chance to win; per row who can still
get the sticks or the potatoes (three players). Built from ``services.outlook.EveningOutlook``
(the same numbers the API gives); the grid marks the cells where a match alone decides.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..game.hand_entry import MATCH_POINTS
from ..game.rulesets import Variant
from ..i18n import _
from ..scoring.outlook import LOST, WON, SideOutlook
from ..services.outlook import EveningOutlook
from ..services.snapshot import EveningSnapshot
from .labels import row_label, short_names, side_labels, signed


@dataclass(frozen=True)
class SideLine:
    side: int
    name: str
    range: str  # "1234 to 2890" (three players: net sticks, signed)
    decided: str  # won | lost | open
    decided_text: str | None  # "Has won" / "Can no longer win"; None while open
    catch_up: str | None  # what it needs to take the lead (None: three players)
    clinch: str | None  # what it needs to be sure of the win
    win: float  # probability of winning alone, 0..1 (the meter)
    win_text: str  # "38 %", "< 1 %", "100 %" (exact only when decided)
    shared_text: str | None  # chance of a shared win, from 1 % on
    expected: str | None  # three players: the expected net sticks


@dataclass(frozen=True)
class RowLine:
    label: str
    factor: int
    shares: list[str]  # per side: the cell's part of the catch-up line ("" for a written cell)
    match_enough: list[bool]  # per side
    sticks: str | None  # three players: who can still get them
    potatoes: str | None


@dataclass(frozen=True)
class OutlookView:
    hidden: bool
    three: bool
    sides: list[SideLine]
    short: list[str]  # per side, the short names (the row-by-row table's narrow columns; full names above)
    rows: list[RowLine]  # open rows only (three players: rows not decided yet)
    match_enough: frozenset[tuple[str, int]]  # (row key, side): a match in this cell alone wins
    simulations: int
    history_hands: int = 0  # the circle's hands blended in
    simulated: bool = False  # some cell is still open: the chances are a simulation's (else exact)


def percent(p: float, exact: bool) -> str:
    """A probability for people: whole percent; "< 1 %" / "> 99 %" unless it is certain."""
    if not exact:
        if p < 0.01:
            return _("< %(n)s %%", n=1)
        if p > 0.99:
            return _("> %(n)s %%", n=99)
    return _("%(n)s %%", n=round(p * 100))


def tenths(x: float) -> str:
    """A signed number to one decimal, with a real minus sign (as ``labels.signed``)."""
    text = f"{abs(x):.1f}"
    return text if text == "0.0" else ("+" if x > 0 else "−") + text


def line_text(points: int | None, *, lead: bool) -> str:
    """A line in words: the card points needed in every open row of the side (``lead``: the
    catch-up line, else the clinch line)."""
    if points is None:
        return _("out of reach") if lead else _("depends on the others")
    if points == 0:
        return _("already in the lead") if lead else _("already sure")
    if points == MATCH_POINTS:
        return _("a match in every open row")
    return _("%(points)s points in every open row", points=points)


def _side(s: SideOutlook, name: str, three: bool) -> SideLine:
    exact = s.decided != "open"  # a decided side's figure is certain, a simulated one never is
    win, shared = s.win or 0.0, s.shared or 0.0
    return SideLine(
        side=s.side,
        name=name,
        range=_("%(min)s to %(max)s", min=signed(s.min), max=signed(s.max))
        if three
        else _("%(min)s to %(max)s", min=s.min, max=s.max),
        decided=s.decided,
        decided_text=_("Has won") if s.decided == WON else _("Can no longer win") if s.decided == LOST else None,
        catch_up=None if three else line_text(s.catch_up, lead=True),
        clinch=None if three else line_text(s.clinch, lead=False),
        win=win,
        win_text=percent(win, exact),
        shared_text=percent(shared, exact) if shared >= 0.01 else None,  # shown from 1 % on
        expected=tenths(s.expected) if three and s.expected is not None else None,
    )


def build_outlook_view(snap: EveningSnapshot, eo: EveningOutlook) -> OutlookView:
    if eo.hidden or eo.outlook is None:
        return OutlookView(True, False, [], [], [], frozenset(), 0)
    out, rs = eo.outlook, snap.ruleset
    three = rs.variant is Variant.THREE
    names = side_labels(rs, snap.names)
    sides = [_side(s, names[s.side], three) for s in out.sides]
    short = side_labels(rs, short_names(snap.names))
    rows: list[RowLine] = []
    enough: set[tuple[str, int]] = set()
    for r in out.rows:
        row = rs.row(r.key)
        label = row_label(row, rs.deck)
        if three:
            if not any(c.open for c in r.cells) and len(r.sticks or ()) <= 1 and len(r.potatoes or ()) <= 1:
                continue
            rows.append(
                RowLine(
                    label,
                    r.factor,
                    [],
                    [],
                    ", ".join(snap.names[p] for p in r.sticks or ()),
                    ", ".join(snap.names[p] for p in r.potatoes or ()),
                )
            )
            continue
        if not any(c.open for c in r.cells):
            continue
        for c in r.cells:
            if c.match_enough:
                enough.add((r.key, c.side))
        rows.append(
            RowLine(
                label,
                r.factor,
                ["" if c.catch_up_share is None else str(c.catch_up_share) for c in r.cells],
                [bool(c.match_enough) for c in r.cells],
                None,
                None,
            )
        )
    simulated = any(c.open for r in out.rows for c in r.cells)
    return OutlookView(
        False, three, sides, short, rows, frozenset(enough), out.simulations, eo.history_hands, simulated
    )
