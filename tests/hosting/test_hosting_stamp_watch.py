"""The watched copy of the fast poll's stamps on PostgreSQL (scorekeeper/services/read/stamp_watch.py):
kept answers cost no statement, and every guarantee of the one statement holds: a change made
anywhere (another host, with no commit of this process) drops the entry once its notification is
heard, a lost listener means no kept answers until a new one listens, a read racing a change is
not kept, a restore starts every copy over, and the triggers cover every column the statement
reads. PostgreSQL only (SCOREKEEPER_TEST_DB=postgres); on SQLite the statement runs in process and
nothing is kept (the first test says so)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest
from flask import Flask
from hosting_helpers import API, bearer, circle_tokens, hand, start_evening
from sqlalchemy import Column, make_url
from sqlalchemy.sql import visitors

from scorekeeper.services.read import stamp, stamp_watch
from scorekeeper.services.read.stamp_watch import Direct, Watched
from scorekeeper.services.store.tokens import hash_token
from scorekeeper.web.poll import FastPoll


def _stamps(app: Flask) -> Any:
    fast = app.extensions["scorekeeper.fast_poll"]
    assert isinstance(fast, FastPoll)
    return fast.stamps


@pytest.fixture
def watched(app_factory: Callable[..., Flask], db_url: str, db_backend: str) -> Iterator[tuple[Flask, Watched]]:
    if db_backend != "postgresql":
        pytest.skip("PostgreSQL's notifications (SQLite keeps nothing: test_sqlite_reads_every_time)")
    app = app_factory(db_url)
    stamps = _stamps(app)
    assert isinstance(stamps, Watched)
    yield app, stamps


@pytest.fixture
def raw(db_url: str) -> Iterator[psycopg.Connection[Any]]:
    """A connection of its own: another host's change (no commit of this process)."""
    with psycopg.connect(make_url(db_url).set(drivername="postgresql").render_as_string(False), autocommit=True) as c:
        yield c


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    real = stamp.link_row

    def counted(engine: Any, token: str, public_id: str) -> Any:
        seen.append(public_id)
        return real(engine, token, public_id)

    monkeypatch.setattr(stamp_watch, "link_row", counted)
    return seen


def _evening(app: Flask) -> tuple[Any, str, dict[str, Any]]:
    client = app.test_client()
    write, _view = circle_tokens(client)
    return client, write, start_evening(client, write)


def test_sqlite_reads_every_time(app_factory: Callable[..., Flask], db_url: str, db_backend: str) -> None:
    stamps = _stamps(app_factory(db_url))
    assert isinstance(stamps, Direct if db_backend == "sqlite" else Watched)


def test_a_kept_answer_costs_no_statement(watched: tuple[Flask, Watched], monkeypatch: pytest.MonkeyPatch) -> None:
    app, stamps = watched
    client, write, ev = _evening(app)
    assert stamps.settle()  # listening, and caught up with this process's commits
    reads = _reads(monkeypatch)
    first = stamps.by_link(write, ev["id"])
    assert [stamps.by_link(write, ev["id"]) for _ in range(5)] == [first] * 5
    assert reads == [ev["id"]]
    assert stamps.by_link("Z" * 43, ev["id"]) is None  # unknown links are read (and not kept) every time
    assert stamps.by_link("Z" * 43, ev["id"]) is None
    assert reads == [ev["id"], ev["id"], ev["id"]]
    # a hand recorded by this process: the next lookup reads it at once, not the kept one
    assert client.post(f"{API}/evenings/{ev['id']}/hands", json=hand(ev), headers=bearer(write)).status_code == 200
    found = stamps.by_link(write, ev["id"])
    assert found is not None and found[0].version == ev["version"] + 1


def test_another_hosts_rotation_and_hand_drop_the_entry(watched: tuple[Flask, Watched], raw: Any) -> None:
    app, stamps = watched
    _client, write, ev = _evening(app)
    stamps.by_link(write, ev["id"])
    assert stamps.settle()
    assert stamps.by_link(write, ev["id"]) is not None and (hash_token(write), ev["id"]) in stamps.entries
    raw.execute("UPDATE evenings SET version = version + 1 WHERE public_id = %s", (ev["id"],))
    assert stamps.settle()
    found = stamps.by_link(write, ev["id"])
    assert found is not None and found[0].version == ev["version"] + 1
    raw.execute("UPDATE circles SET write_token_hash = %s WHERE write_token_hash = %s", ("0" * 64, hash_token(write)))
    started = time.monotonic()
    while stamps.by_link(write, ev["id"]) is not None:  # refused once the notification is heard
        assert time.monotonic() - started < 2.0
        time.sleep(0.001)
    assert stamps.by_link(write, ev["id"]) is None


