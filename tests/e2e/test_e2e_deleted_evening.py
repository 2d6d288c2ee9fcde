"""Issue 20.6 and 20.10 in Chromium at 360 px.

A test evening deleted under "Tidy up" by one phone while another phone has its slate open: the
other phone's slate turns into "This evening was deleted" at its next poll (no slate left to type
on), the circle page no longer lists it as in progress; a phone that has not polled since (its page
still shows the form) and records a hand is told the evening was deleted; a phone without network
queues its hand, and the queue shows the server's refusal once sent; nothing is written. Taking
the deletion back brings the slate back with its hands. The housekeeping page tells two evenings of
the same players started the same minute apart, its confirmation shows the evening's slate, its
log says who was renamed what; nothing scrolls sideways."""

from __future__ import annotations

from typing import Any

from e2e_helpers import LONG_NAMES, filled_evening, no_sideways_scroll, shot, sideways
from flask import Flask

from scorekeeper.services import circles, evenings

DELETED = "This evening was deleted"


def _hands(app: Flask, write: str, evening_id: str) -> int:
    with app.app_context():
        circle, _w = circles.open_circle(write)
        return len(evenings.load_slate(evenings.get_evening(circle, evening_id, deleted_ok=True)).entries)


def _type_hand(page: Any) -> None:
    """A hand typed into the slate page's form and sent: the first player, an open row, 100 points."""
    page.wait_for_load_state("load")
    page.locator("#record .choices label").first.click()
    row = page.eval_on_selector("select[name=row]", "s => [...s.options].find(o => o.value && !o.disabled).value")
    page.select_option("select[name=row]", value=row)
    page.fill("input[name=declarer_points]", "100")
    page.click("#record button[type=submit]")


def _delete_and_confirm(page: Any, circle: str, evening_id: str) -> None:
    page.goto(circle + "/housekeeping")
    page.select_option("#delete-evening", value=evening_id)
    page.locator("#delete button").click()
    page.wait_for_selector("text=will count nowhere")
    assert page.locator(".confirm-evening table.slate").is_visible()  # the evening itself, to be sure
    no_sideways_scroll(page)
    page.click("text=Yes, do it")
    page.wait_for_selector(".flash-success")


def test_a_deleted_evening_leaves_every_phone_at_360(live_app: tuple[str, Flask], phone: Any) -> None:
    base, app = live_app
    names = LONG_NAMES
    at = filled_evening(app, "teams", names, 3)
    circle, slate = f"{base}/c/{at.write}", at.slate(base)
    table = phone()  # the phone on the table: its slate open, polling
    table.goto(slate)
    table.wait_for_selector("#record")
    late = phone()  # a phone that has not polled since (its poll answers "unchanged"): its form stays
    late.route("**/version?*", lambda route: route.fulfill(status=204))
    late.goto(slate)
    late.wait_for_selector("#record")
    offline = phone()  # a phone without network: its hand goes to its queue, sent later
    offline.route("**/version?*", lambda route: route.abort("internetdisconnected"))
    offline.goto(slate)
    offline.wait_for_selector("#record")
    keeper = phone()  # the phone that tidies up
    keeper.goto(circle)
    assert keeper.locator("text=Evening in progress").is_visible()

    _delete_and_confirm(keeper, circle, at.evening_id)
    keeper.goto(circle)
    assert keeper.locator("text=Evening in progress").count() == 0
    assert keeper.locator(f"a[href*='/e/{at.evening_id}']").count() == 0
    no_sideways_scroll(keeper)

    # the phone on the table: its next poll (every 3 s) loads the page again, which says so
    table.wait_for_selector(f"h1:has-text('{DELETED}')", timeout=15_000)
    assert table.locator("#record").count() == 0 and table.locator("#slate").count() == 0
    assert table.locator("a", has_text="Tidy up").is_visible()
    assert sideways(table) == []
    shot(table, "evening-deleted-360")

    # the late phone records a hand on the form it still shows: told, nothing written
    before = _hands(app, at.write, at.evening_id)
    _type_hand(late)
    late.wait_for_selector(f"h1:has-text('{DELETED}')")
    assert "Nothing was written." in late.locator("main").inner_text()
    assert sideways(late) == []
    # the phone without network: its queued hand, sent once it can be, is refused with the reason
    offline.wait_for_selector("#offline-state:not([hidden])")  # it knows it is offline: the form queues
    _type_hand(offline)
    refused = offline.locator("#queue-list .queue-refused")
    refused.wait_for(timeout=20_000)
    assert "This evening was deleted as a test evening" in refused.inner_text()
    assert sideways(offline) == []
    assert _hands(app, at.write, at.evening_id) == before

    # taken back: the slate is there again, with its hands, in progress
    keeper.goto(circle + "/housekeeping")
    keeper.click("#changes >> text=Take back")
    keeper.wait_for_selector("text=The evening comes back as it was, with every hand.")
    assert keeper.locator(".confirm-evening table.slate").is_visible()
    keeper.click("text=Yes, do it")
    keeper.wait_for_selector(".flash-success")
    keeper.goto(circle)
    assert keeper.locator("text=Evening in progress").is_visible()
    table.goto(slate)
    table.wait_for_selector("#record")
    assert table.locator("#slate td.filled").count() == before
    assert table.locator(".flash-error:visible").count() == 0


def test_housekeeping_tells_evenings_apart_at_360(live_app: tuple[str, Flask], phone: Any) -> None:
    base, app = live_app
    first = filled_evening(app, "teams", LONG_NAMES, 2)
    second = filled_evening(app, "teams", LONG_NAMES, 6, write=first.write)
    circle = f"{base}/c/{first.write}"
    page = phone()
    page.goto(circle + "/housekeeping")
    options = {
        page.locator(f"#delete-evening option[value='{e.evening_id}']").inner_text(): e.evening_id
        for e in (first, second)
    }
    assert len(options) == 2  # two different lines for the same four players, the same minute
    two = next(text for text, eid in options.items() if eid == first.evening_id)
    six = next(text for text, eid in options.items() if eid == second.evening_id)
    assert "2 hands" in two and "6 hands" in six and "totals" in six and "in progress" in six
    no_sideways_scroll(page)
    page.select_option("#delete-evening", value=second.evening_id)
    page.locator("#delete button").click()
    page.wait_for_selector("text=will count nowhere")
    assert page.locator(".confirm-evening table.slate td.filled").count() == 6
    assert sideways(page) == []
    shot(page, "housekeeping-delete-confirm-360")

    # a rename in the log: the name before and the name after
    page.goto(circle + "/housekeeping")
    page.select_option("#rename-player", label=LONG_NAMES[0])
    page.fill("#rename-name", "Anne-Marie Z.")
    page.locator("#rename button").click()
    page.click("text=Yes, do it")
    page.wait_for_selector(".flash-success")
    assert f"{LONG_NAMES[0]} was renamed Anne-Marie Z." in page.locator("#changes").inner_text()
    no_sideways_scroll(page)
