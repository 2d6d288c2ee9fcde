"""The version poll answered before the request cycle (scorekeeper/web/poll.py): the same answers
as the Flask view, in one statement, and every guarantee kept: a rotated link is refused at once on
every worker, the wrong-token limit refuses the right link too, a changed version or outlook setting
brings the fragment, and ProxyFix's client address is the one the limit counts.
Runs on SQLite, and on PostgreSQL with SCOREKEEPER_TEST_DB=postgres."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from hosting_helpers import API, bearer, circle_tokens, csrf, hand, start_evening
from sqlalchemy import event
from werkzeug.test import Client

from scorekeeper.extensions import db
from scorekeeper.services.read.stamp import Prepared
from scorekeeper.services.read.stamp_watch import Watched
from scorekeeper.services.store.tokens import hash_token
from scorekeeper.web.poll import FastPoll, release_of

ANNA = {"REMOTE_ADDR": "198.51.100.7"}
WRONG = "Z" * 43
COMPARED = ("X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy", "X-Robots-Tag", "Cache-Control")


@pytest.fixture
def limited(app_factory: Callable[..., Flask], db_url: str, storage: dict[str, str]) -> Callable[..., Flask]:
    def make(**config: Any) -> Flask:
        return app_factory(db_url, **storage, **config)

    return make


@contextmanager
def _statements(app: Flask) -> Iterator[list[str]]:
    """The queries the app sends in the block, on its engine and on the fast layer's (the
    transaction statements of SQLite's hooks left out), and the fast layer's prepared statement,
    which runs past SQLAlchemy's events."""
    seen: list[str] = []

    def note(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.split()[0].upper() not in ("BEGIN", "COMMIT", "ROLLBACK"):
            seen.append(statement)

    run, notify = Prepared.first, Watched._notify

    def prepared(self: Prepared, values: dict[str, Any]) -> Any:
        seen.append(self.sql)
        return run(self, values)

    def notified(self: Watched, payload: str) -> None:
        seen.append(f"NOTIFY {payload}")
        notify(self, payload)

    with app.app_context():
        engines = {id(e): e for e in (db.engine, _fast(app).engine)}.values()
    for engine in engines:
        event.listen(engine, "before_cursor_execute", note)
    Prepared.first = prepared  # type: ignore[method-assign]  # counting, put back below
    Watched._notify = notified  # type: ignore[method-assign]  # counting, put back below
    try:
        yield seen
    finally:
        Prepared.first = run  # type: ignore[method-assign]  # the real method back
        Watched._notify = notify  # type: ignore[method-assign]  # the real method back
        for engine in engines:
            event.remove(engine, "before_cursor_execute", note)


def _one_statement(app: Flask, seen: list[str]) -> None:
    """What a request that found the stamp unchanged sent: the one statement (on PostgreSQL, right
    after this process committed, also the sync that lets the next poll use the watched copy; once
    the copy is current, the statement once more and then nothing at all: ``_then_kept``)."""
    if isinstance(_fast(app).stamps, Watched):
        asked = [s for s in seen if s.startswith("NOTIFY")]
        assert len(asked) <= 1 and len(seen) == 1 + len(asked), seen
    else:
        assert len(seen) == 1, seen  # link -> circle -> evening version


def _then_kept(app: Flask, ask: Callable[[], int], status: int) -> None:
    """PostgreSQL: once the watched copy is current, an answer is kept (asked once more, then
    answered without a statement). SQLite keeps nothing (``_one_statement`` every time)."""
    stamps = _fast(app).stamps
    if not isinstance(stamps, Watched):
        return
    assert stamps.settle()
    assert ask() == status
    with _statements(app) as seen:
        assert ask() == status
    assert seen == []


def _fast(app: Flask) -> FastPoll:
    outer: Any = app.wsgi_app
    fast = outer if isinstance(outer, FastPoll) else outer.app
    assert isinstance(fast, FastPoll)
    return fast


def test_the_unchanged_poll_is_one_statement_with_the_flask_views_headers(
    app_factory: Callable[..., Flask], db_url: str
) -> None:
    app = app_factory(db_url)
    client = app.test_client()
    write, view = circle_tokens(client)
    ev = start_evening(client, write)
    poll = f"/c/{view}/e/{ev['id']}/version?v={ev['version']}&o=0"
    with _statements(app) as seen:
        fast = client.get(poll)
    assert fast.status_code == 204 and fast.data == b""
    _one_statement(app, seen)
    _then_kept(app, lambda: client.get(poll).status_code, 204)
    slow = Client(_fast(app).inner).get(poll)  # the Flask view behind it
    assert slow.status_code == 204
    for name in (*COMPARED, "Permissions-Policy", "Content-Security-Policy"):
        assert fast.headers.get(name) == slow.headers.get(name), name


def test_a_change_brings_the_fragment_and_unknown_links_are_404(app_factory: Callable[..., Flask], db_url: str) -> None:
    app = app_factory(db_url)
    client = app.test_client()
    write, view = circle_tokens(client)
    ev = start_evening(client, write)
    base = f"/c/{view}/e/{ev['id']}/version"
    v = ev["version"]
    assert client.get(f"{base}?v={v}&o=1").status_code == 200  # the outlook setting differs
    assert client.get(f"{base}?v=x").status_code == 200  # no version named: the fragment
    assert client.post(f"{API}/evenings/{ev['id']}/hands", json=hand(ev), headers=bearer(write)).status_code == 200
    changed = client.get(f"{base}?v={v}")
    assert changed.status_code == 200 and changed.text.lstrip().startswith('<div id="live"')
    assert client.get(f"{base}?v={v + 1}").status_code == 204
    assert client.get(f"/c/{WRONG}/e/{ev['id']}/version?v={v + 1}").status_code == 404
    assert client.get(f"/c/{view}/e/nope/version?v={v + 1}").status_code == 404
    other_write, _other_view = circle_tokens(client)  # a link of another circle opens not this evening
    assert client.get(f"/c/{other_write}/e/{ev['id']}/version?v={v + 1}").status_code == 404


def test_a_rotated_link_stops_at_once_on_every_worker(app_factory: Callable[..., Flask], db_url: str) -> None:
    one, two = app_factory(db_url).test_client(), app_factory(db_url).test_client()
    write, _view = circle_tokens(one)
    ev = start_evening(one, write)
    poll = f"/e/{ev['id']}/version?v={ev['version']}"
    assert two.get(f"/c/{write}{poll}").status_code == 204  # the other worker has answered the old link
    new = one.post(f"{API}/circle/write-token", headers=bearer(write)).get_json()["write_token"]
    for client in (one, two):
        assert client.get(f"/c/{write}{poll}").status_code == 410  # replaced: said so, not counted
        assert client.get(f"/c/{new}{poll}").status_code == 204


def test_the_wrong_token_limit_refuses_the_right_poll_too(limited: Callable[..., Flask]) -> None:
    app = limited(LIMIT_WRONG_TOKENS="2 per 10 minutes")
    client = app.test_client()
    write, _view = circle_tokens(client)
    ev = start_evening(client, write)
    poll = f"/c/{write}/e/{ev['id']}/version?v={ev['version']}"
    assert client.get(poll, environ_base=ANNA).status_code == 204
    for _ in range(2):
        assert client.get(f"/c/{WRONG}/e/{ev['id']}/version?v=0", environ_base=ANNA).status_code == 404
    refused = client.get(poll, environ_base=ANNA)
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert client.get(poll, environ_base={"REMOTE_ADDR": "198.51.100.8"}).status_code == 204  # another address


def test_behind_a_proxy_the_limit_counts_the_forwarded_address(limited: Callable[..., Flask]) -> None:
    app = limited(LIMIT_WRONG_TOKENS="1 per 10 minutes", PROXY_HOPS=1)
    client = app.test_client()
    write, _view = circle_tokens(client)
    ev = start_evening(client, write)
    poll = f"/c/{write}/e/{ev['id']}/version?v={ev['version']}"
    anna, beat = {"X-Forwarded-For": "203.0.113.1"}, {"X-Forwarded-For": "203.0.113.2"}
    assert client.get(f"/c/{WRONG}/e/{ev['id']}/version?v=0", headers=anna).status_code == 404
    assert client.get(poll, headers=anna).status_code == 429
    assert client.get(poll, headers=beat).status_code == 204


def _page(client: Any, path: str, **kw: Any) -> Any:
    resp = client.get(path, **kw)
    assert resp.status_code == 200, resp.status_code
    assert resp.headers["Cache-Control"] == "private, no-cache" and resp.headers.get("ETag")
    return resp


def test_an_unchanged_slate_page_is_304_and_a_change_of_any_part_is_a_full_page(
    app_factory: Callable[..., Flask], db_url: str
) -> None:
    app = app_factory(db_url, WTF_CSRF_ENABLED=True)
    client = app.test_client()
    write, view = circle_tokens(client)
    ev = start_evening(client, write)
    page = f"/c/{write}/e/{ev['id']}"
    first = _page(client, page)
    etag = first.headers["ETag"]
    with _statements(app) as seen:
        again = client.get(page, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == etag
    assert again.headers["Cache-Control"] == "private, no-cache"
    _one_statement(app, seen)
    _then_kept(app, lambda: client.get(page, headers={"If-None-Match": etag}).status_code, 304)
    for name in COMPARED[:-1]:
        assert again.headers.get(name) == first.headers.get(name), name
    # another language, another kind of link, another session: the full page
    assert client.get(page, headers={"If-None-Match": etag, "Accept-Language": "de-CH"}).status_code == 200
    assert client.get(f"/c/{view}/e/{ev['id']}", headers={"If-None-Match": etag}).status_code == 200
    assert app.test_client().get(page, headers={"If-None-Match": etag}).status_code == 200
    # compressed, the ETag names the encoding; still the same page
    packed = _page(client, page, headers={"Accept-Encoding": "gzip"})
    assert client.get(page, headers={"If-None-Match": packed.headers["ETag"]}).status_code == 304
    # a hand changes the version: the full page, with a new ETag
    assert client.post(f"{API}/evenings/{ev['id']}/hands", json=hand(ev), headers=bearer(write)).status_code == 200
    changed = _page(client, page, headers={"If-None-Match": etag})
    assert changed.headers["ETag"] != etag
    assert client.get(page, headers={"If-None-Match": changed.headers["ETag"]}).status_code == 304


def test_a_waiting_message_is_never_hidden_behind_a_304(app_factory: Callable[..., Flask], db_url: str) -> None:
    app = app_factory(db_url, WTF_CSRF_ENABLED=True)
    client = app.test_client()
    write, _view = circle_tokens(client)
    ev = start_evening(client, write)
    page = f"/c/{write}/e/{ev['id']}"
    first = _page(client, page)
    # a choice the form does not offer: nothing written, a message for the next page
    sent = client.post(f"{page}/outlook", data={"hidden": "2", "csrf_token": csrf(first.text)})
    assert sent.status_code == 302
    shown = client.get(page, headers={"If-None-Match": first.headers["ETag"]})
    assert shown.status_code == 200 and "nothing else can be chosen here" in shown.text
    # the page with the message is kept by nobody (no ETag, no-store): a 304 would show it again
    assert "ETag" not in shown.headers and shown.headers["Cache-Control"] == "no-store"
    after = client.get(page, headers={"If-None-Match": first.headers["ETag"]})
    assert after.status_code == 304 and after.headers["ETag"] == first.headers["ETag"]


def test_what_the_slate_page_shows_beside_the_version_changes_its_etag(
    app_factory: Callable[..., Flask], db_url: str
) -> None:
    """Opening, dealing at and closing a digital table, renaming a player (and undoing it), hiding the
    outlook: none bumps the evening's version, each changes the slate page. Asked again with the ETag
    it had, the page comes in full with the change (the first fast page answered 304 and hid an
    opened table); asked again unchanged it is a 304. The stamp of the fast statement, of the Flask
    poll and of the snapshot the page was drawn from agree after every change."""
    app = app_factory(db_url, WTF_CSRF_ENABLED=True)
    phone, other = app.test_client(), app.test_client()  # another phone changes; this one asks again
    write, _view = circle_tokens(phone)
    ev = start_evening(phone, write)
    page, api = f"/c/{write}/e/{ev['id']}", f"{API}/evenings/{ev['id']}"
    anna = next(p["id"] for p in phone.get(f"{API}/players", headers=bearer(write)).get_json()["players"])
    form = {"csrf_token": csrf(_page(other, page).text)}

    def api_post(path: str, body: dict[str, Any] | None = None) -> Any:
        resp = other.post(path, json=body or {}, headers=bearer(write))
        assert resp.status_code in (200, 201), resp.get_data(as_text=True)
        return resp.get_json()

    def deal_for_a_phone() -> None:
        api_post(f"{api}/table/seats/0/token")  # the slate page does not show who holds a seat
        assert phone.get(page, headers={"If-None-Match": shown.headers["ETag"]}).status_code == 304
        assert other.post(f"{page}/table/next", data=form).status_code == 302

    rename = {"kind": "rename", "player": anna, "name": "Annelies", "request_id": "hk-1"}
    steps: list[tuple[str, Callable[[], Any], str]] = [
        (
            "a table opened",
            lambda: api_post(f"{api}/table", {"computers": [1, 2, 3], "level": "easy"}),
            "Open the table",
        ),
        ("its hand finished", lambda: api_post(f"{api}/table/seats/0/computer?level=easy"), "Digital table (a hand"),
        ("the next hand dealt, seat 0 a phone again", deal_for_a_phone, "Open the table"),
        ("the table closed", lambda: other.post(f"{page}/table/close", data=form), "Deal digitally (play"),
        ("a player renamed", lambda: api_post(f"{API}/housekeeping", rename), "Annelies"),
        ("the rename undone", lambda: api_post(f"{API}/housekeeping", _undo(phone, write)), ">Anna<"),
        ("the outlook hidden", lambda: api_post(f"{api}/settings", {"outlook_hidden": True}), "outlook is hidden"),
    ]
    shown = _page(phone, page)
    for name, change, visible in steps:
        before = shown.headers["ETag"]
        assert phone.get(page, headers={"If-None-Match": before}).status_code == 304, name
        with _dropped_on_change(app, write, ev["id"], name):
            change()
        shown = phone.get(page, headers={"If-None-Match": before})
        assert shown.status_code == 200 and shown.headers["ETag"] != before, name
        assert visible in shown.text, name
        assert phone.get(page, headers={"If-None-Match": shown.headers["ETag"]}).status_code == 304, name
        _same_stamps(app, write, ev["id"], name)


@contextmanager
def _dropped_on_change(app: Flask, write: str, public_id: str, name: str) -> Iterator[None]:
    """PostgreSQL: the watched copy holds the evening's stamp before the change, and the change's
    own notification (not this process's commit) drops it."""
    stamps = _fast(app).stamps
    if not isinstance(stamps, Watched):
        yield
        return
    assert stamps.settle(), name
    stamps.by_link(write, public_id)
    key = (hash_token(write), public_id)
    assert key in stamps.entries, name
    yield
    assert stamps.settle(), name
    assert key not in stamps.entries, name


def _undo(client: Any, write: str) -> dict[str, Any]:
    changes = client.get(f"{API}/housekeeping", headers=bearer(write)).get_json()["changes"]
    return {"kind": "undo", "undoes": changes[0]["seq"], "request_id": "hk-2"}


def _same_stamps(app: Flask, write: str, public_id: str, name: str) -> None:
    from scorekeeper.services import circles, evenings
    from scorekeeper.services.read import stamp
    from scorekeeper.services.read.snapshot import load_snapshot

    with app.app_context():
        fast = stamp.by_link(_fast(app).engine, write, public_id)
        circle, _w = circles.open_circle(write)
        drawn = stamp.stamp_of(load_snapshot(evenings.get_evening(circle, public_id)))
        assert fast == (drawn, True), name
        stamps = _fast(app).stamps
        if isinstance(stamps, Watched):
            assert stamps.settle()
        assert stamps.by_link(write, public_id) == stamps.by_link(write, public_id) == (drawn, True), name
        assert stamp.poll_state(circle, public_id) == drawn, name
        db.session.remove()


def test_a_renamed_player_brings_the_live_fragment(app_factory: Callable[..., Flask], db_url: str) -> None:
    """The fragment shows the names: its poll names the housekeeping it was drawn with (``n``), and a
    rename on another phone brings the fresh fragment (a page from before ``n`` still gets its 204)."""
    app = app_factory(db_url)
    client = app.test_client()
    write, view = circle_tokens(client)
    ev = start_evening(client, write)
    page = client.get(f"/c/{view}/e/{ev['id']}").text
    poll = re.search(r'hx-get="([^"]+)"', page)
    assert poll is not None and "n=0" in poll.group(1)
    url = poll.group(1).replace("&amp;", "&")
    assert client.get(url).status_code == 204
    anna = next(p["id"] for p in client.get(f"{API}/players", headers=bearer(write)).get_json()["players"])
    body = {"kind": "rename", "player": anna, "name": "Annelies", "request_id": "hk-1"}
    assert client.post(f"{API}/housekeeping", json=body, headers=bearer(write)).status_code == 201
    fresh = client.get(url)
    assert fresh.status_code == 200 and "Annelies" in fresh.text and "n=1" in fresh.text
    assert Client(_fast(app).inner).get(url).status_code == 200  # the Flask view agrees
    assert client.get(url.replace("n=0", "n=1")).status_code == 204
    assert client.get(url.replace("&n=0", "")).status_code == 204  # an older page: version and setting


def test_the_release_names_the_settings_a_page_is_written_with(app_factory: Callable[..., Flask], db_url: str) -> None:
    """Two workers of one install give a page the same ETag; a page drawn in another time zone (or
    language default, or with other links) is not the same page, so the release differs."""
    one, two = app_factory(db_url), app_factory(db_url)
    other = app_factory(db_url, BABEL_DEFAULT_TIMEZONE="America/New_York")
    assert release_of(one) == release_of(two) != release_of(other)
    client = one.test_client()
    write, _view = circle_tokens(client)
    ev = start_evening(client, write)
    etag = _page(client, f"/c/{write}/e/{ev['id']}").headers["ETag"]
    cookie = client.get_cookie("session")
    assert cookie is not None
    for app, status in ((two, 304), (other, 200)):
        again = app.test_client()
        again.set_cookie("session", cookie.value)
        assert again.get(f"/c/{write}/e/{ev['id']}", headers={"If-None-Match": etag}).status_code == status


def test_a_connection_that_fails_the_fast_statement_leaves_the_pool(
    app_factory: Callable[..., Flask], db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fast statement runs on a pooled DBAPI connection past SQLAlchemy's execution layer: one
    that fails (the server dropped it) is invalidated, the poll takes the full path, and the next
    poll has a fresh connection."""
    app = app_factory(db_url)
    client = app.test_client()
    write, _view = circle_tokens(client)
    ev = start_evening(client, write)
    poll = f"/c/{write}/e/{ev['id']}/version?v={ev['version']}"
    engine = _fast(app).engine
    invalidated: list[object] = []
    event.listen(engine, "invalidate", lambda *args: invalidated.append(args))
    raw = engine.raw_connection

    def broken() -> Any:
        conn = raw()
        monkeypatch.setattr(engine, "raw_connection", raw)  # once

        def cursor() -> Any:
            raise OSError("server closed the connection")

        monkeypatch.setattr(conn, "cursor", cursor, raising=False)
        return conn

    monkeypatch.setattr(engine, "raw_connection", broken)
    assert client.get(poll).status_code == 204  # the full path answered it
    assert invalidated
    with _statements(app) as seen:
        assert client.get(poll).status_code == 204
    assert len(seen) == 1, seen  # the fast path again, on a fresh connection
