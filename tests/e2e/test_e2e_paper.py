"""A paper slate typed on a 360 px phone, in every language: a three-player evening whose
tie was cut at the table (the page names the tie, asks for the highest card, writes the
cut as told) and whose joker row says what it was played as; no sideways scroll, no text
wider than its box, before and after the tie is asked for."""

from __future__ import annotations

from typing import Any

import pytest
from e2e_helpers import LONG_NAMES, new_circle, shot
from test_e2e_languages import fits, switch_to

from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.scoring.entries import cell_value

pytestmark = pytest.mark.browser

# what the page says once the tie is written (the slate's cut list names the winner)
TIE_WORDS = {
    "en": "tie for the sticks",
    "de_CH": "Gleichstand um die Striche",
    "fr_CH": "égalité pour les traits",
    "it_CH": "parità per le stanghette",
}


def _cells() -> dict[str, str]:
    """Every cell of a three-player slate; Acorns tied at the top between seats 1 and 2."""
    rs = default_ruleset(Variant.THREE)
    out = {}
    for i, row in enumerate(rs.rows):
        for side in range(3):
            points = 100 if i == 0 and side < 2 else (17 * i + 31 * side) % 150
            out[f"#cell_{row.key}_{side}"] = str(cell_value(rs, HandEntry(row.key, side, None, points, 157 - points)))
    return out


@pytest.mark.parametrize("lang", ["de_CH", "fr_CH", "it_CH", "en"])
def test_a_tie_cut_at_the_table_and_a_joker_played_as_at_360(live_server: str, phone: Any, lang: str) -> None:
    page = phone()
    write, _view = new_circle(page, live_server)
    page.goto(write + "/paper?variant=three")
    if lang != "en":
        switch_to(page, lang)
    names = LONG_NAMES[:3]
    for seat, name in enumerate(names):
        page.fill(f"#seat_{seat}", name)
    for field, value in _cells().items():
        page.fill(field, value)
    page.select_option("select[name=as_joker1_0]", value="suit:H")
    page.check("input[name=counts_in_money][value='1']")
    page.check("input[name=cut_by][value='table']")
    fits(page, f"paper-{lang}")
    page.click("#paper-form button[type=submit]")
    # nothing written yet: the page names the tie between the first two and asks for the cut
    page.wait_for_selector("select[name=cut_suit_C_high]")
    assert page.locator(".flash-warning").count() == 1
    assert page.input_value("#cell_suit_C_0") == "100"  # nothing retyped
    assert TIE_WORDS[lang] in page.locator("#ties").inner_text()
    fits(page, f"paper-ties-{lang}")
    shot(page, f"paper-ties-360-{lang}")
    page.select_option("select[name=cut_suit_C_high]", value="1")
    page.click("#paper-form button[type=submit]")
    page.wait_for_selector("#slate")
    assert page.locator(".slate td.imported").count() == 30
    result = page.locator("main").inner_text()
    assert names[1] in result  # the cut's winner is named in the result's list of cuts
    fits(page, f"paper-slate-{lang}")
    shot(page, f"paper-slate-360-{lang}")
