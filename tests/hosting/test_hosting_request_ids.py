"""The same request id with another body: 422 ``request_id_reused`` and nothing written;
with the same body: success, recorded once. Every write that takes a request id, through
the API and the pages. Runs on SQLite, and on PostgreSQL with SCOREKEEPER_TEST_DB=postgres."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hosting_helpers import API, bearer, circle_tokens
from shared_helpers import rid
from sqlalchemy import Table, func, select, update

from scorekeeper.extensions import db
from scorekeeper.history.records import PaymentKind
from scorekeeper.models import AppliedRequest, EntryRow, Evening, SettlementRow
from scorekeeper.services import circles
from scorekeeper.services import purse as purse_service
from scorekeeper.services.errors import RequestIdReused
from scorekeeper.services.purse import Payment


class Writer:
    """An API client of one circle that checks every answer."""

    def __init__(self, client: FlaskClient, token: str) -> None:
        self.client, self.token = client, token

    def send(self, method: str, path: str, body: dict[str, Any]) -> Any:
        return self.client.open(f"{API}{path}", method=method, json=body, headers=bearer(self.token))

    def ok(self, method: str, path: str, body: dict[str, Any], status: int = 200) -> dict[str, Any]:
        resp = self.send(method, path, body)
        assert resp.status_code == status, resp.get_data(as_text=True)
        data: dict[str, Any] = resp.get_json()
        return data

    def points(self, evening_id: str) -> list[int]:
        """The declarer's points of every hand on the slate."""
        resp = self.client.get(f"{API}/evenings/{evening_id}/entries", headers=bearer(self.token))
        return [e["hand"]["declarer_points"] for e in resp.get_json()["entries"]]

    def reused(self, method: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
        resp = self.send(method, path, body)
        assert resp.status_code == 422, resp.get_data(as_text=True)
        error: dict[str, Any] = resp.get_json()["error"]
        assert error["code"] == "request_id_reused" and error["message"]
        return error


def _rows(app: Flask) -> list[int]:
    """[evenings, entry rows, applied requests] in the database."""
    with app.app_context():
        counts = [
            db.session.execute(select(func.count()).select_from(model)).scalar_one()
            for model in (Evening, EntryRow, AppliedRequest)
        ]
        db.session.remove()
    return counts


def _hand(evening: dict[str, Any], seat: int, points: int, request_id: str, **extra: Any) -> dict[str, Any]:
    return {
        "expected_version": evening["version"],
        "request_id": request_id,
        "declarer_seat": seat,
        "row_key": "suit_C",
        "declarer_points": points,
        "defender_points": 157 - points,
        **extra,
    }


def test_every_api_write_refuses_a_reused_request_id(app: Flask) -> None:
    client = app.test_client()
    w = Writer(client, circle_tokens(client)[0])

    # start: the same body returns the same evening; another body is refused
    start = {"variant": "three", "players": ["Anna", "Beat", "Cla"], "first_dealer": 0, "request_id": rid("start")}
    ev = w.ok("POST", "/evenings", start, 201)
    assert w.ok("POST", "/evenings", start, 201)["id"] == ev["id"]
    w.reused("POST", "/evenings", {**start, "players": ["Anna", "Beat", "Dora"]})
    w.reused("POST", "/evenings", {**start, "first_dealer": 1})
    assert _rows(app)[0] == 1
    base = f"/evenings/{ev['id']}"

    # a hand: a double tap records once; the same id with other points writes nothing,
    # also when the client refreshed its version; the same body with a fresh version is the same request
    first = _hand(ev, 0, 90, rid("hand"))
    ev = w.ok("POST", base + "/hands", first)
    assert w.ok("POST", base + "/hands", first)["version"] == ev["version"] == 1
    before = _rows(app)
    w.reused("POST", base + "/hands", {**first, "declarer_points": 80, "defender_points": 77})
    w.reused("POST", base + "/hands", {**first, "expected_version": 1, "declarer_seat": 1})
    w.reused("POST", base + "/hands", {**first, "author": "Beat"})
    assert w.ok("POST", base + "/hands", {**first, "expected_version": 1})["version"] == 1
    assert _rows(app) == before
    assert w.points(ev["id"]) == [90]

    # a tie in suit_C (90, 90, 50) to cut
    ev = w.ok("POST", base + "/hands", _hand(ev, 1, 90, rid("hand")))
    ev = w.ok("POST", base + "/hands", _hand(ev, 2, 50, rid("hand")))
    cut = {"expected_version": ev["version"], "request_id": rid("cut"), "row_key": "suit_C", "end": "high", "winner": 0}
    ev = w.ok("POST", base + "/cuts", cut)
    w.reused("POST", base + "/cuts", {**cut, "winner": 1})
    assert [c["winner"] for c in w.ok("POST", base + "/cuts", cut)["cuts"]] == [0]

    # a correction
    fix = _hand(ev, 0, 80, rid("fix"))
    ev = w.ok("PUT", base + "/entries/0", fix)
    w.reused("PUT", base + "/entries/0", {**fix, "declarer_points": 70, "defender_points": 87})
    w.reused("PUT", base + "/entries/1", fix)
    assert w.ok("PUT", base + "/entries/0", fix)["version"] == ev["version"]

    # undo, and a request id used for one action sent for another
    undo = {"expected_version": ev["version"], "request_id": rid("undo")}
    ev = w.ok("POST", base + "/undo", undo)
    w.reused("POST", base + "/undo", {**undo, "author": "Cla"})
    w.reused("POST", base + "/hands", _hand(ev, 2, 50, undo["request_id"]))
    draw = {"expected_version": ev["version"], "request_id": rid("draw")}
    ev = w.ok("POST", base + "/cuts/draw", draw)
    w.reused("POST", base + "/end", {**draw, "early": True})

    # end and reopen
    end = {"expected_version": ev["version"], "request_id": rid("end"), "early": True}
    ev = w.ok("POST", base + "/end", end)
    assert ev["status"] == "ended"
    w.reused("POST", base + "/end", {**end, "early": False})
    w.reused("POST", base + "/end", {**end, "counts_in_money": False})  # what the table said is the request
    assert w.ok("POST", base + "/end", {**end, "counts_in_money": True})["version"] == ev["version"]
    reopen = {"expected_version": ev["version"], "request_id": rid("reopen")}
    ev = w.ok("POST", base + "/reopen", reopen)
    w.reused("POST", base + "/undo", reopen)
    assert w.ok("POST", base + "/reopen", reopen)["version"] == ev["version"]
    assert ev["status"] == "open"

    # housekeeping: the same id with another name, player or kind writes nothing
    players = {
        p["name"]: p["id"] for p in w.client.get(f"{API}/players", headers=bearer(w.token)).get_json()["players"]
    }
    rename = {"kind": "rename", "player": players["Anna"], "name": "Anne-Marie", "request_id": rid("hk")}
    change = w.ok("POST", "/housekeeping", rename, 201)
    assert w.ok("POST", "/housekeeping", rename, 201)["seq"] == change["seq"]
    w.reused("POST", "/housekeeping", {**rename, "name": "Anne-Marie Zurbriggen"})
    w.reused("POST", "/housekeeping", {**rename, "player": players["Beat"]})
    w.reused("POST", "/housekeeping", {"kind": "undo", "undoes": change["seq"], "request_id": rename["request_id"]})
    log = w.client.get(f"{API}/housekeeping", headers=bearer(w.token)).get_json()["changes"]
    assert [(c["kind"], c["name"]) for c in log] == [("rename", "Anne-Marie")]


def test_a_page_says_so_in_the_users_language_and_offers_a_fresh_form(app: Flask) -> None:
    client = app.test_client()
    token = circle_tokens(client)[0]
    w = Writer(client, token)
    start = {"variant": "three", "players": ["Anna", "Beat", "Cla"], "first_dealer": 0, "request_id": rid("start")}
    ev = w.ok("POST", "/evenings", start, 201)
    page = f"/c/{token}/e/{ev['id']}"
    form = {
        "expected_version": "0",
        "request_id": rid("page-form"),
        "declarer": "0",
        "row": "suit_C",
        "declarer_points": "90",
        "defender_points": "67",
    }
    assert client.post(page + "/hands", data=form).status_code == 302
    assert client.post(page + "/hands", data=form).status_code == 302  # a double tap
    client.set_cookie("lang", "de")
    resp = client.post(page + "/hands", data={**form, "declarer_points": "60", "defender_points": "97"})
    assert resp.status_code == 422
    html = resp.get_data(as_text=True)
    assert "Diese Anfrage wurde schon einmal mit anderen Werten gesendet" in html
    assert form["request_id"] not in html  # the form comes back with a new request id
    assert w.points(ev["id"]) == [90]

    # a button (undo): the message as a flash on the slate
    undo = {"expected_version": "1", "request_id": form["request_id"]}
    resp = client.post(page + "/undo", data=undo, follow_redirects=True)
    assert "Diese Anfrage wurde schon einmal mit anderen Werten gesendet" in resp.get_data(as_text=True)
    assert w.points(ev["id"]) == [90]


def test_a_request_applied_before_digests_were_kept_is_compared_by_its_action(app: Flask) -> None:
    client = app.test_client()
    w = Writer(client, circle_tokens(client)[0])
    start = {"variant": "three", "players": ["Anna", "Beat", "Cla"], "first_dealer": 0, "request_id": rid("start")}
    ev = w.ok("POST", "/evenings", start, 201)
    base = f"/evenings/{ev['id']}"
    first = _hand(ev, 0, 90, rid("hand"))
    ev = w.ok("POST", base + "/hands", first)
    with app.app_context():  # as the migration leaves the rows written before it (below the append-only guard)
        with db.engine.begin() as conn:
            conn.execute(update(cast(Table, AppliedRequest.__table__)).values(digest=None))
            conn.execute(update(cast(Table, Evening.__table__)).values(start_digest=None))
    assert w.ok("POST", "/evenings", {**start, "first_dealer": 2}, 201)["id"] == ev["id"]
    assert w.ok("POST", base + "/hands", {**first, "declarer_points": 80, "defender_points": 77})["version"] == 1
    w.reused("POST", base + "/undo", {"expected_version": 1, "request_id": first["request_id"]})
    assert w.points(ev["id"]) == [90]


def test_the_purse_refuses_a_reused_request_id(app: Flask) -> None:
    """The purse's settlements (a service the pages and the API will call): the same rule."""
    when = datetime(2026, 11, 20, 12, tzinfo=UTC)
    with app.app_context():
        circle, _w, _v = circles.create_circle("Kasse")
        a, b = (circles.add_player(circle, name).id for name in ("Anna", "Beat"))
        pay = Payment(PaymentKind.PAYMENT, payer_id=a, payee_id=b, rappen=1250, paid_at=when)
        request_id = rid("pay")
        first = purse_service.append(circle, pay, request_id=request_id, entered_by="Anna")
        assert purse_service.append(circle, pay, request_id=request_id, entered_by="Anna").seq == first.seq
        for other in (
            Payment(PaymentKind.PAYMENT, payer_id=a, payee_id=b, rappen=1300, paid_at=when),
            Payment(PaymentKind.PAYMENT, payer_id=b, payee_id=a, rappen=1250, paid_at=when),
            Payment(PaymentKind.VOID, supersedes=first.seq),
        ):
            with pytest.raises(RequestIdReused):
                purse_service.append(circle, other, request_id=request_id, entered_by="Anna")
        with pytest.raises(RequestIdReused):
            purse_service.append(circle, pay, request_id=request_id, entered_by="Beat")
        assert db.session.query(SettlementRow).count() == 1
