"""Helpers for the hosting tests: circles, evenings and seat links through the API and the pages."""

from __future__ import annotations

import itertools
import json
import re
from html.parser import HTMLParser
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


# --- Content-Security-Policy: what a page must not hold ----------------------------------
EVENT_HANDLER = re.compile(r"^on[a-z]+$")
URL_ATTRIBUTES = ("href", "src", "action", "formaction", "xlink:href", "data")


class _InlineCode(HTMLParser):
    """Collects what the strict policy would refuse: inline script or style, event handlers,
    ``javascript:`` URLs, scripts and style sheets from elsewhere than /static/."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []
        self._in_script = False
        self._script_text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k.lower(): (v or "") for k, v in attrs}
        where = f"<{tag} {' '.join(f'{k}={v!r}' for k, v in list(a.items())[:3])}>"
        if tag == "style":
            self.problems.append(f"<style> element: {where}")
        if "style" in a:
            self.problems.append(f"style attribute: {where}")
        self.problems += [f"event handler {k}: {where}" for k in a if EVENT_HANDLER.match(k)]
        for name in URL_ATTRIBUTES:
            if a.get(name, "").strip().lower().startswith("javascript:"):
                self.problems.append(f"javascript: URL: {where}")
        if tag == "script":
            if "src" in a:
                if not a["src"].startswith("/static/"):
                    self.problems.append(f"script from elsewhere: {where}")
            elif a.get("type", "").lower() != "application/json":
                self.problems.append(f"inline script: {where}")
            self._in_script, self._script_text = True, []
        if tag == "link" and "stylesheet" in a.get("rel", "").split() and not a.get("href", "").startswith("/static/"):
            self.problems.append(f"style sheet from elsewhere: {where}")

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self._script_text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            text = "".join(self._script_text).strip()
            if text:
                try:
                    json.loads(text)
                except ValueError:
                    self.problems.append(f"script body that is not JSON: {text[:60]!r}")
            self._in_script = False


def inline_code(html: str) -> list[str]:
    """What in a page (or fragment) a strict Content-Security-Policy refuses; [] when clean."""
    parser = _InlineCode()
    parser.feed(html)
    parser.close()
    return parser.problems
