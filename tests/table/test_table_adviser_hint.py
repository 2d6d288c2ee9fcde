""" "Which row?" on a digital seat (issue 25): a hint for the seat that must choose, on its own
cards, to its phone alone; nothing is written."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select
from table_helpers import join, open_table, start_evening

from scorekeeper.extensions import db
from scorekeeper.game.rulesets import Variant
from scorekeeper.models import DigitalTable


@pytest.fixture
def app_config() -> dict[str, Any]:
    return {"WTF_CSRF_ENABLED": True, "TABLE_COMPUTER_LEVEL": "easy"}


def _version(app: Flask) -> tuple[int, ...]:
    with app.app_context():
        out = tuple(db.session.execute(select(DigitalTable.version)).scalars())
        db.session.remove()
    return out


def test_the_seat_that_chooses_gets_a_hint_and_nobody_else(app: Flask) -> None:
    write, evening_id = start_evening(app, Variant.TEAMS)
    client = app.test_client()
    links = open_table(client, write, evening_id)
    phones = [join(app, link) for link in links]
    for p in phones:
        p.open()  # the whole seat page (its forms carry the token)
    chooser = [p for p in phones if "data-seat-hint" in p.html]
    assert len(chooser) == 1  # forehand, the only seat whose turn it is
    others = [p for p in phones if p is not chooser[0]]
    before = _version(app)
    status, html = chooser[0].post("/hint")
    assert status == 200 and "data-answer" in html and "data-pick" in html
    assert html.count("<tr data-row=") == 8  # every open row of the team game
    status, html = others[0].post("/hint")
    assert status == 200 and "data-answer" not in html and "Nothing to choose now." in html
    assert _version(app) == before  # a hint writes nothing
    for p in others:
        assert "data-answer" not in p.open()  # shown to no other phone


def test_a_hint_without_the_seat_cookie_is_refused(app: Flask) -> None:
    write, evening_id = start_evening(app, Variant.TEAMS)
    client = app.test_client()
    links = open_table(client, write, evening_id)
    phone = join(app, links[0])
    table_path = phone.seat_url
    stranger = app.test_client()
    r = stranger.post(table_path + "/hint", data={})
    assert r.status_code in (400, 403)
