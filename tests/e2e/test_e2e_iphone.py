"""What iPhones do differently (issue 23 point 2), in WebKit and in Chromium at 360 px:
no Background Sync (the queue goes out on ``online``, on ``visibilitychange`` and on the next
load, each hand once), the number keyboard opens only for a focus given inside the tap, no
install prompt (the Home Screen hint), and storage that the browser may clear."""

from __future__ import annotations

import time
from typing import Any

import pytest
from e2e_helpers import BOTH_ENGINES, PHONE, Switchable, entry_count, wait_until
from test_e2e_offline import _kept_slate, _queue, _slate_without_server, server  # noqa: F401 (server: a fixture)

pytestmark = pytest.mark.browser

# An iPhone: no Background Sync; and here the slate's poll asks nothing, so that only the event
# under test can find the server back (the poll sends the queue too: test_e2e_offline).
AS_AN_IPHONE = """(() => {
  Object.defineProperty(ServiceWorkerRegistration.prototype, 'sync', {get() { return undefined; }, configurable: true});
  document.body.addEventListener('htmx:beforeRequest', e => { if (e.detail.elt.id === 'live') e.preventDefault(); });
  return true;
})()"""


def _posts(srv: Switchable) -> int:
    return sum(1 for p in srv.seen if p.startswith("POST") and p.endswith("/hands"))


def _online(page: Any, engine: str) -> None:
    """The network back: Chromium's own switch, WebKit (no switch) the event it would fire."""
    if engine == "chromium":
        page.context.set_offline(True)
        page.context.set_offline(False)
    else:
        page.evaluate("window.dispatchEvent(new Event('online'))")


def _shown_again(page: Any) -> None:
    """The tab shown again (Safari brings it back): the event, the page being visible."""
    assert page.evaluate("document.visibilityState") == "visible"
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")


@BOTH_ENGINES
@pytest.mark.parametrize("trigger", ["online", "visible"])
def test_the_queue_goes_out_on_online_and_on_visible_each_hand_once(
    server: Switchable,  # noqa: F811
    phone: Any,
    engine: str,
    trigger: str,
) -> None:
    app = server.app
    page, token, evening_id = _slate_without_server(server, phone)
    assert page.evaluate(AS_AN_IPHONE) is True
    _queue(page, "Anna", "suit_D", "100")
    _queue(page, "Beat", "suit_C", "90")
    server.seen.clear()
    server.start()
    time.sleep(2)  # the server is back, and nothing but the event under test goes to look
    assert _posts(server) == 0, server.seen
    if trigger == "online":
        _online(page, engine)
    else:
        _shown_again(page)
    wait_until(page, "document.getElementById('queue').hidden", timeout=30_000)
    assert _posts(server) == 2, server.seen
    # every other way at once: nothing is sent twice
    _online(page, engine)
    _shown_again(page)
    _shown_again(page)
    page.reload()
    page.wait_for_selector("#slate")
    wait_until(page, "document.querySelectorAll('#slate td.filled').length === 2")
    time.sleep(1)
    assert _posts(server) == 2, server.seen
    assert entry_count(app, evening_id, token) == 2


@BOTH_ENGINES
def test_the_events_at_once_then_a_load_send_each_hand_once(server: Switchable, phone: Any, engine: str) -> None:  # noqa: F811
    """``online`` and ``visibilitychange`` racing each other, then a load: each hand once (the load
    alone: test_e2e_offline.py::test_a_hand_queued_goes_out_on_the_next_load)."""
    app = server.app
    page, token, evening_id = _slate_without_server(server, phone)
    page.evaluate(AS_AN_IPHONE)
    for who, row in (("Anna", "suit_D"), ("Beat", "suit_C"), ("Cla", "suit_H")):
        _queue(page, who, row, "100")
    server.seen.clear()
    server.start()
    page.evaluate(
        "(() => { window.dispatchEvent(new Event('online')); document.dispatchEvent(new Event('visibilitychange'));"
        " window.dispatchEvent(new Event('online')); document.dispatchEvent(new Event('visibilitychange'));"
        " return true; })()"
    )
    wait_until(page, "document.getElementById('queue').hidden", timeout=30_000)
    assert _posts(server) == 3, server.seen
    page.reload()  # the load after them: nothing left to send
    page.wait_for_selector("#slate")
    wait_until(page, "document.querySelectorAll('#slate td.filled').length === 3")
    time.sleep(1)
    assert _posts(server) == 3, server.seen
    assert entry_count(app, evening_id, token) == 3


FOCUS_AT_TAP_END = """(() => {
  /* a listener on the window runs last in the tap's own dispatch: what has the focus then */
  window.addEventListener('click', () => {
    const el = document.activeElement;
    window.__focusInTap = el ? (el.name || el.tagName) : null;
  });
  return true;
})()"""


@BOTH_ENGINES
def test_a_tapped_cell_gives_the_points_field_the_focus_inside_the_tap(server: Switchable, phone: Any) -> None:  # noqa: F811
    """The number keyboard opens only for a focus given in the tap's handler, not after a delay."""
    page, _token, _evening_id = _kept_slate(server, phone)
    page.wait_for_load_state("load")
    side = page.evaluate(
        "Object.entries(JSON.parse(document.querySelector('#live .slate-state').textContent).chooser || {})"
        ".filter(([s, who]) => who !== null).map(([s]) => s)[0]"
    )
    assert side is not None
    page.evaluate(FOCUS_AT_TAP_END)
    page.click(f"#slate td.open[data-row='suit_D'][data-side='{side}'] button.cell")
    assert page.evaluate("window.__focusInTap") == "declarer_points"
    assert page.evaluate("document.activeElement.getAttribute('inputmode') || document.activeElement.type") in (
        "numeric",
        "number",
    )


