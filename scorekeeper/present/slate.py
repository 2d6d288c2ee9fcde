"""What the slate shows, built from an evening's snapshot: the grid, the turn guide,
the choices of the record form.

Plain frozen dataclasses for the templates and the picture: no database, no request.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..game.contracts import Contract, Kind, all_contracts
from ..game.rulesets import Row, RuleSet, Variant
from ..i18n import _
from ..scoring.entries import plays_misere
from ..services.read.snapshot import EveningSnapshot
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
class SeichMark:
    """Where a Seich went: the hand it was called in and by whom."""

    index: int  # position in slate.entries (for corrections)
    seat: int
    name: str  # the caller in full
    short: str  # the caller's short form (the slate's headers)

    @property
    def hand(self) -> int:
        return self.index + 1

    @property
    def text(self) -> str:
        """``hand 7 · Vreni``: the slate's Seich row and the picture."""
        return _("hand %(n)s · %(name)s", n=self.hand, name=self.short)


def seich_marks(snap: EveningSnapshot) -> list[list[SeichMark]] | None:
    """Per side, every Seich it called, in order (empty: none yet; more than one only where
    the rules allow a side several, ``RuleSet.seich_times``); ``None`` where the rules have no
    Seich. From ``scoring.Slate.seich_all``: the page, the picture and the API say the same."""
    ruleset, slate = snap.ruleset, snap.slate
    if not ruleset.seich:
        return None
    short = [name for side in short_members(ruleset, snap.names) for name in side]
    seat_order = [seat for side in range(ruleset.n_sides) for seat in ruleset.seats_of(side)]
    short_of = dict(zip(seat_order, short, strict=True))
    out: list[list[SeichMark]] = []
    for side in range(ruleset.n_sides):
        marks = []
        for index in slate.seich_all.get(side, ()):
            seat = slate.entries[index].declarer_seat
            marks.append(SeichMark(index, seat, snap.names[seat], short_of[seat]))
        out.append(marks)
    return out


def seich_texts(ruleset: RuleSet) -> tuple[str, str]:
    """The turn guide's Seich line while some side may still call one (with ``%(teams)s``
    left to fill) and once none may: the club's "once per team", or how many times per side."""
    if ruleset.seich_times == 1 and ruleset.n_sides == 2:
        return (
            _(
                "Seich: once per team, the player in the barrel may throw the hand in instead of choosing. Still available for: %(teams)s.",  # noqa: E501
                teams="%(teams)s",
            ),
            _("Seich: both teams have used theirs."),
        )
    available = (
        _(
            "Seich: once per side, the player in the barrel may throw the hand in instead of choosing. Still available for: %(teams)s.",  # noqa: E501
            teams="%(teams)s",
        )
        if ruleset.seich_times == 1
        else _(
            "Seich: up to %(num)s times per side, the player in the barrel may throw the hand in instead of choosing. Still available for: %(teams)s.",  # noqa: E501
            num=ruleset.seich_times,
            teams="%(teams)s",
        )
    )
    return available, _("Seich: every side has used all of theirs.")


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
    seich: list[list[SeichMark]] | None = None  # where Seich is allowed: per side, where each of its Seich went

    @property
    def seich_called(self) -> bool:
        """Some side has called a Seich (the slate then shows where: its Seich row)."""
        return any(self.seich or ())

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
    ruleset, names, standing = snap.ruleset, snap.names, snap.standing
    slate, turn = standing.slate, standing.turn
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
            good, bad = standing.marks[c.index]
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
        marks=None if standing.match_row is None else [marks_text(s, p) for s, p in standing.match_row],
        hands_dealt=slate.hands_dealt,
        cells_filled=len(slate.cells),
        n_cells=n_sides * len(ruleset.rows),
        complete=slate.complete,
        guide=build_guide(snap),
        raw=three,
        open_rows={side: slate.open_rows(side) for side in range(n_sides)},
        members=short_members(ruleset, names),
        key=names_key(names),
        chooser={} if turn is None else dict(turn.choosers),
        sticks_now=None if standing.sticks_now is None else list(standing.sticks_now),
        imported=any(e.imported for e in slate.entries),
        seich=seich_marks(snap),
    )


