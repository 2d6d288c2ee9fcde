"""Friday night at the Beiz (issue 9), the slate side, on a 360 x 740 phone with four long
names: no Seich by surprise, piles that fill each other in every form, an entry that survives
a dropped connection, the right partner as declarer, jokers that move up, no page wider
than the phone, every name readable, the guide and the message in view after an entry, the
three-player count during play, open cells by keyboard."""

from __future__ import annotations

from typing import Any

import pytest
from e2e_helpers import (
    NAMES_CUT,
    PHONE,
    filled_evening,
    new_circle,
    new_evening,
    phone_without_script,
    seat_link,
    shot,
    sideways,
    start_evening,
    table_evening,
    wait_until,
)

pytestmark = pytest.mark.browser

NAMES = ["Anne-Marie Zurbriggen", "Vreni Schmid-Kalbermatten", "Hans-Peter Imboden", "Sepp Gwerder-Aufdermaur"]


def _declarer(page: Any, name: str) -> None:
    page.locator(".record .choices label", has_text=name).click()


def _pile(page: Any, which: str) -> str:
    return str(page.input_value(f"input[name={which}_points]"))


# --- 1: a tapped cell never records a Seich ----------------------------------------------


def test_a_tapped_cell_after_a_refused_seich_records_the_hand_not_a_seich(live_server: str, phone: Any) -> None:
    page = phone()
    new_evening(page, live_server, "club", NAMES)
    _declarer(page, NAMES[0])  # the dealer, not in the barrel: the Seich is refused
    page.check("input[name=seich]")
    assert page.locator("[data-seich-note]").is_visible()  # the page says a Seich is about to be written
    assert "Seich" in page.locator("#record button[type=submit]").inner_text()
    page.click("#record button[type=submit]")
    page.wait_for_selector(".form-messages")
    assert not page.locator("input[name=seich]").is_checked()  # refused: back to a hand
    page.check("input[name=seich]")  # ticked again by mistake, then a cell is tapped
    page.locator("#slate td.open[data-row=suit_H][data-side='1'] .cell").click()
    assert not page.locator("input[name=seich]").is_checked()
    assert page.locator("input[name=declarer_points]").is_visible()
    assert page.input_value("select[name=row]") == "suit_H"
    assert page.locator("#record button[type=submit]").inner_text() == "Write it on the slate"
    page.fill("input[name=declarer_points]", "100")
    page.click("#record button[type=submit]")
    page.wait_for_selector(".flash-success")
    assert page.locator("#slate td.filled").count() == 1  # the hand, not a Seich


def test_a_seich_ticked_with_a_filled_hand_is_asked_about_without_script(chromium: Any, live_server: str) -> None:
    with phone_without_script(chromium) as page:
        write, _view = new_circle(page, live_server)
        start_evening(page, write, "club", NAMES)
        page.check("input[name=declarer][value='0']")
        page.check("input[name=seich]")
        page.select_option("select[name=row]", "suit_H")
        page.fill("input[name=declarer_points]", "100")
        page.fill("input[name=defender_points]", "57")
        page.click("#record button[type=submit]")
        page.wait_for_selector("#record >> text=Seich is ticked, but a row or points are filled in")
        assert page.locator("#slate td.filled").count() == 0


# --- 2: the piles fill each other in every form ----------------------------------------------


def test_piles_fill_each_other_in_every_form_and_a_typed_pile_stays(live_server: str, phone: Any) -> None:
    page = phone()
    new_evening(page, live_server, "teams", NAMES)
    _declarer(page, NAMES[0])
    page.select_option("select[name=row]", "suit_H")
    page.fill("input[name=defender_points]", "50")  # typed first: stays
    page.fill("input[name=declarer_points]", "100")
    assert _pile(page, "defender") == "50"
    page.click("#record button[type=submit]")  # 100 + 50: refused
    page.wait_for_selector(".form-messages")
    page.fill("input[name=declarer_points]", "121")  # re-entry: the other pile follows
    assert _pile(page, "defender") == "36"
    page.click("#record button[type=submit]")
    page.wait_for_selector(".flash-success")
    page.locator("#slate td.filled a.cell").first.click()  # correction: both piles are there
    page.wait_for_selector("text=Correct hand 1")
    page.fill("input[name=defender_points]", "45")
    assert _pile(page, "declarer") == "112"
    page.fill("input[name=declarer_points]", "120")  # both typed now: neither is overwritten
    assert _pile(page, "defender") == "45"
    assert page.locator("[data-piles-script]").is_visible() and not page.locator("[data-piles-plain]").is_visible()


