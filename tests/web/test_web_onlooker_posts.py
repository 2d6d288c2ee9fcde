"""Every POST route of the pages, sent with the onlookers' link: 403, and nothing changed.

The link is checked before anything else (issue 21.5: ``POST /c/<view>/e/<id>/end`` with
``early=1`` and no answer to "does it count in the money" flashed a message and answered 302;
the purse's posts read, and stored, the circle's memory before refusing). Each post carries a
valid CSRF token and a body a writer's phone would send. A route added later without a line
here fails ``test_every_post_route_is_checked``.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from shared_helpers import counted, hidden, rid
from sqlalchemy import select
from web_helpers import create_circle, fill_evening, start_evening

from scorekeeper.extensions import db
from scorekeeper.game.rulesets import Variant
from scorekeeper.models import DigitalTable

# The POST routes a circle's link opens, and the body sent to each ({v}: the evening's version).
ONLOOKER_POSTS: dict[str, dict[str, str]] = {
    "/c/<token>/view-link": {},
    "/c/<token>/write-link": {},
    "/c/<token>/players": {"name": "Eve"},
    "/c/<token>/start": {"variant": "three", "seat_0": "A", "seat_1": "B", "seat_2": "C", "first_dealer": "0"},
    "/c/<token>/delete/confirm": {"name": "Donnschtig-Jass"},
    "/c/<token>/housekeeping": {"kind": "rename", "player": "Anna", "new_name": "Anni"},
    "/c/<token>/purse/settlements": {"payer": "1", "payee": "2", "amount": "5.00", "paid_on": "2026-01-02"},
    "/c/<token>/purse/void": {"supersedes": "1"},
    "/c/<token>/paper": {"variant": "three"},
    "/c/<token>/start/own": {"step": "start", "seat_0": "A", "seat_1": "B", "seat_2": "C"},
    "/c/<token>/e/<evening_id>/outlook": {"hidden": "1"},
    "/c/<token>/e/<evening_id>/hands": {"row_key": "acorns", "declarer_seat": "0", "declarer_points": "100"},
    "/c/<token>/e/<evening_id>/entries/<int:index>": {"row_key": "acorns", "declarer_seat": "0"},
    "/c/<token>/e/<evening_id>/undo": {},
    "/c/<token>/e/<evening_id>/end": {"early": "1"},  # the post: no counts_in_money
    "/c/<token>/e/<evening_id>/cuts/draw": {},
    "/c/<token>/e/<evening_id>/cuts": {"row_key": "acorns", "end": "0", "winner": "0"},
    "/c/<token>/e/<evening_id>/reopen": {},
    "/c/<token>/e/<evening_id>/again": {},
    "/c/<token>/e/<evening_id>/adviser": {"seat": "0", "card": "HA"},
    "/c/<token>/e/<evening_id>/table/open": {"against": "computers", "me": "0"},
    "/c/<token>/e/<evening_id>/table/links": {"seat": "0"},
    "/c/<token>/e/<evening_id>/table/take": {"seat": "0"},
    "/c/<token>/e/<evening_id>/table/computer": {"seat": "0", "level": "easy"},
    "/c/<token>/e/<evening_id>/table/next": {},
    "/c/<token>/e/<evening_id>/table/close": {},
    # a seat's own posts: the seat cookie is the key; an onlooker has none
    "/t/<table_id>/act": {"action": "0", "seq": "0"},
    "/t/<table_id>/next": {},
    "/t/<table_id>/close": {},
    "/t/<table_id>/sit": {},
    "/t/<table_id>/hint": {},
}
# POST routes that need no link: anyone may create a circle or restore an export into a new one.
OPEN_POSTS = {"/", "/restore"}


def test_every_post_route_is_checked(app: Flask) -> None:
    posts = {r.rule for r in app.url_map.iter_rules() if "POST" in (r.methods or ()) and not r.rule.startswith("/api/")}
    assert posts == set(ONLOOKER_POSTS) | OPEN_POSTS


def _rows() -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table: what "nothing changed" compares."""
    out = {}
    for table in db.metadata.sorted_tables:
        rows = db.session.execute(select(table)).all()
        out[table.name] = sorted((tuple(r) for r in rows), key=repr)
    db.session.remove()
    return out


@pytest.fixture
def circle(client: FlaskClient, app: Flask) -> dict[str, str]:
    """A circle with one evening ended early and one open (a hand recorded, a digital table open)."""
    write, view = create_circle(client)
    ended = start_evening(client, write, Variant.THREE)
    page = client.get(ended).text
    token = page.split('"X-CSRFToken": "', 1)[1].split('"', 1)[0]
    closed = client.post(f"{ended}/end", data={**hidden(page, "/end"), "early": "1", "counts_in_money": "1"})
    assert closed.status_code == 302 and "ended" in client.get(ended).text
    open_ev = start_evening(client, write, Variant.TEAMS)
    fill_evening(client, open_ev, Variant.TEAMS, hands=1)
    opened = client.post(f"{open_ev}/table/open", data={"csrf_token": token, "computer": ["1", "2", "3"]})
    assert opened.status_code == 302, opened.text
    with app.app_context():
        table_id = db.session.execute(select(DigitalTable.public_id)).scalar_one()
        db.session.remove()
    return {
        "write": write,
        "view": view,
        "evening": open_ev.rsplit("/e/", 1)[1],
        "ended": ended.rsplit("/e/", 1)[1],
        "csrf": token,
        "table": table_id,
    }


def _path(rule: str, c: dict[str, str], evening: str) -> str:
    return (
        rule.replace("<token>", c["view"].removeprefix("/c/"))
        .replace("<evening_id>", evening)
        .replace("<int:index>", "0")
        .replace("<table_id>", c["table"])
    )


# Every route is sent to the open evening; the slate's routes to the ended one too.
CASES = [(rule, "evening") for rule in sorted(ONLOOKER_POSTS)] + [
    (rule, "ended") for rule in sorted(ONLOOKER_POSTS) if "<evening_id>" in rule and "/table/" not in rule
]


@pytest.mark.parametrize(("rule", "which"), CASES)
def test_an_onlookers_post_is_refused_and_changes_nothing(
    client: FlaskClient, app: Flask, circle: dict[str, str], rule: str, which: str
) -> None:
    with app.app_context():
        before = _rows()
        version = db.session.execute(db.text("select max(version) from evenings")).scalar()
        db.session.remove()
    body = {
        "csrf_token": circle["csrf"],
        "request_id": rid("onlooker"),
        "expected_version": str(version),
        **ONLOOKER_POSTS[rule],
    }
    with app.app_context(), counted() as statements:
        r = client.post(_path(rule, circle, circle[which]), data=body)
    assert r.status_code == 403, (rule, r.status_code, r.headers.get("Location"))
    # before anything else: the link (or the seat's table) is looked up, nothing else is read
    sent = [q for q in statements if q.split(None, 1)[0].upper() not in ("BEGIN", "COMMIT", "ROLLBACK")]
    looked_up = "FROM digital_tables" if rule.startswith("/t/") else "FROM circles"
    assert len(sent) == 1 and looked_up in sent[0], (rule, sent)
    with app.app_context():
        assert _rows() == before
