"""The circle's data through the API: export (JSON, CSV), restore into a new circle,
delete for good."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

import pytest
from api_helpers import Api, conforms, error_of, fill, new_circle, start
from flask import Flask
from flask.testing import FlaskClient
from shared_helpers import flashes, hidden, rid
from sqlalchemy import func, select

from scorekeeper.config import defaults
from scorekeeper.extensions import db
from scorekeeper.history import export
from scorekeeper.history.sample import sample_circle
from scorekeeper.models import Circle, utcnow
from scorekeeper.services import restore as restore_service


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


@pytest.mark.parametrize(
    ("name", "ascii_name", "utf8_name"),
    [
        ("Jass 中文", "scorekeeper-jass-", "scorekeeper-jass-%E4%B8%AD%E6%96%87-"),
        ("Ωmega", "scorekeeper-mega-", "scorekeeper-%CF%89mega-"),
        ("Zürich", "scorekeeper-zurich-", "scorekeeper-z%C3%BCrich-"),
    ],
)
def test_every_name_exports_its_file_name_given_twice(
    client: FlaskClient, name: str, ascii_name: str, utf8_name: str
) -> None:
    """A header is Latin-1 on the wire: the file name goes as ASCII ``filename`` and as
    ``filename*`` (RFC 6266 / 5987), so a circle named in any script exports."""
    api, _view = new_circle(client, name)
    for query, ext in (("", "json"), ("?format=csv", "csv")):
        resp = api.get("/circle/export" + query)
        assert resp.status_code == 200
        header = resp.headers["Content-Disposition"]
        assert header.isascii(), header  # what a WSGI server can send
        found = re.fullmatch(r"attachment; filename=\"([!-~]+)\"; filename\*=UTF-8''(\S+)", header)
        assert found, header
        assert found.group(1).startswith(ascii_name) and found.group(1).endswith("." + ext)
        assert found.group(2).startswith(utf8_name) and found.group(2).endswith("." + ext)
        assert unquote(found.group(2)).startswith("scorekeeper-" + name.casefold().replace(" ", "-"))


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


@pytest.mark.parametrize("factor", [10**15, 100_000])
def test_an_import_is_checked_by_the_rules_of_starting_an_evening(client: FlaskClient, factor: int) -> None:
    """Starting an evening allows factors 1 to 1000; a file that says more is refused, naming the
    field, and nothing is written."""
    api, _view, _ev = _circle_with_evening(client)
    doc = api.get("/circle/export").get_json()
    doc["evenings"][0]["ruleset"]["rows"][1]["factor"] = factor
    err = error_of(_import(client, json.dumps(doc).encode()), 422, "export_invalid")
    assert err["params"] == {"where": "evenings[0].ruleset.rows[1].factor", "reason": "factor_range"}
    assert "evenings[0].ruleset.rows[1].factor" in err["message"]
    # the start refuses the same (one check: RuleSet.check), a stake too
    body = {"variant": "three", "players": ["A", "B", "C"], "first_dealer": 0, "request_id": rid("start")}
    err = error_of(api.post("/evenings", {**body, "options": {"factors": {"obenabe": factor}}}), 422, "options_invalid")
    assert err["params"]["rule"] == "factor_range"
    err = error_of(api.post("/evenings", {**body, "stake": {"rappen": 100_001}}), 422, "options_invalid")
    assert err["params"]["rule"] == "stake_range"


class _Counted(io.BytesIO):
    """A request body that counts what the app reads of it."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.read_bytes = 0

    def read(self, size: int | None = -1) -> bytes:
        out = super().read(size)
        self.read_bytes += len(out)
        return out

    def readinto(self, b: Any) -> int:
        n = super().readinto(b)
        self.read_bytes += n
        return n


def _chunked(client: FlaskClient, body: _Counted, path: str = "/api/v1/circles/import") -> Any:
    """POST ``body`` as a server hands on a chunked request: no Content-Length, the stream ends itself."""
    return client.post(
        path,
        input_stream=body,
        headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
        environ_overrides={"CONTENT_LENGTH": "", "wsgi.input_terminated": True},
    )


def test_a_chunked_body_over_the_limit_is_413_and_read_no_further(client: FlaskClient, app: Flask) -> None:
    limit = app.config["IMPORT_MAX_BYTES"]
    body = _Counted(b"{" + b" " * (limit + 5 * 1024 * 1024))
    error_of(_chunked(client, body), 413, "too_large")
    assert body.read_bytes <= limit + 128 * 1024  # read in pieces up to the limit, not the rest
    small = _Counted(export.dumps(sample_circle(3, evenings=2, players=4), utcnow()).encode())
    assert _chunked(client, small).status_code == 201  # a chunked file under the limit is read whole


def test_a_file_that_cannot_be_json_is_refused_at_its_first_piece(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A picture or the CSV sent by mistake: refused by its first bytes, never kept nor parsed
    (the rest is read and dropped, so the client gets the answer, not a reset connection)."""
    parsed: list[int] = []
    decode = export.decode

    def counted(data: bytes) -> Any:
        parsed.append(1)
        return decode(data)

    monkeypatch.setattr(export, "decode", counted)
    size = app.config["IMPORT_MAX_BYTES"] - 1024
    for head, code in (
        (b"\x89PNG\r\n", "export_not_json"),
        ("\ufeffEvening;Ended".encode(), "export_not_json"),
        (b"  [", "export_foreign"),
    ):
        body = _Counted(head + b"x" * size)
        error_of(_chunked(client, body), 422, code)
        assert body.read_bytes == len(head) + size  # read to its end, ...
    assert parsed == []  # ... but never parsed


def test_one_file_at_a_time_per_process(client: FlaskClient) -> None:
    """While this process reads one export file, another is answered 503 with Retry-After at once
    (its body unread), by the API and the page; nothing is written."""
    data = export.dumps(sample_circle(3, evenings=2, players=4), utcnow()).encode()
    assert restore_service._ONE_AT_A_TIME.acquire(blocking=False)
    try:
        resp = _import(client, data, **{"Accept-Language": "de-CH"})
        err = error_of(resp, 503, "import_busy")
        assert int(resp.headers["Retry-After"]) == restore_service.RETRY_AFTER_S
        assert "Nichts wurde gespeichert" in err["message"]
        page = client.get("/restore").text
        resp = client.post(
            "/restore",
            data={**hidden(page, "/restore"), "file": (io.BytesIO(data), "export.json")},
            content_type="multipart/form-data",
        )
        assert resp.status_code == 503 and resp.headers["Retry-After"] == str(restore_service.RETRY_AFTER_S)
        assert any("Another export file is being read" in f for f in flashes(resp.text))
    finally:
        restore_service._ONE_AT_A_TIME.release()
    assert _import(client, data).status_code == 201


def test_delete_the_circle_for_good(client: FlaskClient) -> None:
    api, view, _ev = _circle_with_evening(client)
    error_of(view.send("DELETE", "/circle", {"name": "Donnschtig-Jass"}), 403)
    error_of(api.send("DELETE", "/circle", {"name": "Donnschtig"}), 422, "circle_name_mismatch")
    assert api.get("/circle").status_code == 200
    resp = api.send("DELETE", "/circle", {"name": "donnschtig-jass"})
    assert resp.status_code == 204
    error_of(api.get("/circle"), 410, "circle_deleted")  # its links say what happened (services.retired)
    error_of(view.get("/circle"), 410, "circle_deleted")
