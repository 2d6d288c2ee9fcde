"""More than one Seich per side (house rules, ``seich_times`` > 1, issue 24): the slate's Seich
row, the turn guide's "Used:" line, the picture and the API's slate show where every Seich of a
side went, not only the first."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from house_rules_helpers import eleven_rows_with_tutti_and_misere
from shared_helpers import rid
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Evening
from scorekeeper.present.picture import slate_picture
from scorekeeper.present.slate import build_guide, seich_marks
from scorekeeper.services.read.snapshot import load_snapshot

NAMES = ["Anna", "Beat", "Cla", "Dora"]
TWICE = replace(eleven_rows_with_tutti_and_misere(), seich=True, seich_times=2)


def _three_seich(client: FlaskClient) -> tuple[str, dict[str, Any], list[int]]:
    """An evening of house rules where whoever is in the barrel throws in three hands."""
    token = client.post("/api/v1/circles", json={"name": "Hirschen"}).get_json()["write_token"]
    headers = {"Authorization": f"Bearer {token}"}
    body = {"rules": TWICE.rules_dict(), "players": NAMES, "first_dealer": 0, "request_id": rid()}
    ev = client.post("/api/v1/evenings", json=body, headers=headers).get_json()
    callers = []
    for _ in range(3):
        barrel = ev["slate"]["turn"]["barrel_seat"]
        callers.append(barrel)
        hand = {"expected_version": ev["version"], "request_id": rid(), "declarer_seat": barrel, "seich": True}
        r = client.post(f"/api/v1/evenings/{ev['id']}/hands", json=hand, headers=headers)
        assert r.status_code in (200, 201), r.get_json()
        ev = r.get_json()
    return token, ev, callers


def test_every_seich_of_a_side_is_shown(app: Flask, client: FlaskClient) -> None:
    token, ev, callers = _three_seich(client)
    sides = [TWICE.side_of(seat) for seat in callers]
    twice = next(s for s in range(2) if sides.count(s) == 2)  # the teams alternate: one called twice
    calls = ev["slate"]["seich_calls"]
    assert calls == [[{"hand": i + 1, "seat": callers[i]} for i in range(3) if sides[i] == s] for s in range(2)]
    assert ev["slate"]["seich_hands"] == [c[0] for c in calls]  # the first, as for one Seich
    assert ev["slate"]["seich_used"] == [twice]

    page = client.get(f"/c/{token}/e/{ev['id']}").text
    row = re.search(r'<tr class="seich">(.*?)</tr>', page, re.S)
    assert row
    cells = re.findall(r"<td>(.*?)</td>", row.group(1), re.S)
    hands_of = [re.findall(r">hand (\d) · (\w+)</a>", cell) for cell in cells]
    assert hands_of == [[(str(i + 1), NAMES[callers[i]]) for i in range(3) if sides[i] == s] for s in range(2)]
    assert "<br>" in cells[twice]
    used = re.search(r"Used: (.*?)\.</p>", page)
    assert used and used.group(1).count(" in hand ") == 3
    assert "up to 2 times per side" in page

    with app.test_request_context():
        snap = load_snapshot(db.session.execute(select(Evening).where(Evening.public_id == ev["id"])).scalar_one())
        marks = seich_marks(snap)
        assert marks is not None and [[m.hand for m in side] for side in marks] == [
            [c["hand"] for c in side] for side in calls
        ]
        pic = slate_picture(snap, title="Hirschen", date="y")
        guide = build_guide(snap)
    assert pic.seich_label == "Seich"
    assert pic.seich[twice] == "; ".join(f"hand {c['hand']} · {NAMES[c['seat']]}" for c in calls[twice])
    assert guide is not None and guide.seich is not None
    assert guide.seich.startswith("Seich: up to 2 times per side")
    assert "Still available for:" in guide.seich and guide.seich.count(" in hand ") == 3
