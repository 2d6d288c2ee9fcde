"""At a real table on a 360 px phone: a refused hand lands at the form, the first dealer is
offered by name, the home page lists a circle once, long words break only where they may.
Screenshots of the fixed pages (both languages) go to $SCOREKEEPER_SCREENSHOTS."""

from __future__ import annotations

from typing import Any

import pytest
from e2e_helpers import NAMES_CUT, new_circle, no_sideways_scroll, shot, start_evening, wait_until

pytestmark = pytest.mark.browser

LONG = ["Anna-Katharina", "Bartholomäus", "Cécile-Marguerite", "Dölf von Gunten"]


def test_a_refused_hand_lands_at_the_form_with_the_field_focused(live_server: str, phone: Any) -> None:
    page = phone()
    write, _view = new_circle(page, live_server)
    start_evening(page, write, "teams", ["Anna", "Beat", "Cécile", "Dölf"])
    page.locator(".record .choices label", has_text="Beat").click()
    page.select_option("select[name=row]", "suit_H")
    page.fill("input[name=declarer_points]", "100")
    page.fill("input[name=defender_points]", "50")
    page.click("text=Write it on the slate")
    page.wait_for_selector(".form-messages")
    assert "/e/" in page.url  # answered in place (issue 23.3) or, without the swap, at /hands#record
    wait_until(page, "document.activeElement && document.activeElement.name === 'declarer_points'", timeout=3_000)
    box = page.locator(".form-messages").bounding_box()
    field = page.locator("input[name=declarer_points]").bounding_box()
    assert box is not None and field is not None
    assert 0 <= field["y"] <= 740 - field["height"]  # the field is on screen, not 1900 px away
    assert page.evaluate("scrollY") > 300
    assert page.locator(".flashes").count() == 0  # the message is next to the form, once
    shot(page, "qa-after-error-at-form-360", full=False)
    # a field error: focused, shown once under its field
    page.fill("input[name=defender_points]", "57")
    page.fill("input[name=declarer_points]", "")
    page.click("text=Write it on the slate")
    page.wait_for_selector("#declarer_points-errors")
    wait_until(page, "document.activeElement && document.activeElement.name === 'declarer_points'", timeout=3_000)
    assert page.locator("text=Enter the declarer's points (0 to 157).").count() == 1


def test_first_dealer_is_offered_by_the_typed_names(live_server: str, phone: Any) -> None:
    page = phone()
    write, _view = new_circle(page, live_server)
    page.goto(f"{write}/start?variant=three")
    labels = page.locator("input[name=first_dealer] + span")
    assert labels.all_inner_texts() == ["Seat 1", "Seat 2", "Seat 3"]
    page.fill("input[name=seat_0]", "Anna")
    page.fill("input[name=seat_1]", "Beat")
    assert labels.all_inner_texts() == ["Anna", "Beat", "Seat 3"]
    page.fill("input[name=seat_2]", "Cécile")
    page.locator("label", has_text="Cécile").locator("input[name=first_dealer]").check()
    no_sideways_scroll(page)
    shot(page, "qa-after-start-form-360")
    page.click("#start-form button[type=submit]")
    page.wait_for_selector("#slate")
    guide = page.locator(".guide").inner_text()
    assert "Cécile deals." in guide and "Anna is forehand" in guide  # seat 3 dealt first


def test_home_lists_a_circle_once_preferring_the_write_link(live_server: str, phone: Any) -> None:
    page = phone()
    write, view = new_circle(page, live_server)
    page.goto(view)
    page.goto(write)
    page.goto(view)  # the read-only link opened last
    page.goto(live_server + "/")
    items = page.locator("#my-circles li")
    assert items.count() == 1
    assert "can write" in items.first.inner_text()
    assert items.first.locator("a").get_attribute("href") == write


def _fill_long_slate(page: Any, rows: list[tuple[str, str, str]]) -> None:
    for declarer, row, points in rows:
        page.wait_for_load_state("load")  # the form's script fills the defenders' pile
        page.locator(".record .choices label", has_text=declarer).click()
        page.select_option("select[name=row]", row)
        if page.locator("[data-played-as]").is_visible():
            value = page.eval_on_selector_all(
                "#played_as option", "os => os.filter(o => o.value && !o.disabled).map(o => o.value).pop()"
            )
            page.select_option("select[name=played_as]", value)
        page.fill("input[name=declarer_points]", points)
        page.click(".record button[type=submit]")
        page.wait_for_selector(".flash-success")


