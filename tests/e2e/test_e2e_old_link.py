"""A phone that still holds an old write link, in Chromium at 360 px (issue 21 point 3, issue 20
point 8): its page says the link was replaced and stops polling at the first such answer (no
lock-out of the address); a hand typed on it is kept on the phone and written exactly once when
the evening's new link is opened (a person decides when the slate moved on meanwhile); without
script the answer repeats the typed hand; the home page forgets the dead link."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from e2e_helpers import (
    PHONE,
    Switchable,
    Watch,
    club_evening,
    no_sideways_scroll,
    phone_without_script,
    shot,
    switchable,
    wait_until,
)
from flask import Flask

from scorekeeper.services import circles

pytestmark = pytest.mark.browser
NAMES = ["Anna", "Beat", "Cla", "Dora"]
POLL_S = 3  # the slate's poll (templates/slate/_live.html: every 3s)


@pytest.fixture
def server(db_url: str) -> Iterator[Switchable]:
    with switchable(db_url) as s:
        yield s


def _replace(app: Flask, token: str) -> str:
    """The circle's write link replaced (another phone did it): the new token."""
    with app.app_context():
        circle, _can_write = circles.open_circle(token)
        return circles.new_write_link(circle)


def _entries(app: Flask, evening_id: str, token: str) -> list[dict[str, Any]]:
    data = app.test_client().get(f"/api/v1/evenings/{evening_id}/entries", headers={"Authorization": f"Bearer {token}"})
    assert data.status_code == 200
    entries: list[dict[str, Any]] = data.get_json()["entries"]
    return entries


def _until_written(page: Any, app: Flask, evening_id: str, token: str, n: int) -> list[dict[str, Any]]:
    """The evening's entries once there are ``n`` (the phone sends in the background; waiting
    through the page lets Playwright answer the page's routed requests meanwhile)."""
    deadline = time.monotonic() + 20
    while len(found := _entries(app, evening_id, token)) < n:
        assert time.monotonic() < deadline, f"{len(found)} entries, not {n}"
        page.wait_for_timeout(100)
    return found


def _fill(page: Any, declarer: str, row: str, points: str) -> None:
    page.wait_for_load_state("load")
    page.locator(".record .choices label", has_text=declarer).click()
    page.select_option("select[name=row]", value=row)
    page.fill("input[name=declarer_points]", points)


@pytest.fixture
def quiet_phone(chromium: Any) -> Iterator[Any]:
    """A phone whose slate poll on the old link always hears "unchanged" (it learns that the link
    was replaced only from its own hand; ``quiet(page, token)``), without a service worker (so
    the page's own requests can be answered here)."""
    ctx = chromium.new_context(
        viewport=PHONE,
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale="en-GB",
        service_workers="block",
    )
    watch = Watch()
    watch.attach(ctx)
    page = ctx.new_page()
    try:
        yield page
    finally:
        ctx.close()
    assert watch.refused() == [], watch.refused()


