"""The circle's memory in Chromium at 360x740 under the strict Content-Security-Policy:
statistics, a player, ratings and the purse with long names and a season of evenings,
no sideways scroll, the charts' pictures load (SVG files, no inline script or style), their
tables open, and a payment recorded from the purse's form moves the balances."""

from __future__ import annotations

from typing import Any

import pytest
from e2e_helpers import no_sideways_scroll, shot
from flask import Flask
from shared_helpers import store_record

from scorekeeper.history.sample import sample_circle
from scorekeeper.present.labels import chf

pytestmark = pytest.mark.browser


def _images_loaded(page: Any) -> bool:
    """Every picture drew. A click's navigation may hand back the page before its pictures
    arrive, so wait for the load event first: it fires once each one has loaded or failed."""
    page.wait_for_load_state("load")
    return bool(page.evaluate("[...document.images].every(i => i.complete && i.naturalWidth > 0)"))


def test_the_memory_pages_read_well_on_a_phone(live_app: tuple[str, Flask], phone: Any) -> None:
    base, app = live_app
    with app.app_context():
        write, _view = store_record(sample_circle(7, evenings=40, players=8, paper_rate=0.0))
    page = phone()
    circle = f"{base}/c/{write}"
    page.goto(circle)
    no_sideways_scroll(page)
    page.click("#memory a[href$='/stats']")
    page.wait_for_selector("#money-chart")
    no_sideways_scroll(page)
    assert _images_loaded(page)
    assert "Anne-Marie Zurbriggen" in page.inner_text("#players")  # full names, never cut
    page.click("#money-chart summary")
    page.wait_for_selector("#money-chart table")
    no_sideways_scroll(page)
    shot(page, "memory-stats")

    page.click("#players li a >> nth=0")
    page.wait_for_selector("#contracts")
    no_sideways_scroll(page)
    assert _images_loaded(page)
    shot(page, "memory-player")

    page.goto(f"{circle}/ratings?variant=three")
    page.wait_for_selector("#ladder-three")
    no_sideways_scroll(page)
    assert _images_loaded(page)
    shot(page, "memory-ratings")

    page.goto(f"{circle}/purse")
    before = page.inner_text("#balances")
    payer = page.locator("#pay-payer option").nth(1).get_attribute("value")
    payee = page.locator("#pay-payer option").nth(2).get_attribute("value")
    page.select_option("#pay-payer", payer)
    page.select_option("#pay-payee", payee)
    assert page.get_attribute("#pay-amount", "inputmode") == "decimal"
    page.fill("#pay-amount", "12.50")
    page.click("#pay button[type=submit]")
    page.wait_for_selector(".flash-success")
    assert chf(1250) in page.inner_text(".flash-success")  # francs as Babel writes them (en_CH)
    assert page.inner_text("#balances") != before
    no_sideways_scroll(page)
    shot(page, "memory-purse")


def test_the_memory_pages_fit_in_swiss_german_too(live_app: tuple[str, Flask], phone: Any) -> None:
    base, app = live_app
    with app.app_context():
        write, _view = store_record(sample_circle(8, evenings=30, players=8, paper_rate=0.0))
    page = phone()
    circle = f"{base}/c/{write}"
    page.goto(circle)
    page.click("nav.lang a[hreflang=de-CH]")
    page.goto(f"{circle}/stats")
    assert "Statistik" in page.inner_text("h1")
    no_sideways_scroll(page)
    page.click("#players li a >> nth=1")
    page.wait_for_selector("#contracts")
    no_sideways_scroll(page)
    for path, mark in (("/ratings", "Wertung"), ("/purse", "Kasse")):
        page.goto(circle + path)
        assert mark in page.inner_text("h1")
        no_sideways_scroll(page)
    shot(page, "memory-purse-de")
