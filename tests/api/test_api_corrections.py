"""Corrections (old and new kept), undo, and ties decided by a cut: real, drawn, three-way."""

from __future__ import annotations

from typing import Any

from api_helpers import Api, error_of, new_circle, start
from flask.testing import FlaskClient
from shared_helpers import rid


def record(api: Api, ev: dict[str, Any], seat: int, row: str, points: int, **extra: Any) -> dict[str, Any]:
    body = {
        "expected_version": ev["version"],
        "request_id": rid(),
        "declarer_seat": seat,
        "row_key": row,
        "declarer_points": points,
        "defender_points": 157 - points,
        **extra,
    }
    return api.ok("POST", f"/evenings/{ev['id']}/hands", body, schema="Evening")


def cell(ev: dict[str, Any], row: str, side: int) -> Any:
    return next(r for r in ev["slate"]["rows"] if r["key"] == row)["cells"][side]


def test_correct_an_entry_keeps_old_and_new(client: FlaskClient) -> None:
    api, view = new_circle(client)
    ev = start(api, "teams")
    ev = record(api, ev, 0, "suit_H", 120)  # pagat order: spades x1, clubs x2, diamonds x3, hearts x4
    ev = record(api, ev, 1, "obenabe", 80)
    assert ev["slate"]["totals"] == [48, 40]
    fix = {
        "expected_version": ev["version"],
        "request_id": rid(),
        "declarer_seat": 2,
        "row_key": "suit_H",
        "declarer_points": 129,
        "defender_points": 28,
        "author": "Anna",
    }
    fixed = api.ok("PUT", f"/evenings/{ev['id']}/entries/0", fix, schema="Evening")
    assert fixed["version"] == 3 and fixed["slate"]["totals"] == [48, 40]  # 12 x 4 either way
    fix2 = {
        **fix,
        "request_id": rid(),
        "expected_version": 3,
        "declarer_points": 157,
        "defender_points": 0,
        "match": True,
    }
    fixed = api.ok("PUT", f"/evenings/{ev['id']}/entries/0", fix2, schema="Evening")
    assert fixed["slate"]["totals"] == [100, 40] and cell(fixed, "suit_H", 0)["match"] is True
    entries = view.ok("GET", f"/evenings/{ev['id']}/entries", schema="Entries")["entries"]
    assert entries[0]["hand"]["declarer_seat"] == 2 and entries[0]["hand"]["match"] is True
    items = view.ok("GET", f"/evenings/{ev['id']}/corrections", schema="Corrections")["items"]
    assert [(i["kind"], i["index"]) for i in items] == [("correction", 0), ("correction", 0)]
    first, second = items
    assert first["old"]["declarer_points"] == 120 and first["new"]["declarer_points"] == 129
    assert second["old"] == first["new"] and second["new"]["match"] is True
    assert first["author"] == "Anna" and first["at"] <= second["at"]
    # A correction into a row the side filled since: refused, nothing written.
    clash = {
        **fix,
        "request_id": rid(),
        "expected_version": fixed["version"],
        "declarer_seat": 1,
        "row_key": "obenabe",
        "declarer_points": 100,
        "defender_points": 57,
    }
    error_of(api.send("PUT", f"/evenings/{ev['id']}/entries/0", clash), 422, "row_closed")
    # The same values again: nothing to correct, the version stays.
    same = api.ok("PUT", f"/evenings/{ev['id']}/entries/0", {**fix2, "request_id": rid(), "expected_version": 4})
    assert same["version"] == 4


def test_undo_takes_back_the_last_hand(client: FlaskClient) -> None:
    api, view = new_circle(client)
    ev = start(api)
    ev = record(api, ev, 0, "suit_C", 100)
    ev = record(api, ev, 1, "obenabe", 60)
    undo = {"expected_version": ev["version"], "request_id": "undo-1"}
    back = api.ok("POST", f"/evenings/{ev['id']}/undo", undo, schema="Evening")
    assert back["version"] == 3 and back["slate"]["hands_dealt"] == 1 and cell(back, "obenabe", 1) is None
    assert "obenabe" in back["slate"]["open_rows"][1]
    assert back["slate"]["turn"]["dealer"] == 1
    again = api.ok("POST", f"/evenings/{ev['id']}/undo", undo)  # a double tap undoes once
    assert again["version"] == 3 and again["slate"]["hands_dealt"] == 1
    items = view.ok("GET", f"/evenings/{ev['id']}/corrections", schema="Corrections")["items"]
    assert [(i["kind"], i["index"], i["new"]) for i in items] == [("undo", 1, None)]
    assert items[0]["old"]["row_key"] == "obenabe" and items[0]["old"]["declarer_points"] == 60