def test_an_old_page_stops_polling_at_the_first_replaced_answer(server: Switchable, phone: Any) -> None:
    token, evening_id = club_evening(server.app, "old-start")
    page = phone()
    page.goto(f"{server.url}/c/{token}")  # remembered on this phone ("My circles")
    page.goto(f"{server.url}/c/{token}/e/{evening_id}")
    page.wait_for_selector("#slate")
    old_poll = f"GET /c/{token}/e/{evening_id}/version"
    answers: list[int] = []  # the poll's answers as the page heard them (one may be under way now)
    page.on("response", lambda r: answers.append(r.status) if old_poll.split()[1] + "?" in r.url else None)
    new = _replace(server.app, token)

    wait_until(page, "!document.getElementById('link-gone').hidden", timeout=4 * POLL_S * 1000)
    said = page.inner_text("#link-gone")
    assert "write link was changed: ask the others at the table for the new link" in said
    assert "typed on this phone are kept" in said
    assert page.locator(".actions button[type=submit]:not([disabled])").count() == 0  # nothing else is sent
    no_sideways_scroll(page)
    shot(page, "old-link-replaced")
    assert answers.count(410) == 1 and answers[-1] == 410, answers  # the first such answer said it
    mark = len(server.seen)
    time.sleep(3 * POLL_S)  # three more periods of the poll: not one more request
    assert server.seen[mark:].count(old_poll) == 0
    assert answers.count(410) == 1, answers
    assert not page.locator("#live[hx-trigger]").count()

    # the old link's page itself says so, and this phone forgets it; the new link works
    page.goto(f"{server.url}/c/{token}")
    assert page.locator("h1").inner_text() == "Link replaced"
    page.goto(server.url + "/")
    remembered = page.evaluate("JSON.parse(localStorage.getItem('scorekeeper.circles') || '[]').map(c => c.url)")
    assert not [u for u in remembered if token in u], remembered
    page.goto(f"{server.url}/c/{new}/e/{evening_id}")
    page.wait_for_selector("#slate")
    assert page.locator("#link-gone").is_hidden()


def _quiet(page: Any, token: str) -> None:
    page.route(f"**/c/{token}/e/*/version?*", lambda route: route.fulfill(status=204))


def _typed_before_the_link_is_replaced(server: Switchable, page: Any) -> tuple[str, str]:
    """A hand typed on a quiet phone's slate while another phone replaces the write link:
    (evening id, the new link's token); the hand is not sent yet."""
    token, evening_id = club_evening(server.app, "old-start")
    _quiet(page, token)
    page.goto(f"{server.url}/c/{token}/e/{evening_id}")
    _fill(page, "Anna", "suit_D", "100")
    return evening_id, _replace(server.app, token)


def test_a_hand_typed_on_the_old_link_is_written_once_under_the_new_one(server: Switchable, quiet_phone: Any) -> None:
    app, page = server.app, quiet_phone
    evening_id, new = _typed_before_the_link_is_replaced(server, page)
    page.click("#record button[type=submit]")  # sent to the old link: 410, kept on the phone

    wait_until(page, "document.querySelectorAll('#queue-list li.queue-moved').length === 1")
    assert "write link was changed" in page.inner_text("#link-gone")
    assert "Kept on this phone" in page.inner_text("#record .form-messages")
    assert "sent once you open the new link" in page.inner_text("#queue-list")
    assert page.locator("#slate td.queued").count() == 1
    assert page.locator("#queue-list li.queue-moved button:has-text('Drop')").count() == 1  # a person may
    no_sideways_scroll(page)
    shot(page, "old-link-hand-kept")
    assert _entries(app, evening_id, new) == []

    # the new link (a friend sent it): the kept hand goes, once
    page.goto(f"{server.url}/c/{new}/e/{evening_id}")
    written = _until_written(page, app, evening_id, new, 1)
    wait_until(page, "SkQueue.list(null).then(items => items.length === 0)")
    wait_until(page, "document.getElementById('queue').hidden")
    assert [(e["hand"]["declarer_seat"], e["hand"]["row_key"], e["hand"]["declarer_points"]) for e in written] == [
        (0, "suit_D", 100)
    ]
    wait_until(page, "document.querySelectorAll('#slate td.filled').length === 1")
    assert page.locator("#queue-notice").is_hidden() and page.locator("#link-gone").is_hidden()
    page.reload()
    page.wait_for_selector("#slate")
    time.sleep(1)
    assert len(_entries(app, evening_id, new)) == 1
    assert page.evaluate("SkQueue.list(null).then(items => items.length)") == 0


