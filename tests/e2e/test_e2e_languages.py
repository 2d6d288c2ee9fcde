"""Every language on a 360 px phone: the switch in the page chrome, remembered across pages, and
no text overflowing its box (a French or Italian word is often longer than the German one) on
the home page, the circle, the start form, the slate with a hand, the result and a seat at the
digital table. Screenshots go to $SCOREKEEPER_SCREENSHOTS."""

from __future__ import annotations

from typing import Any

import pytest
from e2e_helpers import (
    LONG_NAMES,
    new_circle,
    no_sideways_scroll,
    seat_link,
    shot,
    start_evening,
    table_evening,
)
from flask import Flask

from scorekeeper.i18n import LANGUAGES

pytestmark = pytest.mark.browser

# The words each language's pages must show (a sign the language really switched).
WORDS = {
    "de_CH": ("Neue Jassrunde", "Spiel eintragen", "Resultat"),
    "fr_CH": ("Nouveau cercle", "Inscrire une donne", "Résultat"),
    "it_CH": ("Nuovo gruppo", "Scrivi una mano", "Risultato"),
    "en": ("New circle", "Record a hand", "Result"),
}

# Elements whose own text is wider than their box, unless they cut it on purpose (an ellipsis,
# with the full text elsewhere on the page) or scroll it; form controls keep their own text.
OVERFLOWING = """[...document.querySelectorAll('body *')].filter(e => {
  if (['INPUT', 'SELECT', 'TEXTAREA', 'OPTION', 'SCRIPT', 'STYLE'].includes(e.tagName)) return false;
  if (![...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) return false;
  const s = getComputedStyle(e);
  if (s.textOverflow === 'ellipsis' || ['auto', 'scroll'].includes(s.overflowX) || s.display === 'none') return false;
  return e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 1;  // 1 px: visually hidden, for screen readers
}).map(e => e.tagName + '#' + e.id + '.' + e.className + ' ' + e.scrollWidth + '>' + e.clientWidth + ' '
  + (e.innerText || '').trim().slice(0, 40))"""


def fits(page: Any, name: str) -> None:
    no_sideways_scroll(page)
    assert page.evaluate(OVERFLOWING) == [], name
    chrome = page.locator("header.top").bounding_box()
    assert chrome is not None and chrome["x"] + chrome["width"] <= 361, name


def switch_to(page: Any, lang: str) -> None:
    """Tap the language's own name in the page chrome."""
    page.locator("nav.lang a", has_text=LANGUAGES[lang]).click()
    page.wait_for_selector(f"html[lang='{lang.replace('_', '-')}']")


@pytest.mark.parametrize("lang", ["fr_CH", "it_CH", "de_CH", "en"])
def test_every_page_in_each_language_fits_a_360_px_phone(live_app: tuple[str, Flask], phone: Any, lang: str) -> None:
    base, app = live_app
    page = phone()  # the browser asks for en-GB: the switch decides
    page.goto(base + "/")
    if lang != "en":
        switch_to(page, lang)
    home_word, record_word, result_word = WORDS[lang]
    assert home_word in page.content()
    taps = [page.locator("nav.lang a, nav.lang span").nth(i).bounding_box() for i in range(len(LANGUAGES))]
    assert all(t is not None and t["height"] >= 44 for t in taps)  # every language a thumb target
    fits(page, "home")
    shot(page, f"lang-home-{lang}-360")

    write, _view = new_circle(page, base, "Jass du jeudi à la Pinte")
    for variant in ("three", "teams", "solo4", "club"):
        page.goto(f"{write}/start?variant={variant}")
        fits(page, f"start {variant}")
    shot(page, f"lang-start-club-{lang}-360")
    ev = start_evening(page, write, "teams", LONG_NAMES)  # the language is remembered (cookie)
    assert record_word in page.content()
    page.locator(".record .choices label", has_text=LONG_NAMES[1]).click()
    page.select_option("select[name=row]", "suit_H")
    page.fill("input[name=declarer_points]", "100")
    page.click("#record button[type=submit]")
    page.wait_for_selector(".flash-success")
    fits(page, "slate")
    shot(page, f"lang-slate-{lang}-360")
    page.on("dialog", lambda d: d.accept())  # "end the evening now?"
    page.check("input[name=counts_in_money][value='1']")  # the table says it counts in money
    fits(page, "ending early")
    page.click("form[action$='/end'] button")
    page.wait_for_selector("#result")
    assert result_word in page.content()
    fits(page, "result")
    shot(page, f"lang-result-{lang}-360")
    for variant in ("club", "three", "solo4"):  # every slate's row names in this language
        start_evening(page, write, variant, LONG_NAMES[:3] if variant == "three" else LONG_NAMES)
        fits(page, f"slate {variant}")
        shot(page, f"lang-slate-{variant}-{lang}-360")
    page.goto(write)
    fits(page, "circle")
    page.goto(ev + "/entries/0")
    fits(page, "closed entry")

    at = table_evening(app, "club", LONG_NAMES, first_dealer=0, deck="french")
    seat = phone()
    seat.context.add_cookies([{"name": "lang", "value": lang, "url": base}])
    seat.goto(base + seat_link(app, at, 1))
    seat.wait_for_selector(".hand")
    fits(seat, "seat")
    shot(seat, f"lang-seat-{lang}-360")
