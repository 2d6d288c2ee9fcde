"""The chalk slate: cells, open rows, totals, whose deal, and the match row; and the
checks of RULES.md 7 a hand must pass against it.

``verify_entry`` is the single gate (a new hand, or a correction of hand
``replacing``): ``Slate.build`` runs the same checks (``check_entry``) on every
entry it is given, so the slate can never hold an entry the gate would refuse.
``Slate.build`` replays the effective entries of an evening (corrections already
applied by the caller) in order; an invalid list raises the ``RuleError`` of the
first bad hand, with the 1-based hand number added as param ``hand``.

Turn guide: every entry, Seich hands included, is one deal, so the next dealer is
``dealer_after(first_dealer, len(entries))``.

Match row (three players only): a match gives the declarer 2 sticks and each
opponent 1 potato; a countermatch the declarer 2 potatoes and each opponent 1 stick.
``match_marks`` holds the marks as drawn (sticks, potatoes) per side, before a stick
and a potato in the same cell cancel (``final.py`` does that).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..game import turns
from ..game.contracts import Contract
from ..game.errors import RuleError
from ..game.hand_entry import HandEntry
from ..game.rulesets import Row, RuleSet, Shape
from .entries import cell_value, check_cell, check_points, rule_error

MATCH_STICKS = 2  # to the declarer of a match (potatoes for a countermatch)
MATCH_OPPONENT = 1  # to each opponent


@dataclass(frozen=True, slots=True)
class Cell:
    row_key: str
    side: int
    value: int
    entry: HandEntry
    index: int  # position of the entry in Slate.entries

    @property
    def contract(self) -> Contract | None:
        return self.entry.contract

    @property
    def imported(self) -> bool:
        """Typed from a paper slate (no card points behind the value)."""
        return self.entry.imported


class Slate:
    """The state of an evening after its effective entries. Treat as read-only."""

    def __init__(self, ruleset: RuleSet, first_dealer: int) -> None:
        if not 0 <= first_dealer < ruleset.n_players:
            raise ValueError(f"first dealer must be a seat 0..{ruleset.n_players - 1}")
        self.ruleset = ruleset
        self.first_dealer = first_dealer
        self._entries: list[HandEntry] = []
        self.cells: dict[tuple[str, int], Cell] = {}
        self.seich_used: set[int] = set()  # sides that have called every Seich they may
        self.seich_hands: dict[int, int] = {}  # side -> position in entries of its (first) Seich
        self.seich_all: dict[int, list[int]] = {}  # side -> positions in entries of every Seich, in order
        self.seich_calls: dict[int, int] = {}  # side -> Seich hands called (``RuleSet.seich_times``)
        self._marks: list[list[int]] = [[0, 0] for _ in range(ruleset.n_sides)]
        self._filled: list[int] = [0] * ruleset.n_sides  # cells per side (full_sides without a scan)

    @classmethod
    def build(cls, ruleset: RuleSet, first_dealer: int, entries: Sequence[HandEntry]) -> Slate:
        slate = cls(ruleset, first_dealer)
        for i, entry in enumerate(entries):
            try:
                check_entry(ruleset, slate, entry)
            except RuleError as err:
                err.params.setdefault("hand", i + 1)
                raise
            slate._append(entry)
        return slate

    def _append(self, entry: HandEntry) -> None:
        """Add an already checked entry (used by build and by correction checks)."""
        index = len(self._entries)
        self._entries.append(entry)
        rs = self.ruleset
        side = rs.side_of(entry.declarer_seat)
        if entry.seich:
            self.seich_calls[side] = self.seich_calls.get(side, 0) + 1
            if self.seich_calls[side] >= rs.seich_times:
                self.seich_used.add(side)
            self.seich_hands.setdefault(side, index)
            self.seich_all.setdefault(side, []).append(index)
            return
        assert entry.row_key is not None
        self.cells[(entry.row_key, side)] = Cell(entry.row_key, side, cell_value(rs, entry), entry, index)
        self._filled[side] += 1
        if rs.shape is Shape.THREE and (entry.match or entry.countermatch):
            mine, theirs = (0, 1) if entry.match else (1, 0)  # index into (sticks, potatoes)
            for s in range(rs.n_sides):
                if s == side:
                    self._marks[s][mine] += MATCH_STICKS
                else:
                    self._marks[s][theirs] += MATCH_OPPONENT

    # --- cells ----------------------------------------------------------------
    @property
    def entries(self) -> tuple[HandEntry, ...]:
        return tuple(self._entries)

    def cell(self, row_key: str, side: int) -> Cell | None:
        return self.cells.get((row_key, side))

    def open_rows(self, side: int) -> list[str]:
        """Keys of the rows still open for ``side``, in row order."""
        return [r.key for r in self.ruleset.rows if (r.key, side) not in self.cells]

    def full_sides(self) -> set[int]:
        n_rows = len(self.ruleset.rows)
        return {s for s, filled in enumerate(self._filled) if filled == n_rows}

    def row_filled_by_all(self, row_key: str) -> bool:
        return all((row_key, s) in self.cells for s in range(self.ruleset.n_sides))

    @property
    def complete(self) -> bool:
        return len(self.cells) == self.ruleset.n_sides * len(self.ruleset.rows)

    # --- totals -----------------------------------------------------------------
    @property
    def totals(self) -> list[int]:
        """Per side: raw card points (three players), multiplied values (others)."""
        out = [0] * self.ruleset.n_sides
        for c in self.cells.values():
            out[c.side] += c.value
        return out

    @property
    def match_marks(self) -> list[tuple[int, int]]:
        """Per side (sticks, potatoes) drawn in the match row (three players), before cancelling."""
        return [(s, p) for s, p in self._marks]

    # --- turn guide ---------------------------------------------------------------
    @property
    def hands_dealt(self) -> int:
        """Hands dealt so far, Seich hands included."""
        return len(self._entries)

    @property
    def dealer(self) -> int:
        """The dealer of the next hand."""
        return turns.dealer_after(self.ruleset, self.first_dealer, self.hands_dealt)

    @property
    def forehand(self) -> int:
        return turns.forehand(self.ruleset, self.dealer)

    def eligible_seats(self) -> list[int]:
        """Seats that may choose the next contract, in speaking order from forehand."""
        return turns.eligible_order(self.ruleset, self.dealer, self.full_sides())

    @property
    def barrel_seat(self) -> int | None:
        """Who must choose once everybody who may pass has passed; None when complete."""
        if self.complete:
            return None
        return turns.barrel_seat(self.ruleset, self.dealer, self.full_sides())

    def turn(self, passes: int) -> turns.Turn:
        """Who speaks in the next hand after ``passes`` passes, and whether she may pass."""
        return turns.turn_to_choose(self.ruleset, self.dealer, self.full_sides(), passes)

    def __repr__(self) -> str:
        return (
            f"Slate({self.ruleset.variant.value}, hands={self.hands_dealt}, "
            f"cells={len(self.cells)}, totals={self.totals})"
        )


# --- the checks of RULES.md 7 against the slate ------------------------------------
def _check_seich(ruleset: RuleSet, slate: Slate, entry: HandEntry) -> None:
    if not ruleset.seich:
        raise rule_error("seich_not_allowed")
    if (
        entry.row_key is not None
        or entry.contract is not None
        or entry.declarer_points != 0
        or entry.defender_points != 0
        or entry.match
        or entry.countermatch
        or entry.cell is not None
    ):
        raise rule_error("seich_with_result")
    if ruleset.side_of(entry.declarer_seat) in slate.seich_used:
        raise rule_error("seich_used")
    barrel = slate.barrel_seat
    if entry.declarer_seat != barrel:
        raise rule_error("not_in_barrel", seat=barrel)


def _check_row(ruleset: RuleSet, slate: Slate, entry: HandEntry) -> Row:
    if not isinstance(entry.row_key, str) or not entry.row_key:
        raise rule_error("row_required")
    try:
        row = ruleset.row_of[entry.row_key]
    except KeyError:
        raise rule_error("row_unknown", row=entry.row_key) from None
    side = ruleset.side_of(entry.declarer_seat)
    if side in slate.full_sides():
        raise rule_error("side_full")
    if slate.cell(row.key, side) is not None:
        raise rule_error("row_closed", row=row.key)
    contract = entry.contract
    if contract is None:
        if row.is_choice and entry.cell is None:  # a paper slate may not say what a joker was
            raise rule_error("contract_required", row=row.key)
    elif not isinstance(contract, Contract) or not row.allows(contract):
        raise rule_error("contract_not_allowed", row=row.key, contract=getattr(contract, "code", contract))
    return row


def check_entry(ruleset: RuleSet, slate: Slate, entry: HandEntry) -> None:
    """Check ``entry`` as the next hand on ``slate``. Raises RuleError; returns None when fine."""
    if slate.complete:
        raise rule_error("evening_complete")
    seat = entry.declarer_seat
    if type(seat) is not int or not 0 <= seat < ruleset.n_players:
        raise rule_error("declarer_unknown", seat=seat)
    if entry.seich:
        _check_seich(ruleset, slate, entry)
        return
    _check_row(ruleset, slate, entry)
    if entry.cell is not None:
        check_cell(ruleset, entry)
    else:
        check_points(entry)


def verify_entry(ruleset: RuleSet, slate: Slate, entry: HandEntry, *, replacing: int | None = None) -> None:
    """Check a new hand (appended to ``slate``) or a correction of hand ``replacing``.

    ``replacing`` is the index in ``slate.entries`` of the entry being corrected: the
    entry is checked against the slate as it stood before that hand, and every later
    hand must still be valid after the change (else ``correction_conflict``).
    """
    if replacing is None:
        check_entry(ruleset, slate, entry)
        return
    entries = list(slate.entries)
    if type(replacing) is not int or not 0 <= replacing < len(entries):
        raise rule_error("entry_unknown", hand=replacing + 1 if isinstance(replacing, int) else replacing)
    state = Slate.build(ruleset, slate.first_dealer, entries[:replacing])
    # The slate "before that hand" must not count the hand itself as complete-blocking.
    check_entry(ruleset, state, entry)
    state._append(entry)
    for j in range(replacing + 1, len(entries)):
        later = entries[j]
        try:
            check_entry(ruleset, state, later)
        except RuleError as err:
            if err.code == "row_closed" and later.row_key == entry.row_key:
                raise rule_error("row_closed", row=entry.row_key) from None
            if err.code == "seich_used" and entry.seich:
                raise rule_error("seich_used") from None
            raise rule_error("correction_conflict", hand=j + 1, reason=err.code) from None
        state._append(later)
