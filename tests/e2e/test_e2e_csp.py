"""The main journeys at 360 px under the strict Content-Security-Policy, with not one refusal
and not one console error: a circle (copy buttons, a new onlookers link), an evening started
(dealer names, the factors swapped in by htmx), hands recorded (the defenders' pile fills
itself) and seen live on a second phone, a correction, an undo and the end (confirmations),
and the digital table with a seat (QR codes, a seat page playing through htmx)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from e2e_helpers import SEATED, new_circle, no_sideways_scroll, record, wait_until

from scorekeeper.config import CONTENT_SECURITY_POLICY

pytestmark = pytest.mark.browser

NAMES = ["Anna", "Beat", "Cla", "Dora"]


def _accept_confirmations(page: Any, asked: list[str]) -> None:
    """Answer every confirmation with OK, keeping its question."""

    def accept(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.accept()

    page.on("dialog", accept)


def _factor_rows(page: Any) -> list[str]:
    return [t.strip() for t in page.locator("#factors label").all_inner_texts()]


def test_every_journey_runs_without_a_policy_refusal(live_server: str, phone: Any) -> None:
    one = phone()
    asked: list[str] = []
    _accept_confirmations(one, asked)
    first = one.goto(live_server + "/")
    assert first.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    # htmx was told not to inject its <style>: nothing inline in the head
    assert one.evaluate("document.querySelectorAll('style, [style]').length") == 0

    # a circle: its links, copied
    write, view = new_circle(one, live_server)
    one.click("button[data-copy=write-link]")
    wait_until(one, "document.querySelector('button[data-copy=write-link]').textContent === 'Copied'")
    no_sideways_scroll(one)

    # the circle page: a new onlookers link (asked first)
    one.goto(write)
    one.click("summary")
    one.click("text=Make a new onlookers link")
    one.wait_for_selector("#view-link")
    assert one.input_value("#view-link") != view
    assert asked[-1].startswith("Make a new onlookers link?")

    # an evening: the dealer choices carry the typed names; the suit order swaps the factors (htmx)
    one.goto(write)
    one.click("a[href$='/start?variant=teams']")
    for seat, name in enumerate(NAMES):
        one.fill(f"input[name=seat_{seat}]", name)
    assert one.locator("label:has(input[name=first_dealer][value='2'])").inner_text().strip() == "Cla"
    before = _factor_rows(one)
    with one.expect_response(lambda r: "/start?" in r.url and r.request.method == "GET") as swapped:
        one.select_option(
            "select[name=suit_order]", "club" if one.input_value("select[name=suit_order]") != "club" else "swiss"
        )
    assert swapped.value.status == 200
    wait_until(one, f"document.querySelector('#factors label').textContent.trim() !== {before[0]!r}")
    assert _factor_rows(one) != before and len(_factor_rows(one)) == len(before)
    no_sideways_scroll(one)
    one.click("#start-form button[type=submit]")
    one.wait_for_selector("#slate")
    slate_url = str(one.url).split("#")[0]

    # a hand: the defenders' pile fills itself; a second phone sees it by polling
    two = phone()
    two.goto(slate_url)
    one.locator(".record .choices label", has_text="Anna").click()
    one.select_option("select[name=row]", index=1)
    one.fill("input[name=declarer_points]", "100")
    assert one.input_value("input[name=defender_points]") == "57"
    one.click("#record button[type=submit]")
    one.wait_for_selector(".flash-success")
    two.wait_for_selector("#slate td.filled", timeout=15_000)
    record(one, "Beat", "Obenabe ×5", "80")
    wait_until(two, "document.querySelectorAll('#slate td.filled').length === 2", timeout=15_000)

    # a correction, then an undo (asked first)
    one.locator("#slate td.filled a.cell").first.click()
    one.wait_for_selector("text=Correct hand 1")
    one.fill("input[name=declarer_points]", "")
    one.fill("input[name=defender_points]", "")
    one.fill("input[name=declarer_points]", "120")
    assert one.input_value("input[name=defender_points]") == "37"
    one.click("text=Save the correction")
    one.wait_for_selector(".flash-success")
    one.click("text=Undo last entry")
    one.wait_for_selector(".flash-success")
    assert asked[-1].startswith("Undo")
    assert one.locator("#slate td.filled").count() == 1
    wait_until(two, "document.querySelectorAll('#slate td.filled').length === 1", timeout=15_000)

    # the digital table: three computers, a seat link (QR code) opened on the second phone
    one.click("text=Deal digitally")
    one.wait_for_selector("#table-live")
    for seat in (1, 2, 3):
        one.locator(f"form.levels:has(input[name=seat][value='{seat}']) button[value=easy]").click()
        one.wait_for_selector(f"#table-live [data-seat='{seat}'] [data-level=easy]")
    one.click("text=Show the links and QR codes of the empty seats")
    one.wait_for_selector(".seat-link .qr svg")
    one.click("button[data-copy=seat-link-1]")
    wait_until(one, "document.querySelector('button[data-copy=seat-link-1]').textContent === '✓'")
    no_sideways_scroll(one, width=360)
    two.goto(one.input_value("#seat-link-1"))
    two.wait_for_selector("#seat-live .hand")
    wait_until(two, SEATED, 15_000)
    played = 0
    deadline = time.monotonic() + 60
    while played < 2 and time.monotonic() < deadline:
        if not two.locator(".turn.mine").count():
            time.sleep(0.2)
            continue
        version = two.locator("#seat-live").get_attribute("data-version")
        target = two.locator("[data-choice]:visible") if two.locator("[data-choice]").count() else None
        try:
            (target.first if target is not None else two.locator(".hand .card.legal").first).click(timeout=5_000)
        except Exception:  # noqa: BLE001 - polling swapped the seat between looking and tapping: look again
            continue
        wait_until(
            two, f"(document.querySelector('#seat-live') || {{}}).dataset?.version !== '{version}'", timeout=15_000
        )
        played += 1
    assert played == 2, "the seat could not play through its page"
    no_sideways_scroll(two, width=360)

    # back to real cards (asked first), then the end (asked first)
    one.goto(slate_url)
    one.click("text=Open the table")
    one.click("text=Back to real cards")
    one.wait_for_selector("#slate")
    assert asked[-1].startswith("Back to real cards?")
    one.check("input[name=counts_in_money][value='1']")
    one.click("text=End early")
    one.wait_for_selector(".result, [data-result], .badge")
    assert asked[-1].startswith("End the evening now")
    assert "ended" in one.locator("main").inner_text()
    two.goto(slate_url)  # the second phone sees the ended evening (an onlooker's view of it)
    two.wait_for_selector("#slate")

    assert phone.watch.violations == []
    assert phone.watch.errors == []
