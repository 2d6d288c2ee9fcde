"""Housekeeping pages: ask, confirm (a page that says what will happen), write; take back.
And ending an evening early asks whether it counts in the money totals."""

from __future__ import annotations

import html
import re

from flask.testing import FlaskClient
from shared_helpers import flashes, hidden
from web_helpers import create_circle, fill_evening, start_evening

from scorekeeper.game.rulesets import Variant


def _end_early(client: FlaskClient, evening: str, counts: str | None) -> str:
    page = client.get(evening).text
    data = {**hidden(page, "/end"), "early": "1"}
    if counts is not None:
        data["counts_in_money"] = counts
    r = client.post(f"{evening}/end", data=data, follow_redirects=True)
    assert r.status_code == 200
    return r.text


def _ids(page: str, select: str) -> dict[str, str]:
    m = re.search(rf'<select id="{select}"[^>]*>(.*?)</select>', page, re.S)
    assert m, select
    return {
        html.unescape(name): value
        for value, name in re.findall(r'<option value="([^"]+)"[^>]*>([^<]+)</option>', m.group(1))
    }


def _confirm_and_do(client: FlaskClient, circle: str, query: dict[str, str]) -> str:
    confirm = client.get(f"{circle}/housekeeping/confirm", query_string=query)
    assert confirm.status_code == 200, flashes(confirm.text)
    assert "Yes, do it" in confirm.text
    r = client.post(f"{circle}/housekeeping", data=hidden(confirm.text, "/housekeeping"), follow_redirects=True)
    assert r.status_code == 200
    assert any("can be taken back" in f for f in flashes(r.text)), flashes(r.text)
    return confirm.text


def test_ending_early_asks_whether_it_counts_in_money(client: FlaskClient) -> None:
    circle, _view = create_circle(client)
    evening = start_evening(client, circle, Variant.THREE)
    fill_evening(client, evening, Variant.THREE, hands=4)
    page = client.get(evening).text
    assert "Does this evening count in the money totals?" in page
    assert 'name="counts_in_money" value="0" required' in page
    text = _end_early(client, evening, None)
    assert any("Say whether this evening counts" in f for f in flashes(text))
    assert "End early" in client.get(evening).text  # still open: nothing was written
    _end_early(client, evening, "0")
    circle_page = client.get(circle).text
    assert "not in the money totals" in circle_page


def test_rename_merge_delete_and_take_back_through_confirmation(client: FlaskClient) -> None:
    circle, view = create_circle(client)
    evening = start_evening(client, circle, Variant.THREE, names=["Anna", "Beat", "Cla"])
    fill_evening(client, evening, Variant.THREE, hands=3)
    _end_early(client, evening, "1")
    page = client.get(f"{circle}/housekeeping").text
    players = _ids(page, "rename-player")
    confirm = _confirm_and_do(
        client, circle, {"kind": "rename", "player": players["Anna"], "name": "Anne-Marie Zurbriggen"}
    )
    assert "Anna will be called Anne-Marie Zurbriggen." in html.unescape(confirm)
    assert "Anne-Marie Zurbriggen" in client.get(circle).text
    assert "Anne-Marie Zurbriggen" in client.get(evening).text  # the slate too
    # the confirmation page alone writes nothing
    client.get(
        f"{circle}/housekeeping/confirm", query_string={"kind": "rename", "player": players["Beat"], "name": "Bea"}
    )
    assert "Bea<" not in client.get(f"{circle}/housekeeping").text
    # two players of one table cannot be merged: the confirmation is refused with the reason
    r = client.get(
        f"{circle}/housekeeping/confirm",
        query_string={"kind": "merge", "player": players["Beat"], "into": players["Cla"]},
        follow_redirects=True,
    )
    assert any("played at the same table" in f for f in flashes(r.text)), flashes(r.text)
    # delete the evening as a test, then take the delete back
    evenings = _ids(client.get(f"{circle}/housekeeping").text, "delete-evening")
    ((label, evening_id),) = evenings.items()
    confirm = _confirm_and_do(client, circle, {"kind": "delete_evening", "evening": evening_id})
    assert "will count nowhere" in confirm
    assert f"/e/{evening_id}" not in client.get(circle).text  # gone from the circle page
    gone = client.get(evening)
    assert gone.status_code == 410 and "This evening was deleted" in gone.text
    log = client.get(f"{circle}/housekeeping").text
    undo = re.findall(r'href="([^"]*kind=undo[^"]*)"', log)
    assert len(undo) == 2  # the rename and the delete may be taken back
    confirm_undo = client.get(html.unescape(undo[0]))
    assert "This change will be taken back:" in confirm_undo.text
    r = client.post(f"{circle}/housekeeping", data=hidden(confirm_undo.text, "/housekeeping"), follow_redirects=True)
    assert f"/e/{evening_id}" in client.get(circle).text and client.get(evening).status_code == 200
    assert "taken back" in client.get(f"{circle}/housekeeping").text
    # onlookers see the log, no forms, and cannot write
    seen = client.get(f"{view}/housekeeping")
    assert seen.status_code == 200 and "rename-player" not in seen.text and "Take back" not in seen.text
    assert client.get(f"{view}/housekeeping/confirm", query_string={"kind": "undo", "undoes": "1"}).status_code == 403
    assert client.post(f"{view}/housekeeping", data={"kind": "undo", "undoes": "1"}).status_code in (400, 403)


