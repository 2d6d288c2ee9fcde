"""Every class of bad input answers a JSON error with a stable code and the right status; never a 500."""

from __future__ import annotations

from typing import Any

import pytest
from api_helpers import API, Api, error_of, fill, new_circle, start
from flask.testing import FlaskClient
from shared_helpers import rid


@pytest.fixture
def table(client: FlaskClient) -> tuple[Api, Api, dict[str, Any]]:
    api, view = new_circle(client)
    return api, view, start(api)


def hand(evening: dict[str, Any], **fields: Any) -> dict[str, Any]:
    body = {
        "expected_version": evening["version"],
        "request_id": rid(),
        "declarer_seat": 0,
        "row_key": "suit_C",
        "declarer_points": 100,
        "defender_points": 57,
    }
    body.update(fields)
    return {k: v for k, v in body.items() if v is not ...}


def versions(api: Api, evening: dict[str, Any]) -> int:
    version: int = api.ok("GET", f"/evenings/{evening['id']}/version")["version"]
    return version


def test_malformed_bodies(client: FlaskClient, table: tuple[Api, Api, dict[str, Any]]) -> None:
    api, _view, ev = table
    path = f"{API}/evenings/{ev['id']}/hands"
    auth = api.headers()
    cases = [
        ("{bad", "application/json", "bad_json"),
        ("", "application/json", "bad_json"),
        ("[1, 2]", "application/json", "body_not_object"),
        ("null", "application/json", "body_not_object"),
        ('"text"', "application/json", "body_not_object"),
        ("[" * 50_000 + "]" * 50_000, "application/json", None),  # too deep or too large: 400/413
        (b"\xff\xfe{", "application/json", "bad_json"),
    ]
    for data, ctype, code in cases:
        resp = client.post(path, data=data, content_type=ctype, headers=auth)
        assert resp.status_code in (400, 413), (data[:20], resp.status_code)
        err = error_of(resp, resp.status_code)
        if code:
            assert err["code"] == code
    no_body = client.post(path, headers=auth)
    error_of(no_body, 415, "unsupported_media_type")
    form = client.post(path, data={"declarer_seat": "0"}, headers=auth)
    error_of(form, 415, "unsupported_media_type")
    text = client.post(path, data='{"a": 1}', content_type="text/plain", headers=auth)
    error_of(text, 415, "unsupported_media_type")
    huge = client.post(path, data='{"x": "' + "a" * 70_000 + '"}', content_type="application/json", headers=auth)
    error_of(huge, 413, "too_large")
    assert versions(api, ev) == 0


