"""Typing a past evening from a paper slate on the page: numeric keypad, cells marked as
imported on the slate, a bad cell named with nothing written, the form kept; what a joker
row was played as, and ties cut as the table cut them, checked as the API checks them."""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient
from shared_helpers import flashes, hidden, rid
from web_helpers import create_circle

from scorekeeper.game.rulesets import Variant, default_ruleset


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


# --- what a joker row was played as, and ties cut as the table cut them ----------------------
def _api_error(client: FlaskClient, circle: str, body: dict[str, Any]) -> str:
    """The API's message for the same slate (the page must say the same)."""
    token = circle.removeprefix("/c/")
    r = client.post(
        "/api/v1/evenings/paper",
        json={"first_dealer": 0, "request_id": rid("api"), **body},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert r.status_code == 422, r.text
    message: str = r.get_json()["error"]["message"]
    return message


def _three_cells(tie: str = "two") -> dict[str, str]:
    """A whole three-player slate as the page's fields: a tie in the top row (two players, or
    all three), every other cell different."""
    rs = default_ruleset(Variant.THREE)
    out: dict[str, str] = {}
    for i, row in enumerate(rs.rows):
        for side in range(3):
            points = (17 * i + 31 * side) % 150
            if i == 0 and (side < 2 or tie == "three"):
                points = 100
            out[f"cell_{row.key}_{side}"] = str(points)
    return out


def _three(client: FlaskClient, circle: str, **extra: str) -> tuple[str, dict[str, str]]:
    url, fields = _form(client, circle, "three")
    data = {
        **fields,
        "seat_0": "Anna",
        "seat_1": "Beat",
        "seat_2": "Cla",
        "played_on": "2026-03-06",
        "counts_in_money": "1",
        **_three_cells(),
        **extra,
    }
    return url, data


def _cuts_of(client: FlaskClient, circle: str, location: str) -> list[dict[str, Any]]:
    token = circle.removeprefix("/c/")
    evening = location.rstrip("/").split("/")[-1]
    r = client.get(f"/api/v1/evenings/{evening}", headers={"Authorization": f"Bearer {token}"})
    cuts: list[dict[str, Any]] = r.get_json()["cuts"]
    return cuts


def test_a_joker_cell_says_what_it_was_played_as(client: FlaskClient) -> None:
    circle, _view = create_circle(client)
    url, fields = _form(client, circle)
    page = client.get(url).text
    assert page.count('name="as_joker1_') == 2 and 'name="as_suit_S_0"' not in page  # joker rows only
    assert 'value="suit:H"' in page
    data = {
        **fields,
        **{f"seat_{i}": n for i, n in enumerate(["Anna", "Beat", "Cla", "Dora"])},
        "played_on": "2026-03-06",
        "cell_joker1_0": "70",
        "as_joker1_0": "suit:H",
        "counts_in_money": "1",
    }
    r = client.post(url, data=data)
    assert r.status_code == 302, flashes(r.text)
    token = circle.removeprefix("/c/")
    evening = r.headers["Location"].rstrip("/").split("/")[-1]
    ev = client.get(f"/api/v1/evenings/{evening}", headers={"Authorization": f"Bearer {token}"}).get_json()
    (cell,) = [c for row in ev["slate"]["rows"] for c in row["cells"] if c is not None]
    assert cell["played_as"] == "suit:H" and cell["imported"]


def test_a_joker_cell_is_checked_as_the_api_checks_it(client: FlaskClient) -> None:
    circle, _view = create_circle(client)
    url, fields = _form(client, circle, "club")
    names = ["Anna", "Beat", "Cla", "Dora"]
    base = {**fields, **{f"seat_{i}": n for i, n in enumerate(names)}, "played_on": "2026-03-06"}
    assert 'value="misere:obenabe"' in client.get(url).text
    # a contract the row does not allow; a Misère ★ match written as 0 (a Misère ★ match is the
    # hand without a trick: 885); the page's ★ is the API's countermatch (no trick) in a Misère
    for code, value, mark in (("suit:H", "10", ""), ("misere:obenabe", "0", "match")):
        data = {
            **base,
            "cell_misere_zwueschi_0": value,
            "mark_misere_zwueschi_0": mark,
            "as_misere_zwueschi_0": code,
            "counts_in_money": "1",
        }
        r = client.post(url, data=data)
        assert r.status_code == 422
        marks = {"countermatch": True} if code.startswith("misere") and mark else {"match": bool(mark)}
        cell = {"row_key": "misere_zwueschi", "side": 0, "value": int(value), "played_as": code, **marks}
        api = _api_error(client, circle, {"variant": "club", "players": names, "cells": [cell]})
        assert flashes(r.text) == [api], (flashes(r.text), api)
    assert flashes(r.text) == ["A ★ match in the row “Misère / Zwüschedüre” writes 885."]
    url, fields = _form(client, circle, "club")
    r = client.post(url, data={**data, **fields, "as_misere_zwueschi_0": ""})
    assert r.status_code == 422  # without it, 0 is no ordinary match of that row either
    r = client.post(url, data={**data, **fields, "as_misere_zwueschi_0": "", "mark_misere_zwueschi_0": ""})
    assert r.status_code == 302, flashes(r.text)
    url, fields = _form(client, circle, "club")
    r = client.post(
        url, data={**base, **fields, "cell_twelve_1": "10", "as_twelve_1": "nonsense", "counts_in_money": "1"}
    )
    assert r.status_code == 422 and any("from the list" in f for f in flashes(r.text))
    assert 'value="nonsense"' not in r.text  # the list offers only what the row allows


def test_a_misere_match_typed_from_paper_is_the_hand_without_a_trick(client: FlaskClient) -> None:
    """Issue 20: the page's ★ match of a Misère cell (885: the team took no trick) is written as
    the slate shows it, a ★ match, not refused or turned into the every-trick hand (0)."""
    circle, _view = create_circle(client)
    url, fields = _form(client, circle, "club")
    page = client.get(url).text
    assert "★ match (a Misère: the team took no trick)" in page
    data = {
        **fields,
        **{f"seat_{i}": n for i, n in enumerate(["Anna", "Beat", "Cla", "Dora"])},
        "played_on": "2026-03-06",
        "cell_misere_zwueschi_0": "885",
        "mark_misere_zwueschi_0": "match",
        "as_misere_zwueschi_0": "misere:obenabe",
        "cell_misere_zwueschi_1": "0",
        "mark_misere_zwueschi_1": "countermatch",
        "as_misere_zwueschi_1": "misere:undenufe",
        "counts_in_money": "0",
    }
    r = client.post(url, data=data)
    assert r.status_code == 302, flashes(r.text)
    slate = client.get(r.headers["Location"]).text
    good = re.findall(r'<td class="filled match[^"]*">\s*<(?:a|span) class="cell"[^>]*>\s*(\d+)', slate)
    bad = re.findall(r'<td class="filled countermatch[^"]*">\s*<(?:a|span) class="cell"[^>]*>\s*(\d+)', slate)
    assert (good, bad) == (["885"], ["0"])
    token = circle.removeprefix("/c/")
    evening = r.headers["Location"].rstrip("/").split("/")[-1]
    ev = client.get(f"/api/v1/evenings/{evening}", headers={"Authorization": f"Bearer {token}"}).get_json()
    cells = [c for row in ev["slate"]["rows"] if row["key"] == "misere_zwueschi" for c in row["cells"]]
    assert [(c["value"], c["match"], c["countermatch"]) for c in cells] == [(885, False, True), (0, True, False)]


def test_ties_are_cut_by_the_app_unless_the_table_says_how_it_cut_them(client: FlaskClient) -> None:
    circle, _view = create_circle(client)
    url, data = _three(client, circle)
    assert 'name="cut_by" value="app" checked' in client.get(url).text  # as before: the app cuts
    r = client.post(url, data=data)
    assert r.status_code == 302, flashes(r.text)
    (cut,) = _cuts_of(client, circle, r.headers["Location"])
    assert cut["drawn"]
    # the table cut it: the page names the tie first and writes nothing yet
    url, data = _three(client, circle, cut_by="table")
    r = client.post(url, data=data)
    assert r.status_code == 200 and any("how the table cut each tie" in f for f in flashes(r.text))
    assert "tie for the sticks" in r.text and "Anna, Beat" in r.text
    assert 'name="cut_suit_C_high"' in r.text and 'name="cutlow_' not in r.text
    assert 'value="100"' in r.text  # nothing retyped
    shown = hidden(r.text, "/paper")["ties_shown"]
    r = client.post(url, data={**data, "ties_shown": shown, "cut_suit_C_high": "1"})
    assert r.status_code == 302, flashes(r.text)
    (cut,) = _cuts_of(client, circle, r.headers["Location"])
    assert not cut["drawn"] and cut["winner"] == 1
    # a tie left on "the app cuts" is cut by the app
    url, data = _three(client, circle, cut_by="table")
    r = client.post(url, data={**data, "ties_shown": shown, "cut_suit_C_high": ""})
    assert r.status_code == 302
    assert _cuts_of(client, circle, r.headers["Location"])[0]["drawn"]


def _api_cells(fields: dict[str, str]) -> list[dict[str, Any]]:
    return [
        {"row_key": k.removeprefix("cell_").rsplit("_", 1)[0], "side": int(k.rsplit("_", 1)[1]), "value": int(v)}
        for k, v in fields.items()
    ]


def test_a_three_way_tie_asks_for_the_highest_and_the_lowest_card(client: FlaskClient) -> None:
    circle, _view = create_circle(client)
    url, data = _three(client, circle, cut_by="table", **_three_cells("three"))
    r = client.post(url, data=data)
    assert r.status_code == 200 and "three-way tie" in r.text and 'name="cutlow_suit_C_all"' in r.text
    shown = hidden(r.text, "/paper")["ties_shown"]
    # only the highest card: the core's own refusal (as on the slate page), nothing written
    r = client.post(url, data={**data, "ties_shown": shown, "cut_suit_C_all": "2"})
    assert r.status_code == 422 and flashes(r.text) == ["The cut for row “Acorns” must rank all three players."]
    r = client.post(url, data={**data, "ties_shown": shown, "cut_suit_C_all": "2", "cutlow_suit_C_all": "0"})
    assert r.status_code == 302, flashes(r.text)
    (cut,) = _cuts_of(client, circle, r.headers["Location"])
    assert cut["order"] == [2, 1, 0] and not cut["drawn"]


def test_a_cut_is_checked_as_the_api_checks_it(client: FlaskClient) -> None:
    circle, _view = create_circle(client)
    url, data = _three(client, circle, cut_by="table")
    shown = hidden(client.post(url, data=data).text, "/paper")["ties_shown"]
    r = client.post(url, data={**data, "ties_shown": shown, "cut_suit_C_high": "2"})  # Cla is not in the tie
    assert r.status_code == 422
    body = {"variant": "three", "players": ["Anna", "Beat", "Cla"], "cells": _api_cells(_three_cells())}
    api = _api_error(client, circle, {**body, "cuts": [{"row_key": "suit_C", "end": "high", "order": [2, 0]}]})
    assert flashes(r.text) == [api] == ["The cut for row “Acorns” names a player who is not in the tie."]


def test_other_cells_make_other_ties_and_the_page_asks_again(client: FlaskClient) -> None:
    circle, _view = create_circle(client)
    url, data = _three(client, circle, cut_by="table")
    shown = hidden(client.post(url, data=data).text, "/paper")["ties_shown"]
    changed = {**data, "cell_suit_C_1": "99", "cell_suit_H_2": data["cell_suit_H_0"], "ties_shown": shown}
    r = client.post(url, data={**changed, "cut_suit_C_high": "1"})
    assert r.status_code == 200 and any("how the table cut each tie" in f for f in flashes(r.text))
    assert 'name="cut_suit_H_low"' in r.text and 'name="cut_suit_C_high"' not in r.text  # Anna and Cla, lowest
    assert not re.search(r'class="list history"', client.get(circle).text)  # nothing was written
