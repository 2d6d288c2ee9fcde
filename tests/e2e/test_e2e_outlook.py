"""The outlook on two phones at 360 px (issue 13): it shows under the slate, follows a hand
recorded on the other phone and the other phone's choice to hide it, without a reload, and
nothing is wider than the phone, long team names included."""

from __future__ import annotations

from typing import Any

import pytest
from e2e_helpers import LONG_NAMES, filled_evening, new_evening, no_sideways_scroll, record, shot, wait_until

pytestmark = pytest.mark.browser

WIN = "[...document.querySelectorAll('#outlook .outlook-pct')].map(e => e.dataset.win).join(' ')"
RANGES = "[...document.querySelectorAll('#outlook dd[data-range]')].map(e => e.textContent.trim()).join(' | ')"


def test_the_outlook_follows_a_hand_recorded_on_another_phone(live_server: str, phone: Any) -> None:
    one = phone()
    url = new_evening(one, live_server, "teams", LONG_NAMES)
    two = phone()
    two.goto(url)
    outlook = two.locator("#outlook")
    assert outlook.is_visible()
    assert outlook.locator(".outlook-side").count() == 2
    for name in LONG_NAMES:  # every full name on the phone, never cut
        assert name in outlook.inner_text()
    assert two.evaluate(RANGES) == "0 to 900 | 0 to 900"  # tenths: 25 x (1 + 2 + ... + 8) for matches everywhere
    before = two.evaluate(WIN)
    no_sideways_scroll(two)

    record(one, LONG_NAMES[0], "Obenabe ×5", "120")
    # phone two follows the live slate: the first team's range and chances move
    wait_until(two, f"{RANGES}.startsWith('60 to 835 |')", timeout=10_000)  # 12 x 5 written: 60 + 900 - 25 x 5
    assert two.evaluate(WIN) != before
    assert two.locator("#outlook dd[data-catch-up]").nth(1).inner_text() != ""
    assert two.evaluate(WIN) == one.evaluate(WIN)  # the same figures on both phones
    no_sideways_scroll(two)
    two.locator("#outlook summary").click()  # row by row: still within the phone
    no_sideways_scroll(two)
    shot(two, "outlook-360")

    # phone one hides it; phone two follows without a reload, and its record form keeps its version
    one.locator("#outlook button", has_text="Hide the outlook").click()
    one.wait_for_selector(".flash-success")
    wait_until(two, "document.querySelectorAll('#outlook .outlook-side').length === 0", timeout=10_000)
    assert "hidden for this evening" in two.locator("#outlook").inner_text()
    record(two, LONG_NAMES[1], "Undenufe ×6", "90")  # no conflict: the setting did not change the slate
    assert two.locator("#slate td.filled").count() == 2
    shot(two, "outlook-hidden-360", full=False)

    # in Swiss German, with its longer words, the outlook still fits the phone
    one.locator(".lang a", has_text="Deutsch").click()
    one.wait_for_selector("#outlook h2:has-text('Ausblick')")
    one.locator("#outlook button", has_text="Ausblick zeigen").click()
    one.wait_for_selector("#outlook .outlook-side")
    assert "Für die Führung" in one.locator("#outlook").inner_text()
    one.locator("#outlook summary").click()
    no_sideways_scroll(one)
    shot(one, "outlook-de-360")


def test_the_words_say_what_the_star_says_and_stop_with_the_evening(live_app: tuple[str, Any], phone: Any) -> None:
    # Issue 20, point 9, at 360 px: one team far ahead, a match in Joker x7 or x8 alone makes
    # its win sure; the stars and the words name the same rows, the other team's line is an
    # average and says so; once the evening is ended early, nobody needs anything any more.
    base, app = live_app
    ev = filled_evening(app, "teams", LONG_NAMES, 11, points=lambda _i, seat: 150 if seat % 2 == 0 else 10)
    page = phone()
    page.goto(ev.slate(base))
    starred = page.eval_on_selector_all(
        "#slate td.open:has(.enough-mark)", "els => els.map(e => e.dataset.row + ':' + e.dataset.side)"
    )
    assert sorted(starred) == ["joker1:0", "joker2:0"]
    clinch = page.locator("#outlook li[data-side='0'] dd[data-clinch]").inner_text()
    assert clinch == "a match in Joker ×7 or Joker ×8"
    assert (
        page.locator("#outlook li[data-side='1'] dd[data-catch-up]").inner_text().endswith("per open row, on average")
    )
    assert "every open row" not in page.locator("#outlook").inner_text()
    page.locator("#outlook summary").click()
    assert "What one hand in the row needs on its own to take the lead" in page.locator("#outlook").inner_text()
    no_sideways_scroll(page)
    shot(page, "outlook-words-360")

    page.on("dialog", lambda d: d.accept())  # "end the evening now?"
    page.check("input[name=counts_in_money][value='1']")
    page.click("form[action$='/end'] button")
    page.wait_for_selector("#result")
    outlook = page.locator("#outlook")
    assert outlook.locator(".outlook-side").count() == 2  # who won stays
    assert outlook.locator("dd[data-catch-up], dd[data-clinch], details.outlook-rows").count() == 0
    assert page.locator("#slate .enough-mark").count() == 0
    no_sideways_scroll(page)
