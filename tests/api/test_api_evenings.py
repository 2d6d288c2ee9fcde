"""A complete evening of every variant through the API, from the circle to the money."""

from __future__ import annotations

from typing import Any

import pytest
from api_helpers import HANDS, NAMES, Api, fill, new_circle, start
from flask.testing import FlaskClient
from shared_helpers import rid

from scorekeeper.game.contracts import Contract
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import RuleSet
from scorekeeper.scoring import Slate


def hand_entry(hand: dict[str, Any]) -> HandEntry:
    return HandEntry(
        hand["row_key"],
        hand["declarer_seat"],
        Contract.parse(hand["played_as"]) if hand["played_as"] else None,
        hand["declarer_points"],
        hand["defender_points"],
        hand["match"],
        hand["countermatch"],
        hand["seich"],
    )


@pytest.mark.parametrize("variant", list(HANDS))
def test_complete_evening_through_the_api(client: FlaskClient, variant: str) -> None:
    api, view = new_circle(client)
    evening = start(api, variant, stake={"rappen": 50, "round_to": 5})
    eid = evening["id"]
    assert evening["version"] == 0 and evening["status"] == "open" and evening["can_write"]
    assert evening["slate"]["turn"]["dealer"] == 0 and evening["slate"]["turn"]["forehand"] == 1
    evening, hands = fill(api, evening)
    assert hands == HANDS[variant]
    assert evening["slate"]["complete"] and evening["slate"]["turn"] is None
    assert evening["version"] == hands
    assert all(rows == [] for rows in evening["slate"]["open_rows"])
    # The hand that filled the last cell ended the evening (issue 20.7): it counts at once, nobody has
    # to send "end"; only a tie still to cut (three players) keeps it open until it is cut.
    n = len(evening["players"])
    counted = [r["evenings"] for r in view.ok("GET", "/players/records", schema="PlayerRecords")["records"]]
    if evening["pending_ties"]:
        assert variant == "three" and evening["status"] == "open" and counted == [0] * n
    else:
        assert evening["status"] == "ended" and not evening["ended_early"] and evening["result"] is not None
        assert counted == [1] * n and view.ok("GET", "/evenings", schema="EveningList")["evenings"][0]["money"]

    # The API's totals are the pure core's totals for the same entries.
    entries = api.ok("GET", f"/evenings/{eid}/entries", schema="Entries")["entries"]
    assert [e["index"] for e in entries] == list(range(hands))
    ruleset = RuleSet.from_dict(evening["ruleset"])
    slate = Slate.build(ruleset, 0, [hand_entry(e["hand"]) for e in entries])
    assert evening["slate"]["totals"] == slate.totals
    assert api.ok("GET", f"/evenings/{eid}/slate", schema="Slate") == evening["slate"]

    # End: ties (three players) are cut by a recorded draw; result and money are decided (an evening
    # already over stays as it is: a late "end" changes nothing)
    ended = api.ok(
        "POST", f"/evenings/{eid}/end", {"expected_version": evening["version"], "request_id": rid()}, schema="Evening"
    )
    assert ended["status"] == "ended" and not ended["ended_early"] and not ended["can_write"]
    assert ended["pending_ties"] == []
    standing = view.ok("GET", f"/evenings/{eid}/result", schema="Standing")
    assert standing["decided"] and standing["result"] == ended["result"] and standing["payout"] == ended["payout"]
    result, pay = standing["result"], standing["payout"]
    n_players = len(ended["players"])
    assert len(pay["net"]) == n_players and sum(pay["net"]) == 0
    assert all(t["rappen"] > 0 for t in pay["transfers"])
    settled = [0] * n_players
    for t in pay["transfers"]:
        settled[t["payer"]] -= t["rappen"]
        settled[t["payee"]] += t["rappen"]
    assert settled == pay["net"]
    assert len(pay["transfers"]) <= n_players - 1
    assert result["totals"] == slate.totals and result["winners"]
    if variant == "three":
        assert result["net"] == [s - p for s, p in zip(result["sticks"], result["potatoes"], strict=False)]
        assert sum(result["net"]) == 0
        assert all(sum(m[0] for m in row["marks"]) == sum(m[1] for m in row["marks"]) for row in result["rows"])
    else:
        assert result["net"] is None
        best = max(result["totals"])
        assert result["winners"] == [s for s, t in enumerate(result["totals"]) if t == best]

    # History and records show it; the read-only token sees everything.
    history = view.ok("GET", "/evenings", schema="EveningList")["evenings"]
    assert [h["id"] for h in history] == [eid]
    assert history[0]["status"] == "ended" and history[0]["money"] == pay["net"]
    assert history[0]["players"] == NAMES[:n_players] and history[0]["hands"] == hands
    records = {r["name"]: r for r in view.ok("GET", "/players/records", schema="PlayerRecords")["records"]}
    nets = dict(zip(NAMES, pay["net"], strict=False))
    assert {name: records[name]["net_rappen"] for name in NAMES[:n_players]} == nets
    assert all(records[name]["evenings"] == 1 for name in NAMES[:n_players])
    winners = {s for side in result["winners"] for s in ended["sides"][side]["seats"]}
    assert sum(r["wins"] for r in records.values()) == len(winners)


