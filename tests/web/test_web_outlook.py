"""The outlook on the slate page (issue 13): per side the range, the lines, a decided side in
words and the chance to win as a meter; the cells where a match alone wins are starred; the
same numbers as the API, on the page and in the live fragment; the per-evening setting to
hide it (a CSRF form, remembered, followed by the poll, refused to onlookers)."""

from __future__ import annotations

import html as html_lib
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shared_helpers import SOAK, flashes, hidden
from sqlalchemy import select
from web_helpers import NAMES, create_circle, fill_evening, start_evening, version_of

from scorekeeper.extensions import db
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.models import OutlookForecast


def _api(client: FlaskClient, evening: str) -> dict[str, Any]:
    token, evening_id = evening.split("/")[2], evening.rsplit("/", 1)[1]
    r = client.get(f"/api/v1/evenings/{evening_id}/outlook", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.get_json()
    return data


def _section(page: str) -> str:
    m = re.search(r'<section class="outlook" id="outlook".*?</section>', page, re.S)
    assert m, "no outlook on the page"
    return m.group(0)


def _sides(page: str) -> list[dict[str, str]]:
    """Per side on the page: its number, decided class, win figure, range and lines."""
    out = []
    for m in re.finditer(r'<li class="outlook-side outlook-(\w+)" data-side="(\d+)">(.*?)</li>', _section(page), re.S):
        body = m.group(3)
        win = re.search(r'data-win="([^"]+)"', body)
        assert win, body
        side = {"decided": m.group(1), "side": m.group(2), "win": win.group(1)}
        for name in ("range", "catch-up", "clinch"):
            found = re.search(rf"<dd data-{name}>(.*?)</dd>", body, re.S)
            if found:
                side[name] = html_lib.unescape(found.group(1)).strip()
        side["text"] = html_lib.unescape(re.sub(r"<[^>]+>", " ", body))
        out.append(side)
    return out


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def _says(shown: str | None, need: dict[str, Any] | None) -> bool:
    """The page's words say the API's need (``present.outlook.need_text``, in English): the same
    kind, the same points or matches; nothing when the API has nothing."""
    if need is None:
        return shown is None
    if shown is None:
        return False
    kind, points = need["kind"], need["points"]
    if kind == "cell":
        return shown.startswith("a match in " if points == 257 else f"{_points(points)} in ")
    if kind == "average":
        return shown.startswith(f"{_points(points)} per open row, on average")
    if kind == "matches":
        k = need["matches"]
        return shown.startswith(
            f"at least {k} {'match' if k == 1 else 'matches'}, with 157 points in each other open row"
        )
    return shown == {"there": "already in the lead", "others": "depends on the others", "out": "out of reach"}[kind]


def _signed(n: int) -> str:
    """Net sticks as the page writes them (``present.labels.signed``: a real minus sign)."""
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def _starred(page: str) -> set[tuple[str, int]]:
    return {
        (row, int(side))
        for row, side in re.findall(
            r'<td class="open" data-row="([^"]+)" data-side="(\d+)">[^<]*<(?:span|button) [^>]*class="cell"[^>]*>·'
            r"</(?:span|button)>"
            r'\s*<span class="enough-mark"',
            page,
        )
    }


def _evening(client: FlaskClient, variant: Variant, hands: int, **kw: Any) -> tuple[str, str]:
    write, view = create_circle(client)
    evening = start_evening(client, write, variant)
    fill_evening(client, evening, variant, hands=hands, **kw)
    return evening, evening.replace(write, view)


@pytest.mark.parametrize("variant", list(Variant), ids=[v.value for v in Variant])
def test_the_slate_shows_the_outlook_with_the_apis_numbers(client: FlaskClient, variant: Variant) -> None:
    evening, view = _evening(client, variant, 4)
    page = client.get(evening).text
    api = _api(client, evening)
    sides = _sides(page)
    assert [int(s["side"]) for s in sides] == [s["side"] for s in api["sides"]]
    for shown, s in zip(sides, api["sides"], strict=True):
        assert float(shown["win"]) == s["win"]
        assert shown["decided"] == s["decided"]
        if variant is Variant.THREE:
            assert shown["range"] == f"{_signed(s['min'])} to {_signed(s['max'])}"
            assert "catch-up" not in shown and "Expected" in shown["text"]
        else:
            assert shown["range"] == f"{s['min']} to {s['max']}"
            assert _says(shown.get("catch-up"), s["lead_need"]), (shown, s["lead_need"])
            assert _says(shown.get("clinch"), s["sure_need"]), (shown, s["sure_need"])
            assert "every open row" not in shown["text"]
    for name in NAMES[variant]:
        assert name in _section(page)
    assert "%" in _section(page) and "Chances from 2000 simulated evenings." in _section(page)
    # the onlookers see the same figures, without the setting's button
    seen = client.get(view).text
    assert [s["win"] for s in _sides(seen)] == [s["win"] for s in sides]
    assert "/outlook" not in " ".join(f.split('action="')[1] for f in re.findall(r'<form[^>]*action="[^"]*"', seen))
    # the live fragment (another phone's poll) shows them too
    live = client.get(f"{evening}/version?v={version_of(page) - 1}").text
    assert [s["win"] for s in _sides(live)] == [s["win"] for s in sides]


def test_the_cells_where_a_match_alone_wins_are_starred(client: FlaskClient) -> None:
    # team 1 (seats 0 and 2) writes 150 points, team 2 writes 10: team 1 pulls far ahead
    evening, _view = _evening(client, Variant.TEAMS, 11, points=lambda _i, seat: 150 if seat % 2 == 0 else 10)
    page = client.get(evening).text
    api = _api(client, evening)
    want = {(r["key"], c["side"]) for r in api["rows"] for c in r["cells"] if c["match_enough"]}
    assert want == {("joker1", 0), ("joker2", 0)}, "the constructed evening has cells where a match alone wins"
    assert _starred(page) == want
    assert "a match here alone makes the win sure" in page  # the star has its words


def test_the_words_say_what_the_star_says(client: FlaskClient) -> None:
    # Issue 20, point 9: the star says one match is enough, and so do the words (they used to
    # say "a match in every open row"); the other team's line is an average, and says so.
    evening, _view = _evening(client, Variant.TEAMS, 11, points=lambda _i, seat: 150 if seat % 2 == 0 else 10)
    page = client.get(evening).text
    ahead, behind = _sides(page)
    assert ahead["catch-up"] == "already in the lead"
    assert ahead["clinch"] == "a match in Joker ×7 or Joker ×8"  # the two starred cells
    assert behind["catch-up"] == "140 points per open row, on average"
    assert behind["clinch"] == "depends on the others"
    assert "every open row" not in _section(page)
    # one more hand: a hand of 110 points in Joker ×8 is the least (a match in Joker ×7 also does)
    evening, _view = _evening(client, Variant.TEAMS, 12, points=lambda _i, seat: 150 if seat % 2 == 0 else 10)
    page = client.get(evening).text
    ahead, behind = _sides(page)
    assert ahead["clinch"] == "110 points in Joker ×8"
    assert _starred(page) == {("joker1", 0), ("joker2", 0)}
    assert behind["catch-up"] == "at least 1 match, with 157 points in each other open row"


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "1 point in any of its open rows"),
        ("de_CH", "1 Punkt in irgendeiner offenen Zeile"),
        ("fr_CH", "1 point dans n’importe quelle ligne ouverte"),
        ("it_CH", "1 punto in una qualsiasi riga aperta"),
    ],
)
def test_one_point_is_one_point_in_every_language(client: FlaskClient, lang: str, words: str) -> None:
    # club variant: both teams write 100 in their first row (100 x 1): one point anywhere takes the lead
    evening, _view = _evening(client, Variant.CLUB, 2, points=lambda _i, _seat: 100)
    client.set_cookie("lang", lang)
    sides = _sides(client.get(evening).text)
    assert [s["catch-up"].split(" (")[0] for s in sides] == [words, words]  # (and what a Misère means)
    assert "1 points" not in _section(client.get(evening).text)


