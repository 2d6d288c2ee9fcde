"""The WebKit phone itself (tests/e2e/e2e_webkit.py): the engine an iPhone has, at 360 x 740,
with what the offline slate needs; and its watch sees a refused script and an uncaught error,
as the Chromium phones' does, or the WebKit runs of the flows would prove nothing there."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import e2e_webkit
import pytest
from e2e_helpers import wait_until
from e2e_webkit_page import WebKitPhones
from flask import Flask

WEBKIT = pytest.mark.parametrize("engine", ["webkit"], indirect=True)


class _Said(Exception):
    pass


def _said(text: str) -> None:
    raise _Said(text)


def test_a_missing_webkit_skips_or_fails_when_required(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without WebKitWebDriver the WebKit runs skip, saying what to install; with
    SCOREKEEPER_REQUIRE_WEBKIT=1 (CI) they fail (tests/e2e/conftest.py passes pytest's own)."""
    monkeypatch.setattr(e2e_webkit, "DRIVER", Path("/nonexistent/WebKitWebDriver"))
    for required in (False, True):
        told: list[str] = []

        def fail(t: str) -> None:
            told.append("fail")
            _said(t)

        def skip(t: str) -> None:
            told.append("skip")
            _said(t)

        with pytest.raises(_Said) as said:
            next(e2e_webkit.webkit_browser(required, fail, skip))
        assert told == ["fail" if required else "skip"]
        assert "webkit2gtk-driver" in str(said.value)


@pytest.mark.browser
@WEBKIT
def test_the_phone_is_webkit_at_360_px_with_a_worker_and_indexeddb(live_server: str, phone: Any) -> None:
    page = phone()
    page.goto(live_server + "/")
    agent = page.evaluate("navigator.userAgent")
    assert "AppleWebKit/605.1.15" in agent and "Safari/605.1.15" in agent and "Chrome" not in agent
    assert page.evaluate("[innerWidth, innerHeight, document.documentElement.clientWidth]") == [360, 740, 360]
    assert page.evaluate("window.isSecureContext && 'serviceWorker' in navigator && !!window.indexedDB") is True
    wait_until(page, "navigator.serviceWorker.ready.then(r => !!r.active)")


@pytest.mark.browser
@WEBKIT
def test_the_watch_sees_a_refused_script_and_an_uncaught_error(live_app: tuple[str, Flask], webkit: Any) -> None:
    base, _app = live_app
    phones = WebKitPhones(webkit)
    try:
        page = phones()
        page.goto(base + "/")
        assert phones.refused() == []
        # an inline script (the policy refuses it) and an error nobody catches
        page.evaluate(
            "(() => { const s = document.createElement('script'); s.textContent = 'window.__ran = 1';"
            " document.body.appendChild(s); setTimeout(() => { throw new Error('boom-webkit'); }, 0); })()"
        )
        assert page.evaluate("window.__ran === undefined") is True
        deadline = time.monotonic() + 10
        while len(phones.refused()) < 3:  # the event, the browser's report, the error
            assert time.monotonic() < deadline, phones.refused()
            time.sleep(0.1)
        refused = phones.refused()
        assert any("script-src" in r and "inline" in r for r in refused), refused  # the page's own event
        assert any(r.startswith("uncaught") and "boom-webkit" in r for r in refused), refused
        assert sum("script-src" in r for r in refused) == 2, refused  # and the browser's report-uri post
    finally:
        phones.close()
