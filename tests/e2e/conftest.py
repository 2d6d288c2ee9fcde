"""Browser tests: Debian's Chromium through Playwright against a live server in a thread, and
the table-side flows in WebKit too (``e2e_helpers.BOTH_ENGINES``: the same test body, the
``phone`` of that test a WebKitGTK MiniBrowser driven through ``e2e_webkit.WebKitPage``).

Skipped when /usr/bin/chromium is missing, unless SCOREKEEPER_REQUIRE_BROWSER=1
(CI), which turns a missing browser into a failure; the WebKit runs likewise skip without
WebKitWebDriver (webkit2gtk-driver) and Xvfb, unless SCOREKEEPER_REQUIRE_WEBKIT=1.

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


def _required(name: str = "SCOREKEEPER_REQUIRE_BROWSER") -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test's WebKit run is marked ``webkit`` (``-m webkit`` runs those alone)."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        if callspec is not None and callspec.params.get("engine") == "webkit":
            item.add_marker(pytest.mark.webkit)


@pytest.fixture
def engine(request: pytest.FixtureRequest) -> str:
    """The browser engine of the test's phones: chromium, or what BOTH_ENGINES gives it."""
    return str(getattr(request, "param", "chromium"))


@pytest.fixture(scope="session")
def webkit() -> Iterator[Any]:
    from e2e_webkit import webkit_browser

    yield from webkit_browser(_required("SCOREKEEPER_REQUIRE_WEBKIT"), pytest.fail, pytest.skip)


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
def live_app(db_url: str, engine: str) -> Iterator[tuple[str, Flask]]:
    """The app on 127.0.0.1:<free port> with its own migrated database and CSRF on, and the
    app itself (a test may set a table up through the services, in ``app.app_context()``);
    for WebKit it asks the browser to report each refusal (``e2e_webkit.report_violations``)."""
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
    if engine == "webkit":
        from e2e_webkit import report_violations

        report_violations(app)
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
def phone(request: pytest.FixtureRequest, engine: str) -> Iterator[Any]:
    """``phone()``: a new phone of the test's engine (Chromium: a Playwright page; WebKit: a
    ``WebKitPage``), watched for refusals and script errors, checked at the end."""
    if engine == "webkit":
        from e2e_webkit_page import WebKitPhones

        phones = WebKitPhones(request.getfixturevalue("webkit"))
        try:
            yield phones
            refused = phones.refused()
        finally:
            phones.close()
        assert refused == [], "WebKit: the Content-Security-Policy refused something, or a script failed"
        return
    chromium_phones = Phones(request.getfixturevalue("chromium"))
    yield chromium_phones
    for ctx in chromium_phones.contexts:
        ctx.close()
    assert chromium_phones.watch.refused() == [], "the Content-Security-Policy refused something, or a script failed"
