"""House rules through the API (issue 24): a rule set is one shape, read as ``rules`` and
started with as ``rules``; a bad one is refused 422 naming the field."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from api_helpers import NAMES, Api, error_of, fill, new_circle, start
from flask.testing import FlaskClient
from house_rules_helpers import eleven_rows_with_tutti_and_misere
from shared_helpers import rid

from scorekeeper.game.rules_input import rules_from_dict
from scorekeeper.game.rulesets import RuleSet


def start_with(api: Api, rules: dict[str, Any], n: int = 4) -> dict[str, Any]:
    body = {"rules": rules, "players": NAMES[:n], "first_dealer": 1, "request_id": rid("start")}
    return api.ok("POST", "/evenings", body, 201, "Evening")


def test_a_house_rules_evening_plays_to_its_money_and_starts_the_next_unchanged(client: FlaskClient) -> None:
    api, _view = new_circle(client)
    house = eleven_rows_with_tutti_and_misere()
    evening = start_with(api, house.rules_dict())
    assert RuleSet.from_dict(evening["ruleset"]) == house
    rules = evening["rules"]
    assert [r["factor"] for r in rules["rows"]] == list(range(1, 12)) and rules["preset"] is False
    assert rules["match_bonus"] == 500 and "bock" not in rules["digital_rows"]
    evening, hands = fill(api, evening)
    assert hands == 2 * 11 and evening["status"] == "ended"
    assert sum(evening["payout"]["net"]) == 0
    outlook = api.ok("GET", f"/evenings/{evening['id']}/outlook", schema="Outlook")
    assert outlook["odds_known"] is False and outlook["simulations"] == 0
    assert all(s["win"] is None for s in outlook["sides"])
    again = start_with(api, evening["rules"])  # the rules of one evening start the next unchanged
    assert again["rules"] == evening["rules"] and again["ruleset"] == evening["ruleset"]


@pytest.mark.parametrize("variant", ["three", "teams", "solo4", "club"])
def test_a_presets_rules_start_the_same_rule_set(client: FlaskClient, variant: str) -> None:
    api, _view = new_circle(client)
    first = start(api, variant, options={"factors": {"obenabe": 9}})
    assert first["rules"]["preset"] is True and first["rules"]["shape"] in ("three", "teams", "solo4")
    assert all("factor" in r for r in first["rules"]["rows"])
    second = start_with(api, first["rules"], n=len(first["players"]))
    assert second["ruleset"] == first["ruleset"] and second["rules"] == first["rules"]
    outlook = api.ok("GET", f"/evenings/{second['id']}/outlook", schema="Outlook")
    assert outlook["odds_known"] is True


def edited(edit: Any) -> dict[str, Any]:
    rules = copy.deepcopy(eleven_rows_with_tutti_and_misere().rules_dict())
    edit(rules)
    return rules


@pytest.mark.parametrize(
    ("edit", "field", "rule"),
    [
        (lambda d: d.update(rows=[]), "rows", "rows_count"),
        (lambda d: d["rows"].extend(copy.deepcopy(d["rows"][-1:]) * 3), "rows", "rows_count"),
        (lambda d: d["rows"][2].update(factor=0), "rows[2].factor", "factor_range"),
        (lambda d: d["rows"][3].update(factor=-4), "rows[3].factor", "factor_range"),
        (lambda d: d["rows"][5].update(kinds=["obenabe"]), "rows[5]", "row_twice"),
        (lambda d: d["rows"][6].update(kinds=["gustav"]), "rows[6].kinds", "row_gustav"),
        (lambda d: d["rows"][8].update(name=""), "rows[8].name", "row_name_required"),
        (lambda d: d.update(match_points=12), "match_points", "option_range"),
        (lambda d: d.update(variant="three", shape="three"), "rows[6].kinds", "row_shape"),  # Tutti is fine, ...
        (lambda d: d.update(variant="solo4"), "shape", "rules_field"),
    ],
)
def test_a_bad_rule_set_is_refused_naming_the_field(client: FlaskClient, edit: Any, field: str, rule: str) -> None:
    api, view = new_circle(client)
    rules = edited(edit)
    if rule == "row_shape":  # three players cannot play Riesenslalom
        rules["rows"][6].update(kinds=["riesenslalom"])
    body = {"rules": rules, "players": NAMES, "first_dealer": 0, "request_id": rid("start")}
    err = error_of(api.post("/evenings", body), 422, "rules_invalid")
    assert err["params"]["field"] == field and err["params"]["rule"] == rule
    assert field in err["message"]
    assert view.ok("GET", "/evenings", schema="EveningList")["evenings"] == []  # nothing was started


def test_rules_hold_their_options_and_a_wrong_type_is_a_shape_error(client: FlaskClient) -> None:
    api, _view = new_circle(client)
    rules = eleven_rows_with_tutti_and_misere().rules_dict()
    body = {"rules": rules, "players": NAMES, "first_dealer": 0, "request_id": rid("start")}
    assert error_of(api.post("/evenings", {**body, "stake": {"rappen": 5}}), 400, "invalid_value")["params"] == {
        "field": "stake"
    }
    bad = {**body, "rules": {**rules, "rows": [*rules["rows"][:2], {**rules["rows"][2], "factor": "3"}]}}
    assert "rules.rows[2].factor" in error_of(api.post("/evenings", bad), 400)["params"]["field"]
    assert error_of(api.post("/evenings", {k: v for k, v in body.items() if k != "rules"}), 400, "missing_field")


def test_the_shape_alone_starts_a_circles_own_solo_evening(client: FlaskClient) -> None:
    api, _view = new_circle(client)
    rows = [{"kinds": ["suit"], "suit": s, "factor": i + 1} for i, s in enumerate("CDHS")]
    rows.append({"kinds": [], "name": "Bock", "factor": 5})
    evening = start_with(api, {"shape": "solo4", "rows": rows, "scoring": "full"})
    assert evening["variant"] == "solo4" and [r["key"] for r in evening["rules"]["rows"]][-1] == "row5"
    assert rules_from_dict(evening["rules"]).scoring.value == "full"
    evening, hands = fill(api, evening)
    assert hands == 4 * 5 and sum(evening["payout"]["net"]) == 0


def test_a_paper_slate_of_a_circles_own_rules(client: FlaskClient) -> None:
    api, _view = new_circle(client)
    house = eleven_rows_with_tutti_and_misere()
    cells = [
        {"row_key": row.key, "side": side, "value": (i + side) % 15 * row.factor}
        for i, row in enumerate(house.rows)
        for side in range(2)
    ]
    body = {"rules": house.rules_dict(), "players": NAMES, "first_dealer": 0, "cells": cells, "request_id": rid()}
    ev = api.ok("POST", "/evenings/paper", body, 201, "Evening")
    assert ev["status"] == "ended" and rules_from_dict(ev["rules"]) == house
    assert sum(ev["payout"]["net"]) == 0
    bad = {**body, "request_id": rid(), "rules": {**house.rules_dict(), "rows": house.rules_dict()["rows"][:3]}}
    assert error_of(api.post("/evenings/paper", bad), 422, "rules_invalid")["params"]["field"] == "rows"
