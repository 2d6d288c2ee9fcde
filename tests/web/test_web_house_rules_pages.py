"""House rules (issue 24) do not break the existing pages: a circle's own evening, with a
named house row, reads on the slate, its picture, the circle's list and its memory pages."""

from __future__ import annotations

from flask.testing import FlaskClient
from house_rules_helpers import eleven_rows_with_tutti_and_misere
from shared_helpers import rid

NAMES = ["Anna", "Beat", "Cla", "Dora"]


def test_a_house_rules_evening_reads_on_every_page(client: FlaskClient) -> None:
    made = client.post("/api/v1/circles", json={"name": "Hirschen"}).get_json()
    token = made["write_token"]
    headers = {"Authorization": f"Bearer {token}"}
    rules = eleven_rows_with_tutti_and_misere().rules_dict()
    body = {"rules": rules, "players": NAMES, "first_dealer": 0, "request_id": rid()}
    ev = client.post("/api/v1/evenings", json=body, headers=headers).get_json()
    for turn, (key, side) in enumerate((("bock", 0), ("suit_H", 1), ("tutti", 0))):
        hand = {
            "expected_version": ev["version"],
            "request_id": rid(),
            "declarer_seat": side,
            "row_key": key,
            "declarer_points": 157 if turn == 2 else 60,
            "defender_points": 0 if turn == 2 else 97,
            "match": turn == 2,
        }
        ev = client.post(f"/api/v1/evenings/{ev['id']}/hands", json=hand, headers=headers).get_json()
    assert ev["slate"]["totals"] == [6 * 9 + 25 * 7 + 500, 6 * 4]
    page = client.get(f"/c/{token}/e/{ev['id']}")
    assert page.status_code == 200 and "Bock" in page.text and "Tutti" in page.text
    png = client.get(f"/c/{token}/e/{ev['id']}/slate.png")
    assert png.status_code == 200 and png.data[:4] == b"\x89PNG"
    for path in ("", "/stats", "/ratings", "/purse"):
        assert client.get(f"/c/{token}{path}").status_code == 200, path
