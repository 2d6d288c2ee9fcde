"""Issue 20, wrong data nobody sees coming, on a 360 x 740 phone: the match boxes speak the
row's own meaning (a Misère's match is the hand without a trick), a tick never changes typed
points without asking, a factor equal to another row's is asked about before the evening
starts, and a team's one Seich leaves its mark on the slate."""

from __future__ import annotations

from typing import Any

import pytest
from e2e_helpers import new_circle, no_sideways_scroll, phone_without_script, shot, start_evening
from flask import Flask
from flask_babel import force_locale

from scorekeeper.game.rulesets import default_ruleset
from scorekeeper.i18n import LANGUAGES
from scorekeeper.present.slate import mark_choice

pytestmark = pytest.mark.browser

NAMES = ["Anne-Marie Zurbriggen", "Vreni Schmid-Kalbermatten", "Hans-Peter Imboden", "Sepp Gwerder-Aufdermaur"]


def _boxes(page: Any) -> list[tuple[str, str]]:
    """The two match boxes in the order the page shows them: (which, words)."""
    return [
        (str(el.get_attribute("data-mark")), " ".join(el.inner_text().split()))
        for el in page.locator("#record [data-mark]").all()
    ]


def _said(locator: Any) -> str:
    """A box's text with every kind of space as one (the points never break: no-break spaces)."""
    return " ".join(locator.inner_text().split())


def _piles(page: Any) -> tuple[str, str]:
    return page.input_value("input[name=declarer_points]"), page.input_value("input[name=defender_points]")


def _words(app: Flask, lang: str) -> dict[str, tuple[str, str]]:
    """The boxes' words per mode in ``lang`` (present/slate.py MarkChoice)."""
    with app.test_request_context("/"), force_locale(lang):
        return dict(mark_choice(default_ruleset("club")).words)


@pytest.mark.parametrize("lang", ["en", "de_CH", "fr_CH", "it_CH"])
def test_a_misere_row_words_its_boxes_by_what_it_is_played_as(
    live_app: tuple[str, Flask], phone: Any, lang: str
) -> None:
    base, app = live_app
    page = phone()
    write, _view = new_circle(page, base)
    if lang != "en":
        page.goto(write)
        page.locator("nav.lang a", has_text=LANGUAGES[lang]).click()
        page.wait_for_selector(f"html[lang='{lang.replace('_', '-')}']")
    start_evening(page, write, "club", NAMES)
    words = _words(app, lang)
    assert words["misere"] != words["normal"] != words["neutral"]
    if lang != "en":  # translated, every one
        english = _words(app, "en")
        assert all(words[mode][i] != english[mode][i] for mode in words for i in (0, 1)), words
    # nothing chosen yet: each box says what happened at the table and both meanings
    assert _boxes(page) == [("every", words["neutral"][0]), ("none", words["neutral"][1])]
    page.check("input[name=declarer][value='1']")
    page.select_option("select[name=row]", "misere_zwueschi")
    assert _boxes(page) == [("every", words["neutral"][0]), ("none", words["neutral"][1])]
    page.select_option("select[name=played_as]", "misere:obenabe")
    # a Misère: its ★ match (no trick taken) comes first
    assert _boxes(page) == [("none", words["misere"][1]), ("every", words["misere"][0])]
    assert words["misere"][1].startswith("★")
    page.select_option("select[name=played_as]", "zwuescheduere")  # the other half of the row
    assert _boxes(page) == [("every", words["normal"][0]), ("none", words["normal"][1])]
    page.select_option("select[name=played_as]", "misere:obenabe")
    no_sideways_scroll(page)
    shot(page, f"issue20-misere-boxes-{lang}-360")
    page.locator("#record [data-mark=none]").click()  # ★ Misère match: no trick taken
    assert _piles(page) == ("0", "157")  # nothing was typed: filled as no trick, without a question
    assert not page.locator("[data-match-ask]").is_visible()
    page.click("#record button[type=submit]")
    page.wait_for_selector(".flash-success")
    star = page.locator("#slate td.filled.match")
    assert star.count() == 1 and star.first.inner_text().split()[0] == "885"  # 157 x 5 + 100, not 0
    # 12-fach played as a Misère: the same words (x12: 1984 instead of 0)
    page.check("input[name=declarer][value='0']")
    page.select_option("select[name=row]", "twelve")
    page.select_option("select[name=played_as]", "misere:undenufe")
    assert _boxes(page) == [("none", words["misere"][1]), ("every", words["misere"][0])]
    page.select_option("select[name=row]", "suit_H")  # an ordinary row
    assert _boxes(page) == [("every", words["normal"][0]), ("none", words["normal"][1])]


def test_without_script_a_misere_tick_says_what_happened(chromium: Any, live_server: str) -> None:
    with phone_without_script(chromium) as page:
        write, _view = new_circle(page, live_server)
        start_evening(page, write, "club", NAMES)
        boxes = _boxes(page)
        assert boxes == [
            ("every", "Every trick taken (★ match; in a Misère ✗ countermatch)"),
            ("none", "No trick taken (✗ countermatch; in a Misère ★ match)"),
        ]
        page.check("input[name=declarer][value='1']")
        page.select_option("select[name=row]", "twelve")
        page.select_option("select[name=played_as]", "misere:undenufe")
        assert _boxes(page) == boxes  # the words do not follow the row without script: both meanings stay
        page.fill("input[name=declarer_points]", "0")
        page.fill("input[name=defender_points]", "157")
        page.locator("#record [data-mark=none]").click()
        page.click("#record button[type=submit]")
        page.wait_for_selector(".flash-success")  # the click does not wait for the next page
        star = page.locator("#slate td.filled.match")
        assert star.count() == 1 and star.first.inner_text().split()[0] == "1984"  # 157 x 12 + 100


