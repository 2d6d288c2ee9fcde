"""Helpers of the browser tests: a server run in a thread for one test (``in_thread``), a
circle and an evening made through the pages as a person does it, recording a hand, the
sideways-scroll check, screenshots (``$SCOREKEEPER_SCREENSHOTS``), ``Watch``: what the
Content-Security-Policy refused and what the console reported, on every page of a phone; and a
digital table set up through the services (``table_evening``, ``seat_link``, ``play_until``)
for the browser to look at; evenings filled through the services (``filled_evening``) and what
makes a page wider than the phone (``sideways``)."""

from __future__ import annotations

import os
import random
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import pytest
from e2e_webkit import PHONE as PHONE  # the phone's viewport, the same in both engines
from e2e_webkit_page import BetweenDocuments
from flask import Flask
from playwright.sync_api import Error as PlaywrightError

from scorekeeper.bots import choose_action
from scorekeeper.engine import SeatView, decode_announce
from scorekeeper.game.rulesets import RuleSet, Variant, default_ruleset
from scorekeeper.services import circles, evenings, seats
from scorekeeper.services import digital_table as tables
from scorekeeper.services.digital_table import TableState

# The table-side flows run in both engines: Chromium (Android's) and WebKit (every iPhone's
# browser); the test's ``phone`` is of its ``engine`` (tests/e2e/conftest.py).
BOTH_ENGINES = pytest.mark.parametrize("engine", ["chromium", "webkit"], indirect=True)
SHOTS = Path(os.environ.get("SCOREKEEPER_SCREENSHOTS", "/tmp/scorekeeper-shots"))


class _Server(Protocol):
    server_port: int

    def serve_forever(self) -> None: ...
    def shutdown(self) -> None: ...
    def server_close(self) -> None: ...


@contextmanager
def in_thread(server: _Server) -> Iterator[str]:
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()


# Runs in every document before its own scripts (Playwright injects it past the policy) and
# reports each refusal to the test at once, so a navigation loses none.
_REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", function (e) {
  var where = e.target && e.target.outerHTML ? e.target.outerHTML.slice(0, 160) : "";
  var at = e.sourceFile + ":" + e.lineNumber;
  window.__skCspViolation([e.effectiveDirective, e.blockedURI, at, e.sample, where].join(" | "));
});
"""


class Watch:
    """What the browser refused or complained about, on every page of the contexts attached:
    ``violations`` (securitypolicyviolation events), ``errors`` (console errors, uncaught
    script errors); ``refused()`` the ones no test may cause (policy and script errors)."""

    def __init__(self) -> None:
        self.violations: list[str] = []
        self.errors: list[str] = []

    def attach(self, context: Any) -> None:
        context.expose_binding("__skCspViolation", lambda _source, text: self.violations.append(str(text)))
        context.add_init_script(_REPORT_VIOLATIONS)
        context.on("page", self._page)
        for page in context.pages:
            self._page(page)

    def _page(self, page: Any) -> None:
        page.on("console", lambda msg: self._console(page, msg))
        page.on("pageerror", lambda exc: self.errors.append(f"uncaught on {page.url}: {exc}"))

    def _console(self, page: Any, msg: Any) -> None:
        if msg.type == "error":
            self.errors.append(f"console on {page.url}: {msg.text}")

    def refused(self) -> list[str]:
        """Policy violations, the console's reports of one, and uncaught script errors."""
        policy = [e for e in self.errors if "Content Security Policy" in e or "Content-Security-Policy" in e]
        uncaught = [e for e in self.errors if e.startswith("uncaught")]
        return self.violations + policy + uncaught


def wait_until(page: Any, expression: str, timeout: float = 10_000) -> None:
    """Wait until ``expression`` (JavaScript) is true on the page. ``page.wait_for_function``
    evaluates its text with ``eval`` inside the page, which the policy refuses (no
    'unsafe-eval'); ``page.evaluate`` is not subject to it, so the expression is polled from here."""
    deadline = time.monotonic() + timeout / 1000
    while True:
        try:
            if page.evaluate(expression):
                return
        except PlaywrightError as exc:  # the page is between two documents: look again
            if "Execution context was destroyed" not in str(exc) and "navigat" not in str(exc):
                raise
        except BetweenDocuments:  # the same, in WebKit
            pass
        if time.monotonic() > deadline:
            raise AssertionError(f"not true within {timeout / 1000:.0f} s: {expression}")
        time.sleep(0.1)


