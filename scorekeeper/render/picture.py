"""What the slate picture shows: plain frozen values, every text already translated.

The web layer builds a ``SlatePicture`` from the rule set, the ``scoring.Slate`` and
(once the evening is decided) the ``scoring.Result``; ``render_slate`` only draws.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Final

# A cell shows its marks one by one up to this many; more are written as a count ("| ×1000"),
# so no stored factor makes a slate page or picture draw more than this per cell.
MARKS_DRAWN: Final = 12


@dataclass(frozen=True, slots=True)
class Marks:
    """Sticks and potatoes chalked into one cell.

    ``crossed`` pairs are drawn as a stick through a potato (they cancel); ``sticks``
    and ``potatoes`` are the ones left standing besides them.
    """

    sticks: int = 0
    potatoes: int = 0
    crossed: int = 0

    def __post_init__(self) -> None:
        if min(self.sticks, self.potatoes, self.crossed) < 0:
            raise ValueError("marks are counts >= 0")

    @property
    def empty(self) -> bool:
        return self.sticks == self.potatoes == self.crossed == 0

    @property
    def count(self) -> int:
        """Symbols to draw (a crossed pair is one symbol)."""
        return self.sticks + self.potatoes + self.crossed

    @property
    def counted(self) -> bool:
        """Too many to draw one by one (``MARKS_DRAWN``): each kind is drawn once with its count."""
        return self.count > MARKS_DRAWN


NO_MARKS = Marks()


@dataclass(frozen=True, slots=True)
class PictureRow:
    """One row of the slate: its label, factor text and one cell per column."""

    label: str  # "Eichle", "Obenabe", "Joker"
    factor: str  # "×4", or "" where the slate shows none
    cells: tuple[str, ...]  # the number written in each column; "" = still open
    notes: tuple[str, ...] = ()  # small text under a cell (what a joker was played as); "" = none
    marks: tuple[Marks, ...] = ()  # sticks and potatoes per column (three players); () = none
    group_end: bool = False  # a thicker line below: the next row is worth more
    cut: str = ""  # how a tie in this row was cut, shown small under the label


@dataclass(frozen=True, slots=True)
class SlatePicture:
    title: str  # the circle's name
    date: str  # as the user reads dates
    variant: str  # "Three players", "Teams"...
    columns: tuple[str, ...]  # player or team names (the evening's short forms), one per column
    rows: tuple[PictureRow, ...]
    totals_label: str
    totals: tuple[str, ...]  # one per column
    status: str = ""  # "18 of 30 hands", "ended early", ...
    match_label: str = ""
    match: tuple[Marks, ...] = ()  # the match row (three players); () = no match row
    seich_label: str = ""
    seich: tuple[str, ...] = ()  # club variant: where each team's Seich went ("" = not called); () = no row
    net_label: str = ""
    net: tuple[str, ...] = ()  # net sticks per column (three players, once decided); () = none
    winner: str = ""  # "Winner: Anna"; "" while undecided
    money: tuple[str, ...] = ()  # one line each: "Anna +CHF 13.00", "Beat pays Anna CHF 9.00"
    highlight: tuple[int, ...] = ()  # columns to underline (the winners)
    column_names: tuple[tuple[str, ...], ...] = ()  # per column its players' names (a team's two); () = columns
    key: str = ""  # under the slate: the players' full names where the columns show short forms

    def __post_init__(self) -> None:
        n = len(self.columns)
        if n < 1:
            raise ValueError("a slate has at least one column")
        if len(self.totals) != n:
            raise ValueError("one total per column")
        for seq, what in ((self.match, "match mark"), (self.seich, "Seich"), (self.net, "net")):
            if seq and len(seq) != n:
                raise ValueError(f"one {what} per column")
        for row in self.rows:
            if len(row.cells) != n:
                raise ValueError(f"row {row.label!r}: one cell per column")
            if row.notes and len(row.notes) != n:
                raise ValueError(f"row {row.label!r}: one note per column")
            if row.marks and len(row.marks) != n:
                raise ValueError(f"row {row.label!r}: one set of marks per column")
        if any(not 0 <= c < n for c in self.highlight):
            raise ValueError("highlight names a column that does not exist")
        if self.column_names and (len(self.column_names) != n or not all(self.column_names)):
            raise ValueError("names for every column")

    def names_of(self, column: int) -> tuple[str, ...]:
        """The names heading ``column``: its players, or its one label."""
        return self.column_names[column] if self.column_names else (self.columns[column],)

    def digest(self) -> str:
        """What the picture shows, as a short hex digest: the same picture, the same PNG (a
        drawing may be kept under it, and it is the answer's ETag)."""
        return hashlib.sha256(repr(self).encode()).hexdigest()[:32]