@pytest.mark.parametrize(
    ("fields", "status", "code", "field"),
    [
        ({"declarer_points": "100"}, 400, "wrong_type", "declarer_points"),
        ({"declarer_points": 100.0}, 400, "wrong_type", "declarer_points"),
        ({"declarer_points": True}, 400, "wrong_type", "declarer_points"),
        ({"declarer_points": None}, 400, "wrong_type", "declarer_points"),
        ({"declarer_seat": "0"}, 400, "wrong_type", "declarer_seat"),
        ({"expected_version": "0"}, 400, "wrong_type", "expected_version"),
        ({"match": "yes"}, 400, "wrong_type", "match"),
        ({"row_key": 3}, 400, "wrong_type", "row_key"),
        ({"request_id": 12}, 400, "wrong_type", "request_id"),
        ({"request_id": ""}, 400, "out_of_range", "request_id"),
        ({"request_id": "x" * 65}, 400, "out_of_range", "request_id"),
        ({"request_id": "a\u0000b"}, 400, "invalid_value", "request_id"),
        ({"request_id": "two words"}, 400, "invalid_value", "request_id"),
        ({"declarer_points": 10**30}, 400, "out_of_range", "declarer_points"),
        ({"declarer_seat": -(10**30)}, 400, "out_of_range", "declarer_seat"),
        ({"expected_version": -1}, 400, "out_of_range", "expected_version"),
        ({"declarer_points": ...}, 400, "missing_field", "declarer_points"),
        ({"declarer_seat": ...}, 400, "missing_field", "declarer_seat"),
        ({"request_id": ...}, 400, "missing_field", "request_id"),
        ({"expected_version": ...}, 400, "missing_field", "expected_version"),
        ({"points": 3}, 400, "unknown_field", "points"),
        ({"played_as": "nonsense"}, 400, "invalid_value", "played_as"),
        # Rules, checked by the core (422): the same codes the pages show.
        ({"declarer_points": 158, "defender_points": -1}, 422, "points_range", None),
        ({"declarer_points": 100, "defender_points": 50}, 422, "points_sum", None),
        ({"declarer_seat": 7}, 422, "declarer_unknown", None),
        ({"declarer_seat": 10**15}, 422, "declarer_unknown", None),
        ({"row_key": "no_such_row"}, 422, "row_unknown", None),
        ({"row_key": None}, 422, "row_required", None),
        ({"match": True}, 422, "match_needs_all", None),
        ({"countermatch": True}, 422, "countermatch_needs_none", None),
        ({"row_key": "joker1"}, 422, "contract_required", None),
        ({"row_key": "suit_C", "played_as": "suit:H"}, 422, "contract_not_allowed", None),
        (
            {"seich": True, "row_key": None, "declarer_points": ..., "defender_points": ...},
            422,
            "seich_not_allowed",
            None,
        ),
    ],
)
def test_bad_hands_write_nothing(
    table: tuple[Api, Api, dict[str, Any]], fields: dict[str, Any], status: int, code: str, field: str | None
) -> None:
    api, _view, ev = table
    err = error_of(api.post(f"/evenings/{ev['id']}/hands", hand(ev, **fields)), status, code)
    if field is not None:
        assert err["params"]["field"] == field
    assert versions(api, ev) == 0


def test_closed_row_and_double_request(table: tuple[Api, Api, dict[str, Any]]) -> None:
    api, _view, ev = table
    path = f"/evenings/{ev['id']}/hands"
    body = hand(ev, request_id="tap-1")
    first = api.ok("POST", path, body, schema="Evening")
    again = api.ok("POST", path, body, schema="Evening")  # a double tap, or a retry after a lost answer
    assert first["version"] == again["version"] == 1
    assert len(api.ok("GET", f"/evenings/{ev['id']}/entries")["entries"]) == 1
    closed = api.post(path, hand(first, declarer_seat=0, row_key="suit_C"))
    err = error_of(closed, 422, "row_closed")
    assert err["params"] == {"row": "suit_C"}
    assert "Acorns" in err["message"] or "Eichel" in err["message"]  # the row by its name, not its key
    assert versions(api, ev) == 1


def test_stale_version_gets_409_and_the_fresh_slate(table: tuple[Api, Api, dict[str, Any]]) -> None:
    api, _view, ev = table
    path = f"/evenings/{ev['id']}/hands"
    phone_a = hand(ev, declarer_seat=0, row_key="suit_C")
    phone_b = hand(ev, declarer_seat=1, row_key="suit_H")
    api.ok("POST", path, phone_a)
    resp = api.post(path, phone_b)
    err = error_of(resp, 409, "stale")
    body = resp.get_json()
    assert err["params"] == {"current_version": 1} and body["version"] == 1
    assert body["slate"]["version"] == 1 and body["slate"]["rows"][0]["cells"][0]["value"] == 100
    assert body["slate"]["open_rows"][1][0] == "suit_C"
    retried = api.ok("POST", path, {**phone_b, "expected_version": body["version"], "request_id": rid()})
    assert retried["version"] == 2
    for action in ("undo", "cuts/draw", "end"):
        stale = api.post(f"/evenings/{ev['id']}/{action}", {"expected_version": 0, "request_id": rid()})
        error_of(stale, 409, "stale")
    assert versions(api, ev) == 2


