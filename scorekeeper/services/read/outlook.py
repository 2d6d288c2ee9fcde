"""The outlook of an evening (issue 13): what each side still needs, and who is likely to win.

``outlook_of(snap, circle)`` gives it from the one read model (``snapshot.EveningSnapshot``): the
definitions (``scoring.outlook``) are derived from the snapshot's slate on every read, in
microseconds; the win probabilities (``scoring.forecast``, a seeded simulation of some
20 ms) are computed once per (evening, version) and stored in ``outlook_forecasts`` by the
write that made the version (``store_after_write``, its own short write transaction); every
read of that version, on any phone, worker or host, and the API, reads the stored figures
with one statement. A read (a GET, ``tx.reading_only``) of a version without a stored row
simulates it and keeps it in the worker's memory, never stores it. A concurrent store that
loses the race takes the stored row. Older versions' rows are removed.

The circle's own hands are blended in per player and contract (``history.blend``, weight
n/(n+30)): read through ``memory.memory_of`` (a constant number of statements) only when a
version is simulated, so they are part of the stored forecast (``history_hands`` says how
many hands went in).

The poll (``stamp.poll_state``) reads the version and the setting with one small statement
and never computes an outlook.

A table may hide the outlook (``set_hidden``): then nothing is computed or shown, and
the API says ``hidden``. The setting is not a change of the slate: it does not bump the
evening's version (a phone in the middle of typing a hand gets no conflict for it);
the live fragment polls the setting alongside the version.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import bindparam, delete, select, update
from sqlalchemy.exc import IntegrityError

from ...game.errors import N_
from ...history.blend import player_history, seat_history
from ...models import Circle, Evening, OutlookForecast
from ...scoring.forecast import Forecast, History, forecast, odds_known, outlook_seed
from ...scoring.outlook import Outlook, outlook
from ..errors import EveningDeleted, NotFound
from ..store import tx
from . import memory
from .snapshot import EveningSnapshot, Kept

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class EveningOutlook:
    """What the slate page, its live fragment and the API show of the outlook."""

    version: int
    hidden: bool  # the table asked not to see it: nothing was computed
    outlook: Outlook | None  # None when hidden
    history_hands: int = 0  # the circle's recorded hands blended into the probabilities


def forecast_to_dict(fc: Forecast) -> dict[str, Any]:
    """The stored form of a forecast (the seed is derived again from evening and version)."""
    return {
        "win": list(fc.win),
        "shared": list(fc.shared),
        "shared_any": fc.shared_any,
        "expected": list(fc.expected),
        "simulations": fc.simulations,
    }


def forecast_from_dict(data: dict[str, Any], seed: int) -> Forecast:
    return Forecast(
        tuple(float(x) for x in data["win"]),
        tuple(float(x) for x in data["shared"]),
        float(data["shared_any"]),
        tuple(float(x) for x in data["expected"]),
        int(data["simulations"]),
        seed,
    )


# The circle's history of an evening's players, per worker: it changes when another evening of
# the circle (or its players) changes, not with this evening's own hands, so a new version of
# this evening reads one statement (the circle's fingerprint, this evening's version taken out)
# instead of the whole memory.
CACHED_HISTORIES: Final = 1024  # one per evening being played (a small circle's history is small)
_HISTORIES: Kept[tuple[Any, ...], tuple[History, int]] = Kept(CACHED_HISTORIES)


def _history_key(circle: Circle, snap: EveningSnapshot) -> tuple[Any, ...]:
    """What the evening's history depends on: ``memory.fingerprint`` without this evening's own
    version (its second figure is the sum of the evenings' versions), so this evening's hands
    leave it as it is; anything else that changes the circle's memory changes it."""
    fp = list(memory.fingerprint(circle))
    fp[1] = int(fp[1]) - snap.version
    return (circle.id, snap.public_id, snap.ruleset.variant.value, *fp)


_ANY_ENDED = select(Evening.id).where(Evening.circle_id == bindparam("circle_id"), Evening.status == "ended").limit(1)


def circle_history(circle: Circle, snap: EveningSnapshot) -> tuple[History, int]:
    """The forecast's history of the evening's players (their hands in the circle's ended
    evenings of the same variant) and how many hands it holds. One statement when only this
    evening changed since the worker last read it; else the circle's memory
    (``memory.memory_of``: a constant number of statements), its per-player table derived
    once per change of the circle."""
    key = _history_key(circle, snap)
    found = _HISTORIES.get(key)
    if found is not None:
        return found
    if tx.session().execute(_ANY_ENDED, {"circle_id": circle.id}).first() is None:
        made: tuple[History, int] = ({}, 0)  # a circle without an ended evening has no history yet
    else:
        mem = memory.memory_of(circle)
        variant = snap.ruleset.variant
        players = mem.derive(("outlook-history", variant.value), lambda: player_history(mem.view, variant))
        seats = next((ev.seats for ev in mem.view.evenings if ev.id == snap.public_id), ())
        made = seat_history(players, seats)
    _HISTORIES.put(key, made)
    return made


def forget() -> None:
    """Empty the per-worker caches: histories and forecasts simulated by reads (tests, benchmarks)."""
    _HISTORIES.clear()
    _COMPUTED.clear()


def store_after_write(snap: EveningSnapshot, circle: Circle) -> None:
    """What a write that changed the evening stores of its outlook: the forecast of the new
    version (nothing while the outlook is hidden). An extra: a failure is logged, never raised."""
    if snap.outlook_hidden or not odds_known(snap.ruleset):
        return
    try:
        stored_forecast(snap, circle)
    except Exception:
        log.exception("outlook: the forecast of evening %s version %s was not stored", snap.public_id, snap.version)


def simulate(snap: EveningSnapshot, history: History | None = None) -> Forecast:
    """The forecast of the snapshot's slate, seeded by (evening, version)."""
    return forecast(
        snap.slate,
        seed=outlook_seed(snap.public_id, snap.version),
        cuts=snap.cuts,
        ended=not snap.is_open,
        history=history,
    )


Stored = tuple[dict[str, Any], int]  # the forecast as stored, and the history's hands in it


def _stored(evening_id: int, version: int) -> Stored | None:
    row = (
        tx.session()
        .execute(
            select(OutlookForecast.forecast, OutlookForecast.history_hands).where(
                OutlookForecast.evening_id == evening_id, OutlookForecast.version == version
            )
        )
        .first()
    )
    return None if row is None else (row[0], int(row[1]))


def _store(evening_id: int, version: int, fc: Forecast, history_hands: int) -> Stored:
    """Keep ``fc`` as the forecast of (evening, version); the stored one if another read was first."""
    data = forecast_to_dict(fc)
    try:
        with tx.write() as s:
            s.execute(
                delete(OutlookForecast).where(
                    OutlookForecast.evening_id == evening_id, OutlookForecast.version < version
                )
            )
            s.add(OutlookForecast(evening_id=evening_id, version=version, forecast=data, history_hands=history_hands))
    except IntegrityError:  # a concurrent first read stored it: show what it stored
        return _stored(evening_id, version) or (data, history_hands)
    return data, history_hands


# Forecasts a read simulated (none was stored for that version): kept per worker, never stored by it.
CACHED_FORECASTS: Final = 1024
_COMPUTED: Kept[tuple[int, str, int], Stored] = Kept(CACHED_FORECASTS)


def _simulated(snap: EveningSnapshot, circle: Circle) -> tuple[Forecast, int]:
    try:
        history, hands = circle_history(circle, snap)
    except Exception:  # the history is an extra: it never costs the slate page (logged, then without it)
        log.exception("outlook: the circle's history could not be read (evening %s)", snap.public_id)
        history, hands = {}, 0
    return simulate(snap, history), hands


def stored_forecast(snap: EveningSnapshot, circle: Circle) -> tuple[Forecast, int]:
    """The forecast of the snapshot's version and the history's hands in it: read if stored,
    else simulated with the circle's history and stored; in a read (``tx.reading_only``: a GET)
    kept in the worker's memory instead, never stored."""
    found = _stored(snap.evening_id, snap.version)
    if found is None:
        key = (snap.evening_id, snap.public_id, snap.version)
        if tx.reading_only():
            found = _COMPUTED.get(key)
            if found is None:
                fc, hands = _simulated(snap, circle)
                found = (forecast_to_dict(fc), hands)
                _COMPUTED.put(key, found)
        else:
            fc, hands = _simulated(snap, circle)
            found = _store(snap.evening_id, snap.version, fc, hands)
    data, hands = found
    return forecast_from_dict(data, outlook_seed(snap.public_id, snap.version)), hands


def outlook_of(snap: EveningSnapshot, circle: Circle) -> EveningOutlook:
    """The evening's outlook at the snapshot's version (nothing computed when hidden)."""
    if snap.outlook_hidden:
        return EveningOutlook(snap.version, True, None)
    if not odds_known(snap.ruleset):  # house rules: the exact lines, and no odds (no table fits)
        return EveningOutlook(snap.version, False, outlook(snap.slate, cuts=snap.cuts, ended=not snap.is_open), 0)
    fc, hands = stored_forecast(snap, circle)
    out = outlook(snap.slate, cuts=snap.cuts, ended=not snap.is_open, forecast=fc)
    return EveningOutlook(snap.version, False, out, hands)


def set_hidden(evening: Evening, hidden: bool) -> Evening:
    """Hide or show the evening's outlook (remembered; also on an ended evening). Idempotent."""
    evening_id = evening.id
    with tx.write() as s:
        s.execute(update(Evening).where(Evening.id == evening_id).values(outlook_hidden=bool(hidden)))
        ev = s.get(Evening, evening_id, populate_existing=True)
        if ev is None:  # pragma: no cover - the evening was found by the caller
            raise NotFound(N_("There is no such evening in this circle."), "evening_not_found")
        if ev.deleted:  # deleted as a test since the caller found it: nothing written (rolled back)
            raise EveningDeleted()
    return ev
