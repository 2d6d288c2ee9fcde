"""The outlook of an evening (issue 13): what each side still needs, and who is likely to win.

``outlook_of(snap)`` gives it from the one read model (``snapshot.EveningSnapshot``): the
definitions (``scoring.outlook``) are derived from the snapshot's slate on every read, in
microseconds; the win probabilities (``scoring.forecast``, a seeded simulation of some
20 ms) are computed once per (evening, version) and stored in ``outlook_forecasts``. The
first read of a version simulates and stores (its own short write transaction); every
later read of that version, on any phone, worker or host, and the API, reads the stored
figures with one statement. A concurrent first read that loses the race takes the
stored row, so all of them show the same numbers. Older versions' rows are removed.

The poll (``poll_state``) reads the version and the setting with one small statement
and never computes an outlook.

A table may hide the outlook (``set_hidden``): then nothing is computed or shown, and
the API says ``hidden``. The setting is not a change of the slate: it does not bump the
evening's version (a phone in the middle of typing a hand gets no conflict for it);
the live fragment polls the setting alongside the version.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError

from ..game.errors import N_
from ..models import Circle, Evening, OutlookForecast, is_public_id
from ..scoring.forecast import Forecast, forecast, outlook_seed
from ..scoring.outlook import Outlook, outlook
from . import tx
from .errors import NotFound
from .snapshot import EveningSnapshot


@dataclass(frozen=True, slots=True)
class EveningOutlook:
    """What the slate page, its live fragment and the API show of the outlook."""

    version: int
    hidden: bool  # the table asked not to see it: nothing was computed
    outlook: Outlook | None  # None when hidden


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


def simulate(snap: EveningSnapshot) -> Forecast:
    """The forecast of the snapshot's slate, seeded by (evening, version)."""
    return forecast(
        snap.slate,
        seed=outlook_seed(snap.public_id, snap.version),
        cuts=snap.cuts,
        ended=not snap.is_open,
    )


def _stored(evening_id: int, version: int) -> dict[str, Any] | None:
    return (
        tx.session()
        .execute(
            select(OutlookForecast.forecast).where(
                OutlookForecast.evening_id == evening_id, OutlookForecast.version == version
            )
        )
        .scalar_one_or_none()
    )


def _store(evening_id: int, version: int, fc: Forecast) -> dict[str, Any]:
    """Keep ``fc`` as the forecast of (evening, version); the stored one if another read was first."""
    data = forecast_to_dict(fc)
    try:
        with tx.write() as s:
            s.execute(
                delete(OutlookForecast).where(
                    OutlookForecast.evening_id == evening_id, OutlookForecast.version < version
                )
            )
            s.add(OutlookForecast(evening_id=evening_id, version=version, forecast=data, history_hands=0))
    except IntegrityError:  # a concurrent first read stored it: show what it stored
        return _stored(evening_id, version) or data
    return data


def stored_forecast(snap: EveningSnapshot) -> Forecast:
    """The forecast of the snapshot's version: read if stored, else simulated and stored."""
    seed = outlook_seed(snap.public_id, snap.version)
    data = _stored(snap.evening_id, snap.version)
    if data is None:
        data = _store(snap.evening_id, snap.version, simulate(snap))
    return forecast_from_dict(data, seed)


def outlook_of(snap: EveningSnapshot) -> EveningOutlook:
    """The evening's outlook at the snapshot's version (nothing computed when hidden)."""
    if snap.outlook_hidden:
        return EveningOutlook(snap.version, True, None)
    fc = stored_forecast(snap)
    return EveningOutlook(snap.version, False, outlook(snap.slate, cuts=snap.cuts, ended=not snap.is_open, forecast=fc))


def set_hidden(evening: Evening, hidden: bool) -> Evening:
    """Hide or show the evening's outlook (remembered; also on an ended evening). Idempotent."""
    evening_id = evening.id
    with tx.write() as s:
        s.execute(update(Evening).where(Evening.id == evening_id).values(outlook_hidden=bool(hidden)))
        ev = s.get(Evening, evening_id, populate_existing=True)
        if ev is None:  # pragma: no cover - the evening was found by the caller
            raise NotFound(N_("There is no such evening in this circle."), "evening_not_found")
    return ev


def poll_state(circle: Circle, public_id: str) -> tuple[int, bool]:
    """(version, outlook hidden) of the circle's evening: one small statement; raises NotFound."""
    row = (
        tx.session()
        .execute(
            select(Evening.version, Evening.outlook_hidden).where(
                Evening.public_id == public_id, Evening.circle_id == circle.id
            )
        )
        .first()
        if is_public_id(public_id)
        else None
    )
    if row is None:
        raise NotFound(N_("There is no such evening in this circle."), "evening_not_found")
    return int(row[0]), bool(row[1])
