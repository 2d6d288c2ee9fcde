"""Helpers of the browser tests: a server run in a thread for one test (``in_thread``), a
circle and an evening made through the pages as a person does it, recording a hand, the
sideways-scroll check, screenshots (``$SCOREKEEPER_SCREENSHOTS``)."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

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


def shot(page: Any, name: str, *, full: bool = True) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


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
    return str(page.url).split("#")[0]


def new_evening(page: Any, base: str, variant: str, names: list[str]) -> str:
    """A new circle and an evening in it; returns the slate's address."""
    write, _view = new_circle(page, base)
    return start_evening(page, write, variant, names)


def record(page: Any, declarer: str, row_label: str, points: str) -> None:
    """Record a hand with the slate page's form (the defenders' pile fills itself)."""
    page.locator(".record .choices label", has_text=declarer).click()
    page.select_option("select[name=row]", label=row_label)
    page.fill("input[name=declarer_points]", points)
    page.click("#record button[type=submit]")
    page.wait_for_selector(".flash-success")


def no_sideways_scroll(page: Any, width: int = 361) -> None:
    """Nothing on the page is wider than the phone (``width`` px), naming what sticks out."""
    wide = page.evaluate(
        f"""[...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > {width})
        .map(e => e.tagName + '.' + e.className + ' ' + (e.textContent || '').trim().slice(0, 30))"""
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= width, wide
