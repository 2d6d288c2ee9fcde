"""A write sent by the slate page's script (``X-Slate-Swap: 1``, issue 23 point 3) is answered with
the parts of the page it changed, each the page's own partial; without the header (no script)
the forms post and redirect as before; where the page changes its shape the answer stays a
redirect."""

from __future__ import annotations

import re

from flask.testing import FlaskClient
from shared_helpers import hand_data, hidden
from web_helpers import create_circle, fill_evening, plan_hand, post_hand, start_evening

from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.scoring.slate import Slate

SWAP = {"X-Slate-Swap": "1"}
PARTS = ("flashes", "live", "record", "slate-actions", "corrections")


def _ids(html: str) -> list[str]:
    return [i for i in re.findall(r'\bid="([^"]+)"', html) if i in PARTS]


def _evening(client: FlaskClient) -> str:
    write, _view = create_circle(client)
    return start_evening(client, write, Variant.TEAMS)


def _next(client: FlaskClient, evening: str, done: int) -> dict[str, str]:
    rs = default_ruleset(Variant.TEAMS)
    sent: list[HandEntry] = []
    for i in range(done):
        sent.append(plan_hand(rs, Slate.build(rs, 0, sent), i))
    return hand_data(plan_hand(rs, Slate.build(rs, 0, sent), done))


def test_a_recorded_hand_is_answered_with_the_parts_of_the_page(client: FlaskClient) -> None:
    evening = _evening(client)
    page = client.get(evening).text
    assert all(f'id="{part}"' in page for part in PARTS)  # the page has every part the answer swaps
    r = client.post(f"{evening}/hands", data={**hidden(page, "/hands"), **_next(client, evening, 0)}, headers=SWAP)
    assert r.status_code == 200 and r.headers["X-Slate-Swap"] == "1" and r.headers["Cache-Control"] == "no-store"
    assert _ids(r.text) == list(PARTS) and "<html" not in r.text
    assert "Hand recorded: hand 1" in r.text
    assert "hx-get" in r.text and "v=1" in r.text  # the live fragment polls the new version
    fresh = hidden(r.text, "/hands")
    assert fresh["expected_version"] == "1" and fresh["request_id"] != hidden(page, "/hands")["request_id"]
    # the message was shown by the answer: the next page load shows it no more
    assert "Hand recorded" not in client.get(evening).text
    # the next hand with the answer's form: recorded
    again = client.post(f"{evening}/hands", data={**fresh, **_next(client, evening, 1)}, headers=SWAP)
    assert again.status_code == 200 and "Hand recorded: hand 2" in again.text


def test_without_the_header_a_hand_is_a_redirect_as_before(client: FlaskClient) -> None:
    evening = _evening(client)
    r = post_hand(client, evening, _next(client, evening, 0))
    assert r.status_code == 302 and r.headers["Location"].endswith(evening.split("/")[-1])
    assert "Hand recorded: hand 1" in client.get(evening).text


def test_a_refused_hand_comes_back_in_the_parts_with_its_message(client: FlaskClient) -> None:
    evening = _evening(client)
    page = client.get(evening).text
    bad = {**_next(client, evening, 0), "declarer_points": "200", "defender_points": "0"}
    r = client.post(f"{evening}/hands", data={**hidden(page, "/hands"), **bad}, headers=SWAP)
    assert r.status_code == 422 and r.headers["X-Slate-Swap"] == "1"
    assert _ids(r.text) == list(PARTS) and 'aria-invalid="true"' in r.text and 'value="200"' in r.text
    grid = re.search(r'<div class="slate-wrap".*?</table>', r.text, re.S)
    assert grid is not None and "filled" not in grid[0]  # nothing written


def test_undo_and_a_correction_are_answered_in_place(client: FlaskClient) -> None:
    evening = _evening(client)
    fill_evening(client, evening, Variant.TEAMS, hands=2)
    page = client.get(evening).text
    undo = client.post(f"{evening}/undo", data=hidden(page, "/undo"), headers=SWAP)
    assert undo.status_code == 200 and _ids(undo.text) == list(PARTS)
    assert "Last entry taken back." in undo.text and "taken back:" in undo.text  # the corrections log
    # a correction's form, in place of the record form
    form = client.get(f"{evening}/entries/0", headers=SWAP)
    assert form.status_code == 200 and "data-correcting" in form.text and "Correct hand 1" in form.text
    fields = hidden(form.text, "/entries/0")
    data = {**fields, **_next(client, evening, 0), "declarer_points": "100", "defender_points": "57"}
    done = client.post(f"{evening}/entries/0", data=data, headers=SWAP)
    assert done.status_code == 200 and "Hand 1 corrected" in done.text
    assert "data-correcting" not in done.text and "Record a hand" in done.text  # the record form is back
    # the correction's own page, without script, as before
    assert "data-correcting" not in client.get(f"{evening}/entries/0").text


def test_the_hand_that_fills_the_slate_loads_the_page(client: FlaskClient) -> None:
    evening = _evening(client)
    n = default_ruleset(Variant.TEAMS).n_hands
    fill_evening(client, evening, Variant.TEAMS, hands=n - 1)
    page = client.get(evening).text
    data = {**hidden(page, "/hands"), **_next(client, evening, n - 1)}
    last = client.post(f"{evening}/hands", data=data, headers=SWAP)
    assert last.status_code == 302  # the page changes its shape (the result): loaded anew
