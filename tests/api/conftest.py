"""API tests run with CSRF protection ON, as in production: the API must not need it."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
def app_config() -> dict[str, Any]:
    return {"WTF_CSRF_ENABLED": True}