def shot(page: Any, name: str, *, full: bool = True) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    if getattr(page, "engine", "chromium") == "webkit":
        name += "-webkit"
    # caret="initial": Playwright's default hides the caret by styling the inputs, which leaves a
    # style attribute behind in the page (a later htmx swap would copy it, refused by the policy)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full, caret="initial")


def new_circle(page: Any, base: str, name: str = "Donnschtig-Jass") -> tuple[str, str]:
    """(write link, onlookers link) of a circle created on the home page."""
    page.goto(base + "/")
    page.fill("input[name=name]", name)
    page.click("button[type=submit]")
    return page.input_value("#write-link"), page.input_value("#view-link")


def start_evening(page: Any, write: str, variant: str, names: list[str]) -> str:
    """Start an evening from the circle page (its variant button, the names in seat order);
    returns the slate's address."""
    page.goto(write)
    page.click(f"a[href$='/start?variant={variant}']")
    for seat, name in enumerate(names):
        page.fill(f"input[name=seat_{seat}]", name)
    page.click("#start-form button[type=submit]")
    page.wait_for_selector("#slate")
    page.wait_for_load_state("load")  # a busy machine shows the slate before its scripts run
    return str(page.url).split("#")[0]


def new_evening(page: Any, base: str, variant: str, names: list[str]) -> str:
    """A new circle and an evening in it; returns the slate's address."""
    write, _view = new_circle(page, base)
    return start_evening(page, write, variant, names)


def record(page: Any, declarer: str, row_label: str, points: str) -> None:
    """Record a hand with the slate page's form (the defenders' pile fills itself)."""
    page.wait_for_load_state("load")  # the form's script is wired (it fills the other pile)
    page.locator(".record .choices label", has_text=declarer).click()
    page.select_option("select[name=row]", label=row_label)
    page.fill("input[name=declarer_points]", points)
    page.click("#record button[type=submit]")
    page.wait_for_selector(".flash-success")


def clipboard_text(page: Any) -> str:
    """What the phone copied: Chromium reads its clipboard (the test granted it), WebKit pastes
    it into a field as a person would (its clipboard is read only inside a tap)."""
    if getattr(page, "engine", "chromium") == "webkit":
        return str(page.read_clipboard())
    return str(page.evaluate("navigator.clipboard.readText()"))