def test_without_script_both_piles_are_asked_for(chromium: Any, live_server: str) -> None:
    with phone_without_script(chromium) as page:
        write, _view = new_circle(page, live_server)
        start_evening(page, write, "three", NAMES[:3])
        assert page.locator("[data-piles-plain]").is_visible()
        assert "Enter both piles" in page.locator("[data-piles-plain]").inner_text()
        assert not page.locator("[data-piles-script]").is_visible()  # no promise of a fill


# --- 3: a dropped connection keeps the entry -------------------------------------------------


def test_a_dropped_connection_keeps_the_entry_and_a_resend_writes_it_once(live_server: str, phone: Any) -> None:
    page = phone()
    new_evening(page, live_server, "teams", NAMES)
    _declarer(page, NAMES[2])
    page.select_option("select[name=row]", "obenabe")
    page.fill("input[name=declarer_points]", "98")
    page.route("**/hands", lambda route: route.abort("internetdisconnected"))
    page.click("#record button[type=submit]")
    page.wait_for_selector("[data-send-error]:not([hidden])")
    assert "Nothing is confirmed as written" in page.locator("[data-send-error]").inner_text()
    assert (page.input_value("select[name=row]"), _pile(page, "declarer"), _pile(page, "defender")) == (
        "obenabe",
        "98",
        "59",
    )
    shot(page, "beiz-dropped-connection-360", full=False)
    # the answer is lost after the server wrote it: sending again writes it once
    page.unroute("**/hands")

    def lose_answer(route: Any) -> None:
        route.fetch(max_redirects=0)
        route.abort("internetdisconnected")

    page.route("**/hands", lose_answer)
    page.click("#record button[type=submit]")
    page.wait_for_selector("[data-send-error]:not([hidden])")
    page.unroute("**/hands")
    page.click("#record button[type=submit]")
    page.wait_for_selector(".flash-success")
    assert page.locator("#slate td.filled").count() == 1


# --- 4: the declarer of a tapped team cell ---------------------------------------------------


def test_a_tapped_team_cell_takes_the_partner_whose_turn_it_is(live_server: str, phone: Any) -> None:
    page = phone()
    new_evening(page, live_server, "teams", NAMES)  # seat 1 deals: Vreni (seat 2) is forehand
    page.locator("#slate td.open[data-row=suit_H][data-side='1'] .cell").click()
    assert page.locator("input[name=declarer][value='1']").is_checked()  # Vreni, forehand
    page.locator("#slate td.open[data-row=suit_H][data-side='0'] .cell").click()
    assert page.locator("input[name=declarer][value='2']").is_checked()  # Hans-Peter speaks next for A
    page.fill("input[name=declarer_points]", "100")
    page.click("#record button[type=submit]")
    page.wait_for_selector(".flash-success")
    # next deal: Vreni deals, Hans-Peter is forehand; for team B Sepp speaks first
    page.locator("#slate td.open[data-row=suit_H][data-side='1'] .cell").click()
    assert page.locator("input[name=declarer][value='3']").is_checked()
    wait_until(page, "document.activeElement && document.activeElement.name === 'declarer_points'", timeout=3_000)


# --- 5: extra rows move the jokers up on the start form -------------------------------------


