"""The table's JSON API: open (circle write token), seat tokens, join, read, choose, play;
out-of-turn, illegal and stale attempts answer 4xx with the reason and change nothing;
answers fit the OpenAPI schemas; a whole hand is played by API clients alone."""

from __future__ import annotations

import random
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from table_helpers import every_card_name, start_evening

from scorekeeper.api.shapes import SCHEMAS
from scorekeeper.api.validation import validate
from scorekeeper.engine.bitmasks import card_ints
from scorekeeper.game.cards import Card
from scorekeeper.game.rulesets import Variant
from scorekeeper.services import digital_table as tables

API = "/api/v1"


def _ok(resp: Any, status: int = 200, schema: str | None = None) -> dict[str, Any]:
    assert resp.status_code == status, (resp.status_code, resp.get_data(as_text=True)[:400])
    data: dict[str, Any] = resp.get_json()
    if schema is not None:
        validate(data, SCHEMAS[schema], SCHEMAS)
    assert resp.headers["Cache-Control"] == "no-store"
    return data


def _error(resp: Any, status: int, code: str | None = None) -> dict[str, Any]:
    assert resp.status_code == status, (resp.status_code, resp.get_data(as_text=True)[:400])
    err: dict[str, Any] = resp.get_json()["error"]
    validate(resp.get_json(), SCHEMAS["Error"], SCHEMAS)
    assert err["message"]
    if code is not None:
        assert err["code"] == code, err
    return err


def _open(client: FlaskClient, app: Flask, variant: Variant, computers: list[int]) -> tuple[str, str, dict[str, Any]]:
    write, evening_id = start_evening(app, variant)
    auth = {"Authorization": f"Bearer {write}"}
    assert _ok(client.get(f"{API}/evenings/{evening_id}/table", headers=auth), schema="EveningTable") == {"table": None}
    table = _ok(
        client.post(f"{API}/evenings/{evening_id}/table", json={"computers": computers}, headers=auth),
        schema="EveningTable",
    )["table"]
    return write, evening_id, table


def _token(client: FlaskClient, write: str, evening_id: str, seat: int) -> str:
    data = _ok(
        client.post(
            f"{API}/evenings/{evening_id}/table/seats/{seat}/token", headers={"Authorization": f"Bearer {write}"}
        ),
        schema="SeatTokenIssued",
    )
    assert "/s/" in data["link"]
    return str(data["token"])


def test_a_hand_played_through_the_api(client: FlaskClient, app: Flask) -> None:
    write, evening_id, table = _open(client, app, Variant.TEAMS, [2, 3])
    tid = table["id"]
    tokens = {seat: _token(client, write, evening_id, seat) for seat in (0, 1)}
    for seat, token in tokens.items():
        state = _ok(client.post(f"{API}/tables/join", json={"token": token}), schema="SeatState")
        assert state["seat"] == seat and len(state["view"]["hand"]) == 9
    rng = random.Random(2)
    hidden_checked = 0
    rows_checked = 0
    names_of = every_card_name()
    for _ in range(100):
        states = {
            s: _ok(client.get(f"{API}/tables/{tid}/seat", headers={"X-Seat-Token": t}), schema="SeatState")
            for s, t in tokens.items()
        }
        assert (
            client.get(
                f"{API}/tables/{tid}/seat?v={states[0]['version']}", headers={"X-Seat-Token": tokens[0]}
            ).status_code
            == 204
        )
        if states[0]["view"]["result"] is not None:
            break
        # each seat's answer holds its own hand only: no card of another hand (partner or computer) appears
        with app.app_context():
            truth = tables.load(tables.get_table(tid)).state
            assert truth is not None
            hands = {s: card_ints(m) for s, m in enumerate(truth.hands)}
        for s, st in states.items():
            text = str(st)
            assert sorted(int(Card.parse(c)) for c in st["view"]["hand"]) == sorted(hands[s])
            for other_seat, cards in hands.items():
                for c in cards if other_seat != s else ():
                    assert all(n not in text for n in names_of[c][2:]) and f"'{Card(c).name}'" not in text
                    hidden_checked += 1
            view = st["view"]
            if view["row_key"] is not None:  # the row being played has left its side's open rows, as on the page
                assert view["row_key"] not in view["open_rows"][view["declarer"] % 2], view["open_rows"]
                assert sum(map(len, view["open_rows"])) == 2 * 8 - 1
                rows_checked += 1
        mover = next(s for s, st in states.items() if st["view"]["to_move"] == s)
        st, token, other = states[mover], tokens[mover], tokens[1 - mover]
        seq = st["seq"]
        if st["view"]["phase"] == "playing":
            legal = st["view"]["legal"]
            illegal = [c for c in st["view"]["hand"] if c not in legal]
            if illegal:
                err = _error(
                    client.post(
                        f"{API}/tables/{tid}/play",
                        json={"expected_seq": seq, "card": illegal[0]},
                        headers={"X-Seat-Token": token},
                    ),
                    422,
                )
                assert err["params"]["card"] == illegal[0] and err["code"] in (
                    "must_follow",
                    "must_follow_or_trump",
                    "must_play_trump",
                    "undertrump",
                )
            other_card = (states[1 - mover]["view"]["hand"] or ["HA"])[0]
            err = _error(
                client.post(
                    f"{API}/tables/{tid}/play",
                    json={"expected_seq": seq, "card": other_card},
                    headers={"X-Seat-Token": other},
                ),
                422,
            )
            assert err["code"] == "not_your_turn"
            _error(
                client.post(
                    f"{API}/tables/{tid}/play",
                    json={"expected_seq": seq + 3, "card": legal[0]},
                    headers={"X-Seat-Token": token},
                ),
                409,
                "stale",
            )
            _error(
                client.post(
                    f"{API}/tables/{tid}/choose",
                    json={"expected_seq": seq, "action": "pass"},
                    headers={"X-Seat-Token": token},
                ),
                422,
            )
            after = _ok(
                client.post(
                    f"{API}/tables/{tid}/play",
                    json={"expected_seq": seq, "card": rng.choice(legal)},
                    headers={"X-Seat-Token": token},
                ),
                schema="SeatState",
            )
        else:
            _error(
                client.post(
                    f"{API}/tables/{tid}/choose",
                    json={"expected_seq": seq, "action": "nonsense=x"},
                    headers={"X-Seat-Token": token},
                ),
                422,
                "not_an_action",
            )
            after = _ok(
                client.post(
                    f"{API}/tables/{tid}/choose",
                    json={"expected_seq": seq, "action": rng.choice(st["choices"])},
                    headers={"X-Seat-Token": token},
                ),
                schema="SeatState",
            )
        assert after["seq"] > seq
    else:
        raise AssertionError("the hand did not end")
    assert hidden_checked > 0 and rows_checked > 0
    slate = _ok(client.get(f"{API}/evenings/{evening_id}/slate", headers={"Authorization": f"Bearer {write}"}))
    assert slate["hands_dealt"] == 1


