"""The slate page and the digital table: hands dealt digitally carry a marker on the slate;
while a hand is dealt digitally the page offers the table instead of the manual record form."""

from __future__ import annotations

import re
from datetime import UTC

from flask import Flask
from shared_helpers import hand_data, hidden, rid
from table_helpers import LEVEL, start_evening

from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import Variant
from scorekeeper.models import Evening
from scorekeeper.services import circles, evenings
from scorekeeper.services import digital_table as tables
from scorekeeper.services.read.replay import LogItem, digital_positions, ruleset_of
from scorekeeper.services.read.snapshot import load_snapshot

MARKER = re.compile(
    r'<td class="filled[^"]*\bdigital\b[^"]*">.*?<span class="dealt" title="dealt digitally">'
    r'.*?<span class="visually-hidden">dealt digitally</span>',
    re.S,
)


def _evening(app: Flask, write: str, evening_id: str) -> Evening:
    circle, _w = circles.open_circle(write)
    return evenings.get_evening(circle, evening_id)


def _page(app: Flask, write: str, evening_id: str) -> str:
    r = app.test_client().get(f"/c/{write}/e/{evening_id}")
    assert r.status_code == 200
    return r.get_data(as_text=True)


def _record_by_hand(app: Flask, write: str, evening_id: str) -> None:
    with app.app_context():
        ev = _evening(app, write, evening_id)
        rs = ruleset_of(ev)
        slate = evenings.load_slate(ev)
        row = next(r for r in rs.rows if not r.is_choice and r.key in slate.open_rows(rs.side_of(1)))
        evenings.record_hand(
            ev, HandEntry(row.key, 1, None, 100, 57), request_id=rid("manual"), expected_version=ev.version
        )


def test_a_digital_hand_is_marked_on_the_slate_a_manual_one_is_not(app: Flask) -> None:
    write, evening_id = start_evening(app, Variant.TEAMS)
    _record_by_hand(app, write, evening_id)
    page = _page(app, write, evening_id)
    assert page.count('class="filled') == 1 and not MARKER.search(page) and 'class="dealt"' not in page
    with app.app_context():
        table = tables.open_table(_evening(app, write, evening_id), computers=(0, 1, 2, 3), level=LEVEL)
        assert tables.load(table).hand_over  # four computers: the hand is played and written at once
    page = _page(app, write, evening_id)
    assert page.count('class="filled') == 2
    assert len(MARKER.findall(page)) == 1 and page.count('class="dealt"') == 1


def test_digital_entries_follow_corrections_and_undos() -> None:
    from datetime import datetime

    now = datetime.now(UTC)

    def item(kind: str, index: int, digital: bool) -> LogItem:
        return LogItem(0, kind, now, index, None, None, digital, None)

    log = [
        item("hand", 0, False),
        item("hand", 1, True),
        item("hand", 2, True),
        item("correction", 1, True),
        item("undo", 2, True),
        item("hand", 2, False),
    ]
    assert digital_positions(log) == frozenset({1})


def test_while_a_hand_is_dealt_digitally_the_slate_offers_the_table_not_the_form(app: Flask) -> None:
    write, evening_id = start_evening(app, Variant.TEAMS)
    page = _page(app, write, evening_id)
    assert 'id="record"' in page and "data-digital-hand" not in page
    with app.app_context():
        ev = _evening(app, write, evening_id)
        assert not load_snapshot(ev).hand_in_play
        table = tables.open_table(ev, computers=(1, 2), level=LEVEL)  # seat 0 is a phone: the hand waits for her
        assert load_snapshot(ev).hand_in_play
    page = _page(app, write, evening_id)
    assert "data-digital-hand" in page and "A hand is being dealt digitally." in page
    assert f'href="/c/{write}/e/{evening_id}/table"' in page
    assert "Write it on the slate" not in page  # no manual record form
    with app.app_context():
        tables.close_table(table)  # back to real cards: the form is back
        assert not load_snapshot(_evening(app, write, evening_id)).hand_in_play
    page = _page(app, write, evening_id)
    assert "data-digital-hand" not in page and "Write it on the slate" in page


def test_a_manual_hand_is_refused_while_a_hand_is_dealt_digitally(app: Flask) -> None:
    write, evening_id = start_evening(app, Variant.TEAMS)
    client = app.test_client()
    url = f"/c/{write}/e/{evening_id}"
    page = client.get(url).get_data(as_text=True)  # the form, as a phone showed it before the deal
    with app.app_context():
        ev = _evening(app, write, evening_id)
        rs = ruleset_of(ev)
        row = next(r for r in rs.rows if not r.is_choice)
        tables.open_table(ev, computers=(1, 2), level=LEVEL)
    data = {**hidden(page, "/hands"), **hand_data(HandEntry(row.key, 1, None, 100, 57))}
    r = client.post(f"{url}/hands", data=data)
    assert r.status_code == 422
    html = r.get_data(as_text=True)
    assert "A hand is being dealt digitally; it is written on the slate when it ends." in html
    assert "data-digital-hand" in html and "Write it on the slate" not in html
    with app.app_context():
        assert evenings.load_slate(_evening(app, write, evening_id)).entries == ()


def test_the_service_and_the_api_refuse_a_manual_hand_while_a_hand_is_dealt_digitally(app: Flask) -> None:
    """The refusal lives in the service, so the JSON API gets it too (422, nothing written)."""
    import json

    write, evening_id = start_evening(app, Variant.TEAMS)
    with app.app_context():
        ev = _evening(app, write, evening_id)
        rs = ruleset_of(ev)
        row = next(r for r in rs.rows if not r.is_choice)
        tables.open_table(ev, computers=(1, 2), level=LEVEL)
        version = ev.version
    body = {
        "declarer_seat": 1,
        "row_key": row.key,
        "declarer_points": 100,
        "defender_points": 57,
        "expected_version": version,
        "request_id": "manual-during-digital",
    }
    r = app.test_client().post(
        f"/api/v1/evenings/{evening_id}/hands",
        data=json.dumps(body),
        headers={"Authorization": f"Bearer {write}", "Content-Type": "application/json"},
    )
    assert r.status_code == 422, r.get_data(as_text=True)
    assert r.get_json()["error"]["code"] == "digital_hand_in_play"
    with app.app_context():
        assert evenings.load_slate(_evening(app, write, evening_id)).entries == ()
