"""Hosting tests: the rate-limit storages (memory, and Redis at ``TEST_REDIS_URL``)."""

from __future__ import annotations

import os
import secrets

import pytest

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


def redis_url() -> str:
    """The Redis server for the tests; skips (fails under SCOREKEEPER_REQUIRE_REDIS=1) when none answers."""
    import redis

    url = os.environ.get("TEST_REDIS_URL") or DEFAULT_REDIS_URL
    try:
        redis.Redis.from_url(url, socket_connect_timeout=3).ping()
    except redis.RedisError:
        if os.environ.get("SCOREKEEPER_REQUIRE_REDIS", "").strip().lower() in ("1", "true", "yes", "on"):
            pytest.fail(f"Redis required (SCOREKEEPER_REQUIRE_REDIS=1) but none answers at {url}")
        pytest.skip(f"no Redis server answers at {url}")
    return url


@pytest.fixture(params=["memory", "redis"])
def storage(request: pytest.FixtureRequest) -> dict[str, str]:
    """Rate-limit storage settings: in-memory, or Redis under a key prefix of this test alone."""
    if request.param == "memory":
        return {"RATELIMIT_STORAGE_URI": "memory://"}
    return {"RATELIMIT_STORAGE_URI": redis_url(), "RATELIMIT_KEY_PREFIX": f"sk-test-{secrets.token_hex(6)}"}
