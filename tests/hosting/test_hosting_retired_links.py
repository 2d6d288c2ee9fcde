"""Links that opened something once (issue 21 point 3, issue 20 point 8): a replaced write or
onlookers link, the links of an erased circle, a seat handed on and the links a restored backup
does not hold are answered with what happened (410, the page, the poll's fragment and the API in
one shape), never counted as guesses, so a page left open on an old link locks nobody behind the
same address out. Requests that present no token are never refused by the wrong-token limit
(point 9). Runs on SQLite, and on PostgreSQL with SCOREKEEPER_TEST_DB=postgres."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hosting_helpers import API, bearer, circle_tokens, csrf, start_evening
from sqlalchemy import select, text

from scorekeeper.api.shapes import SCHEMAS
from scorekeeper.api.validation import validate
from scorekeeper.extensions import db
from scorekeeper.models import RetiredLink
from scorekeeper.services import digital_table as tables
from scorekeeper.services import seats

ANNA = {"REMOTE_ADDR": "198.51.100.7"}
WRONG = "Z" * 43
LIMIT = {"LIMIT_WRONG_TOKENS": "4 per 10 minutes"}
POLLS = 30  # an old page left open for a minute and a half (every 3 s): far past the limit


@pytest.fixture
def limited(app_factory: Callable[..., Flask], db_url: str) -> Callable[..., Flask]:
    def make(**config: Any) -> Flask:
        return app_factory(db_url, **LIMIT, **config)

    return make


def _poll(client: FlaskClient, token: str, evening: dict[str, Any]) -> Any:
    path = f"/c/{token}/e/{evening['id']}/version?v={evening['version']}&o=0&n=0"
    return client.get(path, headers={"HX-Request": "true"}, environ_base=ANNA)


def _gone_api(client: FlaskClient, token: str, code: str) -> dict[str, Any]:
    resp = client.get(f"{API}/circle", headers=bearer(token), environ_base=ANNA)
    assert resp.status_code == 410, resp.get_data(as_text=True)
    body: dict[str, Any] = resp.get_json()
    validate(body, SCHEMAS["Error"], SCHEMAS)
    assert body["error"]["code"] == code
    return body


def test_an_old_page_left_open_locks_nobody_out(limited: Callable[..., Flask]) -> None:
    client = limited().test_client()
    write, view = circle_tokens(client)
    evening = start_evening(client, write)
    assert _poll(client, write, evening).status_code == 204
    new = client.post(f"{API}/circle/write-token", headers=bearer(write)).get_json()["write_token"]

    for _ in range(POLLS):  # the old page polls on: told each time, never counted
        answer = _poll(client, write, evening)
        assert answer.status_code == 410
        assert answer.headers["X-Link-Gone"] == "link_replaced"
        assert answer.get_data(as_text=True) == (
            "This circle's write link was changed: ask the others at the table for the new link."
        )
    page = client.get(f"/c/{write}/e/{evening['id']}", environ_base=ANNA, headers={"Accept-Language": "de"})
    assert page.status_code == 410 and page.headers["Cache-Control"] == "no-store"
    text_de = page.get_data(as_text=True)
    assert "<h1>Link ersetzt</h1>" in text_de and 'data-link-gone="link_replaced"' in text_de
    body = _gone_api(client, write, "link_replaced")
    assert body["error"]["params"] == {"link": "write"}
    # the phones with the new link, behind the same address, go on
    assert _poll(client, new, evening).status_code == 204
    assert client.get(f"/c/{new}/e/{evening['id']}", environ_base=ANNA).status_code == 200
    assert client.get(f"/c/{view}", environ_base=ANNA).status_code == 200

    # the onlookers' link too
    fresh_view = client.post(f"{API}/circle/view-token", headers=bearer(new)).get_json()["view_token"]
    for _ in range(POLLS):
        assert _poll(client, view, evening).status_code == 410
    assert "onlookers link was changed" in _gone_api(client, view, "link_replaced")["error"]["message"]
    assert _poll(client, fresh_view, evening).status_code == 204

    # a link that never opened anything still counts: the limit still stops guessing
    for _ in range(4):
        assert client.get(f"/c/{WRONG}", environ_base=ANNA).status_code == 404
    assert client.get(f"/c/{new}", environ_base=ANNA).status_code == 429


def test_a_hand_sent_to_a_replaced_link_is_repeated_not_lost(limited: Callable[..., Flask]) -> None:
    """Without script: the form posts to the old link; the page says the link was changed and
    repeats the typed hand in words; nothing is written."""
    client = limited(WTF_CSRF_ENABLED=True).test_client()
    write, _view = circle_tokens(client)
    evening = start_evening(client, write)
    slate = client.get(f"/c/{write}/e/{evening['id']}").get_data(as_text=True)
    new = client.post(f"{API}/circle/write-token", headers=bearer(write)).get_json()["write_token"]
    row = evening["slate"]["open_rows"][0][0]
    typed = {
        "csrf_token": csrf(slate),
        "declarer": "1",
        "row": row,
        "declarer_points": "100",
        "defender_points": "57",
        "match": "",
        "expected_version": str(evening["version"]),
        "request_id": "typed-on-the-old-link",
    }
    typed.pop("match")
    answer = client.post(f"/c/{write}/e/{evening['id']}/hands", data=typed, environ_base=ANNA)
    assert answer.status_code == 410
    page = answer.get_data(as_text=True)
    assert "write link was changed" in page and "What this phone sent" in page
    for shown in ("<dd>Beat</dd>", "<dd>100</dd>", "<dd>57</dd>"):
        assert shown in page, shown
    fresh = client.get(f"{API}/evenings/{evening['id']}", headers=bearer(new)).get_json()
    assert fresh["version"] == evening["version"]  # nothing written


def test_an_erased_circle_keeps_only_its_links_hashes(limited: Callable[..., Flask]) -> None:
    app = limited()
    client = app.test_client()
    write, view = circle_tokens(client)
    evening = start_evening(client, write)
    old = client.post(f"{API}/circle/write-token", headers=bearer(write)).get_json()["write_token"]
    write, old = old, write
    opened = client.post(f"{API}/evenings/{evening['id']}/table", json={}, headers=bearer(write))
    assert opened.status_code in (200, 201), opened.get_data(as_text=True)
    table_id = opened.get_json()["table"]["id"]
    seat = client.post(f"{API}/evenings/{evening['id']}/table/seats/0/token", headers=bearer(write)).get_json()
    erased = client.delete(f"{API}/circle", json={"name": "Donnschtig-Jass"}, headers=bearer(write))
    assert erased.status_code == 204

    for token in (write, view, old):
        for _ in range(POLLS // 3):
            answer = _poll(client, token, evening)
            assert answer.status_code == 410 and answer.headers["X-Link-Gone"] == "circle_deleted"
        assert "This circle was deleted" in _gone_api(client, token, "circle_deleted")["error"]["message"]
    for _ in range(POLLS // 3):  # the seat's phone: refused as before, not counted
        assert client.get(f"/t/{table_id}/poll?v=0", environ_base=ANNA, headers={"Cookie": ""}).status_code == 403
        assert client.post(f"{API}/tables/join", json={"token": seat["token"]}, environ_base=ANNA).status_code == 403

    # nothing of the circle is left but the hashes of its links
    with app.app_context():
        kept = db.session.execute(select(RetiredLink)).scalars().all()
        assert {(r.kind, r.reason, r.circle_id) for r in kept} == {
            ("write", "deleted", None),
            ("view", "deleted", None),
            ("seat", "deleted", None),
        }
        assert len(kept) == 4  # the write link, the one it replaced, the onlookers' link, the seat
        for table in ("circles", "players", "evenings", "entries", "seats", "digital_tables", "table_seats"):
            names = db.session.execute(text(f"SELECT * FROM {table}")).all()  # fixed names
            assert all("Donnschtig" not in str(r) and "Anna" not in str(r) for r in names), table
    # and the address is not locked out
    other, _view = circle_tokens(client, environ_base=ANNA)
    assert client.get(f"{API}/circle", headers=bearer(other), environ_base=ANNA).status_code == 200


def test_a_seat_handed_on_is_refused_without_counting(limited: Callable[..., Flask]) -> None:
    app = limited()
    client = app.test_client()
    write, _view = circle_tokens(client)
    evening = start_evening(client, write)
    table_id = client.post(f"{API}/evenings/{evening['id']}/table", json={}, headers=bearer(write)).get_json()
    table_id = table_id["table"]["id"]
    first = client.post(f"{API}/evenings/{evening['id']}/table/seats/2/token", headers=bearer(write)).get_json()
    joined = client.get(f"/s/{first['token']}", environ_base=ANNA)
    assert joined.status_code == 302
    with app.app_context():
        seats.issue_seat_token(tables.get_table(table_id), 2)  # the seat goes to another phone
    for _ in range(POLLS):  # the first phone's seat page polls on (its cookie)
        assert client.get(f"/t/{table_id}/poll?v=0", environ_base=ANNA).status_code == 403
    assert client.get(f"/c/{write}", environ_base=ANNA).status_code == 200


def test_requests_without_a_token_pass_a_used_up_limit(limited: Callable[..., Flask]) -> None:
    """DEPLOY.md: once an address used up its wrong tokens, what presents a token is refused;
    creating a circle, importing one, the variants and the OpenAPI document present none."""
    client = limited().test_client()
    write, _view = circle_tokens(client)
    exported = client.get(f"{API}/circle/export", headers=bearer(write))
    assert exported.status_code == 200
    for _ in range(4):
        assert client.get(f"{API}/circle", headers=bearer(WRONG), environ_base=ANNA).status_code == 404
    assert client.get(f"{API}/circle", headers=bearer(write), environ_base=ANNA).status_code == 429
    assert client.get(f"/c/{write}", environ_base=ANNA).status_code == 429
    assert client.post(f"{API}/tables/join", json={"token": WRONG}, environ_base=ANNA).status_code == 429

    assert client.post(f"{API}/circles", json={"name": "Neu"}, environ_base=ANNA).status_code == 201
    imported = client.post(
        f"{API}/circles/import", data=exported.data, environ_base=ANNA, content_type="application/json"
    )
    assert imported.status_code == 201, imported.get_data(as_text=True)
    assert client.get(f"{API}/variants", environ_base=ANNA).status_code == 200
    assert client.get(f"{API}/openapi.json", environ_base=ANNA).status_code == 200
    assert client.get(f"{API}/circle", environ_base=ANNA).status_code == 401  # no token: asked for one
    assert client.get(f"{API}/circle", headers=bearer(write), environ_base=ANNA).status_code == 429


def test_links_a_restored_backup_does_not_hold(app: Flask, tmp_path: Path) -> None:
    client = app.test_client()
    kept_write, _kept_view = circle_tokens(client)
    evening = start_evening(client, kept_write)
    backup = tmp_path / "jass.backup"
    runner = app.test_cli_runner()
    assert runner.invoke(args=["backup", str(backup)]).exit_code == 0
    later_write, later_view = circle_tokens(client)  # made after the backup
    rotated = client.post(f"{API}/circle/write-token", headers=bearer(kept_write)).get_json()["write_token"]

    done = runner.invoke(args=["restore", str(backup), "--yes"])
    assert done.exit_code == 0, done.output
    assert "3 links the backup does not hold are kept as retired" in done.output
    for token in (later_write, later_view, rotated):
        body = _gone_api(client, token, "link_not_in_backup")
        assert "restored from a backup" in body["error"]["message"]
    assert _poll(client, rotated, evening).status_code == 410
    # the backup's own link opens its circle again (the restore brought back the data as it was)
    assert client.get(f"{API}/circle", headers=bearer(kept_write)).status_code == 200


def test_the_api_documents_the_answer(app: Flask) -> None:
    document = app.test_client().get(f"{API}/openapi.json").get_json()
    circle = document["paths"][f"{API}/circle"]["get"]["responses"]
    assert "410" in circle and "link_replaced" in circle["410"]["description"]
    assert "410" not in document["paths"][f"{API}/circles"]["post"]["responses"]
