"""Helpers for the hosting tests: circles, evenings and seat links through the API and the pages."""

from __future__ import annotations

import itertools
import re
from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

API = "/api/v1"
_ids = itertools.count(1)
CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


def rid(prefix: str = "r") -> str:
    return f"{prefix}-{next(_ids)}"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_circle(client: FlaskClient, **kw: Any) -> TestResponse:
    return client.post(f"{API}/circles", json={"name": "Donnschtig-Jass"}, **kw)


def circle_tokens(client: FlaskClient, **kw: Any) -> tuple[str, str]:
    """(write token, view token) of a new circle."""
    resp = new_circle(client, **kw)
    assert resp.status_code == 201, resp.get_data(as_text=True)
    data = resp.get_json()
    return data["write_token"], data["view_token"]


def start_evening(client: FlaskClient, token: str, n: int = 4, **kw: Any) -> dict[str, Any]:
    body = {
        "variant": "three" if n == 3 else "teams",
        "players": ["Anna", "Beat", "Cla", "Dora"][:n],
        "first_dealer": 0,
        "request_id": rid("start"),
    }
    resp = client.post(f"{API}/evenings", json=body, headers=bearer(token), **kw)
    assert resp.status_code == 201, resp.get_data(as_text=True)
    data: dict[str, Any] = resp.get_json()
    return data


def hand(evening: dict[str, Any], points: int = 90) -> dict[str, Any]:
    """A valid first hand of a teams evening (its first open suit row, seat 0 declares)."""
    key = evening["slate"]["open_rows"][0][0]
    return {
        "expected_version": evening["version"],
        "request_id": rid("hand"),
        "declarer_seat": 0,
        "row_key": key,
        "declarer_points": points,
        "defender_points": 157 - points,
    }


def csrf(html: str) -> str:
    m = CSRF.search(html)
    assert m, "no CSRF token on the page"
    return m.group(1)
