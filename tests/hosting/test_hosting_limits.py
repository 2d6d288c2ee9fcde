"""Rate limits: new circles and wrong tokens per client address, writes per evening; a 429
with Retry-After and a message in the user's language (page, fragment and API shapes) that
changes nothing; in memory on one host and in Redis shared by several."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hosting_helpers import API, bearer, circle_tokens, csrf, hand, new_circle, redis_url, start_evening
from werkzeug.test import TestResponse

from scorekeeper import config as cfg
from scorekeeper import limits

ANNA = {"REMOTE_ADDR": "198.51.100.7"}
BEAT = {"REMOTE_ADDR": "198.51.100.8"}
WRONG = "Z" * 43


@pytest.fixture
def limited(app_factory: Callable[..., Flask], db_url: str, storage: dict[str, str]) -> Callable[..., Flask]:
    def make(**config: Any) -> Flask:
        return app_factory(db_url, **storage, **config)

    return make


def _refused(resp: TestResponse, *, api: bool) -> str:
    """The 429's message, after checking its shape; Retry-After in seconds."""
    assert resp.status_code == 429, (resp.status_code, resp.get_data(as_text=True)[:300])
    assert 0 < int(resp.headers["Retry-After"]) <= 3600
    if api:
        body = resp.get_json()
        assert body["error"]["code"] == "rate_limited"
        assert body["error"]["params"]["retry_after"] == int(resp.headers["Retry-After"])
        from scorekeeper.api.shapes import SCHEMAS
        from scorekeeper.api.validation import validate

        validate(body, SCHEMAS["Error"], SCHEMAS)  # the API's one error shape
        message: str = body["error"]["message"]
        return message
    return resp.get_data(as_text=True)


def test_defaults_a_real_table_never_meets() -> None:
    defaults = cfg.defaults("/tmp")
    assert defaults["LIMIT_NEW_CIRCLES"] == "10 per hour"
    assert defaults["LIMIT_WRONG_TOKENS"] == "20 per 10 minutes"
    assert defaults["LIMIT_EVENING_WRITES"] == "120 per minute"
    assert defaults["LIMIT_IMPORTS"] == "10 per hour"
    assert defaults["RATELIMIT_STORAGE_URI"] == "memory://"


def test_every_endpoint_has_its_limits(app: Flask) -> None:
    rules: dict[str, list[Any]] = {}
    for rule in app.url_map.iter_rules():
        rules.setdefault(rule.endpoint, []).append(rule)
    for endpoint in limits.CIRCLE_CREATION:
        assert endpoint in rules, endpoint  # renamed? update CIRCLE_CREATION
    for endpoint, its_rules in rules.items():
        kinds = limits.kinds_of(endpoint, its_rules)
        path = its_rules[0].rule
        writes = any(r.methods & {"POST", "PUT", "DELETE"} for r in its_rules)
        if path.startswith(("/c/", "/s/", "/t/", "/api/")):
            assert limits.WRONG_TOKENS in kinds, endpoint
        if writes and ("<evening_id>" in path or "<table_id>" in path):
            assert limits.EVENING_WRITES in kinds, endpoint
        if endpoint in ("static", "ops.healthz", "ops.readyz", "home.set_language"):
            assert not kinds, endpoint


def test_new_circles_per_address(limited: Callable[..., Flask]) -> None:
    app = limited(LIMIT_NEW_CIRCLES="3 per hour", WTF_CSRF_ENABLED=True)
    client = app.test_client()
    assert client.post(f"{API}/circles", json={"name": ""}, environ_base=ANNA).status_code == 422  # not counted
    for _ in range(2):
        assert new_circle(client, environ_base=ANNA).status_code == 201
    page = client.get("/", environ_base=ANNA).get_data(as_text=True)
    created = client.post("/", data={"name": "Runde", "csrf_token": csrf(page)}, environ_base=ANNA)
    assert created.status_code == 200  # the page and the API share the limit: this was the third

    refused = new_circle(client, environ_base=ANNA, headers={"Accept-Language": "de-CH"})
    message = _refused(refused, api=True)
    assert message.startswith("Zu viele neue Jassrunden von deiner Adresse. Versuche es in ")
    page = client.get("/", environ_base=ANNA).get_data(as_text=True)
    on_page = client.post("/", data={"name": "Runde", "csrf_token": csrf(page)}, environ_base=ANNA)
    text = _refused(on_page, api=False)
    assert "Too many new circles from your address. Try again in " in text and "<h1>Too many requests</h1>" in text
    assert new_circle(client, environ_base=BEAT).status_code == 201  # another address