def test_circle_players_and_variants(client: FlaskClient) -> None:
    api, view = new_circle(client, "  Thursday   Jass ")
    info = view.ok("GET", "/circle", schema="CircleView")
    assert info["circle"]["name"] == "Thursday Jass" and info["can_write"] is False and info["players"] == []
    assert api.ok("GET", "/circle", schema="CircleView")["can_write"] is True
    dora = api.ok("POST", "/players", {"name": "Dora"}, 201, "Player")
    assert dora["name"] == "Dora"
    assert [p["name"] for p in view.ok("GET", "/players", schema="PlayerList")["players"]] == ["Dora"]
    # Starting an evening adds new names to the circle; a known name is reused.
    start(api, "teams")
    names = [p["name"] for p in view.ok("GET", "/players", schema="PlayerList")["players"]]
    assert names == ["Anna", "Beat", "Cla", "Dora"]
    variants = Api(client).ok("GET", "/variants", schema="Variants")["variants"]
    assert {v["variant"]: v["hands"] for v in variants} == HANDS


def test_start_with_options_is_stored_and_idempotent(client: FlaskClient) -> None:
    api, _view = new_circle(client)
    body = {
        "variant": "teams",
        "players": ["A", "B", "C", "D"],
        "first_dealer": 3,
        "request_id": "start-once",
        "options": {
            "suit_order": "swiss",
            "extra_rows": ["slalom", "tuo"],
            "barrel": "book",
            "deck": "french",
            "undenufe_six11": True,
            "factors": {"obenabe": 9},
        },
        "stake": {"rappen": 20, "per_points": 5, "round_to": 1},
    }
    first = api.ok("POST", "/evenings", body, 201, "Evening")
    rs = first["ruleset"]
    assert [r["key"] for r in rs["rows"]][:4] == ["suit_C", "suit_H", "suit_S", "suit_D"]
    assert {"slalom", "tuo"} <= {r["key"] for r in rs["rows"]}
    assert next(r for r in rs["rows"] if r["key"] == "obenabe")["factor"] == 9
    assert rs["stake"] == {"rappen": 20, "per_points": 5, "round_to": 1}
    assert rs["deck"] == "french" and rs["barrel"] == "book" and rs["undenufe_six11"] is True
    assert first["slate"]["turn"]["dealer"] == 3 and first["slate"]["turn"]["forehand"] == 0
    assert [s["seats"] for s in first["sides"]] == [[0, 2], [1, 3]]
    again = api.post("/evenings", body)
    assert again.status_code == 201 and again.get_json()["id"] == first["id"]
    assert len(api.ok("GET", "/evenings")["evenings"]) == 1


