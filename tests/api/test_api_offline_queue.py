"""A hand sent from an offline phone's queue through the API (issue 11): ``queued_after``."""

from __future__ import annotations

from api_helpers import error_of, new_circle, next_hand, start
from flask.testing import FlaskClient
from shared_helpers import rid

from scorekeeper.models import QUEUED_AFTER_MAX


def test_a_queue_lands_once_and_a_foreign_change_is_a_conflict(client: FlaskClient) -> None:
    api, _view = new_circle(client)
    ev = start(api, "solo4")
    path = f"/evenings/{ev['id']}/hands"
    first = next_hand(ev, 0)
    after_first = api.ok("POST", path, first, 200, "Evening")
    # the second hand was made offline on version 0, after the first (both queued on one phone)
    second = {**next_hand(after_first, 1), "expected_version": 0, "queued_after": [first["request_id"]]}
    landed = api.ok("POST", path, second, 200, "Evening")
    assert landed["version"] == 2
    assert api.ok("POST", path, second, 200, "Evening")["version"] == 2  # resent after a crash: nothing new
    # another phone's queue made on version 0 names none of these: 409 with the fresh slate
    other = {**next_hand(landed, 2), "expected_version": 0, "queued_after": []}
    resp = api.post(path, other)
    err = error_of(resp, 409, "stale")
    assert err["params"]["current_version"] == 2
    assert resp.get_json()["slate"]["rows"]
    # "record anyway": a new request id on the fresh version
    again = {**other, "request_id": rid("again"), "expected_version": 2}
    del again["queued_after"]
    assert api.ok("POST", path, again, 200, "Evening")["version"] == 3


def test_a_malformed_queue_is_refused_by_its_shape(client: FlaskClient) -> None:
    api, _view = new_circle(client)
    ev = start(api, "solo4")
    path = f"/evenings/{ev['id']}/hands"
    for bad in (["x"] * (QUEUED_AFTER_MAX + 1), ["has space"], "abc", [1]):
        resp = api.post(path, {**next_hand(ev, 0), "queued_after": bad})
        assert resp.status_code == 400, (bad, resp.get_json())
    assert api.ok("GET", f"/evenings/{ev['id']}", None, 200)["version"] == 0
