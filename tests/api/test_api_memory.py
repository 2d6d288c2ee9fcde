"""The circle's memory through the API: a player's statistics with the filters, the
ledger, settlements (payment, correction, void; double tap once; refusals write
nothing), every answer fitting its OpenAPI schema; and, with Hypothesis, the balances
stay Rappen-exact and zero-sum after any series of settlements."""

from __future__ import annotations

from typing import Any

import pytest
from api_helpers import Api, conforms, error_of
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shared_helpers import counted, rid, store_record

from scorekeeper.history.sample import sample_circle


def _circle(app: Flask, client: FlaskClient, seed: int = 5, evenings: int = 10) -> tuple[Api, Api]:
    with app.app_context():
        write, view = store_record(sample_circle(seed, evenings=evenings, players=5, paper_rate=0.0))
    return Api(client, write), Api(client, view)


@pytest.fixture
def apis(app: Flask, client: FlaskClient) -> tuple[Api, Api]:
    return _circle(app, client)


def _players(api: Api) -> list[int]:
    return [p["id"] for p in api.ok("GET", "/players", schema="PlayerList")["players"]]


def test_a_players_statistics_fit_the_document_and_honour_the_filters(apis: tuple[Api, Api]) -> None:
    write, view = apis
    pid = _players(view)[0]
    data = view.ok("GET", f"/players/{pid}/stats", schema="PlayerStats")
    assert data["player"]["id"] == pid and data["evenings"] > 0
    assert data["filter"] == {"from": None, "to": None, "variant": None}
    assert {r["ladder"] for r in data["ratings"]} <= {"three", "solo", "team"}
    assert all(0 <= c["match_rate"] <= 1 for c in data["contracts"])
    later = view.ok("GET", f"/players/{pid}/stats?from=2031-01-01", schema="PlayerStats")
    assert later["evenings"] == 0 and later["contracts"] == []
    three = view.ok("GET", f"/players/{pid}/stats?variant=three", schema="PlayerStats")
    assert three["filter"]["variant"] == "three" and three["evenings"] <= data["evenings"]
    error_of(view.get(f"/players/{pid}/stats?from=soon"), 400, "invalid_value")
    error_of(view.get(f"/players/{pid}/stats?variant=poker"), 400, "invalid_value")
    error_of(view.get(f"/players/{pid}/stats?from=2026-05-02&to=2026-05-01"), 400, "invalid_value")
    error_of(view.get("/players/999999/stats"), 404)


def test_the_ledger_balances_add_up_to_zero_and_transfers_settle_them(apis: tuple[Api, Api]) -> None:
    _write, view = apis
    data = view.ok("GET", "/ledger", schema="Ledger")
    balances = {b["player_id"]: b["rappen"] for b in data["balances"]}
    assert sum(balances.values()) == 0 and any(balances.values())
    after = dict(balances)
    for t in data["transfers"]:
        after[t["payer_id"]] += t["rappen"]
        after[t["payee_id"]] -= t["rappen"]
    assert not any(after.values())
    assert data["fewest_proven"] is True


def test_settlements_are_appended_corrected_voided_and_written_once(apis: tuple[Api, Api]) -> None:
    write, view = apis
    a, b, c = _players(view)[:3]
    body = {"payer_id": a, "payee_id": b, "rappen": 1250, "paid_at": "2026-11-30", "request_id": rid("pay")}
    first = write.ok("POST", "/ledger/settlements", body, 201, "SettlementWritten")
    assert first["settlement"]["seq"] == 1 and first["settlement"]["in_force"]
    again = write.ok("POST", "/ledger/settlements", body, 201, "SettlementWritten")
    assert again["settlement"]["seq"] == 1 and len(again["ledger"]["settlements"]) == 1
    fix = {"kind": "correction", "supersedes": 1, "payer_id": a, "payee_id": c, "rappen": 5}
    fixed = write.ok(
        "POST",
        "/ledger/settlements",
        {**fix, "paid_at": "2026-11-30T18:00:00+01:00", "entered_by": "Anna", "request_id": rid("fix")},
        201,
        "SettlementWritten",
    )
    assert fixed["settlement"]["entered_by"] == "Anna"
    rows = {s["seq"]: s for s in fixed["ledger"]["settlements"]}
    assert rows[1]["in_force"] is False and rows[2]["in_force"] is True
    write.ok("POST", "/ledger/settlements", {"kind": "void", "supersedes": 2, "request_id": rid("void")}, 201)
    ledger = view.ok("GET", "/ledger", schema="Ledger")
    assert [s["in_force"] for s in ledger["settlements"]] == [False, False, False]


