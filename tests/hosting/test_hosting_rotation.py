"""Replacing a circle's links: the write link (page, after a confirmation, and API) and the
onlookers link (page and API). The old link stops working at once for every worker and host:
two apps (two workers, or two hosts) share the database, one replaces, the other refuses the
old link on its very next request; so do two gunicorn workers whose fast polls had answered the old
link (on PostgreSQL from their kept copies: the new link is shown only once both dropped it).
Runs on SQLite, and on PostgreSQL with SCOREKEEPER_TEST_DB=postgres."""

from __future__ import annotations

import http.client
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hosting_helpers import API, bearer, circle_tokens, csrf, gunicorn, start_evening

WRITE_LINK = re.compile(r'id="write-link"[^>]*value="https?://[^/]+/c/([^"]+)"')
REMEMBERED = re.compile(r'data-remember [^>]*data-url="https?://[^/]+/c/([^"]+)"')


@pytest.fixture
def two_hosts(app_factory: Callable[..., Flask], db_url: str) -> tuple[FlaskClient, FlaskClient]:
    """Clients of two apps on the same database (as two gunicorn workers, or two hosts)."""
    return (
        app_factory(db_url, WTF_CSRF_ENABLED=True).test_client(),
        app_factory(db_url, WTF_CSRF_ENABLED=True).test_client(),
    )


def _can_write(client: FlaskClient, token: str) -> bool | None:
    """What the API says of a token: True (write), False (read-only), None (replaced: opens nothing)."""
    resp = client.get(f"{API}/circle", headers=bearer(token))
    if resp.status_code == 410:
        assert resp.get_json()["error"]["code"] == "link_replaced"
        return None
    assert resp.status_code == 200, resp.get_data(as_text=True)
    can_write: bool = resp.get_json()["can_write"]
    return can_write


def test_api_replaces_the_write_token_for_every_host(two_hosts: tuple[FlaskClient, FlaskClient]) -> None:
    one, two = two_hosts
    write, view = circle_tokens(one)
    evening = start_evening(one, write)
    assert _can_write(two, write) is True  # the other host has served the old token already

    resp = one.post(f"{API}/circle/write-token", headers=bearer(write))
    assert resp.status_code == 200 and resp.headers["Cache-Control"] == "no-store"
    new = resp.get_json()["write_token"]
    assert new != write and len(new) >= 43
    for client in (one, two):
        assert _can_write(client, write) is None  # at once, on both
        assert _can_write(client, new) is True
        assert _can_write(client, view) is False  # the onlookers keep their link
        refused = client.get(f"{API}/evenings/{evening['id']}", headers=bearer(write))
        assert refused.status_code == 410
        assert client.get(f"{API}/evenings/{evening['id']}", headers=bearer(new)).status_code == 200
    assert two.post(f"{API}/circle/write-token", headers=bearer(write)).status_code == 410

    # the onlookers token: replaced with the write token, never with itself
    assert two.post(f"{API}/circle/view-token", headers=bearer(view)).status_code == 403
    resp = two.post(f"{API}/circle/view-token", headers=bearer(new))
    assert resp.status_code == 200
    fresh_view = resp.get_json()["view_token"]
    assert _can_write(one, view) is None and _can_write(one, fresh_view) is False
    assert _can_write(one, new) is True  # the write token stays


def test_the_page_asks_first_then_shows_the_new_link_once(two_hosts: tuple[FlaskClient, FlaskClient]) -> None:
    one, two = two_hosts
    write, view = circle_tokens(one)
    circle_page = one.get(f"/c/{write}").get_data(as_text=True)
    assert f'href="/c/{write}/write-link"' in circle_page
    assert f"/c/{write}/write-link" not in one.get(f"/c/{view}").get_data(as_text=True)

    one.set_cookie("lang", "de")
    confirm = one.get(f"/c/{write}/write-link")
    assert confirm.status_code == 200
    text = confirm.get_data(as_text=True)
    assert "verliert den Zugang" in text  # every other phone loses access: said before
    assert 'id="write-link"' not in text  # asking shows no new link
    assert _can_write(two, write) is True  # asking changed nothing

    # without the form's CSRF token nothing changes; the onlookers link may not replace it
    assert one.post(f"/c/{write}/write-link", data={}).status_code == 400
    assert one.post(f"/c/{view}/write-link", data={"csrf_token": csrf(text)}).status_code == 403
    assert _can_write(two, write) is True

    done = one.post(f"/c/{write}/write-link", data={"csrf_token": csrf(text)})
    assert done.status_code == 200 and done.headers["Cache-Control"] == "no-store"
    page = done.get_data(as_text=True)
    found = WRITE_LINK.search(page)
    assert found is not None and 'data-copy="write-link"' in page
    new = found.group(1)
    assert new != write
    remembered = REMEMBERED.search(page)
    assert remembered is not None and remembered.group(1) == new  # this phone keeps the new link
    for client in (one, two):
        assert client.get(f"/c/{write}").status_code == 410
        assert client.get(f"/c/{new}").status_code == 200
        assert client.get(f"/c/{view}").status_code == 200


def test_the_operator_gives_a_circle_a_new_write_link(app_factory: Callable[..., Flask], db_url: str) -> None:
    """`flask new-write-link CIRCLE`: for players who lost theirs (or the answer that carried it)."""
    app = app_factory(db_url, PUBLIC_URL="https://jass.example.ch")
    client = app.test_client()
    write, view = circle_tokens(client)
    other, _view = circle_tokens(client)  # a second circle of the same name
    circle_id = client.get(f"{API}/circle", headers=bearer(write)).get_json()["circle"]["id"]
    runner = app.test_cli_runner()

    assert runner.invoke(args=["new-write-link", "Nobody"]).exit_code != 0
    several = runner.invoke(args=["new-write-link", "donnschtig-jass"])
    assert several.exit_code != 0 and circle_id in several.output  # ambiguous: the ids are listed
    asked = runner.invoke(args=["new-write-link", circle_id], input="n\n")
    assert asked.exit_code != 0 and _can_write(client, write) is True  # said no: nothing changed

    done = runner.invoke(args=["new-write-link", circle_id, "--yes"])
    assert done.exit_code == 0, done.output
    found = re.search(r"https://jass\.example\.ch/c/(\S+)", done.output)
    assert found is not None
    assert _can_write(client, write) is None and _can_write(client, found.group(1)) is True
    assert _can_write(client, view) is False and _can_write(client, other) is True  # nothing else changed


def _status(port: int, method: str, path: str, token: str | None = None) -> tuple[int, bytes]:
    """One request on a new connection (the kernel hands it to either worker)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, headers=bearer(token) if token else {})
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


@pytest.mark.slow
def test_no_worker_answers_the_old_link_once_the_new_one_is_shown(
    app_factory: Callable[..., Flask], db_url: str, tmp_path: Path
) -> None:
    client = app_factory(db_url).test_client()
    write, _view = circle_tokens(client)
    evening = start_evening(client, write)
    limits = {"LIMIT_WRONG_TOKENS": "100000 per minute"}
    with gunicorn(db_url, tmp_path, workers=2, **limits) as server:
        poll = f"/c/{{}}/e/{evening['id']}/version?v={evening['version']}"
        assert {_status(server.port, "GET", poll.format(write))[0] for _ in range(40)} == {204}  # kept
        status, body = _status(server.port, "POST", f"{API}/circle/write-token", write)
        assert status == 200, body
        new = json.loads(body)["write_token"]
        assert {_status(server.port, "GET", poll.format(write))[0] for _ in range(40)} == {410}
        assert {_status(server.port, "GET", poll.format(new))[0] for _ in range(10)} == {204}
