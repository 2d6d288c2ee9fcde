"""The offline app's server side (issue 11): the manifest, the service worker, the slate page's
islands, and a queued hand sent through the page form (``queued_after``)."""

from __future__ import annotations

import json
import re

from flask.testing import FlaskClient
from shared_helpers import hidden
from web_helpers import create_circle, post_hand, start_evening, version_of

from scorekeeper.game.rulesets import Variant


def _island(html: str, id_: str) -> dict[str, object]:
    m = re.search(rf'<script type="application/json" id="{id_}">(.*?)</script>', html, re.S)
    assert m, id_
    return dict(json.loads(m.group(1)))


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
    rules = _island(html, "slate-rules")
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
