"""The start form sent again: the same fields open the same evening; other players under the
same request id are refused with the message, and the form comes back with a new request id."""

from __future__ import annotations

from flask.testing import FlaskClient
from shared_helpers import flashes
from web_helpers import create_circle, start_form

from scorekeeper.game.rulesets import Variant


def test_the_start_form_sent_again(client: FlaskClient) -> None:
    circle, _view = create_circle(client)
    url = f"{circle}/start?variant=three"
    data = start_form(client.get(url).text, Variant.THREE)
    first = client.post(url, data=data)
    assert first.status_code == 302
    again = client.post(url, data=data)  # a double tap: the same evening
    assert again.status_code == 302 and again.headers["Location"] == first.headers["Location"]

    other = client.post(url, data={**data, "seat_2": "Dora"})
    assert other.status_code == 422
    assert any("already sent once with other values" in text for text in flashes(other.text))
    assert data["request_id"] not in other.text  # a new request id: sending again starts an evening
    token = circle.rsplit("/", 1)[1]
    listed = client.get("/api/v1/evenings", headers={"Authorization": f"Bearer {token}"}).get_json()
    assert len(listed["evenings"]) == 1