def test_row_by_row_says_what_one_hand_needs(client: FlaskClient) -> None:
    evening, _view = _evening(client, Variant.TEAMS, 11, points=lambda _i, seat: 150 if seat % 2 == 0 else 10)
    section = _section(client.get(evening).text)
    assert "What each open cell adds" not in section
    assert "What one hand in the row needs on its own to take the lead:" in section
    api = _api(client, evening)
    cells = {(r["key"], c["side"]): c for r in api["rows"] for c in r["cells"] if c["open"]}
    body = re.search(r'<table class="plain outlook-table">.*?</table>', section, re.S)
    assert body
    shown = {
        (key, side): re.sub(r"<[^>]+>", "", text).strip()
        for key, side, text in re.findall(
            r'<td class="num" data-row="([^"]+)" data-side="(\d+)">(.*?)</td>', body.group(0), re.S
        )
    }
    assert shown, "row by row shows the open cells"
    for (key, side), text in shown.items():
        if (key, int(side)) not in cells:  # written: nothing to need
            assert text == "", (key, side, text)
            continue
        alone = cells[key, int(side)]["lead_alone"]
        mark = "–" if alone is None else "✓" if alone == 0 else "match" if alone == 257 else str(alone)
        assert text.startswith(mark), (key, side, text)


@pytest.mark.parametrize("early", [True, False], ids=["ended early", "every cell written"])
def test_nothing_is_needed_once_the_evening_is_over(client: FlaskClient, early: bool) -> None:
    rs = default_ruleset(Variant.TEAMS)
    evening, _view = _evening(client, Variant.TEAMS, 5 if early else rs.n_hands)
    if early:  # a full slate is over by itself: the write that fills the last cell ends it
        fields = hidden(client.get(evening).text, "/end")
        r = client.post(f"{evening}/end", data={**fields, "early": "1", "counts_in_money": "1"})
        assert r.status_code == 302
    token, evening_id = evening.split("/")[2], evening.rsplit("/", 1)[1]
    ended = client.get(f"/api/v1/evenings/{evening_id}", headers={"Authorization": f"Bearer {token}"})
    assert ended.get_json()["status"] == "ended"
    section = _section(client.get(evening).text)
    assert "outlook-side" in section  # the outlook stays, saying who won
    assert "data-catch-up" not in section and "data-clinch" not in section
    assert "To take the lead" not in section and "Sure to win" not in section and "Row by row" not in section
    assert all(s["lead_need"] is None and s["sure_need"] is None for s in _api(client, evening)["sides"])


