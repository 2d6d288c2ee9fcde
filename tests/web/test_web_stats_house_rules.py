"""Issue 24: the statistics' filter offers "Our own rules" besides the four presets; a preset's
filter leaves out the evenings of a circle's own rules of its shape (the page and the API)."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import timedelta
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from house_rules_helpers import eleven_rows_with_tutti_and_misere
from shared_helpers import store_record

from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import Variant
from scorekeeper.history.records import EveningRecord, LogEntry, LogKind, Status
from scorekeeper.history.sample import sample_circle

HOUSE = eleven_rows_with_tutti_and_misere()


def _store(app: Flask) -> tuple[str, str]:
    """A sample circle of the four presets and two evenings of its own rules (teams shape)."""
    base = sample_circle(3, evenings=8, players=6, paper_rate=0.0)
    last = max(ev.ended_at for ev in base.evenings if ev.ended_at is not None)
    seats = tuple(p.id for p in base.players[:4])
    own = tuple(
        EveningRecord(
            id=f"own{i}",
            ruleset=HOUSE,
            first_dealer=0,
            seats=seats,
            log=(LogEntry(1, LogKind.HAND, None, HandEntry("bock", 0, None, 90, 67)),),
            cuts=(),
            status=Status.ENDED,
            created_at=last + timedelta(days=i + 1, hours=-3),
            ended_at=last + timedelta(days=i + 1),
            counts_in_money=False,
        )
        for i in range(2)
    )
    with app.app_context():
        return store_record(replace(base, evenings=(*base.evenings, *own)))


def _evenings(page: str) -> int:
    found = re.search(r"(\d+) evenings?", page)
    assert found, "no evening count on the page"
    return int(found.group(1))


def test_the_filter_groups_own_rules_apart(app: Flask, client: FlaskClient) -> None:
    write, _view = _store(app)
    circle = f"/c/{write}"
    everything = _evenings(client.get(f"{circle}/stats").text)
    own = client.get(f"{circle}/stats?variant=own").text
    assert '<option value="own" selected>Our own rules</option>' in own
    assert _evenings(own) == 2 and "no such variant" not in own
    presets = sum(_evenings(client.get(f"{circle}/stats?variant={v.value}").text) for v in Variant)
    assert presets + 2 == everything  # a preset's filter leaves the own rules' evenings out


def test_the_api_filters_own_rules_too(app: Flask, client: FlaskClient) -> None:
    write, _view = _store(app)
    headers = {"Authorization": f"Bearer {write}"}
    pid = client.get("/api/v1/players", headers=headers).get_json()["players"][0]["id"]

    def stats(query: str) -> dict[str, Any]:
        r = client.get(f"/api/v1/players/{pid}/stats{query}", headers=headers)
        assert r.status_code == 200, r.get_json()
        data: dict[str, Any] = r.get_json()
        return data

    own = stats("?variant=own")
    assert own["filter"]["variant"] == "own" and own["evenings"] == 2
    assert stats("?variant=teams")["evenings"] + 2 <= stats("")["evenings"]
    bad = client.get(f"/api/v1/players/{pid}/stats?variant=ours", headers=headers)
    assert bad.status_code == 400 and "own" in str(bad.get_json())
