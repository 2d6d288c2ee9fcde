"""Every GET of every page and API route leaves the database as it was (issue 22, point 3).

The routes come from ``app.url_map``: a route added later is requested too, and the test
fails when it cannot give the route's parameters real values (``VALUES`` learns them).
The circle behind them holds an evening in every state: open with hands, one whose outlook
was never computed, complete, ended early, deleted as a test, and one with a digital table
in the middle of a hand where computers are to move and a human seat nobody opened yet.
The derived copies (forecasts, outcomes, rating runs) are dropped before the walk, as on a
database that never had them. After each request the row counts and a hash of every table
must be what they were before: taken again after every request that sent the database
anything but a read (every statement passes an engine, where a listener sees it), and once
more at the end of the walk, which must find the database as it was at the start. On
PostgreSQL with ``SCOREKEEPER_TEST_DB=postgres``.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from shared_helpers import rid
from sqlalchemy import delete, event, select
from sqlalchemy.engine import Engine

from scorekeeper.extensions import db
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.history.ratings import Ladder
from scorekeeper.models import EveningOutcome, OutlookForecast, Player, RatingRun
from scorekeeper.scoring.slate import Slate
from scorekeeper.services import circles, evenings, housekeeping, picture_links, seats
from scorekeeper.services import digital_table as tables
from scorekeeper.services.read import memory, outlook


@pytest.fixture
def app_config() -> dict[str, Any]:
    return {"TABLE_COMPUTER_LEVEL": "easy"}


def _hand(slate: Slate, turn: int) -> HandEntry:
    rs = slate.ruleset
    open_sides = [s for s in range(rs.n_sides) if slate.open_rows(s)]
    side = open_sides[turn % len(open_sides)]
    seat = rs.seats_of(side)[turn % len(rs.seats_of(side))]
    row = rs.row(slate.open_rows(side)[0])
    contract = None
    if row.is_choice:
        contract = row.contracts[turn % len(row.contracts)]
    points = (turn * 37 + 11) % 158
    return HandEntry(row.key, seat, contract, points, 157 - points)


def _play(ev: Any, count: int | None) -> None:
    for turn in itertools.count():
        if count is not None and turn >= count:
            return
        slate = evenings.load_slate(ev)
        if slate.complete:
            return
        evenings.record_hand(ev, _hand(slate, turn), expected_version=ev.version, request_id=rid("hand"))


@dataclass
class Circle:
    """The real values of the routes' parameters."""

    write: str
    view: str
    evening_ids: list[str]
    table_id: str
    seat_token: str  # a human seat at the table, opened by nobody yet
    player_ids: list[int]
    picture_key: str


def _build(app: Flask) -> Circle:
    with app.app_context():
        circle, write, view = circles.create_circle("Donnschtig-Jass")
        names = ["Anna", "Beat", "Cla", "Dora"]

        def start(variant: Variant) -> Any:
            rs = default_ruleset(variant)
            return evenings.start_evening(
                circle, ruleset=rs, player_names=names[: rs.n_players], first_dealer=0, request_id=rid("start")
            )

        playing = start(Variant.THREE)
        _play(playing, 3)
        never = start(Variant.SOLO4)  # hands, and no outlook computed for them (dropped below)
        _play(never, 2)
        full = start(Variant.THREE)
        _play(full, None)
        early = start(Variant.TEAMS)
        _play(early, 2)
        evenings.end_evening(early, early=True, expected_version=early.version, request_id=rid("end"))
        deleted = start(Variant.THREE)
        _play(deleted, 1)
        housekeeping.delete_evening(circle, deleted.public_id, request_id=rid("delete"))
        empty = start(Variant.THREE)
        digital = start(Variant.TEAMS)
        _play(digital, 1)
        # a table in the middle of a hand: the computers are to move (given their seats without
        # being played, as a worker stopped between the write and the moves would leave it)
        table = tables.open_table(digital)
        st = tables.load(table)
        mover = st.to_move()
        assert mover is not None and mover != 0
        for seat in {mover, (mover + 1) % 4} - {0}:  # two computers in a row
            seats.set_computer(table, seat, "easy")
        seats.issue_seat_token(table, 0)  # a phone held it once: the old token is retired
        seat_token = seats.issue_seat_token(table, 0)
        assert tables.load(table).to_move() in tables.load(table).computers
        table_id = table.public_id
        ids = [e.public_id for e in (playing, never, full, early, deleted, empty, digital)]
        key = picture_links.picture_key(app.config["SECRET_KEY"], circle, playing.public_id)
        players = list(db.session.execute(select(Player.id).where(Player.circle_id == circle.id)).scalars())
        # the derived copies: never stored, as on a database from before them
        for model in (OutlookForecast, EveningOutcome, RatingRun):
            db.session.execute(delete(model))
        db.session.commit()
        memory.forget()
        outlook.forget()
        db.session.remove()
        return Circle(write, view, ids, table_id, seat_token, players, key)