def test_a_factor_equal_to_another_rows_is_taken_as_given(client: FlaskClient) -> None:
    """Issue 20: the start page asks before two rows share a factor; an API client says what it
    means, so the evening starts with them (documented on the ``factors`` option)."""
    api, _view = new_circle(client)
    body = {
        "variant": "club",
        "players": ["A", "B", "C", "D"],
        "first_dealer": 0,
        "request_id": "start-shared",
        "options": {"factors": {"suit_H": 5}},
    }
    rows = api.ok("POST", "/evenings", body, 201, "Evening")["ruleset"]["rows"]
    assert [r["key"] for r in rows if r["factor"] == 5] == ["suit_H", "misere_zwueschi"]


def test_early_end_keeps_the_standing(client: FlaskClient) -> None:
    api, _view = new_circle(client)
    evening, hands = fill(api, start(api, "solo4"), count=5)
    eid = evening["id"]
    standing = api.ok("GET", f"/evenings/{eid}/result", schema="Standing")
    assert not standing["decided"] and standing["result"] is None and standing["payout"] is None
    assert standing["totals"] == evening["slate"]["totals"]
    incomplete = api.post(f"/evenings/{eid}/end", {"expected_version": hands, "request_id": rid()})
    assert incomplete.status_code == 422 and incomplete.get_json()["error"]["code"] == "evening_incomplete"
    ended = api.ok(
        "POST",
        f"/evenings/{eid}/end",
        {"expected_version": hands, "request_id": rid(), "early": True},
        schema="Evening",
    )
    assert ended["ended_early"] and ended["result"]["complete"] is False
    assert ended["result"]["totals"] == evening["slate"]["totals"] and sum(ended["payout"]["net"]) == 0
    late = api.post(
        f"/evenings/{eid}/hands",
        {
            "expected_version": ended["version"],
            "request_id": rid(),
            "declarer_seat": 0,
            "row_key": "obenabe",
            "declarer_points": 100,
            "defender_points": 57,
        },
    )
    assert late.status_code == 422 and late.get_json()["error"]["code"] == "evening_ended"
    # reopen to correct a mistake noticed at payout time (a repeated request changes nothing)
    body = {"expected_version": ended["version"], "request_id": rid()}
    reopened = api.ok("POST", f"/evenings/{eid}/reopen", body, schema="Evening")
    assert reopened["status"] == "open" and reopened["version"] == ended["version"] + 1
    assert reopened["result"] is None and reopened["ended_at"] is None
    assert api.ok("POST", f"/evenings/{eid}/reopen", body, schema="Evening")["version"] == reopened["version"]
    twice = api.post(f"/evenings/{eid}/reopen", {"expected_version": reopened["version"], "request_id": rid()})
    assert twice.status_code == 422 and twice.get_json()["error"]["code"] == "evening_open"


def test_version_polling(client: FlaskClient) -> None:
    api, view = new_circle(client)
    evening = start(api)
    path = f"/evenings/{evening['id']}/version"
    first = view.get(path)
    assert first.status_code == 200 and first.get_json() == {"version": 0} and first.headers["ETag"] == '"0"'
    assert view.get(path, query_string={"v": 0}).status_code == 204
    assert view.get(path, headers={"If-None-Match": '"0"'}).status_code == 204
    assert view.get(path, headers={"If-None-Match": 'W/"0"'}).status_code == 204
    assert view.get(path, query_string={"v": "abc"}).status_code == 200
    fill(api, evening, count=1)
    changed = view.get(path, query_string={"v": 0})
    assert changed.status_code == 200 and changed.get_json() == {"version": 1}
    assert view.get(path, headers={"If-None-Match": '"0"'}).status_code == 200
    assert changed.headers["Cache-Control"] == "no-store"


def test_token_in_x_circle_token_header(client: FlaskClient) -> None:
    api, view = new_circle(client)
    evening = start(api)
    plain = client.get(f"/api/v1/evenings/{evening['id']}", headers={"X-Circle-Token": view.token or ""})
    assert plain.status_code == 200 and plain.get_json()["can_write"] is False