def test_a_kept_hand_waits_for_a_person_when_the_slate_moved_on(server: Switchable, quiet_phone: Any) -> None:
    app, page = server.app, quiet_phone
    evening_id, new = _typed_before_the_link_is_replaced(server, page)
    page.click("#record button[type=submit]")
    wait_until(page, "document.querySelectorAll('#queue-list li.queue-moved').length === 1")
    # meanwhile another phone, on the new link, writes a hand
    other = app.test_client().post(
        f"/api/v1/evenings/{evening_id}/hands",
        json={
            "expected_version": 0,
            "request_id": "other-phone-hand",
            "declarer_seat": 1,
            "row_key": "suit_C",
            "declarer_points": 90,
            "defender_points": 67,
        },
        headers={"Authorization": f"Bearer {new}"},
    )
    assert other.status_code == 200, other.get_data(as_text=True)

    page.goto(f"{server.url}/c/{new}/e/{evening_id}")
    wait_until(page, "document.querySelector('#queue-list li.queue-conflict') !== null", timeout=20_000)
    assert len(_entries(app, evening_id, new)) == 1  # not without a person
    notice = page.locator("#queue-notice")
    assert notice.is_visible() and "another phone changed the slate first" in notice.inner_text()
    top = page.evaluate("document.getElementById('queue-notice').getBoundingClientRect().top")
    assert top < page.evaluate("document.getElementById('live').getBoundingClientRect().top")
    no_sideways_scroll(page)
    shot(page, "old-link-hand-conflict")
    page.click("#queue-list button:has-text('Record anyway')")
    assert len(_until_written(page, app, evening_id, new, 2)) == 2
    wait_until(page, "document.getElementById('queue').hidden")
    wait_until(page, "document.getElementById('queue-notice').hidden")


def test_without_script_the_answer_repeats_the_typed_hand(server: Switchable, chromium: Any) -> None:
    app = server.app
    token, evening_id = club_evening(app, "old-start")
    with phone_without_script(chromium) as page:
        page.goto(f"{server.url}/c/{token}/e/{evening_id}")
        page.check("input[name=declarer][value='1']")
        page.select_option("select[name=row]", value="suit_D")
        page.fill("input[name=declarer_points]", "100")
        page.fill("input[name=defender_points]", "57")
        new = _replace(app, token)
        page.click("#record button[type=submit]")
        page.wait_for_selector("h1 >> text=Link replaced")
        body = page.inner_text("main")
        assert "write link was changed: ask the others at the table for the new link" in body
        typed = page.eval_on_selector_all(".typed-hand dd", "els => els.map(e => e.textContent)")
        assert typed[0] == "Beat" and "100" in typed and "57" in typed
        no_sideways_scroll(page)
        shot(page, "old-link-no-script")
    assert _entries(app, evening_id, new) == []


def test_a_hand_queued_offline_on_the_old_link_goes_with_the_new_one(server: Switchable, phone: Any) -> None:
    """Queued without network on the old link, the link replaced meanwhile: the page of the new
    link (the circle's and the evening's ids stay) sends it, once."""
    app = server.app
    token, evening_id = club_evening(app, "old-start")
    page = phone()
    page.goto(f"{server.url}/c/{token}/e/{evening_id}")
    wait_until(page, "navigator.serviceWorker.controller !== null")
    wait_until(page, "caches.open('sk-pages').then(c => c.match(location.pathname)).then(r => !!r)")
    server.stop()
    page.context.set_offline(True)
    page.reload()
    _fill(page, "Anna", "suit_D", "100")
    page.click("#record button[type=submit]")
    wait_until(page, "document.querySelectorAll('#queue-list li.queue-queued').length === 1")
    new = _replace(app, token)  # another phone replaced the link while this one was offline
    server.start()
    page.context.set_offline(False)
    page.goto(f"{server.url}/c/{new}/e/{evening_id}")
    written = _until_written(page, app, evening_id, new, 1)
    assert [(e["hand"]["declarer_seat"], e["hand"]["row_key"]) for e in written] == [(0, "suit_D")]
    wait_until(page, "SkQueue.list(null).then(items => items.length === 0)")
    page.reload()
    page.wait_for_selector("#slate")
    assert len(_entries(app, evening_id, new)) == 1