def build_guide(snap: EveningSnapshot) -> Guide | None:
    """The turn guide above the slate (None once every cell is filled or the evening ended)."""
    turn = snap.turn
    if turn is None:
        return None
    ruleset, names = snap.ruleset, snap.names
    sides = side_labels(ruleset, names)
    seich = None
    if turn.seich_available is not None:
        available, none_left = seich_texts(ruleset)
        seich = (
            available.replace("%(teams)s", ", ".join(sides[s] for s in turn.seich_available))
            if turn.seich_available
            else none_left
        )
        used = [
            _("%(team)s in hand %(n)s (%(name)s)", team=sides[side], n=mark.hand, name=mark.name)
            for side, marks in enumerate(seich_marks(snap) or [])
            for mark in marks
        ]
        if used:
            seich = " ".join([seich, _("Used: %(where)s.", where="; ".join(used))])
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


@dataclass(frozen=True)
class MarkChoice:
    """The words of the record form's two boxes, in the row's own meaning.

    The boxes always say what happened at the table: "every trick taken" sends
    ``HandEntry.match``, "no trick taken" ``HandEntry.countermatch``. Whether that is the
    ★ match or the ✗ countermatch depends on the row: in a Misère taking no trick is the
    match (the slate's key says the same). ``words[mode]`` = (every-trick box, no-trick box)
    for ``normal`` rows, a ``misere`` and ``neutral`` (the row or what it is played as is
    not known yet: both meanings are named). The server writes ``shown``'s words (``neutral``
    whenever tonight has a row that can be a Misère: a page without script cannot follow the
    row), static/js/slate.js switches to the chosen row's words and, in a Misère, puts the
    ★ box first. ``ask``: the question when a ticked box and typed points disagree.
    """

    fixed: bool  # no row tonight can be a Misère: the words never change
    shown: str
    words: dict[str, tuple[str, str]]
    misere_rows: frozenset[str]  # rows that are always a Misère
    misere_codes: frozenset[str]  # "played as" codes that make a choice row a Misère
    ask: dict[str, str]

    def every(self, mode: str | None = None) -> str:
        return self.words[mode or self.shown][0]

    def none(self, mode: str | None = None) -> str:
        return self.words[mode or self.shown][1]


def mark_choice(ruleset: RuleSet) -> MarkChoice:
    """The record form's match words for tonight (``MarkChoice``)."""
    misere_rows = frozenset(r.key for r in ruleset.rows if plays_misere(ruleset, r.key, None))
    misere_codes = frozenset(
        code for code, _label, _rows in contract_choices(ruleset) if Contract.parse(code).is_misere
    )
    fixed = not (misere_rows or misere_codes)
    typed = {"declarer": "%(declarer)s", "defenders": "%(defenders)s"}  # filled in by the script
    return MarkChoice(
        fixed=fixed,
        shown="normal" if fixed else "neutral",
        words={
            "normal": (_("★ Match: every trick taken"), _("✗ Countermatch: no trick taken")),
            "misere": (_("✗ Misère countermatch: every trick taken"), _("★ Misère match: no trick taken")),
            "neutral": (
                _("Every trick taken (★ match; in a Misère ✗ countermatch)"),
                _("No trick taken (✗ countermatch; in a Misère ★ match)"),
            ),
        },
        misere_rows=misere_rows,
        misere_codes=misere_codes,
        ask={  # "100 : 57" never breaks across lines
            key: text.replace(" : ", "\u00a0:\u00a0")
            for key, text in {
                "every": _(
                    "“Every trick taken” makes the points 157 : 0, but %(declarer)s : %(defenders)s are typed.", **typed
                ),
                "none": _(
                    "“No trick taken” makes the points 0 : 157, but %(declarer)s : %(defenders)s are typed.", **typed
                ),
                "fill_every": _("Make it %(points)s", points="157 : 0"),
                "fill_none": _("Make it %(points)s", points="0 : 157"),
                "keep": _("Keep my points, untick the box"),
            }.items()
        },
    )
