"""Hosting tests: the rate-limit storages (memory, and Redis at ``TEST_REDIS_URL``)."""

from __future__ import annotations

import secrets

import pytest
from hosting_helpers import redis_url


@pytest.fixture(params=["memory", "redis"])
def storage(request: pytest.FixtureRequest) -> dict[str, str]:
    """Rate-limit storage settings: in-memory, or Redis under a key prefix of this test alone."""
    if request.param == "memory":
        return {"RATELIMIT_STORAGE_URI": "memory://"}
    return {"RATELIMIT_STORAGE_URI": redis_url(), "RATELIMIT_KEY_PREFIX": f"sk-test-{secrets.token_hex(6)}"}
