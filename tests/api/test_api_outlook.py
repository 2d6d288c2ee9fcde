"""GET /api/v1/evenings/{id}/outlook and the evening's settings (issue 13): the documented
shape for every variant, the definitions' numbers, the same figures on every read of a
version, hidden when the table asks, and the setting refused to onlookers and for bad bodies."""

from __future__ import annotations

import pytest
from api_helpers import HANDS, error_of, fill, new_circle, start
from flask.testing import FlaskClient
from shared_helpers import rid

VARIANTS = list(HANDS)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_outlook_has_the_documented_shape_and_the_definitions(client: FlaskClient, variant: str) -> None:
    api, view = new_circle(client)
    ev, _n = fill(api, start(api, variant), 5)
    e = f"/evenings/{ev['id']}/outlook"
    out = api.ok("GET", e, schema="Outlook")
    assert out["version"] == ev["version"] and out["hidden"] is False and out["variant"] == variant
    assert len(out["sides"]) == len(ev["sides"]) and len(out["rows"]) == len(ev["slate"]["rows"])
    assert out["simulations"] > 0 and len(out["seed"]) == 16
    totals = ev["slate"]["totals"]
    for s in out["sides"]:
        assert s["min"] <= s["total"] <= s["max"] if variant == "three" else s["min"] == s["total"]
        if variant != "three":
            assert s["total"] == totals[s["side"]]
        assert 0 <= s["win"] <= 1 and 0 <= s["shared"] <= 1
    assert abs(sum(s["win"] for s in out["sides"]) + out["shared"] - 1) < 1e-9
    for row in out["rows"]:
        assert [c["side"] for c in row["cells"]] == list(range(len(ev["sides"])))
        if variant == "three":
            assert row["sticks"] is not None and row["potatoes"] is not None
        else:
            assert row["sticks"] is None
            for c in row["cells"]:
                assert (c["match_enough"] is None) == (not c["open"])
    # the same figures on every read of the version, also through the onlookers' link
    assert view.ok("GET", e, schema="Outlook") == out
    assert api.ok("GET", e) == out


def test_a_new_hand_gives_a_new_forecast(client: FlaskClient) -> None:
    api, _view = new_circle(client)
    ev, _n = fill(api, start(api, "teams"), 3)
    before = api.ok("GET", f"/evenings/{ev['id']}/outlook")
    ev, _n = fill(api, ev, 1)
    after = api.ok("GET", f"/evenings/{ev['id']}/outlook")
    assert after["version"] == before["version"] + 1 and after["seed"] != before["seed"]


def test_a_complete_evening_is_decided(client: FlaskClient) -> None:
    api, _view = new_circle(client)
    ev, _n = fill(api, start(api, "club"))
    out = api.ok("GET", f"/evenings/{ev['id']}/outlook", schema="Outlook")
    totals = ev["slate"]["totals"]
    if totals[0] != totals[1]:
        best = max(range(2), key=lambda s: totals[s])
        assert [s["decided"] for s in out["sides"]] == ["won" if i == best else "lost" for i in range(2)]
        assert [s["win"] for s in out["sides"]] == [1.0 if i == best else 0.0 for i in range(2)]
    assert all(c["open"] is False for r in out["rows"] for c in r["cells"])


def test_the_table_can_hide_it(client: FlaskClient) -> None:
    api, view = new_circle(client)
    ev, _n = fill(api, start(api, "solo4"), 2)
    e = f"/evenings/{ev['id']}"
    assert api.ok("GET", e + "/settings", schema="Settings") == {"outlook_hidden": False}
    assert api.ok("POST", e + "/settings", {"outlook_hidden": True}, schema="Settings") == {"outlook_hidden": True}
    out = api.ok("GET", e + "/outlook", schema="Outlook")
    assert out["hidden"] is True and out["sides"] == [] and out["rows"] == [] and out["seed"] is None
    assert view.ok("GET", e + "/settings") == {"outlook_hidden": True}
    assert api.ok("GET", e)["version"] == ev["version"]  # not a change of the slate
    assert api.ok("POST", e + "/settings", {}, schema="Settings") == {"outlook_hidden": True}  # left as it is
    assert api.ok("POST", e + "/settings", {"outlook_hidden": False})["outlook_hidden"] is False
    assert api.ok("GET", e + "/outlook")["hidden"] is False


def test_the_setting_is_refused_to_onlookers_and_for_bad_bodies(client: FlaskClient) -> None:
    api, view = new_circle(client)
    ev = start(api, "three")
    e = f"/evenings/{ev['id']}/settings"
    error_of(view.post(e, {"outlook_hidden": True}), 403)
    error_of(api.post(e, {"outlook_hidden": "yes"}), 400)
    error_of(api.post(e, {"outlook_hidden": True, "colour": "red"}), 400)
    error_of(api.send("POST", e, None, data="x", headers={"Content-Type": "text/plain"}), 415)
    error_of(api.get("/evenings/nope/outlook"), 404)
    assert api.ok("GET", e) == {"outlook_hidden": False}


@pytest.mark.parametrize("variant", ["teams", "solo4", "club"])
def test_the_least_each_side_needs_agrees_with_the_stars(client: FlaskClient, variant: str) -> None:
    # Issue 20, point 9: the words on the page come from lead_need / sure_need, the star from
    # match_enough; both from the same cells (sure_alone), so they cannot disagree.
    api, _view = new_circle(client)
    ev, _n = fill(api, start(api, variant), 9)
    out = api.ok("GET", f"/evenings/{ev['id']}/outlook", schema="Outlook")
    for s in out["sides"]:
        cells = {r["key"]: r["cells"][s["side"]] for r in out["rows"] if r["cells"][s["side"]]["open"]}
        starred = {k for k, c in cells.items() if c["match_enough"]}
        assert starred == {k for k, c in cells.items() if c["sure_alone"]}
        if s["decided"] != "open":
            assert s["lead_need"] is None and s["sure_need"] is None and not starred
            continue
        lead, sure = s["lead_need"], s["sure_need"]
        assert (lead["kind"] == "there") == (s["catch_up"] == 0)
        assert bool(starred) == (sure["kind"] == "cell")
        for need, field in ((lead, "lead_alone"), (sure, "sure_alone")):
            alone = {k: c[field] for k, c in cells.items() if c[field] is not None}
            if need["kind"] == "cell":  # the one hand with the fewest points, in every row where that does
                assert need["points"] == min(alone.values())
                assert set(need["rows"]) == {k for k, p in alone.items() if p == need["points"]}
            elif need["kind"] != "there":
                assert not alone  # no single hand does it


def test_nothing_is_needed_after_the_evening_ends_early(client: FlaskClient) -> None:
    api, _view = new_circle(client)
    ev, _n = fill(api, start(api, "teams"), 5)
    e = f"/evenings/{ev['id']}"
    before = api.ok("GET", e + "/outlook", schema="Outlook")
    assert all(s["lead_need"] is not None and s["sure_need"] is not None for s in before["sides"])
    body = {"expected_version": ev["version"], "request_id": rid(), "early": True}
    api.ok("POST", e + "/end", body, schema="Evening")
    after = api.ok("GET", e + "/outlook", schema="Outlook")
    assert all(s["lead_need"] is None and s["sure_need"] is None for s in after["sides"])
    assert not any(c["open"] or c["match_enough"] for r in after["rows"] for c in r["cells"])
