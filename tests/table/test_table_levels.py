"""A computer level per seat (issue 5: easy, normal, strong): stored on the seat, used for
that seat's moves, chosen on the table page and through the API (validated)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from table_helpers import LEVEL, csrf, start, start_evening

from scorekeeper import bots
from scorekeeper.api.shapes import SCHEMAS
from scorekeeper.api.validation import validate
from scorekeeper.bots import LEVELS
from scorekeeper.engine import SeatView
from scorekeeper.game.errors import RuleError
from scorekeeper.game.rulesets import RuleSet, Variant
from scorekeeper.services import digital_table as tables
from scorekeeper.services import seats as seats_svc

API = "/api/v1"


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str]]:
    """The bots' entry point, as the table calls it, wrapped by a spy: records (seat, level) of
    every call and answers as the easy bot would."""
    calls: list[tuple[int, str]] = []

    def choose(view: SeatView, ruleset: RuleSet, level: str, scores: Any = None) -> int:
        calls.append((view.seat, level))
        return bots.choose_action(view, ruleset, LEVEL, scores=scores)

    monkeypatch.setattr(tables, "choose_action", choose)
    return calls


def test_each_computer_plays_at_its_seats_level(app: Flask, spy: list[tuple[int, str]]) -> None:
    with app.app_context():
        ev = start(Variant.TEAMS)
        table = tables.open_table(ev, computers=(1, 2), level="strong")  # seat 0 is a phone: nothing runs yet
        seats_svc.set_computer(table, 3, "normal")
        assert {s.seat: (s.computer, s.level) for s in seats_svc.seats(table) if s.computer} == {
            1: (True, "strong"),
            2: (True, "strong"),
            3: (True, "normal"),
        }
        seats_svc.set_computer(table, 0, "easy")
        st = tables.run_computers(table)
        assert st.hand_over and dict(st.levels) == {0: "easy", 1: "strong", 2: "strong", 3: "normal"}
        levels = {0: "easy", 1: "strong", 2: "strong", 3: "normal"}
        assert spy and {seat for seat, _l in spy} == {0, 1, 2, 3}
        assert all(level == levels[seat] for seat, level in spy)


def test_a_computer_seat_given_again_changes_its_level(app: Flask, spy: list[tuple[int, str]]) -> None:
    with app.app_context():
        table = tables.open_table(start(Variant.THREE), computers=(1,), level="easy")
        assert tables.load(table).levels == {1: "easy"}
        version = tables.load(table).table.version
        seats_svc.set_computer(table, 1, "strong")
        st = tables.load(table)
        assert st.levels == {1: "strong"} and st.table.version == version + 1


def test_an_unknown_level_is_refused_and_changes_nothing(app: Flask) -> None:
    with app.app_context():
        ev = start(Variant.TEAMS)
        with pytest.raises(RuleError) as err:
            tables.open_table(ev, computers=(1,), level="grandmaster")
        assert err.value.code == "level_unknown" and tables.open_table_of(ev) is None
        table = tables.open_table(ev)
        version = tables.load(table).table.version
        with pytest.raises(RuleError) as err:
            seats_svc.set_computer(table, 2, "hard")
        assert err.value.code == "level_unknown"
        st = tables.load(table)
        assert st.computers == frozenset() and st.table.version == version


def test_the_api_takes_an_optional_level_and_refuses_a_bad_one(client: Any, app: Flask) -> None:
    write, evening_id = start_evening(app, Variant.TEAMS)
    auth = {"Authorization": f"Bearer {write}"}
    r = client.post(f"{API}/evenings/{evening_id}/table", json={"computers": [1], "level": "expert"}, headers=auth)
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "invalid_value"
    r = client.post(f"{API}/evenings/{evening_id}/table", json={"computers": [1], "level": "strong"}, headers=auth)
    assert r.status_code == 200
    validate(r.get_json(), SCHEMAS["EveningTable"], SCHEMAS)
    assert [s["level"] for s in r.get_json()["table"]["seats"]] == [None, "strong", None, None]

    r = client.post(f"{API}/evenings/{evening_id}/table/seats/2/computer?level=hard", headers=auth)
    assert r.status_code == 422
    err = r.get_json()["error"]
    assert err["code"] == "level_unknown" and "hard" in err["message"]
    validate(r.get_json(), SCHEMAS["Error"], SCHEMAS)
    r = client.post(f"{API}/evenings/{evening_id}/table/seats/2/computer?level=normal", headers=auth)
    assert r.status_code == 200
    assert [s["level"] for s in r.get_json()["table"]["seats"]] == [None, "strong", "normal", None]
    r = client.post(f"{API}/evenings/{evening_id}/table/seats/3/computer", headers=auth)  # no level: the default
    assert r.status_code == 200 and r.get_json()["table"]["seats"][3]["level"] == "easy"

    doc = client.get(f"{API}/openapi.json").get_json()
    op = doc["paths"][f"{API}/evenings/{{evening_id}}/table/seats/{{seat}}/computer"]["post"]
    level = next(p for p in op["parameters"] if p["name"] == "level")
    assert level["in"] == "query" and not level["required"] and level["schema"]["enum"] == list(LEVELS)


def test_the_table_page_offers_the_three_levels(app: Flask) -> None:
    app.config["WTF_CSRF_ENABLED"] = True
    write, evening_id = start_evening(app, Variant.THREE)
    admin = app.test_client()
    slate = admin.get(f"/c/{write}/e/{evening_id}").get_data(as_text=True)
    r = admin.post(f"/c/{write}/e/{evening_id}/table/open", data={"csrf_token": csrf(slate)})
    assert r.status_code == 302
    page = admin.get(f"/c/{write}/e/{evening_id}/table").get_data(as_text=True)
    for level in ("easy", "normal", "strong"):
        assert page.count(f'name="level" value="{level}"') == 3  # one choice per seat
    r = admin.post(
        f"/c/{write}/e/{evening_id}/table/computer", data={"csrf_token": csrf(page), "seat": 2, "level": "mighty"}
    )
    assert r.status_code == 400
    r = admin.post(
        f"/c/{write}/e/{evening_id}/table/computer", data={"csrf_token": csrf(page), "seat": 2, "level": "strong"}
    )
    assert r.status_code == 302
    page = admin.get(f"/c/{write}/e/{evening_id}/table").get_data(as_text=True)
    assert 'data-level="strong"' in page
    assert re.search(r'name="level" value="strong" class="[^"]*" aria-pressed="true" disabled', page)
    with app.app_context():
        ev_table = tables.open_table_of(_evening(app, write, evening_id))
        assert ev_table is not None and tables.load(ev_table).levels == {2: "strong"}


def _evening(app: Flask, write: str, evening_id: str) -> Any:
    from scorekeeper.services import circles, evenings

    circle, _w = circles.open_circle(write)
    return evenings.get_evening(circle, evening_id)
