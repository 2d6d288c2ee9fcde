"""The numbers behind the charts (and their table alternative), from the statistics.

Plain values only: the pictures (``scorekeeper.render.charts``) draw them and the pages
label them. Every series is keyed by player id and carries the name shown now.

- ``money_over_time``: each player's running net money (Rappen) after every evening
  that counts in money, in order of end time; ``None`` before her first evening.
- ``rating_over_time``: a ladder's ratings after each of its evenings (mu, with
  mu - sigma and mu + sigma as the band of uncertainty); ``None`` before her first.
- ``contract_points``: average card points per contract kind for some players, with
  the number of hands behind each average (played hands only, never paper cells).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from ..game.contracts import Kind
from .housekeeping import CircleView
from .ratings import LadderRatings
from .records import EveningId, PlayerId, when_key
from .stats import ALL, CircleStats, Filter, admitted


@dataclass(frozen=True, slots=True)
class Series:
    key: PlayerId
    label: str  # the player's name now
    values: tuple[float | None, ...]  # one per point of the x axis; None: not yet
    low: tuple[float | None, ...] | None = None  # band below (uncertainty), if any
    high: tuple[float | None, ...] | None = None


@dataclass(frozen=True, slots=True)
class SeriesSet:
    """Lines over evenings: ``x`` the evenings' end times, ``evenings`` their ids."""

    x: tuple[datetime | None, ...]
    evenings: tuple[EveningId, ...]
    series: tuple[Series, ...]

    def rows(self) -> list[tuple[EveningId, datetime | None, tuple[float | None, ...]]]:
        """One row per evening with every series' value: the table alternative's data."""
        return [
            (ev, when, tuple(s.values[i] for s in self.series))
            for i, (ev, when) in enumerate(zip(self.evenings, self.x, strict=True))
        ]


def money_over_time(view: CircleView, flt: Filter = ALL) -> SeriesSet:
    names = {p.id: p.name for p in view.players}
    x: list[datetime | None] = []
    ids: list[EveningId] = []
    running: dict[PlayerId, int] = {}
    columns: dict[PlayerId, list[float | None]] = {}
    for ev, out in admitted(view, flt):
        if out.decided is None or not (out.complete or ev.counts_in_money):
            continue
        for seat, p in enumerate(ev.seats):
            if p not in running:
                running[p] = 0
                columns[p] = [None] * len(x)
            running[p] += out.decided.payout[seat]
        x.append(ev.ended_at)
        ids.append(ev.id)
        for p, col in columns.items():
            col.append(running[p])
    order = sorted(columns, key=lambda p: (-running[p], names[p].casefold(), p))
    return SeriesSet(tuple(x), tuple(ids), tuple(Series(p, names[p], tuple(columns[p])) for p in order))


def rating_over_time(ladder: LadderRatings, players: Sequence[PlayerId] | None = None) -> SeriesSet:
    """The ladder's evenings in order; ``players``: whom to draw (default: everybody, best first)."""
    chosen = [r for r in ladder.players if players is None or r.player in players]
    when: dict[EveningId, datetime | None] = {}
    for r in ladder.players:
        for pt in r.history:
            when[pt.evening] = pt.ended_at
    evenings = sorted(when, key=lambda e: (when_key(when[e]), e))
    index = {e: i for i, e in enumerate(evenings)}
    series = []
    for r in chosen:
        mu: list[float | None] = [None] * len(evenings)
        lo: list[float | None] = [None] * len(evenings)
        hi: list[float | None] = [None] * len(evenings)
        last = None
        points = {pt.evening: pt.rating for pt in r.history}
        for e in evenings:
            last = points.get(e, last)
            if last is not None:
                i = index[e]
                mu[i], lo[i], hi[i] = last.mu, last.mu - last.sigma, last.mu + last.sigma
        series.append(Series(r.player, r.name, tuple(mu), tuple(lo), tuple(hi)))
    return SeriesSet(tuple(when[e] for e in evenings), tuple(evenings), tuple(series))


@dataclass(frozen=True, slots=True)
class BarSet:
    """Average card points per contract kind (categories) for some players (series)."""

    categories: tuple[Kind, ...]  # the kinds anyone of them played, in Kind order
    series: tuple[Series, ...]  # values: the average per category (None: no hand)
    hands: tuple[tuple[int, ...], ...]  # per series, per category: hands behind the average

    def rows(self) -> list[tuple[Kind, tuple[float | None, ...], tuple[int, ...]]]:
        return [
            (kind, tuple(s.values[i] for s in self.series), tuple(h[i] for h in self.hands))
            for i, kind in enumerate(self.categories)
        ]


def contract_points(stats: CircleStats, players: Sequence[PlayerId]) -> BarSet:
    kinds = [k for k in Kind if any(c.kind is k and c.player in players for c in stats.contracts)]
    series, hands = [], []
    for p in players:
        by_kind = {c.kind: c for c in stats.contracts_of(p)}
        series.append(
            Series(p, stats.player(p).name, tuple(by_kind[k].average if k in by_kind else None for k in kinds))
        )
        hands.append(tuple(by_kind[k].hands if k in by_kind else 0 for k in kinds))
    return BarSet(tuple(kinds), tuple(series), tuple(hands))