@pytest.mark.parametrize("lang", ["en", "de_CH"])
def test_long_words_and_names_fit_a_360_px_slate(live_server: str, phone: Any, lang: str) -> None:
    page = phone()
    write, _view = new_circle(page, live_server)
    if lang != "en":
        page.goto(write)
        page.click("text=Deutsch")
    for variant in ("club", "teams", "solo4", "three"):
        names = LONG[:3] if variant == "three" else LONG
        ev = start_evening(page, write, variant, names)
        if variant == "club":
            _fill_long_slate(page, [(LONG[1], "misere_zwueschi", "40")])
        no_sideways_scroll(page)
        # a row label never breaks inside a word: every line of it starts at a word or a soft hyphen
        shot(page, f"qa-after-{variant}-slate-{lang}-360")
        # row labels break only at spaces and soft hyphens, so they never overflow their cell
        widths = page.eval_on_selector_all(
            ".slate th.rowlabel", "els => els.map(e => [e.textContent.trim(), e.scrollWidth, e.clientWidth])"
        )
        assert all(sw <= cw + 1 for _t, sw, cw in widths), widths
        # names are never cut (issue 9): short forms in the header, the full names in the key below
        assert page.evaluate(NAMES_CUT) == []
        heads = page.locator(".slate thead th[aria-label]")
        assert heads.first.get_attribute("aria-label") in (names[0], f"{names[0]} & {names[2]}")
        assert ev
    page.goto(write)
    no_sideways_scroll(page)
    shot(page, f"qa-after-circle-{lang}-360")


@pytest.mark.parametrize("lang", ["en", "de_CH"])
def test_closed_evening_reopens_and_history_row_opens_it(live_server: str, phone: Any, lang: str) -> None:
    page = phone()
    page.on("dialog", lambda d: d.accept())  # the confirmations (end early, reopen)
    write, _view = new_circle(page, live_server)
    if lang != "en":
        page.goto(write)
        page.click("text=Deutsch")
    ev = start_evening(page, write, "teams", LONG)
    _fill_long_slate(page, [(LONG[1], "suit_H", "100")])
    page.check("input[name=counts_in_money][value='1']")  # the table says it counts in money
    page.click("form[action$='/end'] button")
    page.wait_for_selector("#result")
    page.goto(ev + "/entries/0")
    assert page.locator("#reopen button").is_visible()
    shot(page, f"qa-after-closed-entry-{lang}-360")
    page.goto(write)
    page.click("#share summary")
    row = page.locator(".history .evening-link").first
    box = row.bounding_box()
    assert box is not None and box["height"] >= 44 and box["width"] > 300  # the whole row is the link
    money = page.eval_on_selector_all(".history .money", "els => els.map(e => e.getClientRects().length)")
    assert money and all(n == 1 for n in money)  # an amount never wraps
    no_sideways_scroll(page)
    shot(page, f"qa-after-history-share-{lang}-360")
    row.click()
    page.wait_for_selector("#result")
    page.click("#reopen button")
    page.wait_for_selector("form[data-record]")
    assert page.locator(".flash-success").count() == 1


def test_closing_with_open_ties_asks_first(live_server: str, phone: Any) -> None:
    page = phone()
    write, _view = new_circle(page, live_server)
    ev = start_evening(page, write, "three", ["Anna", "Beat", "Cécile"])
    rows = page.eval_on_selector_all("select[name=row] option", "os => os.filter(o => o.value).map(o => o.value)")
    for key in rows:  # every row: 80 for everybody, so every row ties
        _fill_long_slate(page, [(name, key, "80") for name in ("Anna", "Beat", "Cécile")])
    page.goto(ev)
    cuts = page.locator("#cuts").bounding_box()
    slate = page.locator("#slate").bounding_box()
    assert cuts is not None and slate is not None and cuts["y"] < slate["y"]  # the cut comes first
    shot(page, "qa-after-three-ties-before-close-360", full=False)
    seen: list[str] = []

    def dismiss(dialog: Any) -> None:
        seen.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)
    page.click("text=Close, the app cuts the open ties")
    page.wait_for_timeout(300)
    assert seen and "ties are not cut yet: the app will cut them at random" in seen[0]
    assert page.locator("#result").count() == 0  # dismissed: still open, nothing drawn
    shot(page, "qa-after-three-close-button-360")


def test_turn_guide_says_who_chooses_when_the_forehand_is_full(live_server: str, phone: Any) -> None:
    page = phone()
    write, _view = new_circle(page, live_server)
    start_evening(page, write, "three", ["Anna", "Beat", "Cécile"])
    rows = page.eval_on_selector_all("select[name=row] option", "os => os.filter(o => o.value).map(o => o.value)")
    _fill_long_slate(
        page, [("Beat", key, "100") for key in rows] + [("Anna", rows[0], "90"), ("Cécile", rows[0], "70")]
    )
    guide = " ".join(page.locator(".guide").inner_text().split())
    assert "Anna deals. Beat (forehand) is full; Cécile chooses first." in guide
    page.locator(".guide").scroll_into_view_if_needed()
    shot(page, "qa-after-guide-forehand-full-360", full=False)
