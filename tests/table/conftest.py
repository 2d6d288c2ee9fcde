"""Table tests: the computers play at the bots' ``easy`` level (microseconds a move)."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
def app_config() -> dict[str, Any]:
    return {"TABLE_COMPUTER_LEVEL": "easy"}
