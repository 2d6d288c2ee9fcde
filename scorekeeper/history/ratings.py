"""Ratings with OpenSkill (Weng-Lin), Plackett-Luce with its default parameters.

A pure function of the records: the ended evenings a ``Filter`` admits are taken in
order of their end time (then id), every player starts at the model's default (mu 25,
sigma 25/3), and each evening is one ``rate`` call whose teams are the slate's sides
(a team of two in the team game, a team of one otherwise) ranked by
``Result.score`` (net sticks for three players, totals otherwise; equal scores share
a rank). Nothing is stored: recomputing gives the same numbers.

Three separate ladders (``Ladder``): three players, all against all (solo), and the
team game (the two team variants together: the same skill of playing with a partner).
Housekeeping is honoured by the ``CircleView``: a merged player's evenings are the
kept player's from the start (as if the circle had always known they were one), a
deleted evening is not rated, and ratings are recomputed from scratch either way.
Cells typed from a paper slate count (the result is what is rated).

``ordinal`` = mu - 3 sigma, the conservative figure shown first and used for sorting.

A ladder's ratings are a pure function of its games in order (``run``): a run computed
before (kept by a service, ``run_to_data``) is passed back as ``known`` and used as far as
its games are the same, under the same ``MODEL``.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Any, Final, NamedTuple

import openskill
from openskill.models import PlackettLuce

from ..game.rulesets import RuleSet
from .housekeeping import CircleView
from .records import EveningId, EveningRecord, PlayerId
from .stats import ALL, Filter, admitted


class Ladder(str, Enum):
    THREE = "three"
    SOLO = "solo"
    TEAM = "team"


def ladder_of(rs: RuleSet) -> Ladder:
    """The ladder an evening is rated on, from the shape of its rule set (not a side map of
    variants, which a new variant could be missing from): sides of two are the team game,
    three players alone the three-player game, more players alone all against all."""
    if rs.n_sides < rs.n_players:
        return Ladder.TEAM
    return Ladder.THREE if rs.n_players == 3 else Ladder.SOLO


class Rating(NamedTuple):
    """A skill and its uncertainty (a tuple: a ladder's history holds some 2 000 of them)."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


class RatingPoint(NamedTuple):
    """A player's rating after one evening."""

    evening: EveningId
    ended_at: datetime | None
    rating: Rating


@dataclass(frozen=True, slots=True)
class PlayerRating:
    player: PlayerId
    name: str
    rating: Rating
    evenings: int
    history: tuple[RatingPoint, ...]  # after each rated evening, oldest first


@dataclass(frozen=True, slots=True)
class LadderRatings:
    ladder: Ladder
    default: Rating  # where everybody starts
    players: tuple[PlayerRating, ...]  # best ordinal first (then name)


def ranks(score: tuple[int, ...]) -> list[int]:
    """1 for the best score; equal scores share a rank (1, 1, 3...)."""
    return [1 + sum(other > mine for other in score) for mine in score]


Game = tuple[tuple[tuple[PlayerId, ...], ...], tuple[int, ...]]  # (players per side, ranks)
Rated = tuple[tuple[PlayerId, float, float], ...]  # (player, mu, sigma) after one game

_RUNS: list[tuple[tuple[Game, ...], tuple[Rated, ...]]] = []  # recent runs, newest last
_RUNS_KEPT = 8
_LOCK = threading.Lock()


def _rate(games: Sequence[Game], start: Mapping[PlayerId, tuple[float, float]]) -> list[Rated]:
    model = PlackettLuce()
    now = dict(start)
    out: list[Rated] = []
    for sides, rank in games:
        teams = [[model.rating(*now.get(p, (model.mu, model.sigma)), name=p) for p in side] for side in sides]
        rated = model.rate(teams, ranks=list(rank))
        after = tuple(
            (p, r.mu, r.sigma) for side, team in zip(sides, rated, strict=True) for p, r in zip(side, team, strict=True)
        )
        for p, mu, sigma in after:
            now[p] = (mu, sigma)
        out.append(after)
    return out


Run = tuple[tuple[Game, ...], tuple[Rated, ...]]  # games in order and each one's ratings after it

# What a stored run was computed by: a run counts only if this is the same (another version of
# OpenSkill, or another model, may rate the same games otherwise).
MODEL: Final = f"openskill {openskill.__version__} PlackettLuce defaults"


def _common(done: Sequence[Game], games: Sequence[Game]) -> int:
    k = 0
    limit = min(len(done), len(games))
    while k < limit and done[k] == games[k]:
        k += 1
    return k


def run(games: tuple[Game, ...], known: Run | None = None) -> tuple[Rated, ...]:
    """Every game rated in order, from the model's defaults: a pure function of ``games``.

    Memoized by prefix: a run that shares its first k games with a recent one (or with
    ``known``, a run computed before, say stored) starts from there (a new evening at the end
    costs one ``rate`` call)."""
    best: tuple[Rated, ...] = ()
    if known is not None:
        best = known[1][: _common(known[0], games)]
    with _LOCK:
        for done, results in _RUNS:
            k = _common(done, games)
            if k > len(best):
                best = results[:k]
    state: dict[PlayerId, tuple[float, float]] = {}
    for rated in best:
        for p, mu, sigma in rated:
            state[p] = (mu, sigma)
    results = best + tuple(_rate(games[len(best) :], state))
    with _LOCK:
        _RUNS.append((games, results))
        del _RUNS[:-_RUNS_KEPT]
    return results


def _games(view: CircleView, flt: Filter) -> dict[Ladder, tuple[list[EveningRecord], tuple[Game, ...]]]:
    games: dict[Ladder, list[Game]] = {ladder: [] for ladder in Ladder}
    evenings: dict[Ladder, list[EveningRecord]] = {ladder: [] for ladder in Ladder}
    for ev, out in admitted(view, flt):
        assert out.decided is not None
        rs = ev.ruleset
        ladder = ladder_of(rs)
        sides = tuple(tuple(ev.seats[seat] for seat in rs.seats_of(side)) for side in range(rs.n_sides))
        games[ladder].append((sides, tuple(ranks(out.decided.score))))
        evenings[ladder].append(ev)
    return {ladder: (evenings[ladder], tuple(games[ladder])) for ladder in Ladder}


def rate_ladders(
    view: CircleView, flt: Filter = ALL, known: Mapping[Ladder, Run] | None = None
) -> tuple[dict[Ladder, LadderRatings], dict[Ladder, Run]]:
    """``ratings`` and the run behind each ladder (what a service may keep, to pass back as
    ``known``: a run is a pure function of its games, so a known one is used as far as its
    games are the same)."""
    model = PlackettLuce()
    default = Rating(model.mu, model.sigma)
    out_ladders: dict[Ladder, LadderRatings] = {}
    runs: dict[Ladder, Run] = {}
    for ladder, (evenings, games) in _games(view, flt).items():
        results = run(games, (known or {}).get(ladder))
        runs[ladder] = (games, results)
        history: dict[PlayerId, list[RatingPoint]] = {}
        for ev, rated in zip(evenings, results, strict=True):
            for p, mu, sigma in rated:
                history.setdefault(p, []).append(RatingPoint(ev.id, ev.ended_at, Rating(mu, sigma)))
        players = [
            PlayerRating(p, view.player_name(p), points[-1].rating, len(points), tuple(points))
            for p, points in history.items()
        ]
        players.sort(key=lambda r: (-r.rating.ordinal, r.name.casefold(), r.player))
        out_ladders[ladder] = LadderRatings(ladder, default, tuple(players))
    return out_ladders, runs


def ratings(
    view: CircleView, flt: Filter = ALL, known: Mapping[Ladder, Run] | None = None
) -> dict[Ladder, LadderRatings]:
    """The three ladders over the evenings ``flt`` admits (a ladder with no evening is empty)."""
    return rate_ladders(view, flt, known)[0]


def run_to_data(r: Run) -> tuple[list[Any], list[Any]]:
    """A run as plain JSON data: (games, ratings after each); floats as JSON keeps them, exactly."""
    games, results = r
    return (
        [[[list(side) for side in sides], list(rank)] for sides, rank in games],
        [[[p, mu, sigma] for p, mu, sigma in rated] for rated in results],
    )


def run_from_data(games: Any, results: Any) -> Run:
    """The run ``run_to_data`` wrote; ValueError if it is not one."""
    try:
        g = tuple((tuple(map(tuple, sides)), tuple(rank)) for sides, rank in games)
        r = tuple(tuple((p, mu, sigma) for p, mu, sigma in rated) for rated in results)
    except (TypeError, ValueError) as err:
        raise ValueError(f"not a stored run: {err!r}") from err
    if any(type(mu) is not float or type(sigma) is not float for rated in r for _p, mu, sigma in rated):
        raise ValueError("a stored run's ratings are floats")
    if len(g) != len(r):
        raise ValueError("a stored run rates as many games as it holds")
    return g, r
