"""The OpenAPI document: valid 3.1, every route in it and nothing else, examples and answers that fit."""

from __future__ import annotations

import re
from typing import Any

import pytest
from api_helpers import API, Api, conforms, new_circle, start
from flask import Flask
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate as validate_spec
from referencing import Registry, Resource
from shared_helpers import rid

from scorekeeper.api.errors import ApiError
from scorekeeper.api.shapes import REQUESTS, SCHEMAS
from scorekeeper.api.validation import validate

IGNORED_METHODS = {"HEAD", "OPTIONS"}


@pytest.fixture
def doc(client: FlaskClient) -> dict[str, Any]:
    resp = client.get(f"{API}/openapi.json")
    assert resp.status_code == 200 and resp.is_json
    found: dict[str, Any] = resp.get_json()
    return found


def operations(doc: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(path, method.upper(), op) for path, item in doc["paths"].items() for method, op in item.items()]


def test_document_is_valid_openapi_31(doc: dict[str, Any]) -> None:
    assert doc["openapi"] == "3.1.0"
    validate_spec(doc)
    ids = [op["operationId"] for _p, _m, op in operations(doc)]
    assert len(ids) == len(set(ids))


def test_every_route_is_documented_and_nothing_else(app: Flask, doc: dict[str, Any]) -> None:
    registered = set()
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith(API + "/"):
            continue
        path = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule.rule)
        for method in (rule.methods or set()) - IGNORED_METHODS:
            registered.add((path, method))
    documented = {(path, method) for path, method, _op in operations(doc)}
    assert registered == documented
    assert len(documented) >= 20


def test_path_parameters_and_errors_are_described(doc: dict[str, Any]) -> None:
    for path, method, op in operations(doc):
        names = set(re.findall(r"{([a-z_]+)}", path))
        declared = {p["name"] for p in op.get("parameters", []) if p["in"] == "path"}
        assert names == declared, (method, path)
        responses = op["responses"]
        assert any(code.startswith("2") for code in responses), (method, path)
        if op.get("security") != []:
            assert {"401", "404"} <= set(responses), (method, path)
        if "requestBody" in op:
            assert {"400", "415"} <= set(responses), (method, path)
            assert "example" in op["requestBody"]["content"]["application/json"], (method, path)
        for code, answer in responses.items():
            if code.startswith(("4", "5")):
                ref = answer["content"]["application/json"]["schema"]["$ref"]
                assert ref.rsplit("/", 1)[-1] in ("Error", "StaleError"), (method, path, code)


def _jsonschema(name: str) -> Draft202012Validator:
    """A standard JSON Schema validator for a component, refs resolved in the document's components."""
    root = {"components": {"schemas": SCHEMAS}}
    registry: Registry = Registry().with_resource(
        "urn:doc", Resource.from_contents({"$schema": "https://json-schema.org/draft/2020-12/schema", **root})
    )
    return Draft202012Validator({"$ref": f"urn:doc#/components/schemas/{name}"}, registry=registry)


def _mine_accepts(value: Any, name: str) -> bool:
    try:
        validate(value, SCHEMAS[name], SCHEMAS)
    except ApiError:
        return False
    return True


SAMPLES: list[Any] = [
    {},
    [],
    None,
    {"name": "x"},
    {"name": 3},
    {"name": "x", "y": 1},
    {"expected_version": 0, "request_id": "a"},
    {"expected_version": -1, "request_id": "a"},
    {"expected_version": 0, "request_id": ""},
    {"expected_version": True, "request_id": "a"},
    {"expected_version": 0, "request_id": "a", "early": True},
    {"expected_version": 0, "request_id": "a", "early": 1},
    {"expected_version": 0, "request_id": "a", "declarer_seat": 0, "row_key": None, "seich": True},
    {"expected_version": 0, "request_id": "a", "declarer_seat": 0, "row_key": "obenabe", "declarer_points": 1.5},
    {"variant": "three", "players": ["A", "B", "C"], "first_dealer": 0, "request_id": "s"},
    {
        "variant": "three",
        "players": ["A", "B", "C"],
        "first_dealer": 0,
        "request_id": "s",
        "options": {"factors": {"obenabe": 3}, "extra_rows": ["tuo"]},
        "stake": {"round_to": 1},
    },
    {"variant": "three", "players": ["A"], "first_dealer": 0, "request_id": "s", "options": {"factors": {"a": "3"}}},
    {"variant": "three", "players": ["A"], "first_dealer": 0, "request_id": "s", "stake": {"round_to": 2}},
    {"expected_version": 0, "request_id": "a", "row_key": "x", "end": "all", "winner": 0, "order": [2, 0, 1]},
    {"expected_version": 0, "request_id": "a", "row_key": "x", "end": "top", "winner": 0},
]


