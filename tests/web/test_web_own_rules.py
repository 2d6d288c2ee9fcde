"""Issue 24: a circle's own rules on the start page - presets, the row editor (a step per tap,
plain forms), house rules saved and defaulted, bad rule sets refused in the user's language."""

from __future__ import annotations

import html as html_lib
import re
from html.parser import HTMLParser

from flask import Flask
from flask.testing import FlaskClient
from shared_helpers import flashes
from sqlalchemy import func, select
from web_helpers import create_circle, start_evening

from scorekeeper.extensions import db
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.models import Circle, Evening
from scorekeeper.services import circles as circle_service
from scorekeeper.services import evenings as svc
from scorekeeper.services.read.replay import ruleset_of


class _Sent(HTMLParser):
    """The fields a browser sends with the form posting to ``action_end`` (no button)."""

    def __init__(self, action_end: str) -> None:
        super().__init__()
        self.action_end, self._in = action_end, False
        self.fields: dict[str, str] = {}
        self._select: str | None = None
        self._first: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self._in = a.get("action", "").split("?")[0].endswith(self.action_end)
        if not self._in:
            return
        if tag == "input" and "name" in a:
            kind = a.get("type", "text")
            if kind in ("radio", "checkbox"):
                if "checked" in a:
                    self.fields[a["name"]] = a.get("value", "y")
            else:
                self.fields[a["name"]] = html_lib.unescape(a.get("value", ""))
        elif tag == "select":
            self._select = a.get("name")
        elif tag == "option" and self._select:
            self._first.setdefault(self._select, a.get("value", ""))
            if "selected" in a:
                self.fields[self._select] = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._in = False
        elif tag == "select" and self._select:
            self.fields.setdefault(self._select, self._first.get(self._select, ""))
            self._select = None


def sent(html: str, action_end: str = "/start/own") -> dict[str, str]:
    p = _Sent(action_end)
    p.feed(html)
    assert p.fields, f"no form posting to {action_end}"
    return dict(p.fields)


def _row_names(html: str) -> list[str]:
    table = html.split('class="slate own-rows"', 1)[1].split("</table>", 1)[0]
    return [
        html_lib.unescape(m) for m in re.findall(r'<th scope="row" class="rowlabel"><label[^>]*>(.*?)</label>', table)
    ]


def _step(client: FlaskClient, url: str, page: str, step: str, **typed: str) -> str:
    r = client.post(url, data={**sent(page), **typed, "step": step})
    assert r.status_code == 200, flashes(r.text)
    return r.text


def _count(app: Flask) -> int:
    with app.app_context():
        return int(db.session.execute(select(func.count(Evening.id))).scalar_one())


def _circle(app: Flask, write: str) -> Circle:
    circle, _w = circle_service.open_circle(write.split("/")[2])
    return circle


def test_an_edited_rule_set_starts_an_evening_with_those_rows(app: Flask, client: FlaskClient) -> None:
    write, _view = create_circle(client)
    url = f"{write}/start/own"
    page = client.get(f"{url}?preset=teams").text
    assert _row_names(page) == ["Shields", "Acorns", "Bells", "Roses", "Obenabe", "Undenufe", "Joker", "Joker"]
    page = _step(client, url, page, "add", add_row="slalom")
    assert _row_names(page)[-1] == "Slalom"
    page = _step(client, url, page, "up:8")
    page = _step(client, url, page, "up:7", factor_0="11")  # a factor typed before a step is kept
    assert _row_names(page)[6] == "Slalom"
    fields = sent(page)
    assert fields["factor_0"] == "11" and fields["factor_6"] == "9"
    data = {**fields, "seat_0": "Anna", "seat_1": "Beat", "seat_2": "Cla", "seat_3": "Dora", "first_dealer": "2"}
    r = client.post(url, data={**data, "factor_6": "13", "step": "start"})
    assert r.status_code == 302, flashes(r.text)
    r2 = client.post(url, data={**data, "factor_6": "13", "step": "start"})  # double tap: one evening
    assert r2.headers["Location"] == r.headers["Location"]
    with app.app_context():
        ev = svc.get_evening(_circle(app, write), r.headers["Location"].rsplit("/", 1)[1])
        rules = ruleset_of(ev)
        assert [row.key for row in rules.rows][4:7] == ["obenabe", "undenufe", "slalom"]
        assert rules.row("suit_S").factor == 11 and rules.row("slalom").factor == 13
        assert ev.first_dealer == 2 and svc.names_of(ev) == ("Anna", "Beat", "Cla", "Dora")
        assert db.session.execute(select(func.count(Evening.id))).scalar_one() == 1
    slate = html_lib.unescape(client.get(r.headers["Location"]).text)
    assert re.search(r"Slalom <span class=\"factor\">×13</span>", slate)


