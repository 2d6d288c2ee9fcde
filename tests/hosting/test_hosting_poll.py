"""The version poll answered before the request cycle (scorekeeper/web/poll.py): the same answers
as the Flask view, in one statement, and every guarantee kept: a rotated link is refused at once on
every worker, the wrong-token limit refuses the right link too, a changed version or outlook setting
brings the fragment, and ProxyFix's client address is the one the limit counts.
Runs on SQLite, and on PostgreSQL with SCOREKEEPER_TEST_DB=postgres."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import event
from werkzeug.test import Client

from scorekeeper.extensions import db
from scorekeeper.web.poll import FastPoll

from .hosting_helpers import API, bearer, circle_tokens, csrf, hand, start_evening

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
    """The queries the app sends in the block, on its engine and on the fast layer's
    (the transaction statements of SQLite's hooks left out)."""
    seen: list[str] = []

    def note(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.split()[0].upper() not in ("BEGIN", "COMMIT", "ROLLBACK"):
            seen.append(statement)

    with app.app_context():
        engines = {id(e): e for e in (db.engine, _fast(app).engine)}.values()
    for engine in engines:
        event.listen(engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        for engine in engines:
            event.remove(engine, "before_cursor_execute", note)


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
    assert len(seen) == 1, seen  # link -> circle -> evening version
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
        assert client.get(f"/c/{write}{poll}").status_code == 404
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
    assert len(seen) == 1, seen
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
    assert client.get(page, headers={"If-None-Match": shown.headers["ETag"]}).status_code == 304
