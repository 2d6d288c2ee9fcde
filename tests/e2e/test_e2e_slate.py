"""Two phones on one evening; a correction and an undo; screenshots at 360 px (in Chromium and
in WebKit)."""

from __future__ import annotations

from typing import Any

import pytest
from e2e_helpers import BOTH_ENGINES, new_evening, record, shot, wait_until

pytestmark = pytest.mark.browser


@BOTH_ENGINES
def test_second_phone_sees_new_hand_without_reload(live_server: str, phone: Any) -> None:
    one = phone()
    url = new_evening(one, live_server, "three", ["Anna", "Beat", "Cla"])
    two = phone()
    two.goto(url)
    assert two.locator("#slate td.filled").count() == 0
    record(one, "Beat", "Roses ×1", "112")
    # the defenders' pile was filled by the helper as 157 - 112
    two.wait_for_selector("#slate td.filled", timeout=10_000)
    assert two.locator("#slate td.filled").first.inner_text().startswith("112")
    # phone two had not touched its form: it follows the fresh slate and records without a conflict
    two.locator("#slate td.open[data-row=suit_C][data-side='2']").click()  # tap Cla's open acorns cell
    assert two.input_value("select[name=row]") == "suit_C"
    assert two.locator("input[name=declarer][value='2']").is_checked()
    two.fill("input[name=declarer_points]", "40")
    two.click("text=Write it on the slate")
    two.wait_for_selector(".flash-success")
    assert two.locator("#slate td.filled").count() == 2
    wait_until(one, "document.querySelectorAll('#slate td.filled').length === 2", timeout=10_000)
    shot(one, "slate-360")
    shot(two, "slate-second-phone-360", full=False)


@BOTH_ENGINES
def test_a_phone_filling_in_its_form_gets_a_conflict_not_a_duplicate(live_server: str, phone: Any) -> None:
    one = phone()
    url = new_evening(one, live_server, "three", ["Anna", "Beat", "Cla"])
    two = phone()
    two.goto(url)
    two.locator(".record .choices label", has_text="Anna").click()  # phone two starts typing...
    two.select_option("select[name=row]", label="Roses ×1")
    record(one, "Beat", "Roses ×1", "112")  # ...while phone one records
    two.wait_for_selector("#slate td.filled", timeout=10_000)
    two.fill("input[name=declarer_points]", "90")
    two.click("text=Write it on the slate")
    two.wait_for_selector(".flash-warning")
    assert "Somebody else changed this slate" in two.locator(".flash-warning").inner_text()
    assert two.input_value("input[name=declarer_points]") == "90"  # values kept
    assert two.locator("#slate td.filled").count() == 1
    two.click("text=Write it on the slate")  # seen the fresh slate: send again
    two.wait_for_selector(".flash-success")
    assert two.locator("#slate td.filled").count() == 2


@BOTH_ENGINES
def test_correct_an_entry_and_undo_the_last(live_server: str, phone: Any) -> None:
    one = phone()
    asked: list[str] = []

    def accept(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.accept()

    one.on("dialog", accept)
    url = new_evening(one, live_server, "teams", ["Anna", "Beat", "Cla", "Dora"])
    record(one, "Anna", "Obenabe ×5", "129")
    cell = one.locator("#slate td.filled a.cell").first
    assert cell.inner_text().strip() == "60"
    cell.click()
    one.wait_for_selector("text=Correct hand 1")
    one.fill("input[name=declarer_points]", "")
    one.fill("input[name=defender_points]", "")
    one.fill("input[name=declarer_points]", "141")
    assert one.input_value("input[name=defender_points]") == "16"
    one.click("text=Save the correction")
    one.wait_for_selector(".flash-success")
    assert one.locator("#slate td.filled a.cell").first.inner_text().strip() == "70"
    assert one.locator("text=Corrections").count() == 1
    shot(one, "teams-corrected-360")
    assert url in one.url
    # a second hand, then undone (asked first): the corrected first hand stays
    record(one, "Beat", "Obenabe ×5", "100")
    assert one.locator("#slate td.filled").count() == 2
    one.click("text=Undo last entry")
    one.wait_for_selector(".flash-success")
    assert asked and asked[-1].startswith("Undo")
    assert one.locator("#slate td.filled").count() == 1
    assert one.locator("#slate td.filled a.cell").first.inner_text().strip() == "70"
    # the home page lists the circle this phone opened (from the browser's storage only)
    one.goto(live_server + "/")
    one.wait_for_selector("#my-circles a")
    assert "Donnschtig-Jass" in one.locator("#my-circles").inner_text()
    assert "can write" in one.locator("#my-circles").inner_text()


def test_record_form_offers_what_fits_the_declarer_and_row(live_server: str, phone: Any) -> None:
    one = phone()
    new_evening(one, live_server, "teams", ["Anna", "Beat", "Cla", "Dora"])
    record(one, "Anna", "Obenabe ×5", "129")
    assert not one.locator("[data-played-as]").is_visible()
    one.locator(".record .choices label", has_text="Cla").click()  # Anna's partner: Obenabe is filled for the team
    offered = one.eval_on_selector_all("select[name=row] option:not([disabled])", "os => os.map(o => o.value)")
    assert "obenabe" not in offered and "undenufe" in offered
    one.locator(".record .choices label", has_text="Beat").click()  # the other team: still open
    offered = one.eval_on_selector_all("select[name=row] option:not([disabled])", "os => os.map(o => o.value)")
    assert "obenabe" in offered
    one.select_option("select[name=row]", "joker1")
    assert one.locator("[data-played-as]").is_visible()
    played = one.eval_on_selector_all("select[name=played_as] option:not([disabled])", "os => os.map(o => o.value)")
    assert set(played) - {""} == {"suit:C", "suit:D", "suit:S", "suit:H", "obenabe", "undenufe"}
    one.fill("input[name=defender_points]", "57")
    assert one.input_value("input[name=declarer_points]") == "100"  # 157 - 57
    one.check("input[name=match]")  # typed points are never changed without asking (issue 20)
    assert one.locator("[data-match-ask]").is_visible()
    one.locator("[data-match-fill]").click()
    assert (one.input_value("input[name=declarer_points]"), one.input_value("input[name=defender_points]")) == (
        "157",
        "0",
    )
