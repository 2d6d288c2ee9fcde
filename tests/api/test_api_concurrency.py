"""Several phones at once through the API: one write wins per version, a double tap records once."""

from __future__ import annotations

import threading
from typing import Any

from api_helpers import API, Api, new_circle, start
from flask import Flask
from flask.testing import FlaskClient
from shared_helpers import rid


def _race(app: Flask, path: str, token: str, bodies: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    """Send every body at the same moment, each from its own client (phone)."""
    barrier = threading.Barrier(len(bodies))
    out: list[tuple[int, dict[str, Any]]] = [(0, {})] * len(bodies)

    def phone(i: int) -> None:
        client = app.test_client()
        barrier.wait()
        resp = client.post(API + path, json=bodies[i], headers={"Authorization": f"Bearer {token}"})
        out[i] = (resp.status_code, resp.get_json())

    threads = [threading.Thread(target=phone, args=(i,)) for i in range(len(bodies))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return out


def test_phones_on_the_same_version(app: Flask, client: FlaskClient) -> None:
    api, _view = new_circle(client)
    ev = start(api)
    rows = ["suit_C", "suit_H", "obenabe"]
    bodies = [
        {
            "expected_version": 0,
            "request_id": rid(),
            "declarer_seat": seat,
            "row_key": rows[seat],
            "declarer_points": 100,
            "defender_points": 57,
        }
        for seat in range(3)
    ]
    answers = _race(app, f"/evenings/{ev['id']}/hands", api.token or "", bodies)
    statuses = sorted(status for status, _body in answers)
    assert statuses == [200, 409, 409], answers
    for status, body in answers:
        if status == 409:
            assert body["error"]["code"] == "stale" and body["version"] == 1 and body["slate"]["hands_dealt"] == 1
    assert len(api.ok("GET", f"/evenings/{ev['id']}/entries")["entries"]) == 1


def test_simultaneous_double_tap_records_once(app: Flask, client: FlaskClient) -> None:
    api, _view = new_circle(client)
    ev = start(api)
    body = {
        "expected_version": 0,
        "request_id": "same-tap",
        "declarer_seat": 0,
        "row_key": "suit_C",
        "declarer_points": 100,
        "defender_points": 57,
    }
    answers = _race(app, f"/evenings/{ev['id']}/hands", api.token or "", [body, body, body])
    assert [status for status, _b in answers] == [200, 200, 200], answers
    assert {b["version"] for _s, b in answers} == {1}
    assert len(Api(client, api.token).ok("GET", f"/evenings/{ev['id']}/entries")["entries"]) == 1