def test_ticking_slalom_on_the_start_form_moves_the_jokers_up(live_server: str, phone: Any) -> None:
    page = phone()
    write, _view = new_circle(page, live_server)
    page.goto(f"{write}/start?variant=teams")
    for seat, name in enumerate(NAMES):
        page.fill(f"input[name=seat_{seat}]", name)
    page.fill("input[name=factor_obenabe]", "10")  # a factor the table changed stays
    page.check("input[name=extra_rows][value=slalom]")
    wait_until(page, "document.querySelector('input[name=factor_slalom]') !== null")
    factors = {k: page.input_value(f"input[name=factor_{k}]") for k in ("obenabe", "slalom", "joker1", "joker2")}
    assert factors == {"obenabe": "10", "slalom": "7", "joker1": "8", "joker2": "9"}
    assert not page.locator("input[name=jokers_play_extras]").is_checked()  # the evening option, off
    page.click("#start-form button[type=submit]")
    page.wait_for_selector("#slate")
    labels = [" ".join(t.split()) for t in page.locator(".slate th.rowlabel .factor").all_inner_texts()]
    assert labels.count("×7") == 1 and labels[-2:] == ["×8", "×9"]
    page.select_option("select[name=row]", "joker1")
    played = page.eval_on_selector_all("select[name=played_as] option:not([disabled])", "os => os.map(o => o.value)")
    assert set(played) - {""} == {"suit:C", "suit:D", "suit:S", "suit:H", "obenabe", "undenufe"}


# --- 7: no page wider than the phone -------------------------------------------------------

HALF = {"three": 15, "teams": 8, "solo4": 16, "club": 12}
FULL = {"three": 30, "teams": 16, "solo4": 32, "club": 24}


def _walk(page: Any, url: str, seen: dict[str, list[str]], name: str, *, open_all: bool = True) -> None:
    if url:
        page.goto(url)
    if open_all:  # folded parts too (the circle's links, the barrel rule)
        page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    wide = sideways(page)
    if wide:
        seen[name] = wide[:6]


# In WebKit too, in the language of the longest words (a select's long option made the page
# scroll sideways there only: static/css/app.css, select).
@pytest.mark.parametrize(
    ("lang", "engine"), [("en", "chromium"), ("de_CH", "chromium"), ("de_CH", "webkit")], indirect=["engine"]
)
def test_every_page_of_every_variant_fits_360_px(live_app: tuple[str, Any], phone: Any, lang: str) -> None:
    base, app = live_app
    page = phone()
    page.goto(f"{base}/lang/{lang}")
    seen: dict[str, list[str]] = {}
    _walk(page, f"{base}/", seen, "home")
    write, view = new_circle(page, base, "Donnschtig-Jass im Sternen")
    _walk(page, "", seen, "circle created (links)")
    circle, token = write, write.rsplit("/", 1)[-1]
    for variant in ("three", "teams", "solo4", "club"):
        names = NAMES[:3] if variant == "three" else NAMES
        _walk(page, f"{circle}/start?variant={variant}", seen, f"start {variant}")
        mid = filled_evening(app, variant, names, HALF[variant], write=token)
        _walk(page, mid.slate(base), seen, f"slate {variant} mid-evening")
        _walk(page, mid.slate(base) + "/entries/0", seen, f"correction {variant}")
        done = filled_evening(app, variant, names, FULL[variant], write=token, end=True)
        _walk(page, done.slate(base), seen, f"result {variant}")
        _walk(page, done.slate(base) + "/entries/0", seen, f"closed entry {variant}")
        early = filled_evening(app, variant, names, 3, write=token, end=True)
        _walk(page, early.slate(base), seen, f"result ended early {variant}")
    ties = filled_evening(app, "three", NAMES[:3], 30, points=lambda i, seat: 80, write=token)
    _walk(page, ties.slate(base), seen, "cuts three players")
    # a refused entry comes back with its messages
    mid = filled_evening(app, "teams", NAMES, 2, write=token)
    page.goto(mid.slate(base))
    _declarer(page, NAMES[1])
    page.select_option("select[name=row]", "undenufe")
    page.fill("input[name=declarer_points]", "100")
    page.fill("input[name=defender_points]", "50")
    page.click("#record button[type=submit]")
    page.wait_for_selector(".form-messages")
    _walk(page, "", seen, "refused entry")
    _walk(page, circle, seen, "circle with history and records")
    page.on("dialog", lambda d: d.accept())
    page.click("form[action$='/view-link'] button")
    page.wait_for_selector("#view-link")
    _walk(page, "", seen, "new onlookers link")
    _walk(page, view, seen, "circle read-only")
    shot(page, f"beiz-circle-readonly-{lang}-360")
    for variant in ("three", "teams", "club"):  # the digital table: organiser, slate, seat, links
        names = NAMES[:3] if variant == "three" else NAMES
        at = table_evening(app, variant, names, first_dealer=0)
        slate = f"{base}/c/{at.write}/e/{at.evening_id}"
        _walk(page, slate, seen, f"slate {variant} with a hand being dealt")
        _walk(page, slate + "/table", seen, f"organiser's table {variant}")
        page.click("main > form[action$='/table/links'] button")
        page.wait_for_selector(".seat-link")
        _walk(page, "", seen, f"seat links {variant}")
        _walk(page, base + seat_link(app, at, 1), seen, f"seat page {variant}")
    assert seen == {}, seen


