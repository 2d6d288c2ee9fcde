"""Four phones (browser contexts at 360 px) play a digitally dealt hand to its end and the
result shows on the slate; a tap on an illegal card is explained; no page scrolls sideways."""

from __future__ import annotations

import time
from typing import Any

import pytest
from e2e_helpers import new_evening, no_sideways_scroll, shot, wait_until
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

pytestmark = pytest.mark.browser

NAMES = ["Anna", "Beat", "Cla", "Dora"]


def test_four_phones_play_a_hand_onto_the_slate(live_server: str, phone: Any) -> None:
    organizer = phone()
    slate_url = new_evening(organizer, live_server, "teams", NAMES)
    organizer.click("text=Deal digitally")
    organizer.wait_for_selector("text=Digital table")
    organizer.click("text=Show the links and QR codes of the empty seats")
    organizer.wait_for_selector(".seat-link svg")
    links = [organizer.input_value(f"#seat-link-{i}") for i in range(1, 5)]
    assert organizer.locator(".seat-link .qr svg").count() == 4
    no_sideways_scroll(organizer, width=360)
    shot(organizer, "table-links-360", full=False)
    phones = []
    for link in links:  # the organizer's phone is one of the four: it opens Anna's link itself
        p = organizer if not phones else phone()
        p.goto(link)
        p.wait_for_selector("#seat-live")
        assert "/s/" not in p.url
        phones.append(p)
    for seat, p in enumerate(phones):
        assert p.locator(".seat-head strong").inner_text() == NAMES[seat]
        assert p.locator(".hand .card").count() == 9
        no_sideways_scroll(p, width=360)
    explained = False
    moves = 0
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        if phones[0].locator("[data-result]").count():
            break
        mover = next((p for p in phones if p.locator(".turn.mine").count()), None)
        if mover is None:
            time.sleep(0.2)
            continue
        before = mover.locator("#seat-live").get_attribute("data-version")
        if mover.locator("[data-choice]").count():
            # Polling may swap the choices between looking and tapping (a slow machine):
            # look again instead of waiting on a detached button; the deadline still holds.
            choice = mover.locator("[data-choice]:visible")
            try:
                choice.first.click(timeout=5_000)
            except PlaywrightTimeoutError:
                continue
        else:
            illegal = mover.locator(".hand .card:not(.legal)")
            if not explained and illegal.count():
                illegal.first.click()
                mover.wait_for_selector("[data-error]")
                assert "not" in mover.locator("[data-error]").inner_text()
                explained = True
                continue
            mover.locator(".hand .card.legal").first.click()
        wait_until(
            mover, f"(document.querySelector('#seat-live') || {{}}).dataset?.version !== '{before}'", timeout=10_000
        )
        moves += 1
        if moves == 8:
            shot(mover, "table-mid-hand-360")
    else:
        pytest.fail("the hand did not end in time")
    for p in phones:  # every phone sees the result (polling)
        p.wait_for_selector("[data-result]", timeout=10_000)
    shot(phones[1], "table-seat-360")
    check = phone()
    check.goto(slate_url)
    assert check.locator("#slate td.filled").count() == 1
