"""Replacing the write link on a phone at 360 px: the circle page leads to a page that says
what happens before anything changes, the new link is shown once with its copy button, the
phone's list of circles keeps only the new link, and the old one opens nothing."""

from __future__ import annotations

from typing import Any

import pytest
from e2e_helpers import new_circle, no_sideways_scroll, wait_until

pytestmark = pytest.mark.browser


def test_replacing_the_write_link(live_server: str, phone: Any) -> None:
    page = phone()
    write, _view = new_circle(page, live_server)
    page.goto(write)  # remembered by this phone
    page.click("summary")
    page.click("text=Replace the write link…")
    page.wait_for_selector("text=loses access")
    no_sideways_scroll(page)
    assert page.locator("#write-link").count() == 0  # asking changed nothing

    page.click("button:has-text('Replace the write link')")
    page.wait_for_selector("#write-link")
    new = page.input_value("#write-link")
    assert new != write and new.startswith(live_server + "/c/")
    no_sideways_scroll(page)
    page.click("button[data-copy=write-link]")
    wait_until(page, "document.querySelector('button[data-copy=write-link]').textContent === 'Copied'")

    page.goto(live_server + "/")
    wait_until(page, "!document.getElementById('my-circles-box').hidden")
    links = page.eval_on_selector_all("#my-circles a", "els => els.map(a => a.href)")
    assert links == [new]  # only the new link is kept

    assert page.goto(write).status == 404
    assert page.goto(new).status == 200
