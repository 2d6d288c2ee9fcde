"""Page tests run with CSRF protection ON, as in production; translations compiled once."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session", autouse=True)
def _compiled_translations() -> None:
    """The .mo files are build output (gitignored): compile them like `make` does."""
    folder = ROOT / "scorekeeper" / "translations"
    if folder.is_dir():
        subprocess.run(
            [sys.executable, "-m", "babel.messages.frontend", "-q", "compile", "-f", "-d", str(folder)], check=True
        )


@pytest.fixture
def app_config() -> dict[str, Any]:
    return {"WTF_CSRF_ENABLED": True}