@pytest.mark.parametrize("name", sorted(REQUESTS))
def test_input_checks_agree_with_standard_json_schema(name: str) -> None:
    """The API's own shape checker decides exactly like a standard validator of the documented schema."""
    standard = _jsonschema(name)
    for sample in SAMPLES:
        assert _mine_accepts(sample, name) == standard.is_valid(sample), (name, sample)


def test_answers_fit_the_documented_schemas(client: FlaskClient, doc: dict[str, Any]) -> None:
    """Every GET operation, called for real, answers what its 200 schema says (standard validator)."""
    api, _view = new_circle(client)
    ev = start(api)
    ev = api.ok(
        "POST",
        f"/evenings/{ev['id']}/hands",
        {
            "expected_version": 0,
            "request_id": rid(),
            "declarer_seat": 0,
            "row_key": "suit_C",
            "declarer_points": 80,
            "defender_points": 77,
        },
    )
    player_id = api.ok("GET", "/players")["players"][0]["id"]
    checked = 0
    for path, method, op in operations(doc):
        if method != "GET" or "{table_id}" in path:  # seat-token reads: tests/table/test_table_api.py
            continue
        url = path.replace("{evening_id}", ev["id"]).replace("{player_id}", str(player_id))
        resp = client.get(url, headers=api.headers())
        assert resp.status_code == 200, (url, resp.status_code)
        ref = op["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
        name = ref.rsplit("/", 1)[-1]
        errors = list(_jsonschema(name).iter_errors(resp.get_json()))
        assert not errors, (url, [e.message for e in errors[:3]])
        conforms(resp.get_json(), name)
        checked += 1
    assert checked >= 12


def _example(doc: dict[str, Any], method: str, path: str) -> dict[str, Any]:
    body = doc["paths"][API + path][method.lower()]["requestBody"]["content"]["application/json"]["example"]
    assert isinstance(body, dict)
    return dict(body)


def test_examples_run_against_the_real_endpoints(client: FlaskClient, doc: dict[str, Any]) -> None:
    """Each documented example request, sent as written (only the version set to the current one), succeeds."""
    for path, method, op in operations(doc):
        if "requestBody" in op:
            name = op["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
            assert _mine_accepts(op["requestBody"]["content"]["application/json"]["example"], name), (method, path)

    def run(api: Api, method: str, path: str, concrete: str | None = None, **changes: Any) -> dict[str, Any]:
        body = {**_example(doc, method, path), **changes}
        op = doc["paths"][API + path][method.lower()]
        status = next(int(code) for code in op["responses"] if code.startswith("2"))
        resp = api.send(method, concrete or path, body)
        assert resp.status_code == status, (method, path, resp.status_code, resp.get_data(as_text=True)[:400])
        name = op["responses"][str(status)]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
        conforms(resp.get_json(), name)
        answer: dict[str, Any] = resp.get_json()
        return answer

    created = run(Api(client), "POST", "/circles")
    api = Api(client, created["write_token"])
    run(api, "POST", "/players")
    ev = run(api, "POST", "/evenings")
    e = f"/evenings/{ev['id']}"
    E = "/evenings/{evening_id}"
    ev = run(api, "POST", E + "/hands", e + "/hands")
    ev = run(api, "PUT", E + "/entries/{index}", e + "/entries/0", expected_version=ev["version"])
    for seat, points in ((0, 90), (2, 10)):  # Anna ties Beat's corrected 90 in the acorns row
        ev = api.ok(
            "POST",
            e + "/hands",
            {
                "expected_version": ev["version"],
                "request_id": rid(),
                "declarer_seat": seat,
                "row_key": "suit_C",
                "declarer_points": points,
                "defender_points": 157 - points,
            },
        )
    assert ev["pending_ties"] == [{"row_key": "suit_C", "end": "high", "sides": [0, 1]}]
    ev = run(api, "POST", E + "/cuts", e + "/cuts", expected_version=ev["version"])
    assert ev["cuts"][0]["winner"] == 0
    ev = run(api, "POST", E + "/undo", e + "/undo", expected_version=ev["version"])
    ev = run(api, "POST", E + "/cuts/draw", e + "/cuts/draw", expected_version=ev["version"])
    ev = run(api, "POST", E + "/end", e + "/end", expected_version=ev["version"])
    assert ev["status"] == "ended" and ev["ended_early"]
    a, b = (p["id"] for p in api.ok("GET", "/players")["players"][:2])
    paid = run(api, "POST", "/ledger/settlements", payer_id=a, payee_id=b)
    assert paid["settlement"]["rappen"] == 1250