def test_a_decided_side_is_said_in_words(client: FlaskClient) -> None:
    rs = default_ruleset(Variant.TEAMS)
    evening, _view = _evening(client, Variant.TEAMS, rs.n_hands, points=lambda _i, seat: 120 if seat % 2 else 30)
    sides = _sides(client.get(evening).text)
    assert [s["decided"] for s in sides] == ["lost", "won"]
    assert "Can no longer win" in sides[0]["text"] and "0 %" in sides[0]["text"]
    assert "✓ Has won" in sides[1]["text"] and "100 %" in sides[1]["text"]
    assert "simulated evenings" not in _section(client.get(evening).text)  # nothing left to simulate


def _toggle(client: FlaskClient, evening: str, value: str, page: str | None = None) -> Any:
    html = page if page is not None else client.get(evening).text
    fields = hidden(html, "/outlook")
    return client.post(f"{evening}/outlook", data={**fields, "hidden": value})


def test_the_table_can_hide_the_outlook_and_every_phone_follows(app: Flask, client: FlaskClient) -> None:
    evening, view = _evening(client, Variant.CLUB, 3)
    page = client.get(evening).text
    version = version_of(page)
    assert client.get(f"{evening}/version?v={version}&o=0").status_code == 204

    r = _toggle(client, evening, "1", page)
    assert r.status_code == 302 and r.headers["Location"].endswith("#outlook")
    page = client.get(evening).text
    assert "The outlook is hidden for this evening." in flashes(page)
    assert "outlook-side" not in page and "Show the outlook" in page
    assert version_of(page) == version  # not a change of the slate: a phone typing a hand gets no conflict
    assert _api(client, evening)["hidden"] is True and _api(client, evening)["sides"] == []
    # every other phone's poll brings the hidden outlook; then it is quiet again
    live = client.get(f"{evening}/version?v={version}&o=0")
    assert live.status_code == 200 and "The outlook is hidden for this evening." in live.text
    assert client.get(f"{evening}/version?v={version}&o=1").status_code == 204
    assert 'o=1"' in live.text or "o=1&" in live.text
    # hidden: not computed (the last hand taken back: a new version, read while hidden)
    assert client.post(f"{evening}/undo", data=hidden(page, "/undo")).status_code == 302
    assert version_of(client.get(evening).text) == version + 1
    with app.app_context():
        stored = db.session.execute(select(OutlookForecast.version)).scalars().all()
    assert stored == [version]  # what was simulated before it was hidden, nothing since

    r = _toggle(client, evening, "0")
    assert r.status_code == 302
    page = client.get(evening).text
    assert "The outlook is shown again." in flashes(page) and "outlook-side" in page
    assert _api(client, evening)["hidden"] is False


