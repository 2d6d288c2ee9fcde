"""Helpers for the API tests: a token-carrying client, valid next hands from the slate JSON,
and checks of answers against the OpenAPI component schemas."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask.testing import FlaskClient
from shared_helpers import rid
from werkzeug.test import TestResponse

from scorekeeper.api.shapes import SCHEMAS
from scorekeeper.api.validation import validate

API = "/api/v1"
NAMES = ["Anna", "Beat", "Cla", "Dora"]
HANDS = {"three": 30, "teams": 16, "solo4": 32, "club": 24}


def conforms(data: Any, schema_name: str) -> None:
    """The answer fits the schema the OpenAPI document gives for it (AssertionError otherwise)."""
    from scorekeeper.api.errors import ApiError

    try:
        validate(data, SCHEMAS[schema_name], SCHEMAS)
    except ApiError as err:
        raise AssertionError(f"answer does not fit {schema_name}: {err.code} {err.params}") from None


def error_of(resp: TestResponse, status: int, code: str | None = None) -> dict[str, Any]:
    """The error object of an error answer, after checking status, shape and code."""
    assert resp.status_code == status, (resp.status_code, resp.get_data(as_text=True)[:500])
    assert resp.is_json, resp.get_data(as_text=True)[:200]
    body = resp.get_json()
    conforms(body, "StaleError" if status == 409 else "Error")
    err: dict[str, Any] = body["error"]
    assert err["message"]
    if code is not None:
        assert err["code"] == code, err
    return err


@dataclass
class Api:
    """A test client that sends a circle token with every request."""

    client: FlaskClient
    token: str | None = None

    def headers(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        h = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        h.update(extra or {})
        return h

    def get(self, path: str, **kw: Any) -> TestResponse:
        return self.client.get(API + path, headers=self.headers(kw.pop("headers", None)), **kw)

    def send(self, method: str, path: str, body: Any = None, **kw: Any) -> TestResponse:
        return self.client.open(
            API + path, method=method, json=body, headers=self.headers(kw.pop("headers", None)), **kw
        )

    def post(self, path: str, body: Any = None, **kw: Any) -> TestResponse:
        return self.send("POST", path, body, **kw)

    def ok(
        self, method: str, path: str, body: Any = None, status: int = 200, schema: str | None = None
    ) -> dict[str, Any]:
        resp = self.get(path) if method == "GET" else self.send(method, path, body)
        assert resp.status_code == status, (method, path, resp.status_code, resp.get_data(as_text=True)[:800])
        data: dict[str, Any] = resp.get_json()
        if schema is not None:
            conforms(data, schema)
        return data


def new_circle(client: FlaskClient, name: str = "Donnschtig-Jass") -> tuple[Api, Api]:
    """(write client, view client) of a new circle."""
    data = Api(client).ok("POST", "/circles", {"name": name}, 201, "CircleCreated")
    return Api(client, data["write_token"]), Api(client, data["view_token"])


def start(api: Api, variant: str = "three", **extra: Any) -> dict[str, Any]:
    n = 3 if variant == "three" else 4
    body = {"variant": variant, "players": NAMES[:n], "first_dealer": 0, "request_id": rid("start"), **extra}
    return api.ok("POST", "/evenings", body, 201, "Evening")


def played_as(row: dict[str, Any], turn: int) -> str | None:
    """A contract code a choice row may be played as (varied by ``turn``)."""
    if not row["choice"]:
        return None
    kinds = row["kinds"]
    options = [k for k in ("obenabe", "undenufe", "zwuescheduere", "tutti") if k in kinds]
    if "misere" in kinds:
        options.append("misere:undenufe")
    if "slalom" in kinds:
        options.append("slalom:obenabe")
    if "suit" in kinds:
        options.append("suit:H")
    return options[turn % len(options)]


def next_hand(evening: dict[str, Any], turn: int) -> dict[str, Any]:
    """A valid next hand for the evening's slate (JSON), as a request body."""
    slate = evening["slate"]
    sides = evening["sides"]
    open_sides = [s for s in range(len(sides)) if slate["open_rows"][s]]
    side = open_sides[turn % len(open_sides)]
    seats = sides[side]["seats"]
    seat = seats[turn % len(seats)]
    key = slate["open_rows"][side][0]
    row = next(r for r in slate["rows"] if r["key"] == key)
    body: dict[str, Any] = {
        "expected_version": evening["version"],
        "request_id": rid("hand"),
        "declarer_seat": seat,
        "row_key": key,
        "played_as": played_as(row, turn),
    }
    if turn % 7 == 3:
        return {**body, "declarer_points": 157, "defender_points": 0, "match": True}
    if turn % 11 == 5:
        return {**body, "declarer_points": 0, "defender_points": 157, "countermatch": True}
    points = (turn * 37 + 11) % 158
    return {**body, "declarer_points": points, "defender_points": 157 - points}


def fill(api: Api, evening: dict[str, Any], count: int | None = None) -> tuple[dict[str, Any], int]:
    """Record valid hands until the slate is complete (or ``count`` hands); (evening, hands recorded)."""
    path = f"/evenings/{evening['id']}/hands"
    turn = 0
    while not evening["slate"]["complete"] and (count is None or turn < count):
        evening = api.ok("POST", path, next_hand(evening, turn), 200, "Evening")
        turn += 1
    return evening, turn