HINT_SHOWN = "!!document.querySelector('#main > .home-hint')"
# the hint comes after everything the page shows: nothing of the page lies below its top
HINT_LAST = """(() => { const hint = document.querySelector('#main > .home-hint');
  const top = hint.getBoundingClientRect().top;
  return [...document.getElementById('main').children].filter(e => e !== hint)
    .every(e => e.getBoundingClientRect().bottom <= top); })()"""


@pytest.mark.parametrize("engine", ["webkit"], indirect=True)
def test_safari_says_how_to_add_the_slate_to_the_home_screen_once(live_server: str, phone: Any) -> None:
    """No install prompt on an iPhone: the page says Share, then "Add to Home Screen", in the
    phone's language, until dismissed."""
    page = phone()
    page.goto(live_server + "/")
    wait_until(page, HINT_SHOWN)
    assert page.evaluate(HINT_LAST) is True  # it moved nothing the person may be reaching for
    assert page.evaluate("'onbeforeinstallprompt' in window") is False
    assert "Add to Home Screen" in page.inner_text(".home-hint")
    page.click(".home-hint button")
    assert page.evaluate(HINT_SHOWN) is False
    page.reload()
    page.wait_for_load_state("load")
    time.sleep(1)
    assert page.evaluate(HINT_SHOWN) is False
    page.evaluate("localStorage.clear()")
    page.goto(live_server + "/lang/de_CH")
    wait_until(page, HINT_SHOWN)
    assert "«Zum Home-Bildschirm»" in page.inner_text(".home-hint")
    assert page.inner_text(".home-hint button") == "Verstanden"


IPHONE_UA = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko)"
    " Version/17.5 Mobile/15E148 Safari/604.1"
)


def _chromium_phone(chromium: Any, init: str, user_agent: str | None) -> tuple[Any, Any, list[str]]:
    ctx = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True, user_agent=user_agent)
    ctx.add_init_script(init)
    asked: list[str] = []
    page = ctx.new_page()
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/home-screen") else None)
    return ctx, page, asked


@pytest.mark.parametrize(
    ("init", "user_agent", "shown"),
    [
        ("", None, False),  # Chromium (Android): its own install prompt, no hint and no fetch
        ("delete window.onbeforeinstallprompt;", IPHONE_UA, True),  # as Safari on an iPhone
        (  # the same iPhone, opened from the Home Screen: nothing to say
            "delete window.onbeforeinstallprompt;"
            " Object.defineProperty(Navigator.prototype, 'standalone', {get: () => true});",
            IPHONE_UA,
            False,
        ),
    ],
    ids=["android", "iphone-safari", "iphone-installed"],
)
def test_the_home_screen_hint_only_where_the_phone_needs_it(
    chromium: Any, live_server: str, init: str, user_agent: str | None, shown: bool
) -> None:
    ctx, page, asked = _chromium_phone(chromium, init, user_agent)
    try:
        page.goto(live_server + "/")
        page.wait_for_load_state("networkidle")
        if shown:
            wait_until(page, HINT_SHOWN)
        assert page.evaluate(HINT_SHOWN) is shown
        assert len(asked) == (1 if shown else 0)  # the words are fetched only where they are said
    finally:
        ctx.close()


CLEAR_STORAGE = """(() => Promise.all([
  navigator.serviceWorker.getRegistrations().then(rs => Promise.all(rs.map(r => r.unregister()))),
  caches.keys().then(ks => Promise.all(ks.map(k => caches.delete(k)))),
  new Promise(ok => {
    const r = indexedDB.deleteDatabase('scorekeeper-offline');
    r.onsuccess = r.onerror = r.onblocked = () => ok();
  }),
]).then(() => true))()"""


@BOTH_ENGINES
def test_storage_cleared_by_the_browser_is_said_not_failed(server: Switchable, phone: Any) -> None:  # noqa: F811
    """Days unused, an iPhone may clear the worker, its caches and IndexedDB: offline, the slate
    says it keeps no copy and names the saved hands that were lost; new hands still queue."""
    page, _token, _evening_id = _slate_without_server(server, phone)
    assert "no offline copy" not in page.inner_text("#offline-state")
    _queue(page, "Anna", "suit_D", "100")
    assert page.evaluate(CLEAR_STORAGE) is True
    _shown_again(page)  # the phone picked up again: the page looks for the server and its copy
    wait_until(page, "document.getElementById('offline-state').textContent.includes('no offline copy')")
    wait_until(page, "!!document.querySelector('#main > .flash-error[role=alert]')")
    lost = page.inner_text("#main > .flash-error[role=alert]")
    assert "cleared this phone's storage" in lost and "Anna" in lost and "100 : 57" in lost
    _queue(page, "Beat", "suit_C", "90")  # the queue starts again, as new
    assert page.locator("#queue-list li").count() == 1
    assert "Beat" in page.inner_text("#queue-list li")