def test_wrong_tokens_per_address_then_every_token_is_refused(limited: Callable[..., Flask]) -> None:
    app = limited(LIMIT_WRONG_TOKENS="4 per 10 minutes")
    client = app.test_client()
    write, view = circle_tokens(client)
    for _ in range(5):  # right tokens never count
        assert client.get(f"/c/{view}", environ_base=ANNA).status_code == 200
        assert client.get(f"{API}/circle", headers=bearer(write), environ_base=ANNA).status_code == 200
    assert client.get(f"/c/{WRONG}", environ_base=ANNA).status_code == 404
    assert client.get(f"{API}/circle", headers=bearer(WRONG), environ_base=ANNA).status_code == 404
    assert client.get(f"/s/{WRONG}", environ_base=ANNA).status_code == 403
    assert client.post(f"{API}/tables/join", json={"token": WRONG}, environ_base=ANNA).status_code in (403, 404)

    # the limit is reached: every token from that address is refused, the right ones too
    message = _refused(client.get(f"{API}/circle", headers=bearer(write), environ_base=ANNA), api=True)
    assert message.startswith("Too many links that open nothing from your address.")
    page = client.get(f"/c/{write}", environ_base=ANNA, headers={"Accept-Language": "de"})
    assert "Zu viele ungültige Links von deiner Adresse." in _refused(page, api=False)
    fragment = client.get(f"/c/{WRONG}", environ_base=ANNA, headers={"HX-Request": "true"})
    assert _refused(fragment, api=False).startswith("Too many links")
    assert client.get("/", environ_base=ANNA).status_code == 200  # pages without a token still open
    assert client.get(f"/c/{write}", environ_base=BEAT).status_code == 200  # another address


def test_writes_per_evening(limited: Callable[..., Flask]) -> None:
    app = limited(LIMIT_EVENING_WRITES="3 per minute")
    client = app.test_client()
    write, _view = circle_tokens(client)
    evening = start_evening(client, write)
    other = start_evening(client, write)
    path = f"{API}/evenings/{evening['id']}"
    for _ in range(3):
        answer = client.post(f"{path}/hands", json=hand(evening), headers=bearer(write), environ_base=ANNA)
        assert answer.status_code == 200, answer.get_data(as_text=True)
        evening = answer.get_json()
    # a fourth write, from any phone, is refused and writes nothing
    refused = client.post(f"{path}/hands", json=hand(evening), headers=bearer(write), environ_base=BEAT)
    assert "Nothing was written" in _refused(refused, api=True)
    fresh = client.get(path, headers=bearer(write)).get_json()
    assert fresh["version"] == evening["version"] and fresh["slate"] == evening["slate"]
    assert client.get(f"{path}/slate", headers=bearer(write)).status_code == 200  # reads go on
    undo = client.post(f"/c/{write}/e/{evening['id']}/undo", data={"version": evening["version"]})
    assert "Too many changes to this evening at once." in _refused(undo, api=False)
    answer = client.post(f"{API}/evenings/{other['id']}/hands", json=hand(other), headers=bearer(write))
    assert answer.status_code == 200  # another evening


def _create(client: FlaskClient, environ: dict[str, str]) -> int:
    return new_circle(client, environ_base=environ).status_code


def test_the_limit_is_off_when_disabled(app_factory: Callable[..., Flask], db_url: str) -> None:
    app = app_factory(db_url, RATELIMIT_ENABLED=False, LIMIT_NEW_CIRCLES="1 per hour")
    client = app.test_client()
    assert [_create(client, ANNA) for _ in range(3)] == [201, 201, 201]


