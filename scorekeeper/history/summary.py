"""An evening's outcome as the circle's memory reads it: what statistics, ratings, the
purse, the charts, the history list and the forecast's history take from the scoring
core's ``Outcome`` (``outcome.summarize``), and nothing more.

It is derived, never an input: ``outcome.summary_of`` computes it from the evening's
log and cuts (the full replay), and a service may keep the result next to the evening
(``to_data``: plain JSON) and hand it back (``from_data``) instead of the inputs, keyed
by the evening's version and ``FORMAT``. A stored copy with another version or format
is not the evening's outcome any more: it is computed again and replaced. An export
never carries it; erasing a circle erases it; a restore computes it anew.

``FORMAT`` names what a summary means: bump it whenever the shape below changes or the
scoring core would write another outcome from the same inputs (a rule fixed, a value
added). ``tests/history/test_history_summary.py`` pins a digest of the summaries of the
sample circle (every variant) under each ``FORMAT`` and fails, saying so, until it is bumped.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final, NamedTuple, overload

from ..game.contracts import Kind

FORMAT: Final = 1

_KINDS: Final = {k.value: k for k in Kind}


class HandFact(NamedTuple):
    """One cell of the slate as the statistics read it (a tuple: 12 000 of them are made
    from a stored summary in a few milliseconds)."""

    seat: int  # the declarer's seat
    hand: int  # 1-based hand number on the slate
    row_key: str
    kind: Kind | None  # what it was played as (outcome.contract_kind); None: a house row
    code: str  # outcome.contract_code ("" for a house row)
    contract: str | None  # Contract.code as recorded
    points: int  # the declaring side's card points (0 for a paper cell)
    scored: int  # outcome.scored_points
    value: int  # the cell
    match: bool
    countermatch: bool
    imported: bool  # typed from a paper slate
    forecast_key: str | None  # scoring.forecast.history_key (None for a paper cell)
    forecast_outcome: int  # scoring.entries.outcome_of (0 for a paper cell)


_FIELDS: Final = len(HandFact._fields)
_make = HandFact._make


def _decode(text: str) -> tuple[HandFact, ...]:
    rows = json.loads(text)
    if type(rows) is not list or (rows and set(map(len, rows)) != {_FIELDS}):
        raise ValueError("stored hands: a list of hands of another shape")
    kinds = _KINDS
    for row in rows:
        row[3] = None if row[3] is None else kinds[row[3]]
    return tuple(map(_make, rows))


class Hands(Sequence[HandFact]):
    """An evening's hands: given, or kept as the stored JSON text and read only when a page
    asks for them (statistics do; ratings, the purse and most charts never do)."""

    __slots__ = ("_facts", "_text")

    def __init__(self, facts: Iterable[HandFact] = (), *, text: str | None = None) -> None:
        self._facts: tuple[HandFact, ...] | None = None if text is not None else tuple(facts)
        self._text = text

    @property
    def facts(self) -> tuple[HandFact, ...]:
        found = self._facts
        if found is None:
            assert self._text is not None
            found = self._facts = _decode(self._text)  # two threads may both read it: the same tuple
        return found

    def text(self) -> str:
        """The stored form: JSON, one list per hand in ``HandFact`` order (the kind as its value)."""
        if self._text is None:
            self._text = json.dumps(
                [[*h[:3], None if h.kind is None else h.kind.value, *h[4:]] for h in self.facts], separators=(",", ":")
            )
        return self._text

    def __iter__(self) -> Iterator[HandFact]:
        return iter(self.facts)

    def __len__(self) -> int:
        return len(self.facts)

    @overload
    def __getitem__(self, i: int) -> HandFact: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[HandFact, ...]: ...
    def __getitem__(self, i: int | slice) -> HandFact | tuple[HandFact, ...]:
        return self.facts[i]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Hands):
            return self.facts == other.facts
        return isinstance(other, tuple) and self.facts == other

    def __hash__(self) -> int:
        return hash(self.facts)

    def __repr__(self) -> str:
        return f"Hands({len(self)} hands)" if self._facts is not None else "Hands(not read yet)"


@dataclass(frozen=True, slots=True)
class Decided:
    """The result and the money of a decided evening (``scoring.Result``, ``Payout``)."""

    score: tuple[int, ...]  # per side: what decides (Result.score)
    winners: tuple[int, ...]  # sides; several on a shared win
    net: tuple[int, ...] | None  # net sticks per side (three players), else None
    sticks: tuple[int, ...]  # per side, Result.sticks (0 but for three players)
    potatoes: tuple[int, ...]
    payout: tuple[int, ...]  # per seat, Rappen (Payout.net)


@dataclass(frozen=True, slots=True)
class Summary:
    complete: bool  # every cell filled
    hands_dealt: int  # Seich hands included
    totals: tuple[int, ...]  # per side, as the slate stands (Result.totals once decided)
    decided: Decided | None  # None while an open evening is undecided
    declared: tuple[int, ...]  # per seat: cells it declared and played (paper cells not counted)
    paper: tuple[int, ...]  # per seat: cells typed from a paper slate in its name
    hands: Hands  # every cell in hand order (Seich hands write none)


def to_data(summary: Summary) -> tuple[list[Any], str]:
    """The stored form: the figures as one plain JSON list (``Summary`` order, ``Decided``
    as a list or null), and the hands as JSON text (``Hands.text``), kept apart so that
    reading them waits until they are needed."""
    d = summary.decided
    figures: list[Any] = [
        summary.complete,
        summary.hands_dealt,
        list(summary.totals),
        None
        if d is None
        else [
            list(d.score),
            list(d.winners),
            None if d.net is None else list(d.net),
            list(d.sticks),
            list(d.potatoes),
            list(d.payout),
        ],
        list(summary.declared),
        list(summary.paper),
    ]
    return figures, summary.hands.text()


def from_data(figures: Any, hands: str) -> Summary:
    """The summary ``to_data`` wrote; ValueError if it is not one (then it is computed
    again). Its own writing, so only its shape is checked; the hands are read when first
    asked for."""
    try:
        complete, dealt, totals, d, declared, paper = figures
        decided = None
        if d is not None:
            score, winners, net, sticks, potatoes, payout = d
            decided = Decided(
                tuple(score),
                tuple(winners),
                None if net is None else tuple(net),
                tuple(sticks),
                tuple(potatoes),
                tuple(payout),
            )
        if type(complete) is not bool or type(dealt) is not int or type(hands) is not str:
            raise ValueError("complete, hands_dealt and hands")
        return Summary(complete, dealt, tuple(totals), decided, tuple(declared), tuple(paper), Hands(text=hands))
    except TypeError as err:  # not a list of six, not lists within
        raise ValueError(f"not a stored summary: {err!r}") from err