# --- 6: every name readable --------------------------------------------------------------------


def _full_names_shown(page: Any) -> set[str]:
    """Names shown in full: in the key and elsewhere, or as a short form that is the whole name."""
    return {" ".join(t.split()) for t in page.locator("[data-name]:visible, [data-short]:visible").all_inner_texts()}


@pytest.mark.parametrize(
    ("variant", "engine"),
    [("three", "chromium"), ("teams", "chromium"), ("solo4", "chromium"), ("club", "chromium"), ("teams", "webkit")],
    indirect=["engine"],
)
def test_every_player_is_named_in_full_and_no_name_is_cut(live_app: tuple[str, Any], phone: Any, variant: str) -> None:
    base, app = live_app
    page = phone()
    names = NAMES[:3] if variant == "three" else [*NAMES[:3], "Hans-Peter Oberholzer"]  # two Hans-Peters
    mid = filled_evening(app, variant, names, 3)
    page.goto(mid.slate(base))
    assert page.evaluate(NAMES_CUT) == []
    heads = [" ".join(t.split()) for t in page.locator(".slate thead [data-short]").all_inner_texts()]
    assert len(set(heads)) == len(names)  # unique within the evening
    if variant != "three":
        assert {"Hans-Peter Imboden", "Hans-Peter Oberholzer"} <= set(heads)  # whole words, told apart
    assert _full_names_shown(page) >= set(names)  # the full names on the same page
    shot(page, f"beiz-names-{variant}-360", full=False)
    done = filled_evening(app, variant, names, FULL[variant], write=mid.write, end=True)
    page.goto(done.slate(base))
    assert page.evaluate(NAMES_CUT) == []
    assert _full_names_shown(page) >= set(names)
    page.goto(f"{base}/c/{mid.write}")  # the players' records
    assert page.evaluate(NAMES_CUT) == []
    assert _full_names_shown(page) >= set(names)


# --- 8: after an entry, what was written and who deals next are in view ---------------------


