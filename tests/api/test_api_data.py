"""The circle's data through the API: export (JSON, CSV), restore into a new circle,
delete for good."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from typing import Any

import pytest
from api_helpers import Api, conforms, error_of, fill, new_circle, start
from flask import Flask
from flask.testing import FlaskClient
from shared_helpers import rid
from sqlalchemy import func, select

from scorekeeper.config import defaults
from scorekeeper.extensions import db
from scorekeeper.history import export
from scorekeeper.history.sample import sample_circle
from scorekeeper.models import Circle, utcnow


@pytest.fixture
def app_config() -> dict[str, Any]:
    return {"WTF_CSRF_ENABLED": True, "IMPORT_MAX_BYTES": 2 * 1024 * 1024}


def _circle_with_evening(client: FlaskClient) -> tuple[Api, Api, dict[str, Any]]:
    api, view = new_circle(client)
    ev, _n = fill(api, start(api, players=["=HYPERLINK(1)", "Beat", "Cla"]), 6)
    ev = api.ok(
        "POST",
        f"/evenings/{ev['id']}/end",
        {"expected_version": ev["version"], "request_id": rid(), "early": True},
        200,
        "Evening",
    )
    return api, view, ev


def _import(client: FlaskClient, body: bytes, **headers: str) -> Any:
    return client.post("/api/v1/circles/import", data=body, headers={"Content-Type": "application/json", **headers})


def test_export_json_and_csv(client: FlaskClient) -> None:
    api, view, ev = _circle_with_evening(client)
    resp = api.get("/circle/export")
    assert resp.status_code == 200 and resp.mimetype == "application/json"
    assert resp.headers["Content-Disposition"].startswith('attachment; filename="scorekeeper-donnschtig-jass-')
    assert resp.headers["Cache-Control"] == "no-store"
    doc = resp.get_json()
    conforms(doc, "CircleExport")
    assert doc["format"] == "scorekeeper-circle" and doc["version"] == export.VERSION
    assert [e["id"] for e in doc["evenings"]] == [ev["id"]]
    error_of(view.get("/circle/export"), 403)  # the onlookers' link cannot take the data away
    error_of(api.get("/circle/export?format=xml"), 400, "invalid_value")

    resp = api.get("/circle/export?format=csv", headers={"Accept-Language": "de-CH"})
    assert resp.status_code == 200 and resp.headers["Content-Type"] == "text/csv; charset=utf-8"
    raw = resp.get_data()
    assert raw.startswith("\ufeff".encode()) and b"\r\n" in raw
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig")), delimiter=";"))
    assert rows[0][4] == "Ansager"  # the headings in the reader's language
    assert len(rows) == 1 + 6
    assert "'=HYPERLINK(1)" in {cell for row in rows[1:] for cell in row}  # no formula runs


def test_restore_gives_a_new_circle_with_the_same_history(client: FlaskClient, app: Flask) -> None:
    api, _view, _ev = _circle_with_evening(client)
    raw = api.get("/circle/export").get_data()
    resp = _import(client, raw)
    assert resp.status_code == 201, resp.get_data(as_text=True)[:300]
    body = resp.get_json()
    conforms(body, "CircleImported")
    assert body["links"]["write"].endswith("/c/" + body["write_token"])
    assert body["links"]["view"].endswith("/c/" + body["view_token"])
    new = Api(client, body["write_token"])
    old_evenings = api.ok("GET", "/evenings", schema="EveningList")["evenings"]
    new_evenings = new.ok("GET", "/evenings", schema="EveningList")["evenings"]
    assert [{k: v for k, v in e.items() if k != "id"} for e in new_evenings] == [
        {k: v for k, v in e.items() if k != "id"} for e in old_evenings
    ]

    def records(client_api: Api) -> list[tuple[Any, ...]]:
        found = client_api.ok("GET", "/players/records", schema="PlayerRecords")["records"]
        return [(r["name"], r["evenings"], r["wins"], r["net_rappen"]) for r in found]

    assert records(new) == records(api) and len(records(new)) == 3


def test_a_large_export_imports_above_the_usual_body_limit(client: FlaskClient) -> None:
    big = export.dumps(sample_circle(3, evenings=60, players=6), utcnow()).encode()
    assert 256 * 1024 < len(big) < 2 * 1024 * 1024  # above MAX_CONTENT_LENGTH, below IMPORT_MAX_BYTES
    resp = _import(client, big)
    assert resp.status_code == 201, resp.get_data(as_text=True)[:300]
    assert len(Api(client, resp.get_json()["write_token"]).ok("GET", "/evenings")["evenings"]) == 60
    # the other endpoints keep their small limit
    error_of(client.post("/api/v1/circles", data=big, headers={"Content-Type": "application/json"}), 413)


def test_a_circle_of_500_evenings_imports_under_the_default_limit(
    app_factory: Callable[..., Flask], db_url: str
) -> None:
    """The issue's large circle: 500 evenings (some 4 MB) import whole under the shipped limit."""
    client = app_factory(db_url).test_client()
    big = export.dumps(sample_circle(2026, evenings=500, paper_rate=0.0), utcnow()).encode()
    assert (
        2 * 1024 * 1024 < len(big) < client.application.config["IMPORT_MAX_BYTES"] == defaults("")["IMPORT_MAX_BYTES"]
    )
    resp = _import(client, big)
    assert resp.status_code == 201, resp.get_data(as_text=True)[:300]
    assert len(Api(client, resp.get_json()["write_token"]).ok("GET", "/evenings")["evenings"]) == 500


def test_a_bad_file_is_refused_and_writes_nothing(client: FlaskClient, app: Flask) -> None:
    def circles() -> int:
        with app.app_context():
            return int(db.session.execute(select(func.count(Circle.id))).scalar_one())

    before = circles()
    err = error_of(_import(client, b'{"format": "scorekeeper-circle", "version": 1}'), 422, "export_damaged")
    assert "damaged" in err["message"]
    err = error_of(_import(client, b'{"hello": 1}', **{"Accept-Language": "de-CH"}), 422, "export_foreign")
    assert "Export" in err["message"]
    error_of(_import(client, b"not json"), 422, "export_not_json")
    error_of(client.post("/api/v1/circles/import", data=b"{}", headers={"Content-Type": "text/plain"}), 415)
    error_of(_import(client, b"[" * 10 + b" " * (2 * 1024 * 1024)), 413)
    newer = json.dumps({"format": "scorekeeper-circle", "version": export.VERSION + 1}).encode()
    assert error_of(_import(client, newer), 422, "export_version_newer")["params"]["version"] == export.VERSION + 1
    assert circles() == before


def test_delete_the_circle_for_good(client: FlaskClient) -> None:
    api, view, _ev = _circle_with_evening(client)
    error_of(view.send("DELETE", "/circle", {"name": "Donnschtig-Jass"}), 403)
    error_of(api.send("DELETE", "/circle", {"name": "Donnschtig"}), 422, "circle_name_mismatch")
    assert api.get("/circle").status_code == 200
    resp = api.send("DELETE", "/circle", {"name": "donnschtig-jass"})
    assert resp.status_code == 204
    error_of(api.get("/circle"), 404)
    error_of(view.get("/circle"), 404)
