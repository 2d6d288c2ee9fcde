"""A hand on the slate in a blink (issue 23, point 3): record, correct and undo update the slate
in place (no page load: a mark left on the page's window survives), the form within the thumb's
reach next to the tapped cell, the screen kept awake with a switch to let it sleep; and the
benchmark prints its figures (in Chromium and WebKit where the phone matters)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from e2e_helpers import BOTH_ENGINES, new_evening, record, wait_until

pytestmark = pytest.mark.browser

BENCH = Path(__file__).resolve().parents[2] / "bench" / "entry.py"
SAME_PAGE = "window.__skSamePage === 1"


def _mark(page: Any) -> None:
    """A mark on this document's window: gone if the page loads again."""
    page.evaluate("window.__skSamePage = 1")


def _live_version(page: Any) -> int:
    got = page.evaluate("document.getElementById('live').getAttribute('hx-get')")
    found = re.search(r"[?&]v=(\d+)", got)
    assert found, got
    return int(found[1])


@BOTH_ENGINES
def test_record_correct_and_undo_update_the_slate_in_place(live_server: str, phone: Any) -> None:
    one = phone()
    one.on("dialog", lambda dialog: dialog.accept())
    url = new_evening(one, live_server, "teams", ["Anna", "Beat", "Cla", "Dora"])
    one.wait_for_load_state("load")
    _mark(one)
    record(one, "Anna", "Obenabe ×5", "129")
    assert one.evaluate(SAME_PAGE), "the page loaded again"
    assert "Hand recorded: hand 1" in one.inner_text("#flashes")
    assert one.locator("#slate td.filled").count() == 1
    assert _live_version(one) == 1  # the poll asks after the new version
    assert one.url.split("#")[0] == url  # the address stays the slate's
    # a correction opened and cancelled: the record form is back, what was typed in it too
    one.fill("input[name=declarer_points]", "33")
    one.locator("#slate td.filled a.cell").first.click()
    one.wait_for_selector("#record[data-correcting]")
    one.click("#record a[data-cancel]")
    one.wait_for_selector("#record:not([data-correcting])")
    assert one.input_value("input[name=declarer_points]") == "33" and one.evaluate(SAME_PAGE)
    one.fill("input[name=declarer_points]", "")
    # a correction: the filled cell's form takes the record form's place, the slate stays
    one.locator("#slate td.filled a.cell").first.click()
    one.wait_for_selector("#record[data-correcting]")
    assert "Correct hand 1" in one.inner_text("#record")
    assert one.evaluate(SAME_PAGE) and one.locator("#slate").count() == 1
    one.fill("input[name=declarer_points]", "")
    one.fill("input[name=defender_points]", "")
    one.fill("input[name=declarer_points]", "141")
    one.click("text=Save the correction")
    wait_until(one, "document.getElementById('flashes').textContent.indexOf('Hand 1 corrected') >= 0")
    assert one.evaluate(SAME_PAGE)
    assert one.locator("#slate td.filled a.cell").first.inner_text().strip() == "70"
    assert "Corrections" in one.inner_text("#corrections")
    assert one.locator("#record[data-correcting]").count() == 0  # the record form is back
    # a second hand with the fresh form (a new request id), then undone in place
    record(one, "Beat", "Obenabe ×5", "100")
    assert one.locator("#slate td.filled").count() == 2 and one.evaluate(SAME_PAGE)
    one.click("text=Undo last entry")
    wait_until(one, "document.getElementById('flashes').textContent.indexOf('Last entry taken back') >= 0")
    assert one.evaluate(SAME_PAGE)
    assert one.locator("#slate td.filled").count() == 1
    # the poll goes on after the swaps: a hand from another phone shows up
    two = phone()
    two.goto(url)
    record(two, "Cla", "Undenufe ×6", "90")
    wait_until(one, "document.querySelectorAll('#slate td.filled').length === 2", timeout=15_000)
    assert one.evaluate(SAME_PAGE)


