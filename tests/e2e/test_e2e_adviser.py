""" "Which row?" on a phone at 360 px (issue 25): from the slate to the adviser, nine cards
tapped (one tapped twice: taken back), the answer shown in place with the pick, no sideways
scroll, the hand in no address the phone went to."""

from __future__ import annotations

from typing import Any

import pytest
from e2e_helpers import new_evening, no_sideways_scroll, shot

pytestmark = pytest.mark.browser

HAND = ["HJ", "H9", "HA", "HK", "HQ", "HT", "SA", "CA", "DA"]


def test_which_row_at_360px(live_server: str, phone: Any) -> None:
    page = phone()
    slate = new_evening(page, live_server, "teams", ["Anna", "Beat", "Cla", "Dora"])
    visited: list[str] = []
    page.on("request", lambda r: visited.append(r.url))
    page.click("a[data-adviser-link]")
    page.wait_for_selector("form[data-adviser]")
    page.wait_for_load_state("load")
    no_sideways_scroll(page)
    page.click("label[data-card=C6]")  # a wrong tap ...
    for code in HAND:
        page.click(f"label[data-card={code}]")
    page.click("label[data-card=C6]")  # ... taken back
    assert page.locator("input[name=card]:checked").count() == 9
    assert page.locator("[data-count]").inner_text() == "9 of 9 cards chosen"
    page.click("button[data-ask]")
    page.wait_for_selector("[data-answer]", timeout=30_000)
    assert page.url.split("#")[0] == slate + "/adviser"  # answered in place (htmx), no new address
    rows = page.locator("tr[data-row]").count()
    assert rows == 8
    assert page.locator("tr.pick").count() == 1
    assert page.locator("[data-pick]").inner_text().startswith("Play ")
    no_sideways_scroll(page)
    fits = page.evaluate(
        "(() => { const b = document.querySelector('.adviser-answer .table-scroll');"
        " return b.scrollWidth <= b.clientWidth; })()"
    )
    assert fits  # the whole table on the phone, not scrolled in its box
    shot(page, "adviser-answer")
    assert not [u for u in visited if "HJ" in u or "card=" in u]  # the hand went in a body only
