"""The phone's own checks (static/js/checks.js on the page's rule snapshot) against the
server's answers (the API) for a table of inputs: the same verdict, the same words (issue 11)."""

from __future__ import annotations

import itertools
import random
from typing import Any, cast

import pytest
from flask import Flask

from scorekeeper.game.contracts import all_contracts
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.services import circles, evenings

pytestmark = pytest.mark.browser


def _evening(app: Flask) -> tuple[str, str, str]:
    """(write token, evening id, page path) of a teams evening whose side 0 is full and side 1
    has two rows filled."""
    with app.app_context():
        circle, write, _view = circles.create_circle("Hütte")
        rs = default_ruleset(Variant.TEAMS)
        ev = evenings.start_evening(
            circle, ruleset=rs, player_names=["Anna", "Beat", "Cla", "Dora"], first_dealer=0, request_id="chk-start"
        )
        filled = [(row, 0) for row in rs.rows] + [(row, 1) for row in rs.rows[:2]]
        for i, (row, side) in enumerate(filled):
            contract = next((c for k in row.kinds for c in all_contracts(k) if row.allows(c)), None)
            entry = HandEntry(row.key, rs.seats_of(side)[0], contract if row.is_choice else None, 100, 57)
            ev = evenings.record_hand(ev, entry, expected_version=ev.version, request_id=f"chk-{i}")
        return write, ev.public_id, f"/c/{write}/e/{ev.public_id}"


def _inputs(rules: dict[str, Any]) -> list[dict[str, Any]]:
    closed = next(k for k in rules["rows"] if k not in rules["open"][1])  # filled for side 1 (and 0)
    open_plain = next(k for k in rules["open"][1] if not rules["rows"][k]["choice"])
    choice = next((k for k in rules["open"][1] if rules["rows"][k]["choice"]), None)
    row_keys: list[str | None] = [open_plain, closed, "no_such_row", None] + ([choice] if choice else [])
    contracts: list[str | None] = [None, "suit:H", "tutti", "misere:undenufe", "slalom:obenabe"]
    piles = [(100, 57), (157, 0), (0, 157), (158, 0), (100, 50), (80, 80), (157, 1)]
    marks = [(False, False), (True, False), (False, True), (True, True)]

    def hand(*fields: Any) -> Any:
        seat, row, contract, pile, mark = fields
        return {
            "declarer_seat": seat,
            "row_key": row,
            "played_as": contract,
            "declarer_points": pile[0],
            "defender_points": pile[1],
            "match": mark[0],
            "countermatch": mark[1],
        }

    valid: tuple[Any, ...] = (1, open_plain, None, (100, 57), (False, False))
    # every value of each input alone on a valid hand, then a seeded sample of mixtures
    table = [
        hand(*valid[:i], value, *valid[i + 1 :])
        for i, values in enumerate(cast(list[list[Any]], [[0, 1, 2, 3, 4], row_keys, contracts, piles, marks]))
        for value in values
    ]
    mixed = list(itertools.product([0, 1, 2, 3, 4], row_keys, contracts, piles, marks))
    table += [hand(*combo) for combo in random.Random(11).sample(mixed, 100)]
    return table


def test_the_phone_and_the_server_agree(live_app: tuple[str, Flask], phone: Any) -> None:
    base, app = live_app
    token, evening_id, path = _evening(app)
    page = phone()
    page.goto(base + path)
    rules = page.evaluate(  # as offline.js reads them: the live fragment's over those sent once with the page
        "Object.assign(...['slate-rules-fixed', 'slate-rules']"
        ".map(id => JSON.parse(document.getElementById(id).textContent)))"
    )
    assert rules["full"] == [0] and rules["total"] == 157
    api = app.test_client()
    headers = {"Authorization": f"Bearer {token}"}
    url = f"/api/v1/evenings/{evening_id}/hands"
    verdicts: dict[str, int] = {}
    for i, hand in enumerate(_inputs(rules)):
        version = api.get(f"/api/v1/evenings/{evening_id}/version", headers=headers).get_json()["version"]
        resp = api.post(url, json={**hand, "expected_version": version, "request_id": f"cmp-{i}"}, headers=headers)
        assert resp.status_code in (200, 422), (hand, resp.get_json())
        server = None if resp.status_code == 200 else resp.get_json()["error"]
        if resp.status_code == 200:  # take it back: the next input meets the same slate
            undo = {"expected_version": version + 1, "request_id": f"cmp-undo-{i}"}
            assert api.post(f"/api/v1/evenings/{evening_id}/undo", json=undo, headers=headers).status_code == 200
        phone_says = page.evaluate("([r, h]) => window.ScorekeeperChecks.check(r, h)", [rules, hand])
        if server is None:
            assert phone_says is None, (hand, phone_says)
            verdicts["accepted"] = verdicts.get("accepted", 0) + 1
        else:
            assert phone_says is not None, (hand, server)
            assert (phone_says["code"], phone_says["message"]) == (server["code"], server["message"]), hand
            verdicts[server["code"]] = verdicts.get(server["code"], 0) + 1
    # the table reaches every check the phone makes (but the evening's end)
    assert set(verdicts) >= {
        "accepted",
        "declarer_unknown",
        "row_required",
        "row_unknown",
        "side_full",
        "row_closed",
        "contract_not_allowed",
        "points_range",
        "points_sum",
        "match_and_countermatch",
        "match_needs_all",
        "countermatch_needs_none",
    }, verdicts