def test_the_setting_refuses_what_it_should(client: FlaskClient) -> None:
    evening, view = _evening(client, Variant.THREE, 2)
    page = client.get(evening).text
    # an onlooker: no button, and a forged post is refused
    assert client.post(f"{view}/outlook", data={**hidden(page, "/outlook"), "hidden": "1"}).status_code == 403
    # a value that is neither: a message, nothing changed
    r = _toggle(client, evening, "maybe", page)
    assert r.status_code == 302
    after = client.get(evening).text
    assert "Hide or show the outlook: nothing else can be chosen here." in flashes(after)
    assert "outlook-side" in after
    # without the CSRF token: nothing changed
    r = client.post(f"{evening}/outlook", data={"hidden": "1"})
    assert r.status_code == 400
    assert "outlook-side" in client.get(evening).text


def test_an_ended_evening_keeps_its_setting(client: FlaskClient) -> None:
    rs = default_ruleset(Variant.THREE)
    evening, _view = _evening(client, Variant.THREE, rs.n_hands)
    page = client.get(evening).text
    if f'action="{evening}/end"' in page:  # a tie still to cut (else over with its last cell): closing cuts it
        r = client.post(f"{evening}/end", data=hidden(page, "/end"))
        assert r.status_code == 302
    page = client.get(evening).text
    assert "/reopen" in page and "outlook-side" in page
    assert _toggle(client, evening, "1", page).status_code == 302
    assert "outlook-side" not in client.get(evening).text


@settings(max_examples=20 if SOAK else 5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(variant=st.sampled_from(list(Variant)), share=st.floats(0, 1), seed=st.integers(0, 10_000))
def test_page_and_api_give_the_same_numbers(client: FlaskClient, variant: Variant, share: float, seed: int) -> None:
    hands = round(share * default_ruleset(variant).n_hands)
    evening, _view = _evening(client, variant, hands, points=lambda i, seat: (seed + 53 * i + 11 * seat) % 151)
    page = client.get(evening).text
    api = _api(client, evening)
    assert _starred(page) == {(r["key"], c["side"]) for r in api["rows"] for c in r["cells"] if c["match_enough"]}
    for shown, s in zip(_sides(page), api["sides"], strict=True):
        assert float(shown["win"]) == s["win"] and shown["decided"] == s["decided"]
        if variant is not Variant.THREE:
            assert shown["range"] == f"{s['min']} to {s['max']}"
            assert _says(shown.get("catch-up"), s["lead_need"]), (shown, s["lead_need"])
            assert _says(shown.get("clinch"), s["sure_need"]), (shown, s["sure_need"])
