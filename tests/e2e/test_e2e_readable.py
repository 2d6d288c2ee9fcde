"""Readable for every player (issue 23 point 4): axe-core (vendored for the tests only,
tests/e2e/vendor) over every page type in the four languages, in Chromium and WebKit: no
violation of impact "serious" or "critical"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from e2e_helpers import BOTH_ENGINES, filled_evening, seat_link, table_evening, wait_until
from flask import Flask

from scorekeeper.services import circles

pytestmark = pytest.mark.browser
AXE = Path(__file__).resolve().parent / "vendor" / "axe-core-4.14.1.min.js"
LANGUAGES = ("en", "de_CH", "fr_CH", "it_CH")
NAMES = ["Anne-Marie", "Vreni", "Hans-Peter", "Sepp"]
SERIOUS = """axe.run(document, {resultTypes: ['violations']}).then(r => r.violations
  .filter(v => v.impact === 'serious' || v.impact === 'critical')
  .map(v => v.impact + ' ' + v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')))"""


def every_page(app: Flask) -> list[tuple[str, str]]:
    """(name, path) of one page of each type, in a circle with an evening in progress (and its
    digital table), a closed evening, and a replaced link."""
    at = table_evening(app, "teams", NAMES, first_dealer=0)
    w = f"/c/{at.write}"
    closed = filled_evening(app, "teams", NAMES, 4, write=at.write, end=True)
    going = filled_evening(app, "teams", NAMES, 3, write=at.write)
    with app.app_context():
        circle, old, _view = circles.create_circle("Alt")
        circles.new_write_link(circle, old)
    return [
        ("home", "/"),
        ("restore", "/restore"),
        ("circle", w),
        ("start", f"{w}/start?variant=teams"),
        ("slate in progress", f"{w}/e/{going.evening_id}"),
        ("slate with a table", f"{w}/e/{at.evening_id}"),
        ("slate closed", f"{w}/e/{closed.evening_id}"),
        ("correct a hand", f"{w}/e/{going.evening_id}/entries/0"),
        ("table", f"{w}/e/{at.evening_id}/table"),
        ("seat", seat_link(app, at, 0)),
        ("stats", f"{w}/stats"),
        ("ratings", f"{w}/ratings"),
        ("purse", f"{w}/purse"),
        ("paper", f"{w}/paper"),
        ("data", f"{w}/data"),
        ("delete", f"{w}/delete"),
        ("housekeeping", f"{w}/housekeeping"),
        ("not found", "/c/no-such-link"),
        ("link replaced", f"/c/{old}"),
    ]


def load_axe(page: Any) -> None:
    source = AXE.read_text(encoding="utf-8")
    if getattr(page, "engine", "chromium") == "webkit":
        page.driver.execute_script(source + "\n;return true;")
    else:
        page.evaluate(source + "\n;true")  # the debugger's evaluation: not subject to the page's policy
    assert page.evaluate("typeof axe === 'object'") is True


@BOTH_ENGINES
@pytest.mark.parametrize("lang", LANGUAGES)  # one test a language: the suite's workers share them
def test_axe_finds_nothing_serious_on_any_page_in_any_language(
    live_app: tuple[str, Flask], phone: Any, lang: str
) -> None:
    base, app = live_app
    pages = every_page(app)
    page = phone()
    found: list[str] = []
    page.goto(f"{base}/lang/{lang}")
    for name, path in pages:
        page.goto(base + path)
        page.wait_for_load_state("load")
        wait_until(page, f"document.documentElement.lang === '{lang.replace('_', '-')}'")
        load_axe(page)
        found += [f"{lang} {name}: {v}" for v in page.evaluate(SERIOUS)]
    assert found == [], "\n".join(found)


# --- text at 200 %, targets, contrast -----------------------------------------------------------
# Chromium's own text size (Settings > Appearance > Font size: the default font size, 16 px) set
# to 32 px through the DevTools protocol (Page.setFontSizes): the browser's text size, not zoom.
LARGE_TEXT = {"standard": 32, "fixed": 26}
PROBLEMS = (Path(__file__).resolve().parent / "readable_checks.js").read_text(encoding="utf-8")


def _tap_and_text(page: Any) -> list[str]:
    return list(page.evaluate(PROBLEMS))


def test_text_at_200_percent_at_360_px_fits_and_every_target_is_large(
    live_app: tuple[str, Flask], chromium: Any
) -> None:
    from e2e_helpers import PHONE

    base, app = live_app
    pages = every_page(app)
    ctx = chromium.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    try:
        page = ctx.new_page()
        ctx.new_cdp_session(page).send("Page.setFontSizes", {"fontSizes": LARGE_TEXT})
        found: list[str] = []
        for lang in ("en", "de_CH"):
            page.goto(f"{base}/lang/{lang}")
            for name, path in pages:
                page.goto(base + path)
                page.wait_for_load_state("load")
                assert page.evaluate("getComputedStyle(document.body).fontSize") == "34px"  # 200 % of 17 px
                found += [f"{lang} {name}: {p}" for p in _tap_and_text(page)]
        assert found == [], "\n".join(found)
    finally:
        ctx.close()


CONTRAST = (Path(__file__).resolve().parent / "contrast_check.js").read_text(encoding="utf-8")


def test_body_text_and_numbers_stand_out_seven_to_one(live_app: tuple[str, Flask], phone: Any) -> None:
    """Bright light at the table: every text on every page type (its own colour over the
    background it stands on, from the computed styles) at least 7:1 (WCAG's AAA)."""
    base, app = live_app
    pages = every_page(app)
    page = phone()
    found: list[str] = []
    for lang in ("en", "fr_CH"):
        page.goto(f"{base}/lang/{lang}")
        for name, path in pages:
            page.goto(base + path)
            page.wait_for_load_state("load")
            found += [f"{lang} {name}: {p}" for p in page.evaluate(CONTRAST)]
    assert found == [], "\n".join(sorted(set(found)))
