"""Issue 24: the paper-slate page offers the circle's house rules and the rules of its last
evening besides the four presets (the start page's presets, ``web.rules_form.presets``); a
paper evening of house rules is written with the very rules the page showed and reads right."""

from __future__ import annotations

from dataclasses import replace

from flask import Flask
from flask.testing import FlaskClient
from house_rules_helpers import eleven_rows_with_tutti_and_misere
from shared_helpers import flashes, hidden
from web_helpers import create_circle

from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.models import Circle
from scorekeeper.services import circles as circle_service
from scorekeeper.services import evenings as svc
from scorekeeper.services import house_rules

HOUSE = eleven_rows_with_tutti_and_misere()
SEATS = {"seat_0": "Anna", "seat_1": "Beat", "seat_2": "Cla", "seat_3": "Dora"}


def _circle(write: str) -> Circle:
    circle, _w = circle_service.open_circle(write.split("/")[2])
    return circle


def _typed(page: str) -> dict[str, str]:
    return {
        **hidden(page, "/paper"),
        **SEATS,
        "played_on": "2026-03-06",
        "stake_chf": "0.50",
        "cell_bock_0": "54",  # the house row Bock, x9: 6 x 9
        "cell_obenabe_1": "40",  # x5: 8 x 5
        "counts_in_money": "0",
    }


def test_the_presets_are_the_start_pages(app: Flask, client: FlaskClient) -> None:
    write, _view = create_circle(client)
    page = client.get(f"{write}/paper").text
    assert "Our house rules" not in page and "The rules of our last evening" not in page
    assert page.count('class="button') >= 4  # the four presets of RULES 6, as before
    assert client.get(f"{write}/paper?preset=house").status_code == 404  # none saved yet
    assert client.get(f"{write}/paper?preset=last").status_code == 404
    with app.app_context():
        house_rules.save_house_rules(_circle(write), HOUSE)
    page = client.get(f"{write}/paper?variant=teams").text
    assert f'href="{write}/paper?preset=house">Our house rules<' in page
    page = client.get(f"{write}/paper?preset=house").text
    assert 'aria-current="true">Our house rules<' in page
    assert "Bock" in page and "×9" in page and "Tutti" in page
    assert page.count('inputmode="numeric"') == 2 * len(HOUSE.rows)
    assert f'name="stake_chf" inputmode="decimal" value="{HOUSE.stake.rappen / 100:.2f}"' in page  # its own stake
    assert 'name="rules"' in page  # the rules shown travel with the form


def test_a_paper_evening_of_house_rules_is_written_and_shows_right(app: Flask, client: FlaskClient) -> None:
    write, _view = create_circle(client)
    with app.app_context():
        house_rules.save_house_rules(_circle(write), HOUSE)
    url = f"{write}/paper?preset=house"
    page = client.get(url).text
    with app.app_context():  # the house rules change after the page was shown: the page's rules count
        house_rules.save_house_rules(_circle(write), replace(HOUSE, match_bonus=100))
    r = client.post(url, data=_typed(page))
    assert r.status_code == 302, flashes(r.text)
    evening_id = r.headers["Location"].rsplit("/", 1)[1]
    with app.app_context():
        ev = svc.get_evening(_circle(write), evening_id)
        assert ev.ruleset == replace(HOUSE, stake=replace(HOUSE.stake, rappen=50)).to_dict()
    slate = client.get(r.headers["Location"]).text
    assert "Bock" in slate and slate.count('class="paper"') == 2
    assert ">54<" in slate and ">40<" in slate
    # now the circle has a last evening: the paper page offers its rules too
    page = client.get(f"{write}/paper?preset=last").text
    assert 'aria-current="true">The rules of our last evening<' in page and "Bock" in page


def test_unreadable_rules_write_nothing(app: Flask, client: FlaskClient) -> None:
    write, _view = create_circle(client)
    with app.app_context():
        house_rules.save_house_rules(_circle(write), HOUSE)
    url = f"{write}/paper?preset=house"
    r = client.post(url, data={**_typed(client.get(url).text), "rules": "{not json"})
    assert r.status_code == 302 and r.headers["Location"].endswith("/paper?preset=house")
    assert "could not be read" in " ".join(flashes(client.get(r.headers["Location"]).text))
    with app.app_context():
        assert house_rules.last_rules(_circle(write)) is None  # no evening was written


def test_the_four_presets_write_as_before(app: Flask, client: FlaskClient) -> None:
    write, _view = create_circle(client)
    url = f"{write}/paper?variant=teams"
    page = client.get(url).text
    assert 'name="rules"' not in page
    data = {**hidden(page, "/paper"), **SEATS, "played_on": "2026-03-06", "cell_obenabe_1": "45"}
    r = client.post(url, data={**data, "counts_in_money": "0"})
    assert r.status_code == 302, flashes(r.text)
    with app.app_context():
        ev = svc.get_evening(_circle(write), r.headers["Location"].rsplit("/", 1)[1])
        assert ev.ruleset == default_ruleset(Variant.TEAMS).to_dict()
