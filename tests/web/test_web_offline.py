"""The offline app's server side (issue 11): the manifest, the service worker, the slate page's
islands, and a queued hand sent through the page form (``queued_after``)."""

from __future__ import annotations

import json
import re

import pytest
from flask.testing import FlaskClient
from shared_helpers import hidden
from web_helpers import create_circle, post_hand, start_evening, version_of

from scorekeeper.game.rulesets import Variant


def _island(html: str, id_: str) -> dict[str, object]:
    m = re.search(rf'<script type="application/json" id="{id_}">(.*?)</script>', html, re.S)
    assert m, id_
    return dict(json.loads(m.group(1)))


def _rules(html: str) -> dict[str, object]:
    """The rules as offline.js reads them: the live fragment's over those sent once with the page."""
    return {**_island(html, "slate-rules-fixed"), **_island(html, "slate-rules")}


def test_the_worker_is_served_from_the_root_never_immutable(client: FlaskClient) -> None:
    r = client.get("/sw.js")
    assert r.status_code == 200 and r.mimetype == "text/javascript"
    assert r.headers["Cache-Control"] == "no-cache"
    head, _sep, body = r.text.partition("\n")
    config = json.loads(head.removeprefix("self.SK_CONFIG = ").removesuffix(";"))
    assert all("?v=" in url and url.startswith("/static/") for url in config["shell"])
    assert "/static/js/queue.js" in " ".join(config["shell"]) and "importScripts" in body
    assert not any(re.search(p, "/s/abc") or re.search(p, "/c/abc/e/def/table") for p in config["keep"])
    assert all(any(re.search(p, path) for p in config["keep"]) for path in ("/", "/c/abc", "/c/abc/e/def"))
    assert client.get("/sw.js").text.partition("\n")[0] == head  # the same release, the same worker


@pytest.mark.parametrize("encoding", ["identity", "br", "gzip"])
def test_the_worker_has_a_validator_and_a_revalidation_is_a_304(client: FlaskClient, encoding: str) -> None:
    first = client.get("/sw.js", headers={"Accept-Encoding": encoding})
    etag = first.headers["ETag"]
    assert first.status_code == 200 and etag and first.headers["Cache-Control"] == "no-cache"
    again = client.get("/sw.js", headers={"Accept-Encoding": encoding, "If-None-Match": etag})
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == etag
    other = client.get("/sw.js", headers={"Accept-Encoding": encoding, "If-None-Match": '"another-release"'})
    assert other.status_code == 200 and other.data == first.data


def test_the_manifest(client: FlaskClient) -> None:
    r = client.get("/manifest.webmanifest")
    assert r.status_code == 200 and r.mimetype == "application/manifest+json"
    data = r.get_json(force=True)
    assert data["display"] == "standalone" and data["start_url"] == "/" and data["scope"] == "/"
    assert {(i["sizes"], i["purpose"]) for i in data["icons"]} == {
        (f"{n}x{n}", purpose) for n in (192, 512) for purpose in ("any", "maskable")
    }
    page = client.get("/").text
    assert 'rel="manifest"' in page and 'data-sw="/sw.js"' in page


def test_the_slate_carries_its_rules_and_the_evening(client: FlaskClient) -> None:
    write, view = create_circle(client)
    evening = start_evening(client, write, Variant.THREE)
    html = client.get(evening).text
    rules = _rules(html)
    assert rules["total"] == 157 and rules["full"] == [] and not rules["complete"]
    assert rules["version"] == version_of(html)
    offline = _island(html, "offline-evening")
    assert offline["can_write"] is True and str(offline["api"]).endswith("/hands")
    assert 'id="offline-insecure"' in html and 'id="queue"' in html
    onlooker = client.get(evening.replace(write, view)).text
    assert _island(onlooker, "offline-evening")["can_write"] is False and 'id="queue"' not in onlooker