def _fingerprint(app: Flask) -> dict[str, tuple[int, str]]:
    """Every table: its row count and a hash of its rows in primary key order."""
    out: dict[str, tuple[int, str]] = {}
    with app.app_context(), db.engine.connect() as conn:
        for t in db.metadata.sorted_tables:
            order = list(t.primary_key.columns) or list(t.columns)
            rows = conn.execute(select(t).order_by(*order)).all()
            digest = hashlib.sha256(repr([tuple(r) for r in rows]).encode()).hexdigest()
            out[t.name] = (len(rows), digest)
    return out


READS = ("SELECT", "WITH", "PRAGMA", "BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE", "SHOW", "SET")


@contextmanager
def _statements() -> Iterator[list[str]]:
    """The statements sent to any database while in the block that are not plain reads."""
    seen: list[str] = []

    def note(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if not statement.lstrip().upper().startswith(READS):
            seen.append(statement)

    event.listen(Engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(Engine, "before_cursor_execute", note)


def _values(c: Circle, endpoint: str, arg: str) -> list[str]:
    if (endpoint, arg) == ("picture.shared_png", "token"):
        return [c.picture_key, c.view]
    found = {
        "token": [c.write, c.view],
        "evening_id": c.evening_ids,
        "table_id": [c.table_id],
        "seat_token": [c.seat_token],
        "player_id": [str(p) for p in c.player_ids],
        "index": ["0", "1"],
        "name": ["money", "contracts", *(f"rating-{ladder.value}" for ladder in Ladder)],
        "code": ["de_CH", "en"],
        "filename": ["css/app.css"],
    }.get(arg)
    if found is None:
        raise AssertionError(f"no real value for the route parameter {arg!r}: teach the test one")
    return found


def _queries(c: Circle, endpoint: str) -> list[str]:
    base = ["", "?v=0", "?v=99999"]
    if endpoint == "housekeeping.confirm":
        return [
            "",
            f"?kind=delete_evening&evening={c.evening_ids[0]}",
            f"?kind=rename&player={c.player_ids[0]}&name=Anni",
            f"?kind=merge&player={c.player_ids[0]}&into={c.player_ids[1]}",
        ]
    if endpoint.startswith("memory.chart"):
        return ["", f"?player={c.player_ids[0]}", "?season=2026"]
    if endpoint == "circles.start":
        return [f"?variant={v.value}" for v in Variant]
    return base


def _requests(app: Flask, c: Circle) -> Iterator[tuple[str, str, dict[str, str], str | None]]:
    """(endpoint, url, headers, seat cookie) of every GET route with every real parameter."""
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        if "GET" not in (rule.methods or ()):
            continue
        args = sorted(rule.arguments)
        pools = [_values(c, rule.endpoint, a) for a in args]
        for combo in itertools.product(*pools):
            with app.test_request_context():
                path = app.url_map.bind("localhost").build(rule.endpoint, dict(zip(args, combo, strict=True)))
            for query in _queries(c, rule.endpoint):
                url = path + query
                if rule.rule.startswith("/api/"):
                    for token in (c.write, c.view, c.seat_token):
                        yield rule.endpoint, url, {"Authorization": f"Bearer {token}", "X-Seat-Token": token}, None
                elif rule.rule.startswith("/t/"):
                    yield rule.endpoint, url, {}, c.seat_token
                    yield rule.endpoint, url, {"HX-Request": "true"}, c.seat_token
                else:
                    yield rule.endpoint, url, {}, None
                    yield rule.endpoint, url, {"HX-Request": "true"}, None


def test_no_get_of_any_route_changes_the_database(app: Flask) -> None:
    c = _build(app)
    start = before = _fingerprint(app)
    answered: dict[str, set[int]] = {}
    writes: list[str] = []
    for endpoint, url, headers, cookie in _requests(app, c):
        client = app.test_client()
        if cookie is not None:
            client.set_cookie("sk_seat", cookie, path=f"/t/{c.table_id}")
        with _statements() as sent:
            status = client.get(url, headers=headers).status_code
        answered.setdefault(endpoint, set()).add(status)
        if not sent:
            continue
        after = _fingerprint(app)
        changed = sorted(name for name in before if before[name] != after[name])
        if changed:  # noted, and the walk goes on from there: the message names every offender
            writes.append(f"GET {url} ({endpoint}, {status}) changed {changed}")
            before = after
    assert not writes, "\n".join(writes)
    assert _fingerprint(app) == start, "the walk changed the database past the statements' listener"
    gets = {r.endpoint for r in app.url_map.iter_rules() if "GET" in (r.methods or ())}
    assert set(answered) == gets
    # every route was really reached: at least one of its requests was answered, not refused
    unreached = sorted(e for e, statuses in answered.items() if not any(s < 400 for s in statuses))
    assert not unreached, f"never answered with real parameters: {unreached}"
    # the table still waits for its computers: nothing was played by a read
    with app.app_context():
        st = tables.load(tables.get_table(c.table_id))
        assert st.to_move() in st.computers