def test_a_post_without_its_csrf_token_writes_nothing(client: FlaskClient) -> None:
    circle, _view = create_circle(client)
    start_evening(client, circle, Variant.THREE, names=["Anna", "Beat", "Cla"])
    players = _ids(client.get(f"{circle}/housekeeping").text, "rename-player")
    r = client.post(
        f"{circle}/housekeeping",
        data={"kind": "rename", "player": players["Anna"], "name": "X", "request_id": "abcdefgh1"},
    )
    assert r.status_code == 400
    assert "No changes yet." in client.get(f"{circle}/housekeeping").text


def test_a_change_shows_at_once_on_every_page_of_the_circle(client: FlaskClient) -> None:
    """Every page reads the circle's memory, kept per worker: a rename, a merge and a deleted
    evening change its fingerprint, so no page shows the circle as it was before."""
    circle, _view = create_circle(client)
    first = start_evening(client, circle, Variant.THREE, names=["Anna", "Beat", "Cla"])
    fill_evening(client, first, Variant.THREE, hands=3)
    _end_early(client, first, "1")
    second = start_evening(client, circle, Variant.THREE, names=["Anna", "Beat", "Dora"])
    fill_evening(client, second, Variant.THREE, hands=3)
    _end_early(client, second, "1")
    pages = [circle, f"{circle}/stats", f"{circle}/ratings", f"{circle}/purse"]

    def seen() -> list[str]:
        return [html.unescape(client.get(page).text) for page in pages]

    assert all("Cla" in text and "Dora" in text for text in seen())  # every page read (and kept) now
    players = _ids(client.get(f"{circle}/housekeeping").text, "rename-player")
    _confirm_and_do(client, circle, {"kind": "rename", "player": players["Anna"], "name": "Anne-Marie"})
    assert all("Anne-Marie" in text and "Anna" not in text for text in seen())
    _confirm_and_do(client, circle, {"kind": "merge", "player": players["Dora"], "into": players["Cla"]})
    assert all("Dora" not in text and "Cla" in text for text in seen())
    assert "<p>2 evenings ·" in client.get(f"{circle}/stats").text
    evenings = _ids(client.get(f"{circle}/housekeeping").text, "delete-evening")
    deleted = sorted(evenings.values())[0]
    _confirm_and_do(client, circle, {"kind": "delete_evening", "evening": deleted})
    assert f"/e/{deleted}" not in client.get(circle).text
    assert "<p>1 evening ·" in client.get(f"{circle}/stats").text
