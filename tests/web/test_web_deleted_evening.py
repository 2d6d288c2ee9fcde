"""Issue 20.6 through the pages: a test evening deleted under "Tidy up" while it is in progress
is gone from the circle page; its slate, its poll, its picture and its digital table's seats say
"this evening was deleted" (410) instead of showing it; a phone that still has the slate open and
records a hand is told so and nothing is written; taking the deletion back brings it back whole,
in progress, every hand. And issue 20.10: the housekeeping page tells two evenings of the same
players apart, its confirmation shows the evening, its log says who was renamed what."""

from __future__ import annotations

import html
import re

from flask import Flask
from flask.testing import FlaskClient
from shared_helpers import flashes, hand_data, hidden
from web_helpers import create_circle, fill_evening, plan_hand, post_hand, start_evening, version_of

from scorekeeper.game.rulesets import Variant
from scorekeeper.scoring.slate import Slate
from scorekeeper.services import circles, evenings
from scorekeeper.services import digital_table as tables
from scorekeeper.services import seats as seat_service

DELETED = "This evening was deleted"


def _do(client: FlaskClient, circle: str, query: dict[str, str]) -> str:
    """Ask for a housekeeping change, confirm it; returns the confirmation page."""
    confirm = client.get(f"{circle}/housekeeping/confirm", query_string=query)
    assert confirm.status_code == 200 and "Yes, do it" in confirm.text, flashes(confirm.text)
    r = client.post(f"{circle}/housekeeping", data=hidden(confirm.text, "/housekeeping"), follow_redirects=True)
    assert any("can be taken back" in f for f in flashes(r.text)), flashes(r.text)
    return confirm.text


def _slate(app: Flask, write: str, evening_id: str) -> Slate:
    with app.app_context():
        circle, _w = circles.open_circle(write.split("/")[2])
        return evenings.load_slate(evenings.get_evening(circle, evening_id, deleted_ok=True))


def _entries(app: Flask, write: str, evening_id: str) -> int:
    return len(_slate(app, write, evening_id).entries)


def _next_hand(app: Flask, write: str, evening_id: str) -> dict[str, str]:
    slate = _slate(app, write, evening_id)
    return hand_data(plan_hand(slate.ruleset, slate, len(slate.entries)))


def test_a_deleted_evening_in_progress_is_gone_from_every_page_and_takes_no_hand(
    app: Flask, client: FlaskClient
) -> None:
    write, view = create_circle(client)
    evening = start_evening(client, write, Variant.TEAMS)
    evening_id = evening.split("/")[-1]
    fill_evening(client, evening, Variant.TEAMS, hands=3)
    client.get(evening)  # the page after the last hand shows its message (never kept: no ETag)
    held = client.get(evening)  # a phone that keeps the slate open
    assert held.status_code == 200 and "Evening in progress" in client.get(write).text
    version, etag = version_of(held.text), held.headers["ETag"]
    with app.app_context():  # a digital table with a seat on a phone
        circle, _w = circles.open_circle(write.split("/")[2])
        table = tables.open_table(evenings.get_evening(circle, evening_id), computers=(1, 2, 3), level="easy")
        seat_link = f"/s/{seat_service.issue_seat_token(table, 0)}"
        table_id = table.public_id
    assert client.get(seat_link, follow_redirects=True).status_code == 200

    _do(client, write, {"kind": "delete_evening", "evening": evening_id})

    circle_page = client.get(write).text
    assert "Evening in progress" not in circle_page and f"/e/{evening_id}" not in circle_page
    for link in (evening, evening.replace(write, view)):
        page = client.get(link)
        assert page.status_code == 410 and DELETED in page.text, page.text[:300]
        assert page.headers["Cache-Control"] == "no-store"
        assert "Tidy up" in page.text and "Record a hand" not in page.text
    # its poll (htmx): told to load the page again, which says it was deleted
    poll = client.get(f"{evening}/version?v={version}&o=0&n=0", headers={"HX-Request": "true"})
    assert poll.status_code == 410 and poll.headers["HX-Refresh"] == "true"
    assert client.get(evening, headers={"If-None-Match": etag}).status_code == 410  # not "unchanged"
    assert client.get(f"{evening}/slate.png").status_code == 410
    assert client.get(seat_link).status_code == 410  # the seat link itself: nothing noted for the seat
    assert client.get(f"/t/{table_id}").status_code == 410
    api_join = client.post("/api/v1/tables/join", json={"token": seat_link.rsplit("/", 1)[1]})
    assert api_join.status_code == 410 and api_join.get_json()["error"]["code"] == "evening_deleted"
    assert client.get(f"{evening}/table").status_code == 410
    # the phone that had the page open records a hand: told so, nothing written
    before = _entries(app, write, evening_id)
    r = post_hand(client, evening, _next_hand(app, write, evening_id), page=held.text)
    assert r.status_code == 410 and DELETED in r.text and "Nothing was written." in r.text
    for action in ("/undo", "/end", "/reopen", "/cuts/draw"):
        assert client.post(evening + action, data=hidden(held.text, "/undo")).status_code == 410
    assert _entries(app, write, evening_id) == before

    # taken back: whole again, in progress, every hand, and it takes hands again
    log = client.get(f"{write}/housekeeping").text
    (undo,) = re.findall(r'href="([^"]*kind=undo[^"]*)"', log)
    confirm = _do(client, write, dict(re.findall(r"(\w+)=(\w+)", html.unescape(undo).split("?")[1])))
    assert "The evening comes back as it was, with every hand." in html.unescape(confirm)
    assert 'class="slate"' in confirm  # the confirmation shows the evening itself
    assert "Evening in progress" in client.get(write).text
    page = client.get(evening)
    assert page.status_code == 200 and len(re.findall(r'<td class="filled', page.text)) == 3
    assert client.get(seat_link, follow_redirects=True).status_code == 200  # its table too
    with app.app_context():
        tables.close_table(tables.get_table(table_id))  # back to real cards
    assert post_hand(client, evening, _next_hand(app, write, evening_id)).status_code == 302
    assert _entries(app, write, evening_id) == before + 1