def test_seich_in_the_club_variant(app: Any, client: FlaskClient) -> None:
    assert app.config["WTF_CSRF_ENABLED"]  # the API writes below pass with CSRF protection on
    api, _view = new_circle(client)
    ev = start(api, "club")
    turn = ev["slate"]["turn"]
    assert turn["seich_available"] == [0, 1]
    barrel = turn["barrel_seat"]
    path = f"/evenings/{ev['id']}/hands"
    other = next(s for s in range(4) if s != barrel)
    wrong = api.post(path, {"expected_version": 0, "request_id": rid(), "declarer_seat": other, "seich": True})
    assert wrong.status_code == 422 and wrong.get_json()["error"]["code"] == "not_in_barrel"
    with_points = api.post(
        path,
        {
            "expected_version": 0,
            "request_id": rid(),
            "declarer_seat": barrel,
            "seich": True,
            "declarer_points": 100,
            "defender_points": 57,
        },
    )
    assert with_points.status_code == 422 and with_points.get_json()["error"]["code"] == "seich_with_result"
    seich = api.ok(
        "POST",
        path,
        {"expected_version": 0, "request_id": rid(), "declarer_seat": barrel, "seich": True, "row_key": None},
        schema="Evening",
    )
    slate = seich["slate"]
    assert slate["hands_dealt"] == 1 and slate["cells_filled"] == 0 and slate["seich_used"] == [barrel % 2]
    # where it went, as the slate page shows it (issue 20)
    assert slate["seich_hands"] == [{"hand": 1, "seat": barrel} if s == barrel % 2 else None for s in range(2)]
    assert ev["slate"]["seich_hands"] == [None, None]
    assert slate["turn"]["seich_available"] == [1 - barrel % 2] and slate["turn"]["dealer"] == 1
    entries = api.ok("GET", f"/evenings/{ev['id']}/entries")["entries"]
    assert entries == [
        {
            "index": 0,
            "hand": {
                "declarer_seat": barrel,
                "row_key": None,
                "played_as": None,
                "declarer_points": 0,
                "defender_points": 0,
                "match": False,
                "countermatch": False,
                "seich": True,
            },
        }
    ]


def test_a_joker_plays_an_extra_row_only_as_an_evening_option(client: FlaskClient) -> None:
    api, _view = new_circle(client)
    body = {
        "variant": "teams",
        "players": ["A", "B", "C", "D"],
        "first_dealer": 0,
        "request_id": "jokers-plain",
        "options": {"extra_rows": ["slalom"]},
    }
    plain = api.ok("POST", "/evenings", body, 201, "Evening")["ruleset"]["rows"]
    assert [(r["key"], r["factor"]) for r in plain[-3:]] == [("slalom", 7), ("joker1", 8), ("joker2", 9)]
    assert "slalom" not in next(r for r in plain if r["key"] == "joker1")["kinds"]
    body.update(request_id="jokers-wide", options={"extra_rows": ["slalom"], "jokers_play_extras": True})
    wide = api.ok("POST", "/evenings", body, 201, "Evening")["ruleset"]["rows"]
    assert "slalom" in next(r for r in wide if r["key"] == "joker1")["kinds"]


def test_players_carry_the_evenings_short_names(client: FlaskClient) -> None:
    # Issue 20, point 11: the API gives the same short forms as the pages and the picture
    api, _view = new_circle(client)
    names = ["Anna Zimmermann", "Beat Imboden", "Anna Zurbriggen", "Cla Caduff"]
    body = {"variant": "teams", "players": names, "first_dealer": 0, "request_id": rid("start")}
    ev = api.ok("POST", "/evenings", body, 201, "Evening")
    assert [(p["name"], p["short"]) for p in ev["players"]] == [
        ("Anna Zimmermann", "Anna Zimmermann"),
        ("Beat Imboden", "Beat"),
        ("Anna Zurbriggen", "Anna Zurbriggen"),
        ("Cla Caduff", "Cla"),
    ]
    assert api.ok("GET", f"/evenings/{ev['id']}", schema="Evening")["players"] == ev["players"]