def _in_view(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


@pytest.mark.parametrize("variant", ["club", "three"])
def test_after_an_entry_the_message_and_the_next_dealer_are_in_view(live_server: str, phone: Any, variant: str) -> None:
    page = phone()
    names = NAMES[:3] if variant == "three" else NAMES
    new_evening(page, live_server, variant, names)
    for n in range(2):
        page.locator("#slate td.open[data-side='1'] .cell").nth(n).click()
        page.fill("input[name=declarer_points]", "90")
        page.click("#record button[type=submit]")
        page.wait_for_selector(".flash-success")
        assert page.evaluate("scrollY") == 0
        recorded = page.locator(".flash-success").inner_text()
        assert recorded.startswith(f"Hand recorded: hand {n + 1}: ") and recorded.endswith(" · 90 : 67")
        assert _in_view(page, ".flash-success") and _in_view(page, ".guide .guide-now")
        dealer = names[(n + 1) % len(names)]
        assert page.locator(".guide .guide-now").inner_text().startswith(f"{dealer} deals.")
    shot(page, f"beiz-after-entry-{variant}-360", full=False)


# --- 9: three players: sticks and potatoes during the evening ----------------------------------


def _cells(page: Any, selector: str) -> list[str]:
    return [" ".join(t.split()) for t in page.locator(selector).all_inner_texts()]


def test_three_players_see_their_sticks_during_the_evening_and_the_same_match_marks(
    live_app: tuple[str, Any], phone: Any
) -> None:
    from scorekeeper.services import circles, evenings

    base, app = live_app
    page = phone()
    mid = filled_evening(app, "three", NAMES[:3], 15)
    with app.app_context():
        circle, _w = circles.open_circle(mid.write)
        marks = evenings.load_slate(evenings.get_evening(circle, mid.evening_id)).match_marks
    assert any(s and p for s, p in marks)  # a stick and a potato in one cell: they cancel
    page.goto(mid.slate(base))
    labels = _cells(page, ".slate tfoot th")
    assert "Net sticks so far" in labels and "Total points" not in labels and "Total" not in labels
    during = _cells(page, ".slate tr.sticks-now td")
    assert len(during) == 3 and during != ["0", "0", "0"]
    match_during = _cells(page, ".slate tr.marks td")
    shot(page, "beiz-three-sticks-so-far-360", full=False)
    page.on("dialog", lambda d: d.accept())
    page.check("input[name=counts_in_money][value='1']")  # ending early asks whether it counts in money
    page.click("form[action$='/end'] button")
    page.wait_for_selector("#result")
    assert _cells(page, "#result tr.marks td") == match_during  # the same marks during play and in the result
    assert _cells(page, "#result tfoot tr:last-child td") == during  # "so far" was what ending now gives


# --- 13: open cells by keyboard, match and countermatch not by colour alone ----------------


def test_open_cells_are_reached_by_keyboard_and_named_and_matches_have_a_mark(
    live_app: tuple[str, Any], phone: Any
) -> None:
    base, app = live_app
    page = phone()
    mid = filled_evening(app, "teams", NAMES, 6)  # a match (hand 3) and a countermatch (hand 6)
    page.goto(mid.slate(base))
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("!!document.activeElement.closest('td.open')"):
            break
    focused = page.evaluate("[document.activeElement.getAttribute('aria-label'), document.activeElement.tagName]")
    assert focused[1] == "BUTTON"
    row_name = page.evaluate(
        "document.activeElement.closest('tr').querySelector('th').firstChild.textContent.replace(/\\u00ad/g, '').trim()"
    )
    # the row and the players of the column
    assert focused[0] == f"{row_name}, Anne-Marie Zurbriggen & Hans-Peter Imboden: open. Record a hand"
    side, row = page.evaluate(
        "[document.activeElement.closest('td').dataset.side, document.activeElement.closest('td').dataset.row]"
    )
    page.keyboard.press("Enter")
    assert page.input_value("select[name=row]") == row
    assert page.evaluate("document.querySelector('input[name=declarer]:checked').dataset.side") == side
    wait_until(page, "document.activeElement && document.activeElement.name === 'declarer_points'", timeout=3_000)
    # match and countermatch: a mark of its own shape and a word, besides the colour
    for cls, mark, word in (("match", "★", "match"), ("countermatch", "✗", "countermatch")):
        cell = page.locator(f"#slate td.{cls}").first
        assert cell.locator(".mm").inner_text() == mark and cell.locator(".mm").is_visible()
        assert word in cell.locator(".visually-hidden").all_text_contents()
    assert page.locator(".marks-key").inner_text().startswith("★ match")