def test_read_only_token_cannot_write(table: tuple[Api, Api, dict[str, Any]]) -> None:
    api, view, ev = table
    eid = ev["id"]
    writes = [
        ("POST", "/players", {"name": "Eva"}),
        ("POST", "/evenings", {"variant": "three", "players": ["A", "B", "C"], "first_dealer": 0, "request_id": rid()}),
        ("POST", f"/evenings/{eid}/hands", hand(ev)),
        ("PUT", f"/evenings/{eid}/entries/0", hand(ev)),
        ("POST", f"/evenings/{eid}/undo", {"expected_version": 0, "request_id": rid()}),
        (
            "POST",
            f"/evenings/{eid}/cuts",
            {"expected_version": 0, "request_id": rid(), "row_key": "suit_C", "end": "high", "winner": 0},
        ),
        ("POST", f"/evenings/{eid}/cuts/draw", {"expected_version": 0, "request_id": rid()}),
        ("POST", f"/evenings/{eid}/end", {"expected_version": 0, "request_id": rid(), "early": True}),
    ]
    for method, path, body in writes:
        error_of(view.send(method, path, body), 403, "read_only")
    assert view.ok("GET", f"/evenings/{eid}")["can_write"] is False
    assert versions(api, ev) == 0
    assert "Eva" not in {p["name"] for p in api.ok("GET", "/players")["players"]}
    assert len(api.ok("GET", "/evenings")["evenings"]) == 1


def test_unknown_things_look_the_same(client: FlaskClient, table: tuple[Api, Api, dict[str, Any]]) -> None:
    api, _view, ev = table
    stranger = Api(client, "not-a-token-" + "x" * 30)
    other, _ = new_circle(client, "Other circle")
    answers = [
        stranger.get(f"/evenings/{ev['id']}"),
        other.get(f"/evenings/{ev['id']}"),  # a real evening of another circle
        api.get("/evenings/NoSuchEvening123"),
        api.get("/evenings/" + "x" * 500),
        api.get("/evenings/%00"),
        api.get("/evenings/a%00b/slate"),
        stranger.get("/circle"),
        stranger.post(f"/evenings/{ev['id']}/hands", hand(ev)),
        Api(client, "t" * 2000).get("/circle"),
    ]
    bodies = {resp.get_data() for resp in answers}
    for resp in answers:
        error_of(resp, 404, "not_found")
    assert len(bodies) == 1
    error_of(api.get("/no/such/route"), 404, "not_found")
    error_of(api.get(f"/evenings/{ev['id']}/entries/-1"), 404, "not_found")
    assert versions(api, ev) == 0


def test_missing_token_wrong_method(client: FlaskClient, table: tuple[Api, Api, dict[str, Any]]) -> None:
    api, _view, ev = table
    resp = client.get(f"{API}/evenings/{ev['id']}")
    error_of(resp, 401, "token_required")
    assert resp.headers["WWW-Authenticate"].startswith("Bearer")
    error_of(client.get(f"{API}/circle", headers={"Authorization": "Basic abc"}), 401, "token_required")
    resp = api.send("DELETE", f"/evenings/{ev['id']}")
    error_of(resp, 405, "method_not_allowed")
    assert "GET" in resp.headers["Allow"]
    error_of(api.send("PATCH", "/circles", {"name": "x"}), 405, "method_not_allowed")
    error_of(api.get(f"/evenings/{ev['id']}/hands"), 405, "method_not_allowed")