def no_sideways_scroll(page: Any, width: int = 361) -> None:
    """Nothing on the page is wider than the phone (``width`` px), naming what sticks out."""
    wide = page.evaluate(
        f"""[...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > {width})
        .map(e => e.tagName + '.' + e.className + ' ' + (e.textContent || '').trim().slice(0, 30))"""
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= width, wide


# --- the digital table, set up through the services (the browser only looks and plays) -----
LONG_NAMES = [
    "Anne-Marie Zurbriggen",
    "Vreni Schmid-Kalbermatten",
    "Hans-Peter Oberholzer",
    "Sepp Imboden-Kalbermatter",
]


@dataclass(frozen=True)
class TableAt:
    """An evening with a digital table: the circle's write token, the evening's and the table's ids."""

    write: str
    evening_id: str
    table_id: str


def table_evening(
    app: Flask,
    variant: str,
    names: list[str],
    *,
    first_dealer: int,
    deck: str | None = None,
    computers: tuple[int, ...] = (),
    seed: int = 1,
) -> TableAt:
    """A new circle, an evening and its digital table, dealt with a seeded shuffle; computers
    (if any) at the bots' fastest level."""
    with app.app_context():
        circle, write, _view = circles.create_circle("Beiz")
        ruleset = default_ruleset(variant, deck=deck)
        ev = evenings.start_evening(
            circle,
            ruleset=ruleset,
            player_names=names[: ruleset.n_players],
            first_dealer=first_dealer,
            request_id=f"e2e-{secrets.token_hex(6)}",
        )
        table = tables.open_table(ev, computers=computers, level="easy" if computers else None, rng=random.Random(seed))
        return TableAt(write, ev.public_id, table.public_id)


def seat_link(app: Flask, at: TableAt, seat: int) -> str:
    """A fresh seat link's path (the phone holding the seat before is shut out)."""
    with app.app_context():
        return f"/s/{seats.issue_seat_token(tables.get_table(at.table_id), seat)}"


Pick = Callable[[SeatView, RuleSet], int | None]


def play_until(app: Flask, at: TableAt, stop: Callable[[TableState], bool], pick: Pick | None = None) -> TableState:
    """Move for whoever is to move (``pick``, else the bots' easy choice) until ``stop``."""
    with app.app_context():
        table = tables.get_table(at.table_id)
        st = tables.load(table)
        while not stop(st):
            mover = st.to_move()
            assert mover is not None, "the hand ended before the wanted moment"
            view = st.view(mover)
            assert view is not None
            action = pick(view, st.ruleset) if pick is not None else None
            if action is None:
                action = choose_action(view, st.ruleset, "easy")
            st = tables.act(table, mover, action, expected_seq=st.seq)
        return st


def announce_of(view: SeatView, ruleset: RuleSet, row_key: str) -> int | None:
    """The first legal announce of ``row_key`` (None when not offered)."""
    for action in view.legal_actions:
        decoded = decode_announce(ruleset, action)
        if decoded is not None and decoded[0] == row_key:
            return action
    return None


# Every <use> of the card faces draws (an unresolved sprite reference has an empty box).
USES_DRAWN = """() => [...document.querySelectorAll('#seat-live use')].every(u => {
  const b = u.getBBox(); return b.width > 0 && b.height > 0; })"""

# Every player readable: full names not cut (no ellipsis, nothing clipped), short forms under
# cards not cut either; returns what is wrong.
NAMES_CUT = """() => [...document.querySelectorAll('[data-name], [data-short]')].filter(e => {
  const s = getComputedStyle(e);
  return e.scrollWidth > e.clientWidth + 1 || s.textOverflow === 'ellipsis' || e.getClientRects().length === 0;
}).map(e => e.textContent.trim())"""


@contextmanager
def phone_without_script(chromium: Any) -> Iterator[Any]:
    """A 360 x 740 page with JavaScript switched off (what a page promises without its script)."""
    ctx = chromium.new_context(viewport=PHONE, java_script_enabled=False, locale="en-GB")
    try:
        yield ctx.new_page()
    finally:
        ctx.close()


# --- evenings filled through the services (the browser only looks) ----------------------------
@dataclass(frozen=True)
class EveningAt:
    """An evening made through the services: the circle's write token and the evening's id."""

    write: str
    evening_id: str

    def slate(self, base: str) -> str:
        return f"{base}/c/{self.write}/e/{self.evening_id}"


def filled_evening(
    app: Flask,
    variant: str,
    names: list[str],
    hands: int,
    *,
    points: Callable[[int, int], int] | None = None,
    write: str | None = None,
    end: bool = False,
) -> EveningAt:
    """An evening (in a new circle, or the circle of ``write``) with ``hands`` hands recorded:
    the first seat in speaking order, its side's first open row, varied points with a match and
    a countermatch (or ``points(i, seat)``); ``end``: ended (early unless every cell is full)."""
    from scorekeeper.game.contracts import all_contracts
    from scorekeeper.game.hand_entry import HandEntry

    with app.app_context():
        if write is None:
            circle, write, _view = circles.create_circle("Beiz")
        else:
            circle, _write = circles.open_circle(write)
        ruleset = default_ruleset(variant)
        ev = evenings.start_evening(
            circle,
            ruleset=ruleset,
            player_names=names[: ruleset.n_players],
            first_dealer=0,
            request_id=f"e2e-{secrets.token_hex(6)}",
        )
        for i in range(hands):
            slate = evenings.load_slate(ev)
            seat = slate.eligible_seats()[0]
            row = ruleset.row(slate.open_rows(ruleset.side_of(seat))[0])
            contract = next((c for k in row.kinds for c in all_contracts(k) if row.allows(c)), None)
            contract = contract if row.is_choice else None
            if points is not None:
                p = points(i, seat)
                entry = HandEntry(row.key, seat, contract, p, 157 - p)
            elif i % 7 == 2:
                entry = HandEntry(row.key, seat, contract, 157, 0, match=True)
            elif i % 7 == 5:
                entry = HandEntry(row.key, seat, contract, 0, 157, countermatch=True)
            else:
                p = (37 * i + 11) % 150 + 3
                entry = HandEntry(row.key, seat, contract, p, 157 - p)
            ev = evenings.record_hand(ev, entry, expected_version=ev.version, request_id=f"e2e-{secrets.token_hex(6)}")
        if end:
            complete = evenings.load_slate(ev).complete
            ev = evenings.end_evening(
                ev, early=not complete, expected_version=ev.version, request_id=f"e2e-{secrets.token_hex(6)}"
            )
        return EveningAt(write, ev.public_id)


# Nothing wider than the phone: the page does not scroll sideways, and no box inside it does
# either (a table in a scrolling box hides its overflow from the page's width).
SIDEWAYS = """(width) => {
  const out = [];
  if (document.documentElement.scrollWidth > width) out.push('page ' + document.documentElement.scrollWidth);
  for (const e of document.querySelectorAll('body *')) {
    const s = getComputedStyle(e);
    if ((s.overflowX === 'auto' || s.overflowX === 'scroll') && e.scrollWidth > e.clientWidth + 1)
      out.push('scrolls ' + e.tagName + '.' + e.className + ' ' + e.scrollWidth + '>' + e.clientWidth);
    else if (e.getBoundingClientRect().right > width + 1 && e.getClientRects().length)
      out.push('sticks out ' + e.tagName + '.' + e.className + ' ' + (e.textContent || '').trim().slice(0, 30));
  }
  return out;
}"""


def sideways(page: Any, width: int = 360) -> list[str]:
    """What makes the page (or a box in it) wider than ``width`` px; empty when nothing does."""
    return list(page.evaluate(SIDEWAYS, width))


class Switchable:
    """The app on one fixed port that a test can stop and start again (the network gone for
    real: a service worker's own fetches fail too), with every request's path noted (``seen``)
    and an optional hold (``hold``): a request for which it returns true is answered only once
    ``release`` is set (the server has done the work; the phone has not heard back)."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.seen: list[str] = []
        self.hold: Callable[[str, str], bool] = lambda _method, _path: False
        self.held = threading.Event()
        self.release = threading.Event()
        self.port = 0
        self._server: Any = None
        self._thread: threading.Thread | None = None

    def _wsgi(self, environ: dict[str, Any], start_response: Any) -> Any:
        method, path = environ["REQUEST_METHOD"], environ["PATH_INFO"]
        self.seen.append(f"{method} {path}")
        body = list(self.app.wsgi_app(environ, start_response))
        if self.hold(method, path):
            self.held.set()
            self.release.wait(30)
        return body

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        from werkzeug.serving import make_server

        self._server = make_server("127.0.0.1", self.port, self._wsgi, threaded=True)
        self.port = self._server.server_port
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._server is None:
            return
        self._server.shutdown()
        if self._thread is not None:
            self._thread.join(timeout=10)
        self._server.server_close()
        self._server = None


# --- an evening behind a server that can be stopped (offline tests) ---------------------------
def club_evening(app: Flask, request_id: str) -> tuple[str, str]:
    """(write token, evening id) of a new club evening of Anna, Beat, Cla and Dora, made through
    the services (the Seich is the server's to check)."""
    with app.app_context():
        circle, write, _view = circles.create_circle("Berghaus")
        ev = evenings.start_evening(
            circle,
            ruleset=default_ruleset(Variant.CLUB),
            player_names=["Anna", "Beat", "Cla", "Dora"],
            first_dealer=0,
            request_id=request_id,
        )
        return write, ev.public_id


def entry_count(app: Flask, evening_id: str, token: str) -> int:
    """How many hands the server holds for the evening (through the API)."""
    data = app.test_client().get(f"/api/v1/evenings/{evening_id}/entries", headers={"Authorization": f"Bearer {token}"})
    assert data.status_code == 200
    return len(data.get_json()["entries"])


def worker_controls(page: Any) -> None:
    """The service worker controls the page, and keeps it (asked by the page: it came first)."""
    wait_until(page, "navigator.serviceWorker.controller !== null")
    wait_until(page, "caches.open('sk-pages').then(c => c.match(location.pathname)).then(r => !!r)")


@contextmanager
def switchable(db_url: str) -> Iterator[Switchable]:
    """The app (CSRF on, writes per evening unlimited) as a ``Switchable`` server, started."""
    from scorekeeper.app import create_app
    from tests.conftest import dispose

    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "e2e-secret",
            "SQLALCHEMY_DATABASE_URI": db_url,
            "WTF_CSRF_ENABLED": True,
            "LIMIT_EVENING_WRITES": "100000 per minute",
        }
    )
    s = Switchable(app)
    s.start()
    try:
        yield s
    finally:
        s.release.set()
        s.stop()
        dispose(app)


# The seat page posts "sit" once it is open (a GET never marks a seat taken); its answer shows the
# seat as joined (the next sit only after a delay). Wait for it before a step that reads versions.
SEATED = """(() => { const f = document.querySelector('#seat-live form.sit');
  return !f || (f.getAttribute('hx-trigger') || '').includes('delay'); })()"""