def test_steps_without_script_change_nothing_stored(app: Flask, client: FlaskClient) -> None:
    write, _view = create_circle(client)
    url = f"{write}/start/own"
    page = client.get(f"{url}?preset=three").text
    names = _row_names(page)
    page = _step(client, url, page, "down:0")
    assert _row_names(page)[:2] == [names[1], names[0]]
    page = _step(client, url, page, "remove:0")
    assert _row_names(page) == names[:1] + names[2:]
    page = _step(client, url, page, "up:99")  # out of range: nothing moves
    assert _row_names(page) == names[:1] + names[2:]
    page = _step(client, url, page, "add", add_row="nonsense")
    assert "Choose the row to add." in flashes(page)
    assert _count(app) == 0
    with app.app_context():
        assert _circle(app, write).house_rules is None


def test_bad_rule_sets_are_refused_with_the_cores_message(app: Flask, client: FlaskClient) -> None:
    write, _view = create_circle(client)
    url = f"{write}/start/own"
    page = client.get(f"{url}?preset=teams").text
    page = _step(client, url, page, "add", add_row="gustav")  # a Gustav outside three players
    assert 'id="rules-problem"' in page  # said as soon as the rows are shown
    data = {**sent(page), "seat_0": "Anna", "seat_1": "Beat", "seat_2": "Cla", "seat_3": "Dora"}
    r = client.post(url, data={**data, "step": "start"})
    assert r.status_code == 422
    message = " ".join(flashes(r.text))
    assert message.startswith("These rules cannot be played:")
    r = client.post(url, data={**data, "step": "save"})
    assert r.status_code == 422
    r = client.post(url, data={**data, "step": "start"}, headers={"Accept-Language": "de"})
    german = " ".join(flashes(r.text))
    assert message == "These rules cannot be played: Gustav is played by three players; four play Riesenslalom (row 9)."
    assert german == (
        "Diese Regeln kann man nicht spielen: Gustav spielen drei Spieler; zu viert spielt man Riesenslalom (Zeile 9)."
    )
    assert "ß" not in german
    r = client.post(url, data={**data, "factor_0": "0", "step": "start"})  # a factor of 0
    assert r.status_code == 422 and "A factor is a whole number from 1 to 1000." in r.text
    r = client.post(url, data={**data, "rules": "{not json", "step": "start"})  # a tampered page
    assert r.status_code == 302 and "could not be read" in " ".join(flashes(client.get(r.headers["Location"]).text))
    assert _count(app) == 0
    with app.app_context():
        assert _circle(app, write).house_rules is None


def test_house_rules_are_saved_and_are_the_default(app: Flask, client: FlaskClient) -> None:
    write, _view = create_circle(client)
    circle_page = client.get(write).text
    assert 'id="start-house"' not in circle_page and "Set our house rules" in circle_page
    url = f"{write}/start/own"
    page = client.get(f"{url}?preset=club").text
    page = _step(client, url, page, "remove:5")  # the club without Obenabe (a house rule)
    r = client.post(url, data={**sent(page), "factor_0": "3", "stake_chf": "0.20", "step": "save"})
    assert r.status_code == 302, flashes(r.text)
    assert "our house rules from now on" in " ".join(flashes(client.get(r.headers["Location"]).text))
    with app.app_context():
        stored = _circle(app, write).house_rules
    assert stored is not None and stored["rows"][0]["factor"] == 3 and stored["stake"]["rappen"] == 20
    assert len(stored["rows"]) == 11 and "obenabe" not in [row["key"] for row in stored["rows"]]
    assert _count(app) == 0  # saving starts nothing
    # the default: the start page opens with them, the circle page offers them first
    r = client.get(f"{write}/start")
    assert r.status_code == 302 and r.headers["Location"].endswith("/start/own?preset=house")
    page = client.get(r.headers["Location"]).text
    assert sent(page)["factor_0"] == "3" and 'aria-current="true">Our house rules<' in page
    circle_page = html_lib.unescape(client.get(write).text)
    assert 'id="start-house"' in circle_page and "×3" in circle_page
    data = {**sent(page), "seat_0": "Anna", "seat_1": "Beat", "seat_2": "Cla", "seat_3": "Dora", "step": "start"}
    r = client.post(url, data=data)
    assert r.status_code == 302
    with app.app_context():
        ev = svc.get_evening(_circle(app, write), r.headers["Location"].rsplit("/", 1)[1])
        assert ev.ruleset == stored
    # the four presets are still there, exactly as before
    page = client.get(f"{write}/start?variant=teams").text
    assert 'id="start-form"' in page and "Our house rules" in page


