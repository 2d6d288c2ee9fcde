"""The outlook in words (issue 13): per side its range, the least it needs to take the lead
and to be sure of the win (``scoring.outlook.Need``: the one hand that is enough, else the
points as an average, else the matches; nothing once the evening is over or the side is
decided), whether it is decided, and its chance to win; row by row what one hand needs on
its own to take the lead; per row who can still get the sticks or the potatoes (three
players). Built from ``services.read.outlook.EveningOutlook`` (the same numbers the API gives);
the grid's stars are the cells where a match alone makes the win sure, the same cells the
words name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..game.contracts import Kind
from ..game.hand_entry import MATCH_POINTS
from ..game.rulesets import Row, Variant
from ..i18n import _, format_tenths, ngettext, or_list
from ..scoring.outlook import LOST, WON, Need, SideOutlook
from ..services.read.outlook import EveningOutlook
from ..services.read.snapshot import EveningSnapshot
from .labels import EveningWords, signed


@dataclass(frozen=True)
class SideLine:
    side: int
    name: str
    range: str  # "1234 to 2890" (three players: net sticks, signed)
    decided: str  # won | lost | open
    decided_text: str | None  # "Has won" / "Can no longer win"; None while open
    catch_up: str | None  # the least it needs to take the lead (None: three players, over, decided)
    clinch: str | None  # the least it needs to be sure of the win
    win: float  # probability of winning alone, 0..1 (the meter)
    win_text: str  # "38 %", "< 1 %", "100 %" (exact only when decided)
    shared_text: str | None  # chance of a shared win, from 1 % on
    expected: str | None  # three players: the expected net sticks


@dataclass(frozen=True)
class RowLine:
    key: str
    label: str
    factor: int
    alone: list[str]  # per side: what one hand here needs on its own to take the lead ("" written)
    alone_words: list[str]  # the same for a screen reader ("" written)
    match_enough: list[bool]  # per side: a match here alone makes the win sure (the star)
    sticks: str | None  # three players: who can still get them
    potatoes: str | None


@dataclass(frozen=True)
class OutlookView:
    hidden: bool
    three: bool
    sides: list[SideLine]
    short: list[str]  # per side, the short names (the row-by-row table's narrow columns; full names above)
    rows: list[RowLine]  # open rows only (three players: rows not decided yet)
    misere: bool  # an open row may be played as Misère (its points are the opponents' pile)
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
    """A signed number to one decimal as the language writes it (Babel: ``+1.5``, ``+1,5`` in
    French), with a real minus sign (as ``labels.signed``)."""
    text = format_tenths(abs(x))
    return text if round(abs(x), 1) == 0 else ("+" if x > 0 else "−") + text


# A need names the rows it is about when they are few; more of them are the side's open rows
# from a factor up (the rows where a hand does it with the fewest points are the biggest ones).
NAMED_ROWS = 3


def _can_be_misere(rows: list[Row]) -> bool:
    return any(Kind.MISERE in r.kinds for r in rows)


def _rows_text(words: EveningWords, rows: list[Row], open_rows: list[Row]) -> str:
    if len(rows) == len(open_rows) > 1:
        return _("any of its open rows")
    if len(rows) <= NAMED_ROWS:
        return or_list([f"{words.rows[r.key]} ×{r.factor}" for r in rows])
    return _("any open row from ×%(factor)s up", factor=min(r.factor for r in rows))


def need_text(
    need: Need | None, words: EveningWords, row_of: Mapping[str, Row], open_rows: list[Row], *, lead: bool
) -> str | None:
    """The least a side needs for a line, in words (None: nothing to say)."""
    if need is None:
        return None
    if need.kind == "there":
        return _("already in the lead") if lead else _("already sure")
    if need.kind == "out":
        return _("out of reach")
    if need.kind == "others":
        return _("depends on the others")
    if need.kind == "cell" and need.points is not None:
        rows = [row_of[k] for k in need.rows]
        where = _rows_text(words, rows, open_rows)
        if need.points == MATCH_POINTS:
            text = _("a match in %(rows)s", rows=where)
        else:
            text = ngettext("%(num)s point in %(rows)s", "%(num)s points in %(rows)s", need.points, rows=where)
        return _misere(text, rows, match=need.points == MATCH_POINTS)
    if need.kind == "matches" and need.matches is not None:
        text = ngettext(
            "at least %(num)s match, with 157 points in each other open row",
            "at least %(num)s matches, with 157 points in each other open row",
            need.matches,
        )
        return _misere(text, open_rows, match=True)
    points = need.points or 0
    text = ngettext("%(num)s point per open row, on average", "%(num)s points per open row, on average", points)
    return _misere(text, open_rows, match=False)


def _misere(text: str, rows: list[Row], *, match: bool) -> str:
    """``text`` with what a match or the points mean in a Misère, when a row in it may be one."""
    if not _can_be_misere(rows):
        return text
    note = _("(a Misère: no trick)") if match else _("(a Misère: the opponents’ points)")
    return f"{text} {note}"


def alone_text(points: int | None) -> tuple[str, str]:
    """What one hand in a row needs on its own to take the lead: the table's mark and its words."""
    if points is None:
        return "–", _("not enough on its own")
    if points == 0:
        return "✓", _("already in the lead")
    if points == MATCH_POINTS:
        return _("match"), _("a match")
    return str(points), ngettext("%(num)s point", "%(num)s points", points)


