"""The slate page as one view: what its live fragment shows (``LiveView``: the grid and the turn
guide, the outlook, the rows still open, the offline phone's rules) and the rest of the page
(``SlatePage``: the result, the corrections, the record form's choices, the undo line), built
in one call from what was read first: the evening's snapshot and its outlook.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from ..game.hand_entry import HandEntry
from ..game.rule_facts import RuleFacts, rule_facts
from ..game.rulesets import RuleSet
from ..i18n import _
from ..scoring.slate import Slate
from ..services.read.outlook import EveningOutlook
from ..services.read.replay import LogItem
from ..services.read.snapshot import EveningSnapshot
from .labels import EveningWords, describe, row_label
from .offline import live_rules
from .outlook import OutlookView, build_outlook_view
from .result import ResultView, result_in
from .slate import MarkChoice, SlateView, choices_in, contract_choices, mark_choice_of, slate_view, words_of


def row_options(ruleset: RuleSet, slate: Slate, *, keep: str | None = None) -> list[dict[str, Any]]:
    """Every row with the sides it is still open for (the record form's script hides the others);
    ``keep``: the row of the hand being corrected."""
    labels = {row.key: row_label(row, ruleset.deck) for row in ruleset.rows}
    return rows_open(rule_facts(ruleset), labels, slate, keep=keep)


def rows_open(
    facts: RuleFacts, labels: Mapping[str, str], slate: Slate, *, keep: str | None = None
) -> list[dict[str, Any]]:
    """``row_options`` of tonight's rules, the rows named by ``labels`` (row key -> name)."""
    out = []
    for rf in facts.rows:
        row = rf.row
        open_for = [str(side) for side in range(len(facts.side_seats)) if slate.cell(row.key, side) is None]
        out.append(
            {
                "key": row.key,
                "label": f"{labels[row.key]} ×{row.factor}",
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
    facts = rule_facts(ruleset)
    return HandChoices(
        rows=row_options(ruleset, slate, keep=keep),
        contracts=contract_choices(ruleset),
        marks=mark_choice_of(facts),
        seat_side=dict(enumerate(facts.seat_side)),
    )


def choices_of(snap: EveningSnapshot, words: EveningWords) -> HandChoices:
    """``hand_choices`` of the evening ``snap`` for its record form, in its ``words``."""
    facts = snap.facts
    return HandChoices(
        rows=rows_open(facts, words.rows, snap.slate),
        contracts=choices_in(facts, words),
        marks=mark_choice_of(facts),
        seat_side=dict(enumerate(facts.seat_side)),
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
    words: EveningWords  # the evening's words, worked out once (what only the whole page shows uses them too)

    def parts(self) -> dict[str, Any]:
        """The names of the page's other parts for a template (the live fragment's: ``live.parts``)."""
        return {"row_names": self.row_names, "result": self.result, "log": self.log, "last_hand": self.last_hand}


def build_live(snap: EveningSnapshot, outlook: EveningOutlook) -> LiveView:
    """The live fragment of ``snap`` with its ``outlook`` (both read before)."""
    words = words_of(snap)
    return _live(snap, outlook, words, rows_open(snap.facts, words.rows, snap.slate))


def _live(snap: EveningSnapshot, outlook: EveningOutlook, words: EveningWords, rows: list[dict[str, Any]]) -> LiveView:
    return LiveView(
        view=slate_view(snap, words),
        outlook_view=build_outlook_view(snap, outlook, words),
        open_by_row={r["key"]: r["open"] for r in rows},
        rules=live_rules(snap, words),
    )


def build_slate_page(snap: EveningSnapshot, outlook: EveningOutlook) -> SlatePage:
    """The slate page of ``snap`` with its ``outlook`` (both read before): the evening's words
    worked out once, then every part of the page from them and the snapshot."""
    entries = snap.slate.entries
    told = [entries[-1]] if entries else []
    told += [hand for item in snap.corrections for hand in (item.previous, item.entry) if hand is not None]
    words = words_of(snap, hands=tuple(told))
    choices = choices_of(snap, words)
    return SlatePage(
        live=_live(snap, outlook, words, choices.rows),
        choices=choices,
        row_names=dict(words.rows),
        result=result_in(snap, words),
        log=[(item, _told(words, item.previous), _told(words, item.entry)) for item in snap.corrections],
        last_hand=_undo_line(len(entries), words.hands[entries[-1]]) if entries else None,
        words=words,
    )


def _told(words: EveningWords, hand: HandEntry | None) -> str:
    return "–" if hand is None else words.hands[hand]


def _undo_line(n: int, hand: str) -> str:
    return _("hand %(n)s: %(what)s", n=n, what=hand)


def last_hand(ruleset: RuleSet, names: Sequence[str], entries: Sequence[HandEntry]) -> str | None:
    """What the undo button takes back: ``hand 14: Anna · Roses · 88 : 69``."""
    if not entries:
        return None
    return _undo_line(len(entries), describe(ruleset, names, entries[-1]))
