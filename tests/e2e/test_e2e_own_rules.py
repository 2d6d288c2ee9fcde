"""Issue 24 at 360 px: a row and a factor changed on the start page in a tap (htmx swaps the
rows in place), and "same again" on a finished evening; no sideways scroll."""

from __future__ import annotations

from typing import Any

import pytest
from e2e_helpers import BOTH_ENGINES, filled_evening, new_circle, no_sideways_scroll, shot, wait_until
from flask import Flask
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Evening
from scorekeeper.services import circles as circle_service
from scorekeeper.services import evenings as svc
from scorekeeper.services.read.replay import ruleset_of

pytestmark = pytest.mark.browser


def _rows(page: Any) -> list[str]:
    return [t.strip() for t in page.locator(".own-rows th.rowlabel label").all_inner_texts()]


@BOTH_ENGINES
def test_a_row_and_a_factor_in_a_tap(live_app: tuple[str, Flask], phone: Any) -> None:
    base, app = live_app
    page = phone()
    write, _view = new_circle(page, base)
    page.goto(f"{write}/start/own?preset=teams")
    page.wait_for_load_state("load")
    for seat, name in enumerate(["Anna", "Beat", "Cla", "Dora"]):
        page.fill(f"input[name=seat_{seat}]", name)
    page.evaluate("window.stayed = true")  # gone if a step loaded the page again
    no_sideways_scroll(page)
    first = _rows(page)[0]
    page.click(f"button[aria-label='Move {first} down']")
    wait_until(page, f"document.querySelector('.own-rows th.rowlabel label').textContent.trim() !== {first!r}")
    assert _rows(page)[1] == first and page.evaluate("window.stayed === true")
    factor = f"input[aria-label='Factor of {first}']"
    assert page.locator(factor).get_attribute("inputmode") == "numeric"
    page.fill(factor, "15")
    page.select_option("select[name=add_row]", "slalom")
    page.click("button[name=step][value=add]")
    wait_until(page, "document.querySelectorAll('.own-rows tbody tr').length === 9")
    assert _rows(page)[-1] == "Slalom" and page.evaluate("window.stayed === true")
    assert page.input_value("input[name=seat_0]") == "Anna"  # what was typed stays
    assert page.input_value(factor) == "15"
    no_sideways_scroll(page)
    shot(page, "own-rules-360")
    page.click("button[name=step][value=start]")
    page.wait_for_selector("#slate")
    no_sideways_scroll(page)
    with app.app_context():
        circle, _w = circle_service.open_circle(write.split("/c/")[1])
        ev = svc.get_evening(circle, str(page.url).split("#")[0].rsplit("/", 1)[1])
        rules = ruleset_of(ev)
    assert [r.key for r in rules.rows][:2] == ["suit_C", "suit_S"] and rules.rows[1].factor == 15
    assert rules.rows[-1].key == "slalom"


@BOTH_ENGINES
def test_same_again_in_one_tap(live_app: tuple[str, Flask], phone: Any) -> None:
    base, app = live_app
    done = filled_evening(app, "three", ["Anna", "Beat", "Cla"], 4, end=True)
    page = phone()
    page.goto(done.slate(base))
    page.wait_for_load_state("load")
    no_sideways_scroll(page)
    assert "Beat deals first" in page.locator("#same-again").inner_text()
    page.click("#same-again button[type=submit]")
    page.wait_for_selector(".flash-success")
    assert done.evening_id not in page.url
    no_sideways_scroll(page)
    with app.app_context():
        evenings = list(db.session.execute(select(Evening).order_by(Evening.id)).scalars())
        assert len(evenings) == 2 and evenings[1].first_dealer == 1 and evenings[1].ruleset == evenings[0].ruleset
