"""What the slate page shows, built from the rule set, the seats and a ``scoring.Slate``.

Plain dataclasses for the templates (and tests): no database, no request.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from flask_babel import gettext as _

from ..game.cards import DeckStyle
from ..game.contracts import Contract, Kind
from ..game.rulesets import BarrelRule, Row, RuleSet, Variant
from ..scoring.entries import is_misere
from ..scoring.slate import Slate
from .labels import contract_label, contract_short, hyphenate, row_label

if TYPE_CHECKING:  # the audit trail's items, read by attribute only (no database here)
    from ..services.entries import LogItem


@dataclass(frozen=True)
class CellView:
    value: int | None  # None: open
    index: int | None = None  # position in slate.entries (for corrections)
    played_as: str | None = None  # what a choice row was played as
    match: bool = False  # good for the declarer: every trick (a Misère: no trick)
    countermatch: bool = False  # bad for the declarer
    last: bool = False  # the most recent entry
    digital: bool = False  # dealt at the digital table


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
    marks: list[str] | None  # match row (THREE): sticks | and potatoes o per side
    hands_dealt: int
    cells_filled: int
    n_cells: int
    complete: bool
    guide: Guide | None
    raw: bool  # totals are raw points (THREE) rather than multiplied values
    open_rows: dict[int, list[str]] = field(default_factory=dict)
    members: list[list[str]] = field(default_factory=list)  # per side: the players' names (headers)


def side_labels(ruleset: RuleSet, names: Sequence[str]) -> list[str]:
    return [" & ".join(names[s] for s in ruleset.seats_of(side)) for side in range(ruleset.n_sides)]


def marks_text(sticks: int, potatoes: int) -> str:
    """``||| oo``: sticks as strokes, potatoes as circles; ``–`` when there are none."""
    text = " ".join(p for p in ("|" * sticks, "o" * potatoes) if p)
    return text or "–"


def _category(ruleset: RuleSet, row: Row) -> int:
    if ruleset.variant is Variant.THREE:
        return row.factor
    if row.suit is not None:
        return 0
    return 2 if row.is_joker else 1


def barrel_rule_text(ruleset: RuleSet) -> str:
    if ruleset.barrel is BarrelRule.BOOK:
        return _(
            "Barrel (book rule): when everybody has passed once, the turn comes back to the forehand, "
            "who must choose. If the forehand is full, the last player who can still choose may not pass."
        )
    return _(
        "Barrel (online-table rule): after a full round of passes, the first player who can still choose must choose."
    )


def played_as_label(ruleset: RuleSet, row: Row, contract: Contract | None, deck: DeckStyle) -> str | None:
    if contract is None or not row.is_choice:
        return None
    return hyphenate(contract_short(contract, deck))


def digital_entries(log: Sequence[LogItem]) -> frozenset[int]:
    """Positions in ``slate.entries`` of the hands dealt digitally, by replaying the audit trail
    (a correction keeps the flag of the hand it corrects; an undo takes the entry out)."""
    flags: list[bool] = []
    for item in log:
        if item.kind == "hand":
            flags.append(item.digital)
        elif item.kind == "correction":
            flags[item.index] = item.digital
        else:
            flags.pop(item.index)
    return frozenset(i for i, digital in enumerate(flags) if digital)


def build_slate_view(
    ruleset: RuleSet, names: Sequence[str], slate: Slate, *, ended: bool = False, digital: Collection[int] = ()
) -> SlateView:
    deck = ruleset.deck
    n_sides = ruleset.n_sides
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
                    played_as_label(ruleset, row, e.contract, deck),
                    good,
                    bad,
                    c.index == last_index,
                    c.index in digital,
                )
            )
        nxt = ruleset.rows[i + 1] if i + 1 < len(ruleset.rows) else None
        group_end = nxt is not None and _category(ruleset, nxt) != _category(ruleset, row)
        rows.append(RowView(row.key, hyphenate(row_label(row, deck)), row.factor, cells, group_end))
    sides = side_labels(ruleset, names)
    marks = None
    if ruleset.variant is Variant.THREE:
        marks = [marks_text(s, p) for s, p in slate.match_marks]
    guide = None if (slate.complete or ended) else build_guide(ruleset, names, slate)
    return SlateView(
        variant=ruleset.variant,
        sides=sides,
        rows=rows,
        totals=list(slate.totals),
        marks=marks,
        hands_dealt=slate.hands_dealt,
        cells_filled=len(slate.cells),
        n_cells=n_sides * len(ruleset.rows),
        complete=slate.complete,
        guide=guide,
        raw=ruleset.variant is Variant.THREE,
        open_rows={side: slate.open_rows(side) for side in range(n_sides)},
        members=[[names[s] for s in ruleset.seats_of(side)] for side in range(n_sides)],
    )


def build_guide(ruleset: RuleSet, names: Sequence[str], slate: Slate) -> Guide:
    sides = side_labels(ruleset, names)
    barrel = slate.barrel_seat
    seich = None
    if ruleset.seich:
        left = [sides[s] for s in range(ruleset.n_sides) if s not in slate.seich_used]
        seich = (
            _(
                "Seich: once per team, the player in the barrel may throw the hand in instead of choosing. Still available for: %(teams)s.",  # noqa: E501
                teams=", ".join(left),
            )
            if left
            else _("Seich: both teams have used theirs.")
        )
    eligible = slate.eligible_seats()
    return Guide(
        dealer=names[slate.dealer],
        forehand=names[slate.forehand],
        first=names[eligible[0]] if eligible else None,
        forehand_full=ruleset.side_of(slate.forehand) in slate.full_sides(),
        speaking=[names[s] for s in eligible],
        full=[sides[s] for s in sorted(slate.full_sides())],
        barrel=None if barrel is None else names[barrel],
        barrel_rule=barrel_rule_text(ruleset),
        seich=seich,
    )


def contract_choices(ruleset: RuleSet) -> list[tuple[str, str, list[str]]]:
    """Every contract a choice row may be played as: (code, label, row keys that allow it)."""
    from ..game.contracts import all_contracts

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