def test_messages_follow_accept_language(table: tuple[Api, Api, dict[str, Any]]) -> None:
    api, _view, ev = table
    path = f"/evenings/{ev['id']}/hands"
    english = error_of(
        api.post(path, hand(ev, defender_points=50), headers={"Accept-Language": "en"}), 422, "points_sum"
    )
    german = error_of(
        api.post(path, hand(ev, defender_points=50), headers={"Accept-Language": "de-CH,de;q=0.9"}), 422, "points_sum"
    )
    assert english["params"] == german["params"] == {"declarer": 100, "defenders": 50, "sum": 150}
    assert "157" in english["message"] and "157" in german["message"]
    assert english["message"] != german["message"]
    shape_en = error_of(api.post(path, hand(ev, points=1), headers={"Accept-Language": "en"}), 400)
    assert "points" in shape_en["message"]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"variant": "poker", "players": ["A", "B", "C"], "first_dealer": 0}, 400, "invalid_value"),
        ({"variant": "three", "players": "A,B,C", "first_dealer": 0}, 400, "wrong_type"),
        ({"variant": "three", "players": ["A", "B", 3], "first_dealer": 0}, 400, "wrong_type"),
        ({"variant": "three", "players": ["A", "B", "C"], "first_dealer": "0"}, 400, "wrong_type"),
        (
            {"variant": "three", "players": ["A", "B", "C"], "first_dealer": 0, "options": {"deck": "tarot"}},
            400,
            "invalid_value",
        ),
        (
            {"variant": "three", "players": ["A", "B", "C"], "first_dealer": 0, "stake": {"round_to": 3}},
            400,
            "invalid_value",
        ),
        ({"variant": "three", "players": ["A", "B"], "first_dealer": 0}, 422, "players_count"),
        ({"variant": "three", "players": ["A", "B", "a"], "first_dealer": 0}, 422, "players_distinct"),
        ({"variant": "three", "players": ["A", "B", ""], "first_dealer": 0}, 422, "player_name"),
        ({"variant": "three", "players": ["A", "B", "C"], "first_dealer": 3}, 422, "first_dealer"),
        (
            {"variant": "three", "players": ["A", "B", "C"], "first_dealer": 0, "options": {"extra_rows": ["tuo"]}},
            422,
            "options_invalid",
        ),
        (
            {
                "variant": "teams",
                "players": ["A", "B", "C", "D"],
                "first_dealer": 0,
                "options": {"factors": {"nope": 2}},
            },
            422,
            "options_invalid",
        ),
        (
            {
                "variant": "teams",
                "players": ["A", "B", "C", "D"],
                "first_dealer": 0,
                "options": {"factors": {"obenabe": 0}},
            },
            422,
            "options_invalid",
        ),
        (
            {"variant": "teams", "players": ["A", "B", "C", "D"], "first_dealer": 0, "stake": {"rappen": -5}},
            422,
            "options_invalid",
        ),
    ],
)
def test_bad_starts(table: tuple[Api, Api, dict[str, Any]], body: dict[str, Any], status: int, code: str) -> None:
    api, _view, _ev = table
    error_of(api.post("/evenings", {**body, "request_id": rid()}), status, code)
    assert len(api.ok("GET", "/evenings")["evenings"]) == 1


def test_bad_circles_and_players(client: FlaskClient, table: tuple[Api, Api, dict[str, Any]]) -> None:
    api, _view, _ev = table
    anon = Api(client)
    error_of(anon.post("/circles", {"name": "   "}), 422, "circle_name")
    error_of(anon.post("/circles", {"name": "x" * 81}), 422, "circle_name")
    error_of(anon.post("/circles", {}), 400, "missing_field")
    error_of(anon.post("/circles", {"name": ["x"]}), 400, "wrong_type")
    error_of(api.post("/players", {"name": "anna"}), 422, "player_exists")
    error_of(api.post("/players", {"name": "\x01"}), 422, "player_name")


def test_correction_and_cut_errors(table: tuple[Api, Api, dict[str, Any]]) -> None:
    api, _view, ev = table
    eid = ev["id"]
    error_of(api.post(f"/evenings/{eid}/undo", {"expected_version": 0, "request_id": rid()}), 422, "nothing_to_undo")
    ev, _ = fill(api, ev, count=2)
    error_of(api.send("PUT", f"/evenings/{eid}/entries/5", hand(ev)), 422, "entry_unknown")
    error_of(api.send("PUT", f"/evenings/{eid}/entries/{10**40}", hand(ev)), 422, "entry_unknown")
    cut = {"expected_version": ev["version"], "request_id": rid(), "row_key": "suit_C", "end": "high", "winner": 0}
    error_of(api.post(f"/evenings/{eid}/cuts", cut), 422, "no_tie")
    error_of(api.post(f"/evenings/{eid}/cuts", {**cut, "end": "middle"}), 400, "invalid_value")
    error_of(api.post(f"/evenings/{eid}/cuts", {**cut, "winner": "0"}), 400, "wrong_type")
    assert versions(api, ev) == 2


