"""Rules that live once, in the pure cores, give the same answer through the pages and the
API: the club variant's French suit names, three players paying per stick, a real
three-way cut, ids that are not ours."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from shared_helpers import hidden
from web_helpers import create_circle, start_evening

from scorekeeper.game.cards import DeckStyle
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import Variant, default_deck, default_ruleset
from scorekeeper.scoring import Cut
from scorekeeper.services import circles, evenings
from scorekeeper.services.read.snapshot import load_snapshot

API = "/api/v1"


def _api_start(client: FlaskClient, token: str, variant: str, **extra: Any) -> dict[str, Any]:
    names = ["Anna", "Beat", "Cla", "Dora"][: 3 if variant == "three" else 4]
    body = {"variant": variant, "players": names, "first_dealer": 0, "request_id": f"start-{variant}", **extra}
    r = client.post(f"{API}/evenings", json=body, headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 201, r.get_data(as_text=True)
    return dict(r.get_json())


def _token(path: str) -> str:
    return path.rsplit("/", 1)[1]


def test_the_club_variant_is_played_with_french_suit_names_everywhere(client: FlaskClient) -> None:
    assert default_deck(Variant.CLUB) is DeckStyle.FRENCH and default_ruleset(Variant.CLUB).deck is DeckStyle.FRENCH
    assert {v: default_deck(v) for v in Variant if v is not Variant.CLUB} == dict.fromkeys(
        [Variant.THREE, Variant.TEAMS, Variant.SOLO4], DeckStyle.SWISS
    )
    variants = client.get(f"{API}/variants").get_json()["variants"]
    assert {v["variant"]: v["ruleset"]["deck"] for v in variants} == {
        "three": "swiss",
        "teams": "swiss",
        "solo4": "swiss",
        "club": "french",
    }
    write, _view = create_circle(client)
    page = client.get(f"{write}/start?variant=club").text
    assert re.search(r'<input checked[^>]*name="deck"[^>]*value="french"', page), "the form preselects French"
    assert _api_start(client, _token(write), "club")["ruleset"]["deck"] == "french"  # no deck given
    assert _api_start(client, _token(write), "teams")["ruleset"]["deck"] == "swiss"


def test_three_players_pay_per_stick_through_the_pages_and_the_api(app: Flask, client: FlaskClient) -> None:
    write, _view = create_circle(client)
    slate = start_evening(client, write, Variant.THREE, extra={"per_points": "50", "stake_chf": "0.50"})
    by_api = _api_start(client, _token(write), "three", stake={"rappen": 50, "per_points": 50})
    with app.app_context():
        circle, _w = circles.open_circle(_token(write))
        by_page = evenings.get_evening(circle, slate.rsplit("/", 1)[1]).ruleset["stake"]
    assert by_page == by_api["ruleset"]["stake"] == {"rappen": 50, "per_points": 1, "round_to": 5}
    teams = _api_start(client, _token(write), "teams", stake={"rappen": 50, "per_points": 50})
    assert teams["ruleset"]["stake"]["per_points"] == 50


def _three_way_tie(app: Flask, client: FlaskClient) -> tuple[str, str]:
    """(write path, slate path) of a three-player evening whose first row is tied three ways."""
    write, _view = create_circle(client)
    slate = start_evening(client, write, Variant.THREE)
    with app.app_context():
        circle, _w = circles.open_circle(_token(write))
        ev = evenings.get_evening(circle, slate.rsplit("/", 1)[1])
        for seat in range(3):
            entry = HandEntry("suit_C", seat, None, 77, 80)
            ev = evenings.record_hand(ev, entry, expected_version=ev.version, request_id=f"tie-{seat}")
        assert [(t.row_key, t.end) for t in evenings.cuts_and_pending(ev)[1]] == [("suit_C", "all")]
    return write, slate


def _cuts(app: Flask, write: str, slate: str) -> list[Cut]:
    with app.app_context():
        circle, _w = circles.open_circle(_token(write))
        return list(load_snapshot(evenings.get_evening(circle, slate.rsplit("/", 1)[1])).cuts)


def test_a_real_three_way_cut_is_the_same_cut_from_the_page_and_the_api(app: Flask, client: FlaskClient) -> None:
    write, slate = _three_way_tie(app, client)
    page = client.get(slate).text
    r = client.post(f"{slate}/cuts", data={**hidden(page, "/cuts"), "winner": "2", "lowest": "0"})
    assert r.status_code == 302
    by_page = _cuts(app, write, slate)

    write2, slate2 = _three_way_tie(app, client)
    evening = f"{API}/evenings/{slate2.rsplit('/', 1)[1]}"
    version = client.get(f"{evening}/version", headers=_auth(write2)).get_json()["version"]
    body = {"expected_version": version, "request_id": "cut-api", "row_key": "suit_C", "end": "all", "winner": 2}
    r = client.post(f"{evening}/cuts", json={**body, "order": [2, 1, 0]}, headers=_auth(write2))
    assert r.status_code == 200, r.get_data(as_text=True)
    by_api = _cuts(app, write2, slate2)
    assert by_page == by_api == [Cut("suit_C", "all", 2, False, (2, 1, 0))]


def _auth(write: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {_token(write)}"}


def test_ids_that_are_not_ours_are_unknown_to_the_pages_and_the_api(client: FlaskClient) -> None:
    write, _view = create_circle(client)
    for bad in ("bad%00id", "x" * 65, "a.b"):
        assert client.get(f"{write}/e/{bad}").status_code == 404
        r = client.get(f"{API}/evenings/{bad}", headers=_auth(write))
        assert r.status_code == 404 and r.get_json()["error"]["code"] == "not_found"
        assert client.get(f"/t/{bad}").status_code == 403  # a seat page without its seat: refused
        r = client.get(f"{API}/tables/{bad}/seat", headers={"X-Seat-Token": "x" * 43})
        assert r.status_code == 404 and r.get_json()["error"]["code"] == "not_found"