def test_real_cut_and_drawn_cut(client: FlaskClient) -> None:
    api, view = new_circle(client)
    ev = start(api)
    eid = ev["id"]
    for seat, points in ((0, 100), (1, 100), (2, 57)):  # a tie for the sticks in the acorns row
        ev = record(api, ev, seat, "suit_C", points)
    for seat in range(3):  # three equal cells in Obenabe
        ev = record(api, ev, seat, "obenabe", 50)
    cuts = view.ok("GET", f"/evenings/{eid}/cuts", schema="Cuts")
    assert cuts["cuts"] == []
    assert cuts["pending"] == [
        {"row_key": "suit_C", "end": "high", "sides": [0, 1]},
        {"row_key": "obenabe", "end": "all", "sides": [0, 1, 2]},
    ]
    base = {"expected_version": ev["version"], "request_id": rid()}
    real = api.ok(
        "POST", f"/evenings/{eid}/cuts", {**base, "row_key": "suit_C", "end": "high", "winner": 1}, schema="Evening"
    )
    assert real["cuts"] == [{"row_key": "suit_C", "end": "high", "winner": 1, "drawn": False, "order": [1, 0]}]
    three = {"expected_version": real["version"], "request_id": rid(), "row_key": "obenabe", "end": "all", "winner": 2}
    error_of(api.post(f"/evenings/{eid}/cuts", three), 422, "cut_order_required")
    error_of(api.post(f"/evenings/{eid}/cuts", {**three, "order": [2, 0, 0]}), 422, "cut_invalid")
    error_of(api.post(f"/evenings/{eid}/cuts", {**three, "winner": 5}), 422, "cut_invalid")
    drawn = api.ok(
        "POST",
        f"/evenings/{eid}/cuts/draw",
        {"expected_version": real["version"], "request_id": rid()},
        schema="Evening",
    )
    assert drawn["pending_ties"] == [] and len(drawn["cuts"]) == 2
    lottery = next(c for c in drawn["cuts"] if c["row_key"] == "obenabe")
    assert lottery["drawn"] is True and sorted(lottery["order"]) == [0, 1, 2]
    # A re-cut at the table replaces the draw.
    recut = api.ok("POST", f"/evenings/{eid}/cuts", {**three, "expected_version": drawn["version"], "order": [2, 0, 1]})
    assert next(c for c in recut["cuts"] if c["row_key"] == "obenabe")["order"] == [2, 0, 1]
    ended = api.ok(
        "POST",
        f"/evenings/{eid}/end",
        {"expected_version": recut["version"], "request_id": rid(), "early": True},
        schema="Evening",
    )
    rows = {r["row_key"]: r for r in ended["result"]["rows"]}
    assert rows["suit_C"]["marks"] == [[0, 0], [1, 0], [0, 1]]  # Beat won the cut: his stick; Cla's potato
    assert rows["obenabe"]["marks"] == [[0, 0], [0, 2], [2, 0]]  # Cla first, Beat last; Obenabe counts x2
    assert sum(ended["payout"]["net"]) == 0
    assert ended["result"]["net"] == [0, -1, 1] and ended["result"]["winners"] == [2]
    assert ended["payout"]["net"] == [0, -100, 100]


def test_correction_removes_a_tie_and_its_cut(client: FlaskClient) -> None:
    api, _view = new_circle(client)
    ev = start(api)
    for seat, points in ((0, 90), (1, 90), (2, 10)):
        ev = record(api, ev, seat, "suit_C", points)
    cut = api.ok(
        "POST",
        f"/evenings/{ev['id']}/cuts",
        {"expected_version": ev["version"], "request_id": rid(), "row_key": "suit_C", "end": "high", "winner": 0},
    )
    assert len(cut["cuts"]) == 1
    fix = {
        "expected_version": cut["version"],
        "request_id": rid(),
        "declarer_seat": 1,
        "row_key": "suit_C",
        "declarer_points": 91,
        "defender_points": 66,
    }
    fixed = api.ok("PUT", f"/evenings/{ev['id']}/entries/1", fix)
    assert fixed["cuts"] == [] and fixed["pending_ties"] == []