def test_redis_counts_for_every_host(app_factory: Callable[..., Flask], db_url: str) -> None:
    shared = {"RATELIMIT_STORAGE_URI": redis_url(), "RATELIMIT_KEY_PREFIX": f"sk-test-{id(db_url)}-hosts"}
    one = app_factory(db_url, LIMIT_NEW_CIRCLES="3 per hour", **shared).test_client()
    two = app_factory(db_url, LIMIT_NEW_CIRCLES="3 per hour", **shared).test_client()
    try:
        assert [_create(one, ANNA), _create(two, ANNA), _create(one, ANNA)] == [201, 201, 201]
        _refused(new_circle(two, environ_base=ANNA), api=True)
    finally:
        import redis

        store = redis.Redis.from_url(shared["RATELIMIT_STORAGE_URI"])
        for key in store.scan_iter(f"{shared['RATELIMIT_KEY_PREFIX']}*"):
            store.delete(key)


def test_memory_counts_per_process(app_factory: Callable[..., Flask], db_url: str) -> None:
    """Documented: memory:// is per worker process (two apps here), Redis is shared."""
    one = app_factory(db_url, LIMIT_NEW_CIRCLES="1 per hour").test_client()
    two = app_factory(db_url, LIMIT_NEW_CIRCLES="1 per hour").test_client()
    assert [_create(one, ANNA), _create(two, ANNA)] == [201, 201]
    assert _create(one, ANNA) == 429


@pytest.mark.parametrize("hops", [0, 1])
def test_client_address_behind_a_proxy(limited: Callable[..., Flask], hops: int) -> None:
    """With one trusted hop the limiter counts the address the proxy saw; without, X-Forwarded-For is ignored."""
    client = limited(LIMIT_NEW_CIRCLES="2 per hour", PROXY_HOPS=hops).test_client()
    proxy = {"REMOTE_ADDR": "127.0.0.1"}

    def create(real: str) -> int:
        return new_circle(client, environ_base=proxy, headers={"X-Forwarded-For": real}).status_code

    assert [create("203.0.113.1"), create("203.0.113.1")] == [201, 201]
    assert create("203.0.113.1") == 429
    assert create("203.0.113.2") == (201 if hops else 429)


def test_imports_per_address_refused_ones_too(limited: Callable[..., Flask]) -> None:
    """Every export file sent counts, a refused one too (reading and checking it is the cost),
    before its body is read; the page and the API share the limit."""
    from scorekeeper.history import export
    from scorekeeper.history.sample import sample_circle
    from scorekeeper.models import utcnow

    app = limited(LIMIT_IMPORTS="3 per hour", WTF_CSRF_ENABLED=True)
    client = app.test_client()
    for endpoint in limits.IMPORTING:
        assert limits.IMPORTS in limits.kinds_of(endpoint, list(app.url_map.iter_rules(endpoint)))
    good = export.dumps(sample_circle(3, evenings=2, players=4), utcnow()).encode()
    kind = {"Content-Type": "application/json"}
    assert client.post(f"{API}/circles/import", data=b"not json", headers=kind, environ_base=ANNA).status_code == 422
    assert client.post(f"{API}/circles/import", data=good, headers=kind, environ_base=ANNA).status_code == 201
    page = client.get("/restore", environ_base=ANNA).get_data(as_text=True)
    upload = {"csrf_token": csrf(page), "file": (io.BytesIO(b"{}"), "x.json")}
    assert client.post("/restore", data=upload, environ_base=ANNA).status_code == 422  # the third
    refused = client.post(f"{API}/circles/import", data=good, headers=kind, environ_base=ANNA)
    assert _refused(refused, api=True).startswith("Too many export files from your address. Nothing was written.")
    page = client.get("/restore", environ_base=ANNA).get_data(as_text=True)
    upload = {"csrf_token": csrf(page), "file": (io.BytesIO(good), "x.json")}
    assert "Too many export files" in _refused(client.post("/restore", data=upload, environ_base=ANNA), api=False)
    assert client.post(f"{API}/circles/import", data=good, headers=kind, environ_base=BEAT).status_code == 201