def _side(
    s: SideOutlook, name: str, three: bool, words: EveningWords, row_of: Mapping[str, Row], open_rows: list[Row]
) -> SideLine:
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
        catch_up=None if three else need_text(s.lead_need, words, row_of, open_rows, lead=True),
        clinch=None if three else need_text(s.sure_need, words, row_of, open_rows, lead=False),
        win=win,
        win_text=percent(win, exact),
        shared_text=percent(shared, exact) if shared >= 0.01 else None,  # shown from 1 % on
        expected=tenths(s.expected) if three and s.expected is not None else None,
    )


def build_outlook_view(snap: EveningSnapshot, eo: EveningOutlook, words: EveningWords) -> OutlookView:
    """The outlook ``eo`` of ``snap`` in the evening's ``words``."""
    if eo.hidden or eo.outlook is None:
        return OutlookView(True, False, [], [], [], False, frozenset(), 0)
    out, row_of = eo.outlook, snap.ruleset.row_of
    three = snap.ruleset.variant is Variant.THREE
    names = words.sides
    open_rows = [[row_of[r.key] for r in out.rows if r.cells[s.side].open] for s in out.sides]
    sides = [_side(s, names[s.side], three, words, row_of, open_rows[s.side]) for s in out.sides]
    short = list(words.short_sides)
    rows: list[RowLine] = []
    enough: set[tuple[str, int]] = set()
    for r in out.rows:
        label = words.narrow_rows[r.key]  # soft hyphens at the long words' natural breaks
        if three:
            if not any(c.open for c in r.cells) and len(r.sticks or ()) <= 1 and len(r.potatoes or ()) <= 1:
                continue
            rows.append(
                RowLine(
                    r.key,
                    label,
                    r.factor,
                    [],
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
        alone = [alone_text(c.lead_alone) if c.open else ("", "") for c in r.cells]
        rows.append(
            RowLine(
                r.key,
                label,
                r.factor,
                [mark for mark, _words in alone],
                [words for _mark, words in alone],
                [bool(c.match_enough) for c in r.cells],
                None,
                None,
            )
        )
    simulated = any(c.open for r in out.rows for c in r.cells)
    misere = not three and _can_be_misere([row_of[r.key] for r in out.rows if any(c.open for c in r.cells)])
    return OutlookView(
        False, three, sides, short, rows, misere, frozenset(enough), out.simulations, eo.history_hands, simulated
    )