def test_a_queued_hand_through_the_page_form(client: FlaskClient) -> None:
    write, _view = create_circle(client)
    evening = start_evening(client, write, Variant.THREE)
    page = client.get(evening).text  # the phone's page on version 0
    first = hidden(page, "/hands")
    r = post_hand(
        client,
        evening,
        {"declarer": "0", "row": "suit_H", "declarer_points": "100", "defender_points": "57"},
        page=page,
    )
    assert r.status_code == 302
    # the next hand was queued on the same page (version 0), after the first
    second = {"declarer": "1", "row": "suit_H", "declarer_points": "90", "defender_points": "67"}
    r = client.post(
        f"{evening}/hands",
        data={**first, "request_id": "queued-second-1", "queued_after": first["request_id"], **second},
    )
    assert r.status_code == 302
    assert version_of(client.get(evening).text) == 2
    # another phone's queue on version 0 that names none of them: the conflict, nothing written
    r = client.post(
        f"{evening}/hands",
        data={
            **first,
            "request_id": "queued-other-1",
            "queued_after": "x-1",
            "declarer": "2",
            "row": "suit_H",
            "declarer_points": "80",
            "defender_points": "77",
        },
    )
    assert r.status_code == 409
    assert version_of(client.get(evening).text) == 2


def test_a_page_that_shows_a_flashed_message_is_kept_by_nobody(client: FlaskClient) -> None:
    """Issue 20 point 14: "Hand recorded" is shown once. The page that shows it is marked for the
    offline worker (X-Flashed: it keeps a fresh copy instead) and carries no ETag and no-store (a
    later visit would get a 304 and the browser's copy with the banner); the next one is cached."""
    write, _view = create_circle(client)
    evening = start_evening(client, write, Variant.THREE)
    r = post_hand(
        client, evening, {"declarer": "0", "row": "suit_H", "declarer_points": "100", "defender_points": "57"}
    )
    assert r.status_code == 302
    shown = client.get(evening)
    assert "Hand recorded" in shown.text
    assert shown.headers["X-Flashed"] == "1" and shown.headers["Cache-Control"] == "no-store"
    assert "ETag" not in shown.headers
    again = client.get(evening)
    assert "Hand recorded" not in again.text and "X-Flashed" not in again.headers
    assert again.headers["ETag"] and again.headers["Cache-Control"] == "private, no-cache"


def test_the_rules_carry_the_turn_guide_after_queued_hands(client: FlaskClient) -> None:
    """What offline.js looks up (rule_snapshot's "turns") is game.turns' answer for every dealer
    and every set of full sides still reachable; nothing once the slate is full."""
    from scorekeeper.game import turns
    from scorekeeper.game.rulesets import default_ruleset

    write, _view = create_circle(client)
    evening = start_evening(client, write, Variant.THREE, first_dealer=2)
    rules = _rules(client.get(evening).text)
    found = rules["turns"]
    assert isinstance(found, dict)
    rs = default_ruleset(Variant.THREE)
    assert found["dealers"] == [2, 0, 1] and found["hands"] == 0 and found["cells"] == 3 * len(rs.rows)
    assert len(found["orders"]) == 3 * 7  # three dealers, every set of full sides but all three
    for dealer in range(3):
        for mask in range(7):
            full = [side for side in range(3) if mask >> side & 1]
            expected = [turns.forehand(rs, dealer), turns.barrel_seat(rs, dealer, full)]
            expected += turns.eligible_order(rs, dealer, full)
            assert found["orders"][f"{dealer}:{mask}"] == expected
    assert found["seich"] is None and "%(name)s" in found["words"]["barrel"]


def test_the_home_screen_hint_is_a_fragment_in_the_persons_language(client: FlaskClient) -> None:
    """Fetched by offline.js only on a phone without an install prompt: Safari's own words."""
    got = client.get("/home-screen")
    assert got.status_code == 200 and got.mimetype == "text/html"
    assert "“Add to Home Screen”" in got.text and "data-home-hint-close" in got.text
    assert "no-cache" in got.headers["Cache-Control"] and "Cookie" in got.headers["Vary"]
    client.get("/lang/de_CH")
    assert "«Zum Home-Bildschirm»" in client.get("/home-screen").text
    client.get("/lang/fr_CH")
    assert "«Sur l’écran d’accueil»" in client.get("/home-screen").text
    client.get("/lang/it_CH")
    assert "«Aggiungi alla schermata Home»" in client.get("/home-screen").text