def test_housekeeping_tells_two_evenings_of_the_same_players_apart(client: FlaskClient) -> None:
    """Two evenings of the same four, started the same minute: the list to delete from shows what
    tells them apart (hands, their times, totals); the confirmation shows the evening's slate."""
    write, _view = create_circle(client)
    short = start_evening(client, write, Variant.TEAMS)
    fill_evening(client, short, Variant.TEAMS, hands=2)
    longer = start_evening(client, write, Variant.TEAMS)
    fill_evening(client, longer, Variant.TEAMS, hands=5)
    page = html.unescape(client.get(f"{write}/housekeeping").text)
    select = re.search(r'<select id="delete-evening"[^>]*>(.*?)</select>', page, re.S)
    assert select
    options = dict(re.findall(r'<option value="([^"]+)"[^>]*>([^<]+)</option>', select.group(1)))
    assert len(set(options.values())) == 2  # not the same words for both
    two, five = options[short.split("/")[-1]], options[longer.split("/")[-1]]
    assert "Anna, Beat, Cla, Dora" in two and "2 hands, " in two and "5 hands, " in five
    assert re.search(r"totals \d+ : \d+", two) and "in progress" in five
    assert re.search(r"5 hands, \d{1,2}:\d\d", five)  # the first (and last) hand's time
    confirm = client.get(
        f"{write}/housekeeping/confirm", query_string={"kind": "delete_evening", "evening": longer.split("/")[-1]}
    ).text
    assert 'class="slate"' in confirm and len(re.findall(r'<td class="filled', confirm)) == 5
    assert "/entries/" not in confirm and "Record a hand" not in confirm  # shown, not editable


def test_the_log_says_who_was_renamed_what(client: FlaskClient) -> None:
    write, _view = create_circle(client)
    start_evening(client, write, Variant.THREE, names=["Gianni", "Beat", "Cla"])
    page = client.get(f"{write}/housekeeping").text
    players = {html.unescape(n): v for v, n in re.findall(r'<option value="(\d+)"[^>]*>([^<]+)</option>', page)}
    gianni = players["Gianni"]
    _do(client, write, {"kind": "rename", "player": gianni, "name": "Gianni Bernasconi"})
    _do(client, write, {"kind": "rename", "player": gianni, "name": "Gianni B."})
    log = html.unescape(client.get(f"{write}/housekeeping").text)
    assert "Gianni was renamed Gianni Bernasconi." in log
    assert "Gianni Bernasconi was renamed Gianni B." in log
    assert "Gianni B. was renamed" not in log