def test_the_rules_of_our_last_evening(app: Flask, client: FlaskClient) -> None:
    write, _view = create_circle(client)
    page = client.get(f"{write}/start/own?preset=last").text
    assert "no such rules yet" in " ".join(flashes(page))  # none yet: the book's rules
    ev = start_evening(client, write, Variant.THREE, extra={"factor_gustav": "5", "stake_chf": "2.00"})
    page = client.get(f"{write}/start/own?preset=last").text
    fields = sent(page)
    rules = default_ruleset(Variant.THREE)
    assert fields["factor_7"] == "5" and fields["stake_chf"] == "2.00"
    assert [k for k, v in fields.items() if k.startswith("factor_")] == [f"factor_{i}" for i in range(len(rules.rows))]
    assert ev and 'aria-current="true">The rules of our last evening<' in page
    assert "The rules of our last evening" in client.get(f"{write}/start?variant=three").text


def test_a_house_row_and_the_scoring_settings(app: Flask, client: FlaskClient) -> None:
    write, _view = create_circle(client)
    url = f"{write}/start/own"
    page = client.get(f"{url}?preset=teams").text
    assert 'id="scoring"' in page
    page = _step(client, url, page, "add", add_row="house")
    assert "A house row needs a name" in " ".join(flashes(page)) and len(_row_names(page)) == 8
    page = _step(client, url, page, "add", add_row="house", add_name="  Molotow ")
    assert _row_names(page)[-1] == "Molotow" and 'id="house-rows-note"' in page
    page = _step(client, url, page, "add", add_row="house", add_name="molotow")  # the same row twice
    assert 'id="rules-problem"' in page
    page = _step(client, url, page, "remove:9")
    assert 'id="rules-problem"' not in page
    fields = {**sent(page), "seat_0": "Anna", "seat_1": "Beat", "seat_2": "Cla", "seat_3": "Dora"}
    fields |= {"scoring": "full", "match_points": "157", "match_bonus": "500", "countermatch_cost": "100"}
    r = client.post(url, data={**fields, "match_bonus": "x", "step": "start"})
    assert r.status_code == 422 and "The match bonus is a whole number from 0 to 100000." in r.text
    r = client.post(url, data={**fields, "step": "start"})
    assert r.status_code == 302, flashes(r.text)
    with app.app_context():
        ev = svc.get_evening(_circle(app, write), r.headers["Location"].rsplit("/", 1)[1])
        rules = ruleset_of(ev)
    house = rules.rows[-1]
    assert house.name == "Molotow" and not house.playable and house.factor == 9
    assert (rules.scoring.value, rules.match_points, rules.match_bonus, rules.countermatch_cost) == (
        "full",
        157,
        500,
        100,
    )
    assert "Molotow" in client.get(r.headers["Location"]).text


def test_another_table_takes_its_own_scoring(client: FlaskClient) -> None:
    write, _view = create_circle(client)
    url = f"{write}/start/own"
    page = client.get(f"{url}?preset=club").text
    assert sent(page)["scoring"] == "full" and sent(page)["match_bonus"] == "100"
    page = _step(client, url, page, "refresh", variant="three")
    assert 'id="scoring"' not in page and "seat_3" not in sent(page)  # three seats, card points
    page = _step(client, url, page, "refresh", variant="teams")
    assert sent(page)["scoring"] == "tenths" and sent(page)["match_bonus"] == "0" and "seat_3" in sent(page)


def test_three_players_are_asked_their_stake_per_stick_on_both_start_pages(client: FlaskClient) -> None:
    """Three players pay per stick (RULES 6.1): neither start page asks per how many points or how
    to round, where the answer would be dropped without a word; the other tables are asked both."""
    write, _view = create_circle(client)
    for page in (client.get(f"{write}/start/own?preset=three").text, client.get(f"{write}/start?variant=three").text):
        assert "per stick" in page and 'name="per_points"' not in page and 'name="round_to"' not in page
    for page in (client.get(f"{write}/start/own?preset=teams").text, client.get(f"{write}/start?variant=teams").text):
        assert "per stick" not in page and 'name="per_points"' in page and 'name="round_to"' in page
