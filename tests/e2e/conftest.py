"""Browser tests: Debian's Chromium through Playwright against a live server in a thread.

Skipped when /usr/bin/chromium is missing, unless SCOREKEEPER_REQUIRE_BROWSER=1
(CI), which turns a missing browser into a failure.

Every phone watches the Content-Security-Policy: a refused script or style (a
``securitypolicyviolation`` event or the browser's console report of one) or an uncaught
script error fails the test that caused it (``e2e_helpers.Watch``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from e2e_helpers import PHONE, Watch, in_thread
from flask import Flask
from werkzeug.serving import make_server

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _required() -> bool:
    return os.environ.get("SCOREKEEPER_REQUIRE_BROWSER", "").strip().lower() in ("1", "true", "yes", "on")


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    if not CHROMIUM.exists():
        if _required():
            pytest.fail(f"SCOREKEEPER_REQUIRE_BROWSER=1 but {CHROMIUM} is missing")
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def live_app(db_url: str) -> Iterator[tuple[str, Flask]]:
    """The app on 127.0.0.1:<free port> with its own migrated database and CSRF on, and the
    app itself (a test may set a table up through the services, in ``app.app_context()``)."""
    from scorekeeper.app import create_app
    from tests.conftest import dispose

    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "e2e-secret",
            "SQLALCHEMY_DATABASE_URI": db_url,
            "WTF_CSRF_ENABLED": True,
            "LIMIT_EVENING_WRITES": "100000 per minute",  # a test drives the API faster than a table
        }
    )
    try:
        with in_thread(make_server("127.0.0.1", 0, app, threaded=True)) as url:
            yield url, app
    finally:
        dispose(app)


@pytest.fixture
def live_server(live_app: tuple[str, Flask]) -> str:
    """The live app's address."""
    return live_app[0]


class Phones:
    """``phone()``: a new phone-sized browser context (each one a separate phone) and its page,
    watched for policy violations and script errors (``watch``)."""

    def __init__(self, chromium: Any) -> None:
        self.chromium = chromium
        self.contexts: list[Any] = []
        self.watch = Watch()

    def __call__(self) -> Any:
        ctx = self.chromium.new_context(
            viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, locale="en-GB"
        )
        self.contexts.append(ctx)
        self.watch.attach(ctx)
        return ctx.new_page()


@pytest.fixture
def phone(chromium: Any) -> Iterator[Phones]:
    phones = Phones(chromium)
    yield phones
    for ctx in phones.contexts:
        ctx.close()
    assert phones.watch.refused() == [], "the Content-Security-Policy refused something, or a script failed"
