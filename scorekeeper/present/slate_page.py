"""The slate page as one view: what its live fragment shows (``LiveView``: the grid and the turn
guide, the outlook, the rows still open, the offline phone's rules) and the rest of the page
(``SlatePage``: the result, the corrections, the record form's choices, the undo line), built
in one call from what was read first: the evening's snapshot and its outlook.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from ..game.hand_entry import HandEntry
from ..game.rulesets import RuleSet
from ..i18n import _
from ..scoring.slate import Slate
from ..services.read.outlook import EveningOutlook
from ..services.read.replay import LogItem
from ..services.read.snapshot import EveningSnapshot
from .labels import describe, row_label, row_labels
from .offline import live_rules
from .outlook import OutlookView, build_outlook_view
from .result import ResultView, result_view
from .slate import MarkChoice, SlateView, build_slate_view, contract_choices, mark_choice


def row_options(ruleset: RuleSet, slate: Slate, *, keep: str | None = None) -> list[dict[str, Any]]:
    """Every row with the sides it is still open for (the record form's script hides the others);
    ``keep``: the row of the hand being corrected."""
    out = []
    for row in ruleset.rows:
        open_for = [str(side) for side in range(ruleset.n_sides) if slate.cell(row.key, side) is None]
        out.append(
            {
                "key": row.key,
                "label": f"{row_label(row, ruleset.deck)} ×{row.factor}",
                "open": " ".join(open_for),
                "choice": row.is_choice,
                "keep": row.key == keep,
            }
        )
    return out


@dataclass(frozen=True)
class HandChoices:
    """What the record and correct forms offer: the rows (open for which side), what a choice row
    may be played as, the match marks' words, each seat's side."""

    rows: list[dict[str, Any]]
    contracts: list[tuple[str, str, list[str]]]
    marks: MarkChoice
    seat_side: dict[int, int]

    def parts(self) -> dict[str, Any]:
        """The forms' names for a template."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def hand_choices(ruleset: RuleSet, slate: Slate, *, keep: str | None = None) -> HandChoices:
    return HandChoices(
        rows=row_options(ruleset, slate, keep=keep),
        contracts=contract_choices(ruleset),
        marks=mark_choice(ruleset),
        seat_side={seat: ruleset.side_of(seat) for seat in range(ruleset.n_players)},
    )


@dataclass(frozen=True)
class LiveView:
    """The live fragment: what every phone on the slate polls for."""

    view: SlateView
    outlook_view: OutlookView
    open_by_row: dict[str, str]  # row key -> the sides it is still open for ("0 1")
    rules: dict[str, Any]  # what the offline phone checks a queued hand against

    def parts(self) -> dict[str, Any]:
        """The fragment's names for a template."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class SlatePage:
    """The whole slate page: the live fragment and the rest."""

    live: LiveView
    choices: HandChoices
    row_names: dict[str, str]
    result: ResultView | None
    log: list[tuple[LogItem, str, str]]  # corrections and undos: (item, before, after)
    last_hand: str | None  # what the undo button takes back

    def parts(self) -> dict[str, Any]:
        """The names of the page's other parts for a template (the live fragment's: ``live.parts``)."""
        return {"row_names": self.row_names, "result": self.result, "log": self.log, "last_hand": self.last_hand}


def build_live(snap: EveningSnapshot, outlook: EveningOutlook) -> LiveView:
    return _live(snap, outlook, row_options(snap.ruleset, snap.slate))


def _live(snap: EveningSnapshot, outlook: EveningOutlook, rows: list[dict[str, Any]]) -> LiveView:
    return LiveView(
        view=build_slate_view(snap),
        outlook_view=build_outlook_view(snap, outlook),
        open_by_row={r["key"]: r["open"] for r in rows},
        rules=live_rules(snap),
    )


def build_slate_page(snap: EveningSnapshot, outlook: EveningOutlook) -> SlatePage:
    """The slate page of ``snap`` with its ``outlook`` (both read before)."""
    ruleset, names = snap.ruleset, snap.names
    choices = hand_choices(ruleset, snap.slate)
    return SlatePage(
        live=_live(snap, outlook, choices.rows),
        choices=choices,
        row_names=row_labels(ruleset),
        result=result_view(snap),
        log=[
            (item, describe(ruleset, names, item.previous), describe(ruleset, names, item.entry))
            for item in snap.corrections
        ],
        last_hand=last_hand(ruleset, names, snap.slate.entries),
    )


def last_hand(ruleset: RuleSet, names: Sequence[str], entries: Sequence[HandEntry]) -> str | None:
    """What the undo button takes back: ``hand 14: Anna · Roses · 88 : 69``."""
    if not entries:
        return None
    return _("hand %(n)s: %(what)s", n=len(entries), what=describe(ruleset, names, entries[-1]))
