"""What the slate shows, built from an evening's snapshot: the grid, the turn guide,
the choices of the record form.

Plain frozen dataclasses for the templates and the picture: no database, no request.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..game.contracts import Contract, Kind, all_contracts
from ..game.rulesets import Row, RuleSet, Variant
from ..i18n import _
from ..scoring.entries import is_misere
from ..scoring.final import cancel_marks
from ..scoring.outlook_three import current_net, row_ranges
from ..services.snapshot import EveningSnapshot
from .labels import (
    barrel_rule_text,
    contract_label,
    contract_short,
    hyphenate,
    marks_text,
    names_key,
    row_label,
    short_members,
    side_labels,
)


@dataclass(frozen=True)
class CellView:
    value: int | None  # None: open
    index: int | None = None  # position in slate.entries (for corrections)
    played_as: str | None = None  # what a choice row was played as
    match: bool = False  # good for the declarer: every trick (a Misère: no trick)
    countermatch: bool = False  # bad for the declarer
    last: bool = False  # the most recent entry
    digital: bool = False  # dealt at the digital table
    imported: bool = False  # typed from a paper slate (a value, no card points)


@dataclass(frozen=True)
class RowView:
    key: str
    label: str
    factor: int
    cells: list[CellView]
    group_end: bool


@dataclass(frozen=True)
class Guide:
    dealer: str
    forehand: str
    first: str | None  # who chooses first: the forehand, or the next who can when her side is full
    forehand_full: bool
    speaking: list[str]  # eligible seats in speaking order
    full: list[str]  # sides whose rows are all filled
    barrel: str | None  # who must choose when everybody passed
    barrel_rule: str
    seich: str | None  # club variant: who may still call Seich


@dataclass(frozen=True)
class SlateView:
    variant: Variant
    sides: list[str]
    rows: list[RowView]
    totals: list[int]
    marks: list[str] | None  # match row (THREE): sticks | and potatoes o per side, cancelled as they count
    hands_dealt: int
    cells_filled: int
    n_cells: int
    complete: bool
    guide: Guide | None
    raw: bool  # THREE: the columns' sums mean nothing (sticks and potatoes count); ``sticks_now`` instead
    open_rows: dict[int, list[str]] = field(default_factory=dict)
    members: list[list[str]] = field(default_factory=list)  # per side: its players' short names (headers)
    key: list[tuple[str, str]] = field(default_factory=list)  # (short, full) where the short form differs
    chooser: dict[int, int] = field(default_factory=dict)  # per side: its seat whose turn it is to choose
    sticks_now: list[int] | None = None  # THREE: net sticks known now (match row, rows written by all)
    imported: bool = False  # some cells were typed from a paper slate (the legend says so)

    @property
    def has_matches(self) -> bool:
        """A match or countermatch is on the slate (its marks then get a key)."""
        return any(c.match or c.countermatch for r in self.rows for c in r.cells)


def _category(ruleset: RuleSet, row: Row) -> int:
    if ruleset.variant is Variant.THREE:
        return row.factor
    if row.suit is not None:
        return 0
    return 2 if row.is_joker else 1


def played_as_label(row: Row, contract: Contract | None, ruleset: RuleSet) -> str | None:
    if contract is None or not row.is_choice:
        return None
    return hyphenate(contract_short(contract, ruleset.deck))


def build_slate_view(snap: EveningSnapshot) -> SlateView:
    ruleset, names, slate = snap.ruleset, snap.names, snap.slate
    n_sides = ruleset.n_sides
    three = ruleset.variant is Variant.THREE
    last_index = len(slate.entries) - 1
    rows: list[RowView] = []
    for i, row in enumerate(ruleset.rows):
        cells: list[CellView] = []
        for side in range(n_sides):
            c = slate.cell(row.key, side)
            if c is None:
                cells.append(CellView(None))
                continue
            e = c.entry
            # colours say good or bad for the declarer: a Misère countermatch (+100) is good
            good, bad = (e.countermatch, e.match) if is_misere(ruleset, e) else (e.match, e.countermatch)
            cells.append(
                CellView(
                    c.value,
                    c.index,
                    played_as_label(row, e.contract, ruleset),
                    good,
                    bad,
                    c.index == last_index,
                    c.index in snap.digital,
                    c.imported,
                )
            )
        nxt = ruleset.rows[i + 1] if i + 1 < len(ruleset.rows) else None
        group_end = nxt is not None and _category(ruleset, nxt) != _category(ruleset, row)
        rows.append(RowView(row.key, hyphenate(row_label(row, ruleset.deck)), row.factor, cells, group_end))
    return SlateView(
        variant=ruleset.variant,
        sides=side_labels(ruleset, names),
        rows=rows,
        totals=list(slate.totals),
        marks=[marks_text(s, p) for s, p in cancel_marks(slate.match_marks)] if three else None,
        hands_dealt=slate.hands_dealt,
        cells_filled=len(slate.cells),
        n_cells=n_sides * len(ruleset.rows),
        complete=slate.complete,
        guide=build_guide(snap),
        raw=three,
        open_rows={side: slate.open_rows(side) for side in range(n_sides)},
        members=short_members(ruleset, names),
        key=names_key(names),
        chooser=choosers(snap),
        sticks_now=current_net(slate, row_ranges(slate, snap.cuts, ended=not snap.is_open)) if three else None,
        imported=any(e.imported for e in slate.entries),
    )


def choosers(snap: EveningSnapshot) -> dict[int, int]:
    """Per side that may choose: the first of its seats in tonight's speaking order, the partner
    a tapped cell takes as declarer (the turn guide's order, so the two never disagree)."""
    out: dict[int, int] = {}
    if snap.turn is not None:
        for seat in snap.turn.speaking:
            out.setdefault(snap.ruleset.side_of(seat), seat)
    return out


def build_guide(snap: EveningSnapshot) -> Guide | None:
    """The turn guide above the slate (None once every cell is filled or the evening ended)."""
    turn = snap.turn
    if turn is None:
        return None
    ruleset, names = snap.ruleset, snap.names
    sides = side_labels(ruleset, names)
    seich = None
    if turn.seich_available is not None:
        seich = (
            _(
                "Seich: once per team, the player in the barrel may throw the hand in instead of choosing. Still available for: %(teams)s.",  # noqa: E501
                teams=", ".join(sides[s] for s in turn.seich_available),
            )
            if turn.seich_available
            else _("Seich: both teams have used theirs.")
        )
    return Guide(
        dealer=names[turn.dealer],
        forehand=names[turn.forehand],
        first=names[turn.speaking[0]] if turn.speaking else None,
        forehand_full=ruleset.side_of(turn.forehand) in turn.full_sides,
        speaking=[names[s] for s in turn.speaking],
        full=[sides[s] for s in turn.full_sides],
        barrel=None if turn.barrel_seat is None else names[turn.barrel_seat],
        barrel_rule=barrel_rule_text(ruleset),
        seich=seich,
    )


def contract_choices(ruleset: RuleSet) -> list[tuple[str, str, list[str]]]:
    """Every contract a choice row may be played as: (code, label, row keys that allow it)."""
    out: dict[str, tuple[str, list[str]]] = {}
    for row in ruleset.rows:
        if not row.is_choice:
            continue
        for kind in row.kinds:
            for c in all_contracts(kind):
                if not row.allows(c):
                    continue
                if c.code not in out:
                    out[c.code] = (contract_label(c, ruleset.deck), [])
                out[c.code][1].append(row.key)
    order = {k: i for i, k in enumerate(Kind)}
    codes = sorted(out, key=lambda code: (order[Contract.parse(code).kind], code))
    return [(code, out[code][0], out[code][1]) for code in codes]
