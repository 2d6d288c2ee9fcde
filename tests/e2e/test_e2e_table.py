"""Four phones (browser contexts at 360 px) play a digitally dealt hand to its end and the
result shows on the slate; a tap on an illegal card is explained; no page scrolls sideways.
One phone plays a whole hand on its seat by taps, computers at the other three, in Chromium and
in WebKit."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from e2e_helpers import (
    BOTH_ENGINES,
    NAMES_CUT,
    SEATED,
    USES_DRAWN,
    new_evening,
    no_sideways_scroll,
    seat_link,
    shot,
    table_evening,
    wait_until,
)
from flask import Flask, request
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from scorekeeper.services import circles, evenings

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
    phones: list[Any] = []
    for link in links:  # the organizer's phone is one of the four: it opens Anna's link itself
        p = organizer if not phones else phone()
        p.goto(link)
        p.wait_for_selector("#seat-live")
        wait_until(p, SEATED, 15_000)
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


def _moved(page: Any, before: str | None) -> None:
    """The seat view was drawn again after a move (its version changed)."""
    wait_until(page, f"(document.querySelector('#seat-live') || {{}}).dataset?.version !== '{before}'", 20_000)


@BOTH_ENGINES
def test_a_whole_hand_on_a_seat_by_taps(live_app: tuple[str, Flask], phone: Any) -> None:
    """A seat link opened on a phone, three computers at the table: the player chooses what to
    play and taps her nine cards; the hand ends on her phone and lands on the slate."""
    base, app = live_app
    at = table_evening(app, "teams", NAMES, first_dealer=3, computers=(1, 2, 3), seed=11)
    page = phone()
    page.goto(base + seat_link(app, at, 0))
    page.wait_for_selector("#seat-live")
    wait_until(page, SEATED, 15_000)  # the sit's answer changes the version the loop reads
    assert "/s/" not in page.url  # the seat's token left the address
    assert page.locator(".hand .card").count() == 9
    wait_until(page, USES_DRAWN, 15_000)  # the card faces draw from the sprite
    assert page.evaluate(NAMES_CUT) == []
    no_sideways_scroll(page, width=360)
    chose = played = 0
    deadline = time.monotonic() + 150
    while True:
        assert time.monotonic() < deadline, "the hand did not end in time"
        page.wait_for_selector(".turn.mine, [data-result]", timeout=30_000)
        if page.locator("[data-result]").count():
            break
        before = page.locator("#seat-live").get_attribute("data-version")
        choices = page.locator("[data-choice]:visible")
        if choices.count():
            choices.first.click()
            chose += 1
        else:
            page.locator("[data-hand] .card.legal").first.click()
            played += 1
        _moved(page, before)
        if played == 4:
            shot(page, "seat-by-taps-mid-hand-360", full=False)
    assert (chose, played) == (1, 9)
    assert page.locator(".hand .card").count() == 0
    no_sideways_scroll(page, width=360)
    with app.app_context():
        ev = evenings.get_evening(circles.open_circle(at.write)[0], at.evening_id)
        assert len(evenings.load_slate(ev).entries) == 1


@BOTH_ENGINES
def test_a_tap_while_the_seat_is_still_sitting_down_is_not_lost(live_app: tuple[str, Flask], phone: Any) -> None:
    """The seat page's first "sit" is slow (held on the server): the player's tap on what to
    play goes through at once, is not queued behind it and then dropped with the form the sit's
    answer replaces; the seat is noted as joined all the same."""
    base, app = live_app
    at = table_evening(app, "teams", NAMES, first_dealer=3, computers=(1, 2, 3), seed=11)
    release, seen = threading.Event(), []

    @app.before_request
    def hold_the_sit() -> None:
        seen.append((request.path.rsplit("/", 1)[-1], release.is_set()))
        if request.path.endswith("/sit"):
            release.wait(20)

    page = phone()
    try:
        page.goto(base + seat_link(app, at, 0))
        page.wait_for_selector("#seat-live")
        wait_until(page, "!!document.querySelector('#seat-live form.sit.htmx-request')", 10_000)
        assert page.locator("[data-choice]:visible").count() > 1  # the seat chooses what to play
        page.locator("[data-choice]:visible").first.click()
        wait_until(page, "document.querySelectorAll('[data-choice]').length === 0", 10_000)
        assert ("act", False) in seen  # answered while the sit was still held
    finally:
        release.set()
    wait_until(page, SEATED, 15_000)
    page.wait_for_selector("[data-hand] .card.legal", timeout=15_000)
    assert page.locator("[data-choice]").count() == 0