def test_ticking_a_box_after_typed_points_asks_before_changing_them(live_server: str, phone: Any) -> None:
    page = phone()
    write, _view = new_circle(page, live_server)
    start_evening(page, write, "teams", NAMES)
    ask = page.locator("[data-match-ask]")
    page.check("input[name=declarer][value='0']")
    page.select_option("select[name=row]", "suit_H")
    page.fill("input[name=declarer_points]", "100")
    assert _piles(page) == ("100", "57")
    page.check("input[name=match]")
    assert ask.is_visible()  # asked, nothing changed
    assert "157 : 0, but 100 : 57 are typed" in _said(ask)
    assert _piles(page) == ("100", "57")
    no_sideways_scroll(page)
    shot(page, "issue20-match-asks-360", full=False)
    page.locator("[data-match-keep]").click()  # keep the typed points
    assert _piles(page) == ("100", "57") and not page.is_checked("input[name=match]")
    assert not ask.is_visible()
    page.check("input[name=countermatch]")  # no trick: asked too (0 : 157)
    assert ask.is_visible() and "0 : 157" in _said(ask)
    page.locator("[data-match-fill]").click()
    assert _piles(page) == ("0", "157") and page.is_checked("input[name=countermatch]")
    assert not ask.is_visible()
    page.fill("input[name=declarer_points]", "120")  # points typed under a ticked box: asked again
    assert ask.is_visible() and "120 : 37" in _said(ask)
    page.locator("[data-match-keep]").click()
    page.check("input[name=match]")
    page.locator("[data-match-fill]").click()
    assert _piles(page) == ("157", "0")
    page.click("#record button[type=submit]")
    page.wait_for_selector(".flash-success")
    assert page.locator("#slate td.filled.match").first.inner_text().split()[0] == "100"  # 25 x 4


def test_without_script_typed_points_and_a_ticked_match_are_refused(chromium: Any, live_server: str) -> None:
    with phone_without_script(chromium) as page:
        write, _view = new_circle(page, live_server)
        start_evening(page, write, "teams", NAMES)
        page.check("input[name=declarer][value='0']")
        page.select_option("select[name=row]", "suit_H")
        page.fill("input[name=declarer_points]", "100")
        page.fill("input[name=defender_points]", "57")
        page.check("input[name=match]")
        page.click("#record button[type=submit]")
        page.wait_for_selector("#record .form-messages >> text=needs the points 157 : 0")
        message = page.locator("#record .form-messages").inner_text()
        assert "“Every trick taken” needs the points 157 : 0, but they are 100 : 57." in message
        assert _piles(page) == ("100", "57")
        assert page.locator("#slate td.filled").count() == 0


def test_a_factor_equal_to_another_rows_is_asked_about_before_the_evening_starts(live_server: str, phone: Any) -> None:
    page = phone()
    write, _view = new_circle(page, live_server)
    page.goto(f"{write}/start?variant=teams")
    for seat, name in enumerate(NAMES):
        page.fill(f"input[name=seat_{seat}]", name)
    page.fill("input[name=factor_suit_H]", "5")  # Obenabe is x5 too
    page.click("#start-form button[type=submit]")
    warning = page.locator(".flash-warning", has_text="Rows with the same factor")
    warning.wait_for()
    assert warning.is_visible() and "(each ×5)" in warning.inner_text()
    assert page.locator("#slate").count() == 0  # not started
    keep = page.locator("input[name=keep_factors]")
    assert keep.count() == 1 and page.input_value("input[name=factor_suit_H]") == "5"
    no_sideways_scroll(page)
    shot(page, "issue20-shared-factor-360")
    keep.check()
    page.click("#start-form button[type=submit]")
    page.wait_for_selector("#slate")
    labels = [" ".join(t.split()) for t in page.locator(".slate th.rowlabel .factor").all_inner_texts()]
    assert labels.count("×5") == 2


def test_a_seich_leaves_its_mark_on_the_slate(live_server: str, phone: Any) -> None:
    page = phone()
    write, _view = new_circle(page, live_server)
    start_evening(page, write, "club", NAMES)
    assert page.locator(".slate tr.seich").count() == 0
    page.check("input[name=declarer][value='1']")  # in the barrel (online-table rule: the forehand)
    page.check("input[name=seich]")
    page.click("#record button[type=submit]")
    page.wait_for_selector(".flash-success")
    row = page.locator(".slate tr.seich")
    assert row.count() == 1
    cells = [" ".join(t.split()) for t in row.locator("td").all_inner_texts()]
    assert cells[0].startswith("–") and cells[1].startswith("hand 1 · ")
    short = page.locator(".slate thead th").nth(2).locator("[data-short]").first.inner_text().strip()
    assert cells[1] == f"hand 1 · {short}"  # the caller by the short form of the slate's header
    no_sideways_scroll(page)
    row.scroll_into_view_if_needed()
    shot(page, "issue20-seich-row-360", full=False)
    page.evaluate("document.querySelectorAll('.guide details').forEach(d => { d.open = true; })")
    assert f"in hand 1 ({NAMES[1]})" in page.locator(".guide").inner_text()
    row.locator("a").click()  # the Seich opens its correction, as a cell does
    page.wait_for_selector("text=Correct hand 1")
