"""What the slate shows, built from an evening's snapshot: the grid, the turn guide,
the choices of the record form.

Plain frozen dataclasses for the templates and the picture: no database, no request.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..game.contracts import Contract
from ..game.hand_entry import HandEntry
from ..game.rule_facts import RuleFacts, rule_facts
from ..game.rulesets import RuleSet, Variant
from ..i18n import _
from ..services.read.snapshot import EveningSnapshot
from .labels import EveningWords, contract_label, evening_words, marks_text


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


def words_of(snap: EveningSnapshot, *, hands: tuple[HandEntry, ...] = ()) -> EveningWords:
    """The words of the evening ``snap`` (``labels.evening_words``), with a line for each of ``hands``."""
    return evening_words(snap.ruleset, snap.names, snap.facts, {h: snap.standing.trail_marks[h] for h in hands})


def seich_marks(snap: EveningSnapshot) -> list[list[SeichMark]] | None:
    """Per side, every Seich it called, in order (empty: none yet; more than one only where
    the rules allow a side several, ``RuleSet.seich_times``); ``None`` where the rules have no
    Seich. From ``scoring.Slate.seich_all``: the page, the picture and the API say the same."""
    return seich_marks_in(snap, words_of(snap))


def seich_marks_in(snap: EveningSnapshot, words: EveningWords) -> list[list[SeichMark]] | None:
    """``seich_marks`` with the evening's words."""
    slate, seats = snap.slate, snap.facts.side_seats
    if not snap.ruleset.seich:
        return None
    short = [name for side in words.members for name in side]
    seat_order = [seat for side_seats in seats for seat in side_seats]
    short_of = dict(zip(seat_order, short, strict=True))
    out: list[list[SeichMark]] = []
    for side in range(len(seats)):
        marks = []
        for index in slate.seich_all.get(side, ()):
            seat = slate.entries[index].declarer_seat
            marks.append(SeichMark(index, seat, snap.names[seat], short_of[seat]))
        out.append(marks)
    return out


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


def build_slate_view(snap: EveningSnapshot) -> SlateView:
    """The slate of ``snap`` (``slate_view`` with the evening's words)."""
    return slate_view(snap, words_of(snap))


def slate_view(snap: EveningSnapshot, words: EveningWords) -> SlateView:
    """The slate of ``snap`` in ``words``: the grid, its totals and marks, the turn guide."""
    standing = snap.standing
    slate, turn, facts = standing.slate, standing.turn, snap.facts
    n_sides = len(facts.side_seats)
    last_index = len(slate.entries) - 1
    rows: list[RowView] = []
    for rf in facts.rows:
        row = rf.row
        cells: list[CellView] = []
        for side in range(n_sides):
            c = slate.cell(row.key, side)
            if c is None:
                cells.append(CellView(None))
                continue
            contract = c.entry.contract
            # colours say good or bad for the declarer: a Misère countermatch (+100) is good
            good, bad = standing.marks[c.index]
            cells.append(
                CellView(
                    c.value,
                    c.index,
                    None if contract is None or not row.is_choice else words.played_as[contract.code],
                    good,
                    bad,
                    c.index == last_index,
                    c.index in snap.digital,
                    c.imported,
                )
            )
        rows.append(RowView(row.key, words.narrow_rows[row.key], row.factor, cells, rf.group_end))
    return SlateView(
        variant=snap.ruleset.variant,
        sides=list(words.sides),
        rows=rows,
        totals=list(slate.totals),
        marks=None if standing.match_row is None else [marks_text(s, p) for s, p in standing.match_row],
        hands_dealt=slate.hands_dealt,
        cells_filled=len(slate.cells),
        n_cells=n_sides * len(facts.rows),
        complete=slate.complete,
        guide=guide_view(snap, words),
        raw=snap.ruleset.variant is Variant.THREE,
        open_rows={side: slate.open_rows(side) for side in range(n_sides)},
        members=[list(m) for m in words.members],
        key=list(words.key),
        chooser={} if turn is None else dict(turn.choosers),
        sticks_now=None if standing.sticks_now is None else list(standing.sticks_now),
        imported=any(e.imported for e in slate.entries),
        seich=seich_marks_in(snap, words),
    )


def build_guide(snap: EveningSnapshot) -> Guide | None:
    """The turn guide above the slate (``guide_view`` with the evening's words)."""
    return guide_view(snap, words_of(snap))


def guide_view(snap: EveningSnapshot, words: EveningWords) -> Guide | None:
    """The turn guide above the slate (None once every cell is filled or the evening ended)."""
    turn = snap.turn
    if turn is None:
        return None
    names, sides = snap.names, words.sides
    seich = None
    if turn.seich_available is not None:
        available, none_left = words.seich
        seich = (
            available.replace("%(teams)s", ", ".join(sides[s] for s in turn.seich_available))
            if turn.seich_available
            else none_left
        )
        used = [
            _("%(team)s in hand %(n)s (%(name)s)", team=sides[side], n=mark.hand, name=mark.name)
            for side, marks in enumerate(seich_marks_in(snap, words) or [])
            for mark in marks
        ]
        if used:
            seich = " ".join([seich, _("Used: %(where)s.", where="; ".join(used))])
    return Guide(
        dealer=names[turn.dealer],
        forehand=names[turn.forehand],
        first=names[turn.speaking[0]] if turn.speaking else None,
        forehand_full=snap.facts.seat_side[turn.forehand] in turn.full_sides,
        speaking=[names[s] for s in turn.speaking],
        full=[sides[s] for s in turn.full_sides],
        barrel=None if turn.barrel_seat is None else names[turn.barrel_seat],
        barrel_rule=words.barrel_rule,
        seich=seich,
    )


def contract_choices(ruleset: RuleSet) -> list[tuple[str, str, list[str]]]:
    """Every contract a choice row may be played as: (code, label, row keys that allow it)."""
    return [
        (code, contract_label(Contract.parse(code), ruleset.deck), list(rows))
        for code, rows in rule_facts(ruleset).choices
    ]


def choices_in(facts: RuleFacts, words: EveningWords) -> list[tuple[str, str, list[str]]]:
    """``contract_choices`` of tonight's rules, in the evening's words."""
    return [(code, words.contracts[code], list(rows)) for code, rows in facts.choices]


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
    return mark_choice_of(rule_facts(ruleset))


def mark_choice_of(facts: RuleFacts) -> MarkChoice:
    """``mark_choice`` of tonight's rules as a table."""
    misere_rows, misere_codes = facts.misere_rows, facts.misere_codes
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
