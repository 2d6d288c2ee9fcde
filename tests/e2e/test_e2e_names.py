"""Names at 360 px in French and Italian (issue 20, point 11): the circle's players table, the
purse, the slate's head and the outlook's "Row by row" head never break a name inside a word,
nothing overflows its box, and two players who share a first name get different short forms,
whole words. Screenshots go to $SCOREKEEPER_SCREENSHOTS."""

from __future__ import annotations

from typing import Any

import pytest
from e2e_helpers import filled_evening, no_sideways_scroll, shot
from flask import Flask

pytestmark = pytest.mark.browser

# Two Annas (the same first name), and long double first and last names.
NAMES = ["Anna Zimmermann", "Anna Zurbriggen", "Jean-Baptiste Kalbermatten", "Maria-Vittoria Bernasconi-Imboden"]

# Every word of the text under ``root`` that the browser laid out on more than one line (a
# break inside a word; a break right after a hyphen is a break between the parts of a double
# name, as Swiss typesetting does), and every element whose text is wider than its box.
BROKEN = """(root) => {
  const out = [];
  for (const box of document.querySelectorAll(root)) {
    const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || !el.getClientRects().length || el.closest('.visually-hidden')) continue;
      for (const m of node.textContent.matchAll(/[^\\s\\u00ad-]+-?/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        // an unbroken word is one box (upright text too); a word on two lines is two
        const boxes = [...range.getClientRects()].filter(r => r.width > 0 && r.height > 0);
        if (boxes.length > 1) out.push('broken: ' + m[0] + ' in ' + el.tagName + '.' + el.className);
      }
    }
    for (const el of [box, ...box.querySelectorAll('*')]) {
      if (!el.getClientRects().length || el.closest('.visually-hidden')) continue;
      if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 1)
        out.push('overflows: ' + el.tagName + '.' + el.className + ' ' + el.scrollWidth + '>' + el.clientWidth
          + ' ' + (el.textContent || '').trim().slice(0, 30));
    }
  }
  return out;
}"""


def _phone_in(phone: Any, base: str, lang: str) -> Any:
    page = phone()
    page.context.add_cookies([{"name": "lang", "value": lang, "url": base}])
    return page


@pytest.mark.parametrize("lang", ["fr_CH", "it_CH"])
def test_names_are_never_broken_inside_a_word(live_app: tuple[str, Flask], phone: Any, lang: str) -> None:
    base, app = live_app
    past = filled_evening(app, "solo4", NAMES, 32, end=True)  # a finished evening: records and the purse
    filled_evening(app, "solo4", NAMES, 20, end=True, write=past.write)  # one ended early
    now = filled_evening(app, "solo4", NAMES, 6, write=past.write)  # the outlook with open rows
    page = _phone_in(phone, base, lang)
    circle = f"{base}/c/{past.write}"

    page.goto(circle)
    assert page.locator("html").get_attribute("lang") == lang.replace("_", "-")
    found = {"players": page.evaluate(BROKEN, "#players table")}
    no_sideways_scroll(page)
    shot(page, f"names-players-{lang}-360")

    page.goto(circle + "/purse")
    found["purse"] = page.evaluate(BROKEN, "#balances, #transfers, #ledger")
    no_sideways_scroll(page)
    shot(page, f"names-purse-{lang}-360")

    page.goto(now.slate(base))
    found["slate head"] = page.evaluate(BROKEN, "#slate thead")  # four columns of some 60 px each
    page.locator("#outlook details.outlook-rows summary").click()
    heads = [h.strip() for h in page.locator("#outlook .outlook-table thead th").all_inner_texts()[1:]]
    # the evening's short names: whole first words, the two Annas told apart by their whole names
    found["heads"] = [] if heads == ["Anna Zimmermann", "Anna Zurbriggen", "Jean-Baptiste", "Maria-Vittoria"] else heads
    found["row by row"] = page.evaluate(BROKEN, "#outlook .outlook-table")
    no_sideways_scroll(page)
    shot(page, f"names-outlook-{lang}-360")
    problems = {k: v for k, v in found.items() if v}
    assert problems == {}, "\n".join(f"{k}: {v}" for k, v in problems.items())