def test_a_lost_listener_keeps_nothing_until_a_new_one_listens(
    watched: tuple[Flask, Watched], raw: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    app, stamps = watched
    _client, write, ev = _evening(app)
    stamps.by_link(write, ev["id"])
    assert stamps.settle()
    stamps.by_link(write, ev["id"])
    lost = stamps.listener_pid
    assert lost is not None and stamps.entries
    monkeypatch.setattr(stamp_watch, "RETRY_S", (0.3,))
    raw.execute("SELECT pg_terminate_backend(%s)", (lost,))
    started = time.monotonic()
    while stamps.listener_pid == lost:  # the listener notices (its socket closed; at worst no beat for LIVE_S)
        assert time.monotonic() - started < stamp_watch.LIVE_S + 1
        time.sleep(0.001)
    assert not stamps.entries
    # while nobody listens, a change made elsewhere is not heard: the copy must not answer
    raw.execute("UPDATE evenings SET version = version + 1 WHERE public_id = %s", (ev["id"],))
    reads = _reads(monkeypatch)
    found = stamps.by_link(write, ev["id"])
    assert found is not None and found[0].version == ev["version"] + 1, "a kept answer from before the loss"
    assert reads == [ev["id"]]
    assert stamps.settle() and stamps.listener_pid not in (None, lost)
    stamps.by_link(write, ev["id"])
    assert stamps.by_link(write, ev["id"]) == found and len(reads) == 2  # kept again


def test_a_read_racing_a_change_is_not_kept(
    watched: tuple[Flask, Watched], raw: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    app, stamps = watched
    _client, write, ev = _evening(app)
    assert stamps.settle()
    real = stamp.link_row

    def read_then_change(engine: Any, token: str, public_id: str) -> Any:
        row = real(engine, token, public_id)  # the old version, read before the change commits
        raw.execute("UPDATE evenings SET version = version + 1 WHERE public_id = %s", (public_id,))
        assert stamps.settle()  # its notification heard before the row is kept
        return row

    monkeypatch.setattr(stamp_watch, "link_row", read_then_change)
    old = stamps.by_link(write, ev["id"])
    assert old is not None and old[0].version == ev["version"]
    monkeypatch.setattr(stamp_watch, "link_row", real)
    assert (hash_token(write), ev["id"]) not in stamps.entries
    fresh = stamps.by_link(write, ev["id"])
    assert fresh is not None and fresh[0].version == ev["version"] + 1


def test_a_restore_starts_every_copy_over(watched: tuple[Flask, Watched]) -> None:
    app, stamps = watched
    _client, write, ev = _evening(app)
    stamps.by_link(write, ev["id"])
    assert stamps.settle()
    stamps.by_link(write, ev["id"])
    assert stamps.entries
    stamp_watch.forget_everywhere(stamps.engine)
    assert stamps.settle() and not stamps.entries


def test_an_old_entry_or_a_silent_listener_is_read_again(
    watched: tuple[Flask, Watched], monkeypatch: pytest.MonkeyPatch
) -> None:
    app, stamps = watched
    _client, write, ev = _evening(app)
    assert stamps.settle()
    stamps.by_link(write, ev["id"])  # kept
    reads = _reads(monkeypatch)
    stamps.by_link(write, ev["id"])
    assert reads == []
    monkeypatch.setattr(stamp_watch, "MAX_AGE_S", 0.0)
    stamps.by_link(write, ev["id"])
    assert len(reads) == 1
    monkeypatch.setattr(stamp_watch, "MAX_AGE_S", 60.0)
    stamps.close()  # no more beats: the copy stops answering once the last one is LIVE_S old
    assert stamps.thread is not None and not stamps.thread.is_alive()
    stamps.live_until = 0.0
    stamps.by_link(write, ev["id"])
    stamps.by_link(write, ev["id"])
    assert len(reads) == 3


def test_the_triggers_cover_every_column_the_statement_reads(watched: tuple[Flask, Watched], raw: Any) -> None:
    """Every (table, column) the fast statement reads, but primary keys, is one whose UPDATE fires
    the notification; every table it reads notifies on INSERT, DELETE and TRUNCATE."""
    read = {
        (c.table.name, c.name) for c in visitors.iterate(stamp._BY_LINK) if isinstance(c, Column) and not c.primary_key
    }
    tables = {t for t, _c in read}
    assert tables == {"circles", "evenings", "digital_tables", "table_hands", "housekeeping"}
    fired = set(
        raw.execute(
            "SELECT event_object_table, event_object_column FROM information_schema.triggered_update_columns "
            "WHERE trigger_name = 'scorekeeper_stamp'"
        ).fetchall()
    )
    assert read <= fired, read - fired
    events = set(
        raw.execute(
            "SELECT event_object_table, event_manipulation FROM information_schema.triggers "
            "WHERE trigger_name = 'scorekeeper_stamp'"
        ).fetchall()
    )
    assert {(t, e) for t in tables for e in ("INSERT", "DELETE", "UPDATE")} <= events
    truncated = {
        r[0]
        for r in raw.execute(
            "SELECT tgrelid::regclass::text FROM pg_trigger WHERE tgname = 'scorekeeper_stamps_flushed'"
        )
    }
    assert truncated == tables


@pytest.fixture
def peers(
    watched: tuple[Flask, Watched], app_factory: Callable[..., Flask], db_url: str
) -> tuple[Flask, Watched, Watched]:
    """Two copies on one database, as two workers or hosts: ``asker`` changes a link, ``peer`` kept it."""
    app, asker = watched
    peer = _stamps(app_factory(db_url))
    assert isinstance(peer, Watched)
    return app, asker, peer


def _heard_beating(asker: Watched, peer: Watched) -> None:
    """The asker has heard the peer beat, and listened long enough to know every copy that may answer."""
    started = time.monotonic()
    while peer.name not in asker.peers or time.monotonic() - asker.listening_since < stamp_watch.LIVE_S:
        assert time.monotonic() - started < 5.0
        time.sleep(0.01)


def _kept_by_peer(peers: tuple[Flask, Watched, Watched]) -> tuple[str, dict[str, Any]]:
    """An evening whose link the peer keeps, the asker knowing the peer: (write link, evening)."""
    app, asker, peer = peers
    _client, write, ev = _evening(app)
    assert asker.settle() and peer.settle()
    peer.by_link(write, ev["id"])
    assert peer.by_link(write, ev["id"]) is not None and (hash_token(write), ev["id"]) in peer.entries
    _heard_beating(asker, peer)
    return write, ev


def _hearing_slowly(peer: Watched, monkeypatch: pytest.MonkeyPatch, hold: Callable[[], object]) -> None:
    """The peer's listener takes its time over every change it hears (a busy or stuck worker)."""
    real = peer._heard

    def slow(payload: str) -> None:
        if payload.startswith("c:"):
            hold()
        real(payload)

    monkeypatch.setattr(peer, "_heard", slow)


def test_a_changed_link_is_answered_once_every_copy_dropped_it(
    peers: tuple[Flask, Watched, Watched], raw: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    _app, asker, peer = peers
    write, ev = _kept_by_peer(peers)
    _hearing_slowly(peer, monkeypatch, lambda: time.sleep(0.3))
    raw.execute("UPDATE circles SET write_token_hash = %s WHERE write_token_hash = %s", ("0" * 64, hash_token(write)))
    started = time.monotonic()
    assert asker.reach(started + stamp_watch.LIVE_S)  # every copy acknowledged ...
    took = time.monotonic() - started
    assert (hash_token(write), ev["id"]) not in peer.entries  # ... after dropping the entry
    assert peer.by_link(write, ev["id"]) is None
    assert 0.3 <= took < stamp_watch.LIVE_S, took  # it waited for the slow one, not the bound
    assert not asker.waiting


def test_a_stuck_copy_has_stopped_answering_by_the_bound(
    peers: tuple[Flask, Watched, Watched], raw: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    _app, asker, peer = peers
    write, ev = _kept_by_peer(peers)
    released = threading.Event()
    _hearing_slowly(peer, monkeypatch, lambda: released.wait(10))
    try:
        raw.execute("UPDATE evenings SET version = version + 1 WHERE public_id = %s", (ev["id"],))
        started = time.monotonic()
        stamp_watch.honour_everywhere(asker.engine)  # the peer never acknowledges: the bound
        took = time.monotonic() - started
        assert stamp_watch.LIVE_S - 0.1 <= took < stamp_watch.LIVE_S + 0.5, took
        assert (hash_token(write), ev["id"]) in peer.entries  # still kept, but no longer answered:
        reads = _reads(monkeypatch)
        found = peer.by_link(write, ev["id"])
        assert found is not None and found[0].version == ev["version"] + 1 and reads == [ev["id"]]
    finally:
        released.set()


def test_a_closed_copy_is_not_waited_for(peers: tuple[Flask, Watched, Watched]) -> None:
    _app, asker, peer = peers
    assert asker.settle() and peer.settle()
    _heard_beating(asker, peer)
    peer.close()
    started = time.monotonic()
    while peer.name in asker.peers:  # its goodbye heard
        assert time.monotonic() - started < 2.0
        time.sleep(0.005)
    assert asker.reach(time.monotonic() + stamp_watch.LIVE_S)
    assert time.monotonic() - started < stamp_watch.LIVE_S