@pytest.mark.parametrize(
    ("change", "status", "code"),
    [
        ({"payee_id": "A"}, 422, "payment_same_player"),
        ({"rappen": 0}, 422, "payment_amount"),
        ({"paid_at": None}, 422, "payment_date"),
        ({"paid_at": "30.11.2026"}, 400, "invalid_value"),
        ({"paid_at": "2026-11-30T18:00:00"}, 400, "invalid_value"),
        ({"payer_id": 999999}, 422, "player_unknown"),
        ({"kind": "void", "supersedes": 4}, 422, "payment_unknown"),
        ({"kind": "refund"}, 400, "invalid_value"),
        ({"tip": 5}, 400, "unknown_field"),
    ],
)
def test_a_refused_settlement_writes_nothing(
    apis: tuple[Api, Api], change: dict[str, Any], status: int, code: str
) -> None:
    write, view = apis
    a, b = _players(view)[:2]
    body = {"payer_id": a, "payee_id": b, "rappen": 100, "paid_at": "2026-11-30", "request_id": rid("bad")}
    body.update({k: (a if v == "A" else v) for k, v in change.items()})
    error_of(write.post("/ledger/settlements", body), status, code)
    assert view.ok("GET", "/ledger")["settlements"] == []


def test_onlookers_cannot_settle(apis: tuple[Api, Api]) -> None:
    _write, view = apis
    a, b = _players(view)[:2]
    body = {"payer_id": a, "payee_id": b, "rappen": 100, "paid_at": "2026-11-30", "request_id": rid("ro")}
    error_of(view.post("/ledger/settlements", body), 403, "read_only")


OPS = st.lists(
    st.one_of(
        st.tuples(st.just("pay"), st.integers(0, 4), st.integers(0, 4), st.integers(-5, 100_000)),
        st.tuples(st.just("fix"), st.integers(0, 9), st.integers(0, 4), st.integers(1, 100_000)),
        st.tuples(st.just("void"), st.integers(0, 9), st.just(0), st.just(0)),
    ),
    max_size=12,
)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS)
def test_balances_stay_exact_and_zero_sum_after_any_settlements(
    app: Flask, client: FlaskClient, ops: list[Any]
) -> None:
    write, view = _circle(app, client, seed=11, evenings=4)
    players = _players(view)
    start = {b["player_id"]: b["rappen"] for b in view.ok("GET", "/ledger")["balances"]}
    standing: dict[int, tuple[int, int, int]] = {}  # seq in force -> (payer, payee, rappen): the model
    seq = 0
    for op, x, y, amount in ops:
        if op == "pay":
            body: dict[str, Any] = {"payer_id": players[x], "payee_id": players[y], "rappen": amount}
        else:
            target = sorted(standing)[x % len(standing)] if standing else 99
            body = {"kind": "correction" if op == "fix" else "void", "supersedes": target}
            if op == "fix":
                body.update(payer_id=players[y], payee_id=players[(y + 1) % 5], rappen=amount)
        if body.get("kind") != "void":
            body["paid_at"] = "2026-11-30"
        resp = write.post("/ledger/settlements", {**body, "request_id": rid("h")})
        valid = (op == "pay" and x != y and amount > 0) or (op != "pay" and bool(standing))
        assert resp.status_code == (201 if valid else 422), resp.get_json()
        if not valid:
            continue
        conforms(resp.get_json(), "SettlementWritten")
        seq += 1
        if op != "pay":
            standing.pop(body["supersedes"])
        if op != "void":
            standing[seq] = (body["payer_id"], body["payee_id"], body["rappen"])
    expected = dict(start)
    for payer, payee, rappen in standing.values():
        expected[payer] += rappen
        expected[payee] -= rappen
    for path in ("/ledger", "/ledger?from=2000-01-01"):
        balances = {b["player_id"]: b["rappen"] for b in view.ok("GET", path, schema="Ledger")["balances"]}
        assert balances == expected
        assert sum(balances.values()) == 0


@pytest.mark.parametrize("path", ["/ledger", "/players/{pid}/stats", "/evenings", "/players/records"])
def test_answers_take_the_same_few_statements_for_few_and_many_evenings(
    app: Flask, client: FlaskClient, path: str
) -> None:
    counts = []
    for n in (2, 40):
        _write, view = _circle(app, client, seed=n, evenings=n)
        url = path.replace("{pid}", str(_players(view)[0]))
        view.ok("GET", url)  # the worker sees the circle once
        with app.app_context(), counted() as seen:
            view.ok("GET", url)
        counts.append(len(seen))
    assert counts[0] == counts[1] <= 4, counts
