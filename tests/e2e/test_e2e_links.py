"""Replacing the write link on a phone at 360 px: the circle page leads to a page that says
what happens before anything changes, the new link is shown once with its copy button, the
phone's list of circles keeps only the new link, and the old one opens nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest
from e2e_helpers import new_circle, no_sideways_scroll, record, start_evening, wait_until

pytestmark = pytest.mark.browser


def test_replacing_the_write_link(live_server: str, phone: Any) -> None:
    page = phone()
    write, _view = new_circle(page, live_server)
    page.goto(write)  # remembered by this phone
    page.click("summary")
    page.click("text=Replace the write link…")
    page.wait_for_selector("text=loses access")
    no_sideways_scroll(page)
    assert page.locator("#write-link").count() == 0  # asking changed nothing

    page.click("button:has-text('Replace the write link')")
    page.wait_for_selector("#write-link")
    new = page.input_value("#write-link")
    assert new != write and new.startswith(live_server + "/c/")
    no_sideways_scroll(page)
    page.click("button[data-copy=write-link]")
    wait_until(page, "document.querySelector('button[data-copy=write-link]').textContent === 'Copied'")

    page.goto(live_server + "/")
    wait_until(page, "!document.getElementById('my-circles-box').hidden")
    links = page.eval_on_selector_all("#my-circles a", "els => els.map(a => a.href)")
    assert links == [new]  # only the new link is kept

    assert page.goto(write).status == 410  # the old link says it was replaced
    assert page.locator("h1").inner_text() == "Link replaced"
    assert page.goto(new).status == 200


# The share sheet of a phone that shares links but not files (Firefox for Android, a chat app's
# browser, a desktop): canShare refuses files; what it was handed is written down.
_LINKS_ONLY = """
window.__skShared = [];
Object.defineProperty(navigator, "share", { configurable: true, value: data => {
  window.__skShared.push({ url: data.url || null, files: (data.files || []).length, text: data.text || null });
  return Promise.resolve();
} });
Object.defineProperty(navigator, "canShare", { configurable: true,
  value: data => !(data && data.files && data.files.length) });
"""


def test_sharing_the_picture_where_only_links_can_be_shared(live_server: str, phone: Any) -> None:
    """Issue 20.5: the fallback shared the slate picture's URL under the write link, so whoever
    got it could write on the circle. Now the link shared is the picture link: the picture and
    nothing else; on the write page and on the onlookers' page; the result's picture link too."""
    page = phone()
    page.add_init_script(_LINKS_ONLY)
    write, view = new_circle(page, live_server)
    slate = start_evening(page, write, "three", ["Anna", "Beat", "Cla"])
    record(page, "Anna", "Acorns ×1", "100")
    write_token, view_token = write.rsplit("/c/", 1)[1], view.rsplit("/c/", 1)[1]
    shared = []
    for address in (slate, slate.replace(write_token, view_token)):
        page.goto(address)
        page.wait_for_load_state("load")
        button = page.locator("button[data-share-picture]")
        assert button.is_visible()
        no_sideways_scroll(page)
        button.tap()
        wait_until(page, "window.__skShared.length > 0")
        got = page.evaluate("window.__skShared")
        assert len(got) == 1 and got[0]["files"] == 0, got
        shared.append(got[0]["url"])
    for url in shared:
        assert url.startswith(live_server + "/p/") and url.endswith("/slate.png?lang=en"), url
        assert write_token not in url and view_token not in url
    assert shared[0] == shared[1]  # one picture link, whichever page shared it

    # whoever receives it (no cookies, another phone) gets the picture, and nothing more
    other = phone().context.request
    answer = other.get(shared[0])
    assert answer.status == 200 and answer.headers["content-type"] == "image/png"
    key = shared[0].split("/p/", 1)[1].split("/", 1)[0]
    assert other.get(f"{live_server}/p/{key}").status == 404
    assert other.get(f"{live_server}/c/{key}").status == 404
    # what the page says and links: no picture URL under a circle's link anywhere in it
    page.goto(slate)
    html = page.content()
    pictures = re.findall(r'"([^"]*/slate\.png[^"]*)"', html)
    assert pictures and all(
        p.startswith("/p/") and live_server + p.replace("&amp;", "&") == shared[0] for p in pictures
    )


def test_the_circle_page_shows_its_links_as_qr_codes_at_360(live_server: str, phone: Any) -> None:
    """Issue 20.12: other phones join by camera. The onlookers link's code shows with the circle's
    links; the write link's only after its own tap; both fit a 360 px phone; an onlooker's page
    shows its own link's code to pass on, and nothing of the write link."""
    page = phone()
    write, view = new_circle(page, live_server)
    page.goto(write)
    page.click("#share summary")
    view_qr = page.locator("#view-qr svg")
    assert view_qr.is_visible() and page.input_value("#view-link") == view
    box = view_qr.bounding_box()
    assert box and box["width"] >= 200 and box["x"] + box["width"] <= 360
    assert not page.locator("#write-qr").is_visible()  # behind its own tap
    no_sideways_scroll(page)
    page.click("text=Show the QR code of the write link")
    assert page.locator("#write-qr svg").is_visible()
    no_sideways_scroll(page)
    # each code says what it is (which link it holds: tests/web/test_web_links.py)
    assert page.locator("#view-qr").get_attribute("aria-label") == "QR code of the onlookers link"
    assert page.locator("#write-qr").get_attribute("aria-label") == "QR code of the write link"

    onlooker = phone()
    onlooker.goto(view)
    write_token = write.rsplit("/c/", 1)[1]
    assert write_token not in onlooker.content() and onlooker.locator("#write-qr").count() == 0
    onlooker.click("#onlookers summary")
    assert onlooker.locator("#view-qr svg").is_visible() and onlooker.input_value("#view-link") == view
    no_sideways_scroll(onlooker)


def test_playing_against_the_computers_opens_this_phones_seat_at_360(live_server: str, phone: Any) -> None:
    """Issue 20.13: whoever starts a game against the computers lands on their own seat, its cards
    in hand; no seat link to copy into the address bar. The table's page offers the same for one
    seat of a mixed table."""
    page = phone()
    write, _view = new_circle(page, live_server)
    slate = start_evening(page, write, "teams", ["Anna", "Beat", "Cla", "Dora"])
    page.click("text=Play against the computers")
    no_sideways_scroll(page)
    page.locator(".against-computers label", has_text="Cla").click()
    page.click("text=Play on this phone")
    page.wait_for_selector("#seat-live")
    assert "/t/" in page.url and "/s/" not in page.url and "/c/" not in page.url
    assert page.locator("#seat-live button[data-card]").count() == 9  # this phone holds the seat's hand
    no_sideways_scroll(page)

    # a mixed table: the organiser takes one seat on the table's page
    other = phone()
    slate2 = start_evening(other, write, "teams", ["Anna", "Beat", "Cla", "Dora"])
    other.click("text=Deal digitally (play on phones)")
    other.wait_for_selector("#table-live")
    no_sideways_scroll(other)
    other.locator('li[data-seat="0"] button[data-take]').click()
    other.wait_for_selector("#seat-live")
    assert "/t/" in other.url and other.locator("#seat-live button[data-card]").count() == 9
    assert slate2 != slate