def test_nothing_answers_500(client: FlaskClient, table: tuple[Api, Api, dict[str, Any]]) -> None:
    """A sweep of odd values through every write: a 4xx JSON error or a success, never a 500."""
    api, _view, ev = table
    eid = ev["id"]
    odd: list[Any] = [
        None,
        True,
        -1,
        0,
        2**31,
        2**63,
        10**400,
        1.5,
        float("inf"),
        "",
        "x" * 300,
        "ÿ\u0000",
        [],
        {},
        [1],
        {"a": 1},
    ]
    targets = [
        ("POST", f"/evenings/{eid}/hands", hand(ev)),
        ("PUT", f"/evenings/{eid}/entries/0", hand(ev)),
        (
            "POST",
            f"/evenings/{eid}/cuts",
            {
                "expected_version": 0,
                "request_id": "c",
                "row_key": "suit_C",
                "end": "high",
                "winner": 0,
                "order": [0, 1],
            },
        ),
        ("POST", f"/evenings/{eid}/end", {"expected_version": 0, "request_id": "e", "early": False}),
        (
            "POST",
            "/evenings",
            {
                "variant": "club",
                "players": ["A", "B", "C", "D"],
                "first_dealer": 0,
                "request_id": "s",
                "options": {"factors": {"twelve": 2}},
                "stake": {"rappen": 5},
            },
        ),
        ("POST", "/players", {"name": "Zoe"}),
    ]
    count = 0
    for method, path, base in targets:
        for key in base:
            for value in odd:
                body = {**base, key: value}
                if isinstance(value, float) and value == float("inf"):
                    resp = api.send(
                        method,
                        path,
                        None,
                        data=str(body)
                        .replace("inf", "1e999")
                        .replace("'", '"')
                        .replace("True", "true")
                        .replace("False", "false")
                        .replace("None", "null"),
                        content_type="application/json",
                    )
                else:
                    resp = api.send(method, path, body)
                count += 1
                assert resp.status_code < 500, (method, path, key, value, resp.get_data(as_text=True)[:300])
                assert resp.is_json
                if resp.status_code >= 400:
                    error_of(resp, resp.status_code)
    assert count > 300


def test_an_unexpected_failure_is_a_json_500(app: Any, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug (not bad input) still answers the JSON error shape, and nothing else leaks."""
    from scorekeeper.services.read import listings

    api, _view = new_circle(client)

    def broken(_circle: Any) -> list[Any]:
        raise RuntimeError("secret detail")

    monkeypatch.setattr(listings, "player_records", broken)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    resp = api.get("/players/records")
    err = error_of(resp, 500, "internal")
    assert "secret" not in resp.get_data(as_text=True)
    assert err["params"] == {}


def test_api_root_and_trailing_slash_answer_json(table: tuple[Api, Api, dict[str, Any]], client: FlaskClient) -> None:
    api, _view, _ev = table
    error_of(client.get(API), 404, "not_found")
    error_of(api.get("/evenings/"), 404, "not_found")
    page = client.get("/no-such-page")  # the pages keep their own (HTML) answers
    assert page.status_code == 404 and not page.is_json


def test_wrong_type_names_the_json_types(table: tuple[Api, Api, dict[str, Any]]) -> None:
    api, _view, ev = table
    err = error_of(api.post(f"/evenings/{ev['id']}/hands", hand(ev, row_key=5)), 400, "wrong_type")
    assert err["params"] == {"field": "row_key", "expected": ["string", "null"]}
    assert err["message"] == "The field row_key must be text or null."  # one sentence per set of types
