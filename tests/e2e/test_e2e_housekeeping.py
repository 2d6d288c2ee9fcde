"""Housekeeping at 360 px in Chromium: rename a player with long names, through the page
that says what will happen; take it back; delete a test evening (gone from the circle page, its
slate says so); end an evening early
only after saying whether it counts in money. No sideways scroll on any of these pages."""

from __future__ import annotations

from typing import Any

from e2e_helpers import LONG_NAMES, new_circle, no_sideways_scroll, record, shot, start_evening


def test_confirm_flow_at_360(live_server: str, phone: Any) -> None:
    page = phone()
    page.on("dialog", lambda d: d.accept())
    write, _view = new_circle(page, live_server)
    names = LONG_NAMES[:3]
    slate = start_evening(page, write, "three", names)
    record(page, names[0], "Acorns ×1", "90")
    # ending early: the button does nothing until the table says whether it counts in money
    page.click("text=End early")
    assert "#result" not in page.content() and page.locator("text=End early").is_visible()
    page.check("input[name=counts_in_money][value='0']")
    page.click("text=End early")
    page.wait_for_selector("#result")

    page.goto(write)
    assert page.locator("text=not in the money totals").is_visible()
    page.click("text=Tidy up: rename, merge, delete a test evening")
    no_sideways_scroll(page)
    page.select_option("#rename-player", label=names[1])
    page.fill("#rename-name", "Vreni Schmid")
    page.locator("#rename button").click()
    page.wait_for_selector("text=Please confirm")
    assert page.locator(".confirm").inner_text().startswith(f"{names[1]} will be called Vreni Schmid.")
    no_sideways_scroll(page)
    shot(page, "housekeeping-confirm-360")
    page.click("text=Yes, do it")
    page.wait_for_selector(".flash-success")
    assert page.locator("#changes").inner_text().count("Vreni Schmid") >= 1
    page.goto(slate)
    assert "Vreni Schmid" in page.locator("main").inner_text()

    # take the rename back: asked again, then the old name is back
    page.goto(write + "/housekeeping")
    page.click("#changes >> text=Take back")
    page.wait_for_selector("text=This change will be taken back:")
    no_sideways_scroll(page)
    page.click("text=Yes, do it")
    page.wait_for_selector(".flash-success")
    page.goto(slate)
    assert names[1] in page.locator("main").inner_text()

    # delete the evening as a test: gone from the circle's history, its slate says so
    page.goto(write + "/housekeeping")
    page.locator("#delete button").click()
    page.wait_for_selector("text=will count nowhere")
    page.click("text=Yes, do it")
    page.wait_for_selector(".flash-success")
    page.goto(write)
    assert page.locator(f"a[href$='{slate.split('/c/')[1].split('/', 1)[1]}']").count() == 0
    assert page.locator("text=No finished evenings yet.").is_visible()
    no_sideways_scroll(page)
    shot(page, "housekeeping-circle-360")
    assert page.goto(slate).status == 410 and page.locator("text=This evening was deleted").is_visible()


def test_data_and_paper_pages_fit_360(live_server: str, phone: Any) -> None:
    page = phone()
    write, _view = new_circle(page, live_server)
    for path in ("/data", "/delete", "/delete/confirm", "/paper?variant=solo4", "/paper?variant=three"):
        page.goto(write + path)
        no_sideways_scroll(page)
    page.goto(write + "/paper?variant=teams")
    for seat, name in enumerate(LONG_NAMES):
        page.fill(f"#seat_{seat}", name)
    page.fill("#cell_suit_S_0", "12")
    page.fill("#cell_obenabe_1", "45")
    page.check("input[name=counts_in_money][value='0']")
    shot(page, "paper-form-360")
    page.click("text=Write the evening")
    page.wait_for_selector("#slate")
    assert page.locator(".slate td.imported").count() == 2
    no_sideways_scroll(page)
    shot(page, "paper-slate-360")
    page.goto(live_server + "/restore")
    no_sideways_scroll(page)


def test_delete_asked_twice_and_forgotten_by_the_browser(live_server: str, phone: Any) -> None:
    page = phone()
    write, _view = new_circle(page, live_server, "Sternen")
    page.goto(live_server + "/")
    assert page.locator("#my-circles", has_text="Sternen").count() == 1
    page.goto(write)
    page.click("text=Export, restore or delete the circle")
    page.click("text=Delete this circle…")
    page.wait_for_selector("text=Download the export (JSON) first")
    page.click("text=Continue to delete")
    page.fill("input[name=name]", "sternen")
    no_sideways_scroll(page)
    page.click("text=Delete for good")
    page.wait_for_selector("text=has been erased")
    page.goto(live_server + "/")
    assert page.locator("#my-circles", has_text="Sternen").count() == 0
    assert page.goto(write).status == 410  # its link says the circle was deleted
    assert page.locator("h1").inner_text() == "Circle deleted"


def test_a_circle_named_in_any_script_downloads_its_export(live_server: str, phone: Any) -> None:
    """The export's file name in the circle's own script (``filename*``): the live server sends
    the header (a raw non-Latin-1 name made it fail the answer) and Chromium saves the file
    under the name."""
    page = phone()
    write, _view = new_circle(page, live_server, "Jass 中文")
    page.goto(write + "/data")
    no_sideways_scroll(page)
    for link, ext in (("Download the export (JSON)", "json"), ("CSV", "csv")):
        with page.expect_download() as info:
            page.click(f"a:has-text('{link}')")
        download = info.value
        assert download.failure() is None
        name = download.suggested_filename
        assert name.startswith("scorekeeper-jass-中文-") and name.endswith("." + ext), name
