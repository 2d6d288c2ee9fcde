"""The API blueprint, its route registry, and the helpers its views share."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, g, jsonify
from sqlalchemy.exc import DBAPIError
from werkzeug.wrappers import Response

from ..game.contracts import Contract
from ..game.hand_entry import HandEntry
from ..models import Circle, Evening
from ..services import evenings as svc
from ..services.read import snapshot
from ..services.read.snapshot import EveningSnapshot
from ..services.store import tx
from .auth import can_write_now
from .errors import ApiError
from .registry import PREFIX, ApiRoutes, parameter
from .serialize import evening_dict

bp = Blueprint("api", __name__, url_prefix=PREFIX)
routes = ApiRoutes(bp)

PATH_EVENING = parameter("evening_id", "path", {"type": "string"}, "The evening's public id.")
QUERY_VERSION = parameter("v", "query", {"type": "integer"}, "The version the client has.")


def load_evening(circle: Circle, evening_id: str) -> Evening:
    """The circle's evening (NotFound otherwise; ``EveningDeleted``, 410, for an evening deleted as a
    test); remembered for translating errors."""
    evening = svc.get_evening(circle, evening_id)
    g.api_circle = circle
    g.api_evening_id = evening_id
    g.api_evening = evening
    return evening


def answer(data: Any, status: int = 200, **headers: str) -> Response:
    response = jsonify(data)
    response.status_code = status
    for name, value in headers.items():
        response.headers[name.replace("_", "-")] = value
    return response


def read_evening(circle: Circle, evening_id: str) -> EveningSnapshot:
    """The circle's evening as it stands, for a read (``load_evening``, then its snapshot)."""
    evening = load_evening(circle, evening_id)
    return snapshot.load_snapshot(evening)


def snapshot_answer(snap: EveningSnapshot, status: int = 200) -> Response:
    """The whole evening ``snap`` as the API answers it."""
    return answer(evening_dict(snap, can_write=can_write_now()), status)


def evening_answer(evening: Evening, status: int = 200) -> Response:
    """The whole evening as it stands (its snapshot, read once).

    After a write has committed, a lost connection while reading the answer is tried once
    more on a fresh one (the answer comes from what was committed); a second failure goes
    to the fault handler, which says that the change was saved.
    """
    for retry in (False, True):
        try:
            snap = snapshot.load_snapshot(evening)
            break
        except DBAPIError:
            if retry or tx.outcome() != tx.SAVED:
                raise
            tx.session().rollback()
    return snapshot_answer(snap, status)


def hand_from_body(body: dict[str, Any]) -> HandEntry:
    """The HandEntry a (shape-checked) body describes; every rule is the core's to check."""
    seich = bool(body.get("seich", False))
    points: list[int] = []
    for name in ("declarer_points", "defender_points"):
        value = body.get(name)
        if value is None and not seich:
            raise ApiError("missing_field", field=name)
        points.append(0 if value is None else int(value))
    code = body.get("played_as")
    contract = None
    if code is not None:
        try:
            contract = Contract.parse(code)
        except ValueError:
            raise ApiError("invalid_value", field="played_as") from None
    return HandEntry(
        row_key=body.get("row_key"),
        declarer_seat=int(body["declarer_seat"]),
        contract=contract,
        declarer_points=points[0],
        defender_points=points[1],
        match=bool(body.get("match", False)),
        countermatch=bool(body.get("countermatch", False)),
        seich=seich,
    )