def test_seat_tokens_are_checked(client: FlaskClient, app: Flask) -> None:
    write, evening_id, table = _open(client, app, Variant.THREE, [])
    tid = table["id"]
    _error(client.get(f"{API}/tables/{tid}/seat"), 403, "seat_token")
    _error(client.get(f"{API}/tables/{tid}/seat", headers={"X-Seat-Token": "nope"}), 403, "seat_token")
    _error(client.post(f"{API}/tables/join", json={"token": "nope"}), 403, "seat_token")
    old = _token(client, write, evening_id, 0)
    new = _token(client, write, evening_id, 0)  # handed to another client: the old token is shut out
    _error(client.get(f"{API}/tables/{tid}/seat", headers={"X-Seat-Token": old}), 403, "seat_token")
    _ok(client.get(f"{API}/tables/{tid}/seat", headers={"X-Seat-Token": new}), schema="SeatState")
    _error(client.get(f"{API}/tables/unknown/seat", headers={"X-Seat-Token": new}), 404)
    # a token of one table opens no other table
    write2, evening2, table2 = _open(client, app, Variant.THREE, [])
    _error(client.get(f"{API}/tables/{table2['id']}/seat", headers={"X-Seat-Token": new}), 403, "seat_token")
    # the view token cannot open tables or issue seat tokens
    resp = client.post(f"{API}/evenings/{evening_id}/table/seats/1/token")
    assert resp.status_code == 401
    assert write2 and evening2


def test_one_client_and_three_computers_play_on(client: FlaskClient, app: Flask) -> None:
    """An agent holding one seat plays hands through the API, dealing the next one itself."""
    write, evening_id, table = _open(client, app, Variant.SOLO4, [])
    auth = {"Authorization": f"Bearer {write}"}
    for seat in (1, 2, 3):
        data = _ok(
            client.post(f"{API}/evenings/{evening_id}/table/seats/{seat}/computer", headers=auth), schema="EveningTable"
        )
    assert [s["computer"] for s in data["table"]["seats"]] == [False, True, True, True]
    token = _token(client, write, evening_id, 0)
    headers = {"X-Seat-Token": token}
    tid = table["id"]
    before = _ok(client.get(f"{API}/tables/{tid}/seat", headers=headers), schema="SeatState")
    same = _ok(client.post(f"{API}/tables/{tid}/next", headers=headers), schema="SeatState")
    assert same["seq"] == before["seq"] and same["view"]["hand"] == before["view"]["hand"]  # in play: nothing dealt
    rng = random.Random(5)
    for _hand in range(2):
        for _ in range(60):
            st = _ok(client.get(f"{API}/tables/{tid}/seat", headers=headers), schema="SeatState")
            if st["view"]["result"] is not None:
                break
            assert st["view"]["to_move"] == 0 and st["choices"]
            path = "play" if st["view"]["phase"] == "playing" else "choose"
            key = "card" if path == "play" else "action"
            _ok(
                client.post(
                    f"{API}/tables/{tid}/{path}",
                    json={"expected_seq": st["seq"], key: rng.choice(st["choices"])},
                    headers=headers,
                ),
                schema="SeatState",
            )
        st = _ok(client.post(f"{API}/tables/{tid}/next", headers=headers), schema="SeatState")
        assert st["view"]["result"] is None
    slate = _ok(client.get(f"{API}/evenings/{evening_id}/slate", headers=auth))
    assert slate["hands_dealt"] == 2
