"""Page tests run with CSRF protection ON, as in production (translations: tests/conftest.py)."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
def app_config() -> dict[str, Any]:
    return {"WTF_CSRF_ENABLED": True}
