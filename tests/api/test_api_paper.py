"""A past evening typed from a paper slate through the API: cells marked as imported,
an ended evening that counts in money (or not, when cells are missing and the table says
so), every cell checked, ties cut as given, nothing written on a refusal."""

from __future__ import annotations

from typing import Any

from api_helpers import Api, error_of, new_circle
from flask.testing import FlaskClient
from shared_helpers import rid

from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.scoring.entries import cell_value


def _paper(api: Api, body: dict[str, Any], status: int = 201) -> Any:
    return api.ok(
        "POST",
        "/evenings/paper",
        {"request_id": rid("paper"), "first_dealer": 0, **body},
        status,
        "Evening" if status == 201 else None,
    )


def _three_cells() -> list[dict[str, Any]]:
    """A whole three-player slate: every row, every player, valid raw points; a tie in the top row."""
    rs = default_ruleset(Variant.THREE)
    cells = []
    for i, row in enumerate(rs.rows):
        for side in range(3):
            points = 100 if i == 0 and side < 2 else (17 * i + 31 * side) % 150
            value = cell_value(rs, HandEntry(row.key, side, None, points, 157 - points))
            cells.append({"row_key": row.key, "side": side, "value": value})
    return cells


def test_a_whole_paper_slate_is_an_ended_evening_with_its_money(client: FlaskClient) -> None:
    api, _view = new_circle(client)
    ev = _paper(
        api,
        {
            "variant": "three",
            "players": ["Anna", "Beat", "Cla"],
            "cells": _three_cells(),
            "cuts": [{"row_key": "suit_C", "end": "high", "order": [1, 0]}],
            "played_at": "2026-03-06T19:30:00+01:00",
            "author": "Cla",
        },
    )
    assert ev["status"] == "ended" and not ev["ended_early"]
    assert ev["created_at"].startswith("2026-03-06T18:30")
    cells = [c for row in ev["slate"]["rows"] for c in row["cells"]]
    assert all(c is not None and c["imported"] for c in cells)
    assert ev["cuts"][0]["winner"] == 1  # the tie in the first row, cut as the table did
    assert sum(ev["payout"]["net"]) == 0 and any(ev["payout"]["net"])
    records = api.ok("GET", "/players/records")["records"]
    assert sorted(r["net_rappen"] for r in records) == sorted(ev["payout"]["net"])


def test_missing_cells_end_it_early_and_count_in_money_only_if_said(client: FlaskClient) -> None:
    api, _view = new_circle(client)
    body = {
        "variant": "teams",
        "players": ["Anna", "Beat", "Cla", "Dora"],
        "cells": [
            {"row_key": "suit_S", "side": 0, "value": 12},
            {"row_key": "suit_S", "side": 1, "value": 3},
            {"row_key": "obenabe", "side": 1, "value": 45},
            {"row_key": "joker1", "side": 0, "value": 70, "played_as": "suit:H"},
        ],
        "counts_in_money": False,
        "request_id": "paper-once",
    }
    ev = api.ok("POST", "/evenings/paper", {**body, "first_dealer": 0}, 201, "Evening")
    assert ev["ended_early"]
    assert all(r["net_rappen"] == 0 for r in api.ok("GET", "/players/records")["records"])
    again = api.ok("POST", "/evenings/paper", {**body, "first_dealer": 0}, 201, "Evening")
    assert again["id"] == ev["id"]  # a double tap writes once
    assert len(api.ok("GET", "/evenings")["evenings"]) == 1


def test_a_bad_cell_is_named_and_nothing_is_written(client: FlaskClient) -> None:
    api, _view = new_circle(client)
    base = {"variant": "teams", "players": ["Anna", "Beat", "Cla", "Dora"], "first_dealer": 0}
    cells = [{"row_key": "suit_S", "side": 0, "value": 12}, {"row_key": "suit_C", "side": 1, "value": 3}]
    err = error_of(api.post("/evenings/paper", {**base, "request_id": rid(), "cells": cells}), 422, "cell_impossible")
    assert "3" in err["message"] and err["params"]["hand"] == 2  # the second cell typed
    err = error_of(
        api.post("/evenings/paper", {**base, "request_id": rid(), "cells": [{**cells[0], "side": 5}]}),
        422,
        "paper_side",
    )
    error_of(api.post("/evenings/paper", {**base, "request_id": rid(), "cells": []}), 422, "paper_empty")
    error_of(
        api.post("/evenings/paper", {**base, "request_id": rid(), "cells": cells[:1], "played_at": "yesterday"}), 400
    )
    error_of(
        api.post(
            "/evenings/paper",
            {
                **base,
                "request_id": rid(),
                "cells": cells[:1],
                "cuts": [{"row_key": "suit_S", "end": "high", "order": [0, 1]}],
            },
        ),
        422,
        "no_tie",
    )
    assert api.ok("GET", "/evenings")["evenings"] == []
