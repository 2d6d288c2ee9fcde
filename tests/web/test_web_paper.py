"""Typing a past evening from a paper slate on the page: numeric keypad, cells marked as
imported on the slate, a bad cell named with nothing written, the form kept."""

from __future__ import annotations

import re

from flask.testing import FlaskClient
from shared_helpers import flashes, hidden
from web_helpers import create_circle


def _form(client: FlaskClient, circle: str, variant: str = "teams") -> tuple[str, dict[str, str]]:
    url = f"{circle}/paper?variant={variant}"
    page = client.get(url).text
    return url, hidden(page, "/paper")


def test_a_team_slate_typed_from_paper(client: FlaskClient) -> None:
    circle, _view = create_circle(client)
    url, fields = _form(client, circle)
    page = client.get(url).text
    assert page.count('inputmode="numeric"') == 16  # 8 rows x 2 teams, each with the numeric keypad
    data = {
        **fields,
        "seat_0": "Anne-Marie Zurbriggen",
        "seat_1": "Vreni Schmid-Kalbermatten",
        "seat_2": "Sepp",
        "seat_3": "Hans",
        "played_on": "2026-03-06",
        "stake_chf": "0.20",
        "cell_suit_S_0": "12",
        "cell_suit_S_1": "25",
        "mark_suit_S_1": "match",
        "cell_obenabe_1": "45",
        "counts_in_money": "0",
    }
    r = client.post(url, data=data)
    assert r.status_code == 302, flashes(r.text)
    slate = client.get(r.headers["Location"]).text
    assert slate.count('class="paper"') == 3  # every typed cell marked
    # the match mark and the paper mark share the cell; the marks' key says what ★ means
    (matched,) = re.findall(r'<td class="filled match[^"]*imported">(.*?)</td>', slate, re.S)
    assert 'class="mm"' in matched and 'class="paper"' in matched
    assert "★ match" in slate
    assert "typed from a paper slate: counts in money" in slate
    assert "ended early" in client.get(circle).text and "not in the money totals" in client.get(circle).text


def test_a_bad_cell_is_named_and_the_form_kept(client: FlaskClient) -> None:
    circle, _view = create_circle(client)
    url, fields = _form(client, circle)
    data = {
        **fields,
        **{f"seat_{i}": n for i, n in enumerate(["Anna", "Beat", "Cla", "Dora"])},
        "played_on": "2026-03-06",
        "cell_suit_S_0": "12",
        "cell_suit_C_1": "3",
        "counts_in_money": "1",
    }
    r = client.post(url, data=data)
    assert r.status_code == 422
    assert any("cannot hold 3" in f for f in flashes(r.text)), flashes(r.text)
    assert 'value="12"' in r.text and 'value="Dora"' in r.text  # nothing retyped
    r = client.post(url, data={**data, "cell_suit_C_1": "x"})
    assert r.status_code == 422 and any("whole number" in f for f in flashes(r.text))
    r = client.post(url, data={**data, "cell_suit_C_1": "", "counts_in_money": ""})
    assert r.status_code == 422 and any("counts in the money totals" in f for f in flashes(r.text))
    assert "Type a past evening" in client.get(circle).text
    assert not re.search(r'class="list history"', client.get(circle).text)  # nothing was written
