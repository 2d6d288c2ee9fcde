"""The digital table on a 360 x 740 phone with a real group's long names (issue 9, points 6, 7,
10 and 11 for the table's pages): the deck's own card faces with trumps marked, roles in words,
the row being played gone from "open rows" at once, every player identifiable without hover,
no page wider than the phone in any phase and variant, "Your turn" announced once per turn
(with a short vibration where allowed), and a whole hand played by keyboard alone.

Tables are set up through the services with a seeded deal (``e2e_helpers.table_evening``);
the browser looks and plays. Screenshots go to ``$SCOREKEEPER_SCREENSHOTS``.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from e2e_helpers import (
    LONG_NAMES,
    NAMES_CUT,
    SEATED,
    USES_DRAWN,
    TableAt,
    announce_of,
    no_sideways_scroll,
    play_until,
    seat_link,
    shot,
    table_evening,
    wait_until,
)
from flask import Flask

from scorekeeper.engine import SeatView
from scorekeeper.game.rulesets import RuleSet
from scorekeeper.services import circles, evenings
from scorekeeper.services import digital_table as tables
from scorekeeper.services import seats as seats_svc
from scorekeeper.services.digital_table import TableState

pytestmark = pytest.mark.browser

VARIANTS = {"three": 3, "teams": 4, "solo4": 4, "club": 4}


def _open_seat(page: Any, base: str, link: str, lang: str = "en") -> None:
    if lang != "en":
        page.context.add_cookies([{"name": "lang", "value": lang, "url": base}])
    page.goto(base + link)
    page.wait_for_selector("#seat-live")
    wait_until(page, SEATED, 15_000)


def _look(page: Any) -> None:
    page.reload()
    page.wait_for_selector("#seat-live")
    wait_until(page, USES_DRAWN, 15_000)


def _check_readable(page: Any, names: list[str]) -> None:
    """No sideways scroll; every full name on the page, uncut; each short form under a card
    names exactly one player, whose full name it abbreviates."""
    page.evaluate("document.querySelectorAll('#seat-live details').forEach(d => { d.open = true; })")  # all must fit
    no_sideways_scroll(page, width=360)
    assert page.evaluate(NAMES_CUT) == []
    shown = page.locator(".ring [data-name]").all_inner_texts()
    assert [s.replace("(you)", "").replace("(du)", "").strip() for s in shown] == names
    for label in page.locator("[data-short]").all():
        seat = int(label.evaluate("e => e.closest('[data-player]').dataset.player"))
        words = label.inner_text().replace(".", "").split()
        full = names[seat].split()
        assert all(any(f.startswith(w) for f in full) for w in words), (words, full)


def _komisch_first(view: SeatView, rs: RuleSet) -> int | None:
    return announce_of(view, rs, "komisch")


def _trump_first(view: SeatView, rs: RuleSet) -> int | None:
    """A suit row played as its suit: trump cards to mark."""
    for key in (r.key for r in rs.rows if r.suit is not None):
        action = announce_of(view, rs, key)
        if action is not None:
            return action
    return None


Stop = Callable[[TableState], bool]
PHASES: list[tuple[str, Stop]] = [
    ("play", lambda st: st.state is not None and st.state.phase.value == "playing" and len(st.state.trick) == 2),
    ("last-trick", lambda st: st.state is not None and len(st.state.trick) == 0 and len(st.state.tricks) == 1),
    ("over", lambda st: st.hand_over),
]


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_phase_of_every_variant_fits_360_px_with_long_names(
    live_app: tuple[str, Flask], phone: Any, variant: str
) -> None:
    base, app = live_app
    n = VARIANTS[variant]
    names = LONG_NAMES[:n]
    at = table_evening(app, variant, names, first_dealer=n - 1)  # seat 0 is forehand: she chooses
    lang = "de_CH" if variant in ("teams", "club") else "en"
    pages = []
    for seat in range(n):
        page = phone()
        _open_seat(page, base, seat_link(app, at, seat), lang)
        pages.append(page)
    phases: list[tuple[str, Stop, Any]] = [("bidding", lambda st: True, None)]
    if variant == "club":
        komisch: Stop = lambda st: st.state is not None and st.state.phase.value == "komisch"  # noqa: E731
        phases.append(("komisch", komisch, _komisch_first))
    phases += [(name, stop, _trump_first) for name, stop in PHASES]
    for phase, stop, pick in phases:
        mover = play_until(app, at, stop, pick).to_move()
        # every seat mid-trick; otherwise seat 0 and the seat to move (the one with choices)
        shown = {0, 0 if mover is None else mover}
        for seat in range(n) if phase == "play" else sorted(shown):
            _look(pages[seat])
            _check_readable(pages[seat], names)
            if seat in shown:
                shot(pages[seat], f"seat-{variant}-{phase}-{seat}-360")


def test_the_organisers_table_page_fits_360_px_with_long_names(live_app: tuple[str, Flask], phone: Any) -> None:
    base, app = live_app
    at = table_evening(app, "teams", LONG_NAMES, first_dealer=0, computers=(1, 3))
    for lang in ("en", "de_CH"):
        page = phone()
        if lang != "en":
            page.context.add_cookies([{"name": "lang", "value": lang, "url": base}])
        page.goto(f"{base}/c/{at.write}/e/{at.evening_id}/table")
        page.wait_for_selector("#table-live")
        no_sideways_scroll(page, width=360)
        assert page.evaluate(NAMES_CUT) == []
        shown = [t.split(":", 1)[1].strip() for t in page.locator(".seats [data-name]").all_inner_texts()]
        assert shown == LONG_NAMES
        shot(page, f"table-manage-{lang}-360")
        page.click("text=" + ("Show the links" if lang == "en" else "Links und QR-Codes"))
        page.wait_for_selector(".seat-link svg")
        no_sideways_scroll(page, width=360)
        assert page.locator(".seat-link h2").all_inner_texts() == [LONG_NAMES[0], LONG_NAMES[2]]


def _view(app: Flask, at: TableAt, seat: int) -> tuple[SeatView, RuleSet]:
    with app.app_context():
        st = tables.load(tables.get_table(at.table_id))
        view = st.view(seat)
        assert view is not None
        return view, st.ruleset


def _swapped(page: Any, before: str | None) -> None:
    wait_until(page, f"(document.querySelector('#seat-live') || {{}}).dataset?.version !== '{before}'", 15_000)


HAND_USES = """() => [...document.querySelectorAll('[data-hand] button')].map(b => ({
  card: b.dataset.card, label: b.getAttribute('aria-label'),
  uses: [...b.querySelectorAll('use')].map(u => u.getAttribute('href')) }))"""


def _hand_fits(page: Any) -> None:
    """Every card legible and on the phone: 48 px wide or more, a corner mark 15 px high, inside
    360 px, in two rows (the cards that cannot be played sit 6 px lower)."""
    boxes = [b.bounding_box() for b in page.locator("[data-hand] button").all()]
    for box in boxes:
        assert box is not None and box["width"] >= 48 and box["height"] * 34 / 150 >= 15, box
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360, box
    tops = sorted({round(b["y"]) for b in boxes if b is not None})
    assert tops[-1] - tops[0] < 2 * min(b["height"] for b in boxes if b is not None), tops
    no_sideways_scroll(page, width=360)


@pytest.mark.parametrize(("variant", "deck"), [("teams", "swiss"), ("three", "french")])
def test_the_seat_page_draws_the_decks_own_cards_marks_trumps_and_names_roles(
    live_app: tuple[str, Flask], phone: Any, variant: str, deck: str
) -> None:
    """Point 10: Swiss cards for the Swiss deck and French for the French, trump cards marked by
    the overlay (a frame and a star) and in words, the trump suit's symbol beside "Trumps", roles
    in words, the row just chosen gone from "open rows" in the answer to the choice itself, and a
    hand of 9 or 12 readable cards without sideways scroll."""
    base, app = live_app
    n = VARIANTS[variant]
    at = table_evening(app, variant, LONG_NAMES, first_dealer=n - 1, deck=deck, seed=7)
    page = phone()
    _open_seat(page, base, seat_link(app, at, 0))
    view, rs = _view(app, at, 0)
    hearts = next(r for r in rs.rows if r.suit is not None and int(r.suit) == 3)
    action = announce_of(view, rs, hearts.key)
    assert action is not None
    row_name = {"swiss": "Roses", "french": "Hearts"}[deck]
    assert row_name in page.locator("[data-open-rows] li[data-side='0']").inner_text()
    before = page.locator("#seat-live").get_attribute("data-version")
    page.click(f"[data-key='choice-{action}']")
    _swapped(page, before)  # the answer to the choice, before any poll could bring news
    rows = page.locator("[data-open-rows] li").all_inner_texts()
    assert row_name not in rows[0] and all(row_name in r for r in rows[1:]), rows
    wait_until(page, USES_DRAWN, 15_000)
    assert page.locator("[data-hand] button").count() == (12 if n == 3 else 9)
    _hand_fits(page)
    # play on until seat 0 holds the lead's answer: cards in the trick and her turn
    play_until(app, at, lambda st: st.to_move() == 0 and bool(st.state and st.state.trick))
    _look(page)
    sprite = f"/static/cards/{deck}.svg?v="
    hand = page.evaluate(HAND_USES)
    trumps = 0
    for card in hand:
        face, *overlay = card["uses"]
        assert face.startswith(sprite) and face.endswith("#" + card["card"]), card
        is_trump = card["card"].startswith("H")
        assert overlay == ([face.split("#")[0] + "#trump"] if is_trump else []), card
        assert ("trump" in card["label"]) is is_trump, card
        trumps += is_trump
    assert trumps > 0, "a deal without a trump in seat 0's hand: pick another seed"
    for href in page.eval_on_selector_all(".cards-on-table use", "us => us.map(u => u.getAttribute('href'))"):
        assert href.startswith(sprite)
    mode = page.locator("[data-mode]")
    assert str(mode.locator("use").get_attribute("href")).endswith("#suit-H")
    assert mode.inner_text().strip() == {"swiss": "Trumps: roses", "french": "Trumps: hearts"}[deck]
    text = page.locator("#seat-live").inner_text()
    assert not re.search("[♣♦♠♥★]", text)  # faces and words, no French pips on a Swiss page
    ring = page.locator(".ring li").all_inner_texts()
    assert "Forehand" in ring[0] and "Declarer" in ring[0] and "To play" in ring[0] and "(you)" in ring[0]
    assert "Dealer" in ring[n - 1]
    _hand_fits(page)
    shot(page, f"seat-faces-{variant}-{deck}-360")


# Records what a phone would say and do: the live region's texts and navigator.vibrate calls.
RECORDER = """
window.__vibrations = [];
navigator.vibrate = function (pattern) { window.__vibrations.push(pattern); return true; };
window.__said = [];
document.addEventListener('DOMContentLoaded', () => {
  const region = document.getElementById('turn-announcer');
  if (!region) return;
  new MutationObserver(() => { if (region.textContent) window.__said.push(region.textContent); })
    .observe(region, {childList: true, characterData: true, subtree: true});
});
"""


def _said(page: Any) -> list[str]:
    return list(page.evaluate("window.__said"))


def test_your_turn_is_announced_once_per_turn_with_a_short_vibration(live_app: tuple[str, Flask], phone: Any) -> None:
    """Point 11: "Your turn" in an aria-live region once per turn (not on every poll, not when the
    page changes for another reason), a short vibration once the player has touched the phone,
    none when she asked for reduced motion."""
    base, app = live_app
    at = table_evening(app, "teams", LONG_NAMES, first_dealer=3, computers=(1, 2, 3), seed=5)
    page = phone()
    page.add_init_script(RECORDER)
    _open_seat(page, base, seat_link(app, at, 0))
    region = page.locator("#turn-announcer")
    assert region.get_attribute("aria-live") == "assertive"
    wait_until(page, "window.__said.length === 1")
    assert _said(page) == ["Your turn: choose what to play."]
    assert page.evaluate("window.__vibrations") == []  # nobody has touched the page yet
    # the page changes while it stays her turn (the organiser moves a computer's level): no new word
    before = page.locator("#seat-live").get_attribute("data-version")
    with app.app_context():
        seats_svc.set_computer(tables.get_table(at.table_id), 2, "normal")
    _swapped(page, before)
    time.sleep(3.5)  # polls answered 204 meanwhile
    assert _said(page) == ["Your turn: choose what to play."]
    with app.app_context():
        seats_svc.set_computer(tables.get_table(at.table_id), 2, "easy")
    view, rs = _view(app, at, 0)
    page.click(f"[data-key='choice-{_trump_first(view, rs)}']")  # a touch: from now on the phone may vibrate
    wait_until(page, "window.__said.length === 2", 20_000)
    assert _said(page)[1] == "Your turn: play a card."
    assert page.evaluate("window.__vibrations") == [200]
    page.click("[data-hand] .card.legal >> nth=0")
    wait_until(page, "window.__said.length === 3", 20_000)
    assert page.evaluate("window.__vibrations") == [200, 200]
    # reduced motion: the words, no vibration
    calm = phone()
    calm.add_init_script(RECORDER)
    calm.emulate_media(reduced_motion="reduce")
    _open_seat(calm, base, seat_link(app, at, 0))
    wait_until(calm, "window.__said.length === 1")
    calm.click("[data-hand] .card.legal >> nth=0")
    wait_until(calm, "window.__said.length === 2", 20_000)
    assert calm.evaluate("window.__vibrations") == []


FOCUS = """() => {
  const a = document.activeElement, live = document.getElementById('seat-live');
  const is = sel => !!(a && a.matches && a.matches(sel));
  return { inside: !!(live && a && live.contains(a)), key: is('[data-key]') ? a.dataset.key : '',
           card: is('[data-card]') ? a.dataset.card : '', legal: is('.card.legal'),
           choice: is('[data-choice], [data-pass]'), summary: is('summary'), deal: is('[data-deal-next]') }; }"""


def _tab_to(page: Any, want: Callable[[dict[str, Any]], bool], limit: int = 40) -> dict[str, Any]:
    """Tab until the focus is on what ``want`` accepts (it may be there already)."""
    here: dict[str, Any] = page.evaluate(FOCUS)
    for _ in range(limit):
        if want(here):
            return here
        page.keyboard.press("Tab")
        here = page.evaluate(FOCUS)
    pytest.fail(f"no wanted element within {limit} Tabs")


def _focus_inside(page: Any) -> None:
    """After a swap the focus comes back into the seat view (at once; 3 s for a loaded machine)."""
    try:
        wait_until(page, f"({FOCUS})().inside", 3_000)
    except AssertionError:
        pytest.fail(f"the focus fell out of the seat view: {page.evaluate(FOCUS)}")


def test_a_whole_hand_by_keyboard_alone(live_app: tuple[str, Flask], phone: Any) -> None:
    """Point 11: Tab, Enter and Space only, computers in the other seats: the choice (unfolding a
    folded row if needed), every card, the next hand. After each move the focus stays in the seat
    view (the turn line, or the next thing to do), never thrown back to the top of the page."""
    base, app = live_app
    at = table_evening(app, "teams", LONG_NAMES, first_dealer=3, computers=(1, 2, 3), seed=11)
    page = phone()
    _open_seat(page, base, seat_link(app, at, 0))
    page.wait_for_selector(".turn.mine")
    here = _tab_to(page, lambda f: f["choice"] or f["summary"])
    if here["summary"]:
        page.keyboard.press("Enter")  # unfold the row's contracts
        _tab_to(page, lambda f: f["choice"], limit=3)
    before = page.locator("#seat-live").get_attribute("data-version")
    page.keyboard.press("Enter")
    _swapped(page, before)
    played = 0
    deadline = time.monotonic() + 120
    while not page.locator("[data-result]").count():
        assert time.monotonic() < deadline, "the hand did not end"
        page.wait_for_selector(".turn.mine, [data-result]", timeout=20_000)
        if page.locator("[data-result]").count():
            break
        _focus_inside(page)
        last = page.locator("[data-hand] .card.legal").last.get_attribute("data-card")
        here = _tab_to(page, lambda f: f["card"] == last, limit=15)  # the last playable card: Tab to it
        before = page.locator("#seat-live").get_attribute("data-version")
        page.keyboard.press("Space" if played % 2 else "Enter")
        _swapped(page, before)
        played += 1
        assert page.locator(f"[data-hand] [data-card='{here['card']}']").count() == 0  # the card left the hand
    assert played == 9
    _focus_inside(page)
    _tab_to(page, lambda f: f["deal"], limit=10)
    page.keyboard.press("Enter")
    wait_until(page, "document.querySelectorAll('[data-hand] button').length === 9", 20_000)
    assert "2" in page.locator(".seat-head").inner_text()
    with app.app_context():
        ev = evenings.get_evening(circles.open_circle(at.write)[0], at.evening_id)
        assert len(evenings.load_slate(ev).entries) == 1  # the keyboard's hand is on the slate
