"""The circle's own hands as the forecast's history (issue 13): per player and contract, the
outcomes that player's declared hands wrote, for ``scoring.forecast`` to blend in with weight
n/(n+30) (``forecast.BLEND``).

Only ended evenings of the same variant count (``stats.admitted`` with that variant: housekeeping
applied, deleted evenings gone, merged players as one); cells typed from a paper slate and Seich
hands have no card points and do not count (``forecast.history_key`` is None for them). The
contract key and the outcome are the forecast's own (``forecast.history_key``,
``entries.outcome_of``: Misère as the opponents' pile, 257 a match, -1 a countermatch), kept
in each hand's ``HandFact`` (``forecast_key``, ``forecast_outcome``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..game.rulesets import Variant
from ..scoring.forecast import History
from .housekeeping import CircleView
from .records import PlayerId
from .stats import Filter, admitted

PlayerHistory = Mapping[PlayerId, Mapping[str, Sequence[int]]]  # player -> contract key -> outcomes


def player_history(view: CircleView, variant: Variant) -> dict[PlayerId, dict[str, list[int]]]:
    """Per player, per contract key: the outcomes of the hands she declared in ended evenings of
    ``variant``, oldest first."""
    out: dict[PlayerId, dict[str, list[int]]] = {}
    for ev, summary in admitted(view, Filter(variant=variant)):
        for h in summary.hands:  # in hand order; the key and outcome are the forecast's own
            if h.forecast_key is None:
                continue
            out.setdefault(ev.seats[h.seat], {}).setdefault(h.forecast_key, []).append(h.forecast_outcome)
    return out


def seat_history(players: PlayerHistory, seats: Sequence[PlayerId]) -> tuple[History, int]:
    """The forecast's ``History`` of an evening whose seats hold ``seats`` (seat -> player), and
    the number of recorded hands in it."""
    history: dict[tuple[int, str], Sequence[int]] = {}
    for seat, player in enumerate(seats):
        for key, outcomes in players.get(player, {}).items():
            history[(seat, key)] = outcomes
    return history, sum(len(v) for v in history.values())