@BOTH_ENGINES
def test_a_refused_hand_comes_back_in_place_with_its_message(live_server: str, phone: Any) -> None:
    one = phone()
    new_evening(one, live_server, "teams", ["Anna", "Beat", "Cla", "Dora"])
    one.wait_for_load_state("load")
    _mark(one)
    one.locator(".record .choices label", has_text="Anna").click()
    one.fill("input[name=declarer_points]", "100")  # no row chosen
    one.click("#record button[type=submit]")
    one.wait_for_selector("#record .form-messages, #record .errors")
    assert one.evaluate(SAME_PAGE)
    assert one.input_value("input[name=declarer_points]") == "100"  # what was typed stays
    assert one.locator("#slate td.filled").count() == 0


@BOTH_ENGINES
def test_the_button_is_in_thumb_reach_and_the_tapped_cell_in_view(live_server: str, phone: Any) -> None:
    one = phone()
    new_evening(one, live_server, "teams", ["Anna", "Beat", "Cla", "Dora"])
    one.wait_for_load_state("load")
    for row in ("suit_S", "joker2"):  # the first row and the last
        one.locator(f"#slate td.open[data-row={row}][data-side='1']").click()
        wait_until(one, "document.activeElement && document.activeElement.name === 'declarer_points'")
        boxes = one.evaluate(
            """() => {
            const box = e => { const r = e.getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right]; };
            const cell = document.querySelector("#slate td.open[data-row='" + arguments[0] + "'][data-side='1']");
            const button = document.querySelector('#record button[type=submit]');
            const points = document.querySelector('#record input[name=declarer_points]');
            const b = button.getBoundingClientRect();
            const top = document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2);
            return {cell: box(cell), button: box(button), points: box(points), height: innerHeight,
                    width: innerWidth, hit: !!top && button.contains(top)};
            }""".replace("arguments[0]", repr(row))
        )
        height, width = boxes["height"], boxes["width"]
        for name in ("cell", "button", "points"):
            top, bottom, left, right = boxes[name]
            assert 0 <= top and bottom <= height and 0 <= left and right <= width, (row, name, boxes)
        assert boxes["button"][0] >= height / 2, boxes  # the lower half: where the thumb is
        assert boxes["hit"], "something covers the button"
        one.click("header")  # a tap beside the sheet puts the form back


# navigator.wakeLock stubbed in every document before its scripts (Playwright's init script):
# every request and release counted
WAKE_STUB = """
window.__locks = {asked: 0, released: 0};
Object.defineProperty(navigator, 'wakeLock', {configurable: true, value: {request: function (type) {
  window.__locks.asked += type === 'screen' ? 1 : 100;
  var lock = {released: false, release: function () {
    lock.released = true; window.__locks.released += 1; return Promise.resolve(); }};
  return Promise.resolve(lock); }}});
"""


def test_the_screen_stays_awake_and_a_switch_lets_it_sleep(live_server: str, phone: Any) -> None:
    """Chromium only: WebKit's driver here cannot run a script before the page's own."""
    one = phone()
    url = new_evening(one, live_server, "teams", ["Anna", "Beat", "Cla", "Dora"])
    one.context.add_init_script(WAKE_STUB)
    one.goto(url)
    wait_until(one, "window.__locks.asked === 1")  # asked on opening the slate
    switch = "#wake-lock input[type=checkbox]"
    assert one.is_visible(switch) and one.is_checked(switch)
    one.click(switch)  # the table lets the screen sleep
    wait_until(one, "window.__locks.released === 1")
    assert one.evaluate("localStorage.getItem('scorekeeper.wake')") == "off"
    one.reload()
    one.wait_for_load_state("load")
    assert not one.is_checked(switch)  # remembered on this phone
    one.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # seen again: still asleep
    assert one.evaluate("window.__locks.asked") == 0
    one.click(switch)  # awake again
    wait_until(one, "window.__locks.asked === 1")
    assert one.evaluate("localStorage.getItem('scorekeeper.wake')") == "on"
    one.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # the lock held: not asked twice
    assert one.evaluate("window.__locks.asked") == 1


def test_the_benchmark_prints_its_figures() -> None:
    out = subprocess.run(
        [sys.executable, str(BENCH), "--hands", "3"], capture_output=True, text=True, check=True, timeout=300
    ).stdout
    last = out.strip().splitlines()[-1]
    match = re.fullmatch(r"entry tap_to_paint_p50_ms=(\d+) tap_to_paint_p95_ms=(\d+) bytes_per_entry=(\d+)", last)
    assert match, last
    assert 0 < int(match[1]) <= int(match[2]) and int(match[3]) > 0
