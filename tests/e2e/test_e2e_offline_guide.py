"""The offline slate while hands wait on the phone, in Chromium at 360 px (issue 20 point 14): the
turn guide follows the queued hands (who deals, who chooses, the barrel, the Seich) exactly as
the server shows it once they are written; a conflict notice stands at the top of the page;
"Saved on this phone" goes once the hands are sent, a "Hand recorded" banner once another hand
is on its way; and the worker's offline copy of the slate never keeps a flashed banner."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from e2e_helpers import (
    Switchable,
    club_evening,
    entry_count,
    no_sideways_scroll,
    record,
    shot,
    switchable,
    wait_until,
    worker_controls,
)

from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.scoring import Slate

pytestmark = pytest.mark.browser
NAMES = ["Anna", "Beat", "Cla", "Dora"]
GUIDE_TEXT = """(() => {
  const g = document.querySelector('#live [data-guide]');
  if (!g) return null;
  const copy = g.cloneNode(true);
  copy.querySelectorAll('.guide-queued').forEach(e => e.remove());
  return [...copy.querySelectorAll('p, summary')].map(e => e.textContent.split(/\\s+/).filter(Boolean).join(' '));
})()"""


@pytest.fixture
def server(db_url: str) -> Iterator[Switchable]:
    with switchable(db_url) as s:
        yield s


def _go_offline(server: Switchable, *pages: Any) -> None:
    server.stop()
    for page in pages:
        page.context.set_offline(True)


def _queue(page: Any, declarer: str, row: str | None, points: str, *, seich: bool = False) -> None:
    before = page.locator("#queue-list li").count()
    page.locator(".record .choices label", has_text=declarer).click()
    if seich:
        page.check("input[name=seich]")
    else:
        page.select_option("select[name=row]", value=row)
        page.fill("input[name=declarer_points]", points)
    page.click("#record button[type=submit]")
    wait_until(page, f"document.querySelectorAll('#queue-list li').length === {before + 1}")


def _now(page: Any) -> str:
    return " ".join(page.inner_text("#live .guide-now").split())


def test_the_turn_guide_follows_the_queued_hands(server: Switchable, phone: Any) -> None:
    app = server.app
    token, evening_id = club_evening(app, "guide-start")
    path = f"/c/{token}/e/{evening_id}"
    page = phone()
    page.goto(server.url + path)
    worker_controls(page)
    _go_offline(server, page)
    page.reload()
    page.wait_for_selector("#slate")
    assert _now(page) == "Anna deals. Beat is forehand and chooses first."

    rs = default_ruleset(Variant.CLUB)
    hands = [HandEntry("suit_D", 1, None, 100, 57)]
    _queue(page, "Beat", "suit_D", "100")
    assert _now(page) == "Beat deals. Cla is forehand and chooses first."
    assert "Counting the hands saved on this phone" in page.inner_text("#live [data-guide]")
    # a Seich from the barrel (the server's to check): one more deal, and that team's Seich is used
    barrel = Slate.build(rs, 0, hands).barrel_seat
    assert barrel is not None
    hands.append(HandEntry.seich_hand(barrel))
    _queue(page, NAMES[barrel], None, "", seich=True)
    hands.append(HandEntry("suit_C", 0, None, 90, 67))
    _queue(page, "Anna", "suit_C", "90")
    after = Slate.build(rs, 0, hands)
    assert _now(page).startswith(f"{NAMES[after.dealer]} deals.")
    page.click("#live [data-guide] summary")
    expected_seich = "Seich: once per team" if len(after.seich_used) < 2 else "both teams have used theirs"
    assert expected_seich in page.inner_text("#live [data-guide]")
    queued_guide = page.evaluate(GUIDE_TEXT)
    assert "Saved on this phone" in page.inner_text("#record .form-messages")
    no_sideways_scroll(page)
    shot(page, "offline-guide-queued")

    # the network comes back: the hands are written, the server's guide is what the phone showed
    server.start()
    page.context.set_offline(False)
    wait_until(page, "document.getElementById('queue').hidden", timeout=20_000)
    assert entry_count(app, evening_id, token) == 3
    wait_until(page, "document.querySelectorAll('#slate td.filled').length === 2")
    wait_until(page, "!document.querySelector('#live [data-guide]').dataset.queued")
    assert page.evaluate(GUIDE_TEXT) == queued_guide
    assert page.locator("[data-queue-note]").count() == 0  # "Saved on this phone" is gone
    assert "Counting the hands" not in page.inner_text("#live")


def test_a_conflict_is_said_at_the_top_of_the_page(server: Switchable, phone: Any) -> None:
    app = server.app
    token, evening_id = club_evening(app, "guide-start")
    path = f"/c/{token}/e/{evening_id}"
    one, two = phone(), phone()
    for page in (one, two):
        page.goto(server.url + path)
        worker_controls(page)
    _go_offline(server, one, two)
    for page in (one, two):
        page.reload()
        _queue(page, "Anna", "suit_D", "100")
    server.start()
    one.context.set_offline(False)
    wait_until(one, "document.getElementById('queue').hidden", timeout=20_000)
    two.context.set_offline(False)
    wait_until(two, "!document.getElementById('queue-notice').hidden", timeout=20_000)
    notice = two.locator("#queue-notice")
    assert "another phone changed the slate first" in notice.inner_text()
    top = two.evaluate("document.getElementById('queue-notice').getBoundingClientRect().top")
    for below in ("live", "slate", "queue"):
        assert top < two.evaluate(f"document.getElementById('{below}').getBoundingClientRect().top"), below
    assert two.evaluate("document.getElementById('queue-notice').getBoundingClientRect().top") < 200
    no_sideways_scroll(two)
    shot(two, "offline-conflict-notice")
    two.click("#queue-notice a[href='#queue']")
    two.click("#queue-list button:has-text('Drop')")
    wait_until(two, "document.getElementById('queue-notice').hidden")
    assert entry_count(app, evening_id, token) == 1


def test_no_stale_banner_online_or_in_the_offline_copy(server: Switchable, phone: Any) -> None:
    app = server.app
    token, evening_id = club_evening(app, "guide-start")
    path = f"/c/{token}/e/{evening_id}"
    page = phone()
    page.goto(server.url + path)
    worker_controls(page)
    record(page, "Anna", "Diamonds ×1", "100")  # online: "Hand recorded: ..." on the page
    assert "Hand recorded" in page.inner_text(".flashes")
    # the worker keeps the slate without the banner (the page that showed it is not kept)
    wait_until(
        page,
        "caches.open('sk-pages').then(c => c.match(location.pathname)).then(r => r ? r.text() : '')"
        ".then(t => t.includes('td class=\"filled') || t.includes('class=\"filled'))",
    )
    kept = page.evaluate("caches.open('sk-pages').then(c => c.match(location.pathname)).then(r => r.text())")
    assert "Hand recorded" not in kept and "flash-success" not in kept
    # offline, a new hand goes to the queue: the last "Hand recorded" spoke of another hand
    _go_offline(server, page)
    _queue(page, "Beat", "suit_C", "90")
    assert page.locator(".flashes .flash-success").count() == 0
    page.reload()
    page.wait_for_selector("#slate")
    assert "Hand recorded" not in page.inner_text("main")
    assert page.locator("#slate td.filled").count() == 1
    server.start()
    page.context.set_offline(False)
    wait_until(page, "document.getElementById('queue').hidden", timeout=20_000)
    wait_until(page, "document.querySelectorAll('[data-queue-note]').length === 0")
    assert entry_count(app, evening_id, token) == 2
