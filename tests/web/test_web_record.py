"""Recording hands through the slate page: good input, every bad input, double taps, stale phones."""

from __future__ import annotations

import html
import re

import pytest
from flask.testing import FlaskClient
from shared_helpers import flashes, hidden
from web_helpers import create_circle, post_hand, start_evening, version_of

from scorekeeper.game.rulesets import Variant


@pytest.fixture
def three(client: FlaskClient) -> str:
    w, _v = create_circle(client)
    return start_evening(client, w, Variant.THREE)


@pytest.fixture
def club(client: FlaskClient) -> str:
    w, _v = create_circle(client)
    return start_evening(client, w, Variant.CLUB)


def filled_cells(html: str) -> int:
    return len(re.findall(r'<td class="filled', html))


GOOD = {"declarer": "1", "row": "suit_H", "declarer_points": "100", "defender_points": "57"}


def test_record_a_hand_writes_the_cell_and_bumps_the_version(client: FlaskClient, three: str) -> None:
    page = client.get(three).text
    assert version_of(page) == 0 and filled_cells(page) == 0
    r = post_hand(client, three, GOOD, page=page)
    assert r.status_code == 302
    after = client.get(three).text
    assert flashes(after) == ["Hand recorded: hand 1: Beat · Roses · 100 : 57"]  # what was written
    assert version_of(after) == 1 and filled_cells(after) == 1
    assert re.search(r'<td class="filled[^"]*">\s*<a class="cell"[^>]*>\s*100', after)


def test_form_has_numeric_keypad_and_hidden_ids(client: FlaskClient, three: str) -> None:
    page = client.get(three).text
    assert re.search(
        r'name="declarer_points"[^>]*inputmode="numeric"|inputmode="numeric"[^>]*name="declarer_points"', page
    )
    assert 'pattern="[0-9]*"' in page
    fields = hidden(page, "/hands")
    assert set(fields) >= {"csrf_token", "request_id", "expected_version"}
    assert len(fields["request_id"]) == 32
    assert hidden(client.get(three).text, "/hands")["request_id"] != fields["request_id"]  # uuid4 per render


BAD = [
    ({"declarer_points": "100", "defender_points": "50"}, "must add up to 157"),
    ({"declarer_points": "158", "defender_points": "0"}, "Points are whole numbers from 0 to 157."),
    ({"declarer_points": "-1", "defender_points": "158"}, "Points are whole numbers from 0 to 157."),
    ({"declarer_points": "abc", "defender_points": "57"}, "Not a valid integer value."),
    ({"declarer_points": "", "defender_points": "57"}, "Enter the declarer's points (0 to 157)."),
    ({"defender_points": ""}, "Enter the defenders' points (0 to 157)."),
    ({"row": ""}, "Choose the row this hand was played in."),
    ({"row": "nonsense"}, "Not a valid choice."),
    ({"declarer": ""}, "Who declared?"),
    ({"declarer": "7"}, "Not a valid choice."),
    (
        {"match": "y"},
        "“Every trick taken” needs the points 157 : 0, but they are 100 : 57. "
        "Correct the points, or untick “every trick taken”.",
    ),
    (
        {"countermatch": "y"},
        "“No trick taken” needs the points 0 : 157, but they are 100 : 57. "
        "Correct the points, or untick “no trick taken”.",
    ),
    (
        {"declarer_points": "157", "defender_points": "0", "match": "y", "countermatch": "y"},
        "A side cannot take every trick and no trick: tick one of the two at most.",
    ),
    ({"row": "joker1"}, "Say what the row “Joker” was played as."),
    ({"row": "joker1", "played_as": "misere:obenabe"}, "Not a valid choice."),
]


@pytest.mark.parametrize(("change", "message"), BAD)
def test_bad_input_gets_its_message_and_writes_nothing(
    client: FlaskClient, three: str, change: dict[str, str], message: str
) -> None:
    r = post_hand(client, three, {**GOOD, **change})
    assert r.status_code == 422
    assert any(message in m for m in flashes(r.text)) or message in html.unescape(r.text), (flashes(r.text), message)
    page = client.get(three).text
    assert version_of(page) == 0 and filled_cells(page) == 0


def test_bad_input_keeps_the_typed_values(client: FlaskClient, three: str) -> None:
    r = post_hand(client, three, {**GOOD, "declarer_points": "100", "defender_points": "50"})
    assert r.status_code == 422
    assert re.search(r'name="declarer_points"[^>]*value="100"', r.text)
    assert re.search(r'name="defender_points"[^>]*value="50"', r.text)
    assert re.search(r'<option value="suit_H"[^>]*selected', r.text)
    assert re.search(r'value="1"[^>]*checked|checked[^>]*value="1"', r.text)


def test_closed_row_is_refused(client: FlaskClient, three: str) -> None:
    assert post_hand(client, three, GOOD).status_code == 302
    r = post_hand(client, three, {**GOOD, "declarer_points": "50", "defender_points": "107"})
    assert r.status_code == 422
    assert "The row “Roses” is already filled for this player or team." in flashes(r.text)
    assert version_of(client.get(three).text) == 1
    # the row is still offered to the other players, not to Beat (the script hides it by data-open)
    assert re.search(r'<option value="suit_H" data-open="0 2"', client.get(three).text)


def test_joker_records_what_it_was_played_as(client: FlaskClient, three: str) -> None:
    r = post_hand(client, three, {**GOOD, "row": "joker2", "played_as": "slalom:undenufe"})
    assert r.status_code == 302
    assert '<span class="as">Slalom ↑</span>' in client.get(three).text  # Undenufe first, compact in the cell


def test_match_writes_257(client: FlaskClient, three: str) -> None:
    r = post_hand(client, three, {**GOOD, "declarer_points": "157", "defender_points": "0", "match": "y"})
    assert r.status_code == 302
    page = client.get(three).text
    assert re.search(r'<td class="filled match[^"]*">\s*<a class="cell"[^>]*>\s*257', page)
    # the match row: Beat 2 sticks, the others a potato each
    marks = re.search(r'<tr class="marks">(.*?)</tr>', page, re.S)
    assert marks and re.findall(r"<td>(.*?)</td>", marks.group(1)) == ["o", "||", "o"]


def test_missing_csrf_token_writes_nothing(client: FlaskClient, three: str) -> None:
    fields = hidden(client.get(three).text, "/hands")
    del fields["csrf_token"]
    r = client.post(f"{three}/hands", data={**fields, **GOOD})
    assert r.status_code == 400
    assert "Nothing was written" in r.text
    assert version_of(client.get(three).text) == 0


def test_forged_csrf_token_writes_nothing(client: FlaskClient, three: str) -> None:
    fields = hidden(client.get(three).text, "/hands")
    fields["csrf_token"] = "forged." + fields["csrf_token"][7:]
    r = client.post(f"{three}/hands", data={**fields, **GOOD})
    assert r.status_code == 400
    assert version_of(client.get(three).text) == 0


def test_double_submit_records_once(client: FlaskClient, three: str) -> None:
    page = client.get(three).text
    first = post_hand(client, three, GOOD, page=page)
    second = post_hand(client, three, GOOD, page=page)  # the same request id and version: a double tap
    assert first.status_code == 302 and second.status_code == 302
    after = client.get(three).text
    assert version_of(after) == 1 and filled_cells(after) == 1


def test_stale_phone_gets_conflict_and_fresh_slate(client: FlaskClient, three: str) -> None:
    stale_page = client.get(three).text  # phone B opened the form at version 0
    assert post_hand(client, three, GOOD).status_code == 302  # phone A records first
    r = post_hand(client, three, {**GOOD, "declarer": "2", "row": "obenabe"}, page=stale_page)
    assert r.status_code == 409
    assert any("Somebody else changed this slate" in m for m in flashes(r.text))
    assert filled_cells(r.text) == 1  # the fresh slate, with A's hand
    assert version_of(r.text) == 1
    assert hidden(r.text, "/hands")["expected_version"] == "1"  # values kept, ready to send again
    assert re.search(r'<option value="obenabe"[^>]*selected', r.text)
    assert version_of(client.get(three).text) == 1  # B's hand was not written
    again = post_hand(client, three, {**GOOD, "declarer": "2", "row": "obenabe"}, page=r.text)
    assert again.status_code == 302
    assert filled_cells(client.get(three).text) == 2


def test_seich_in_the_club_variant(client: FlaskClient, club: str) -> None:
    page = client.get(club).text
    assert 'name="seich"' in page
    # dealer is seat 0 (Anna); forehand Beat; online rule: the first eligible (Beat) is in the barrel
    assert "In the barrel: if everybody passes, Beat must choose." in page
    r = post_hand(client, club, {"declarer": "2", "seich": "y"})
    assert r.status_code == 422
    assert "Only Beat, who is in the barrel, may call Seich." in flashes(r.text)
    assert post_hand(client, club, {"declarer": "1", "seich": "y"}).status_code == 302
    page = client.get(club).text
    assert version_of(page) == 1 and filled_cells(page) == 0
    assert "Beat</span> deals" in page  # the deal passed on (Anna dealt the thrown-in hand)
    r = post_hand(client, club, {"declarer": "3", "seich": "y"})
    assert "This team has already used its Seich tonight." in flashes(r.text)


def test_a_seich_is_never_recorded_by_surprise(client: FlaskClient, club: str) -> None:
    """Issue 9, point 1: Seich ticked with a row or points is asked about; a refused Seich
    comes back unticked (the next entry is a hand, with its fields in view)."""
    r = post_hand(client, club, {"declarer": "1", "seich": "y", "row": "suit_H", "declarer_points": "100"})
    assert r.status_code == 422 and "Seich is ticked, but a row or points are filled in." in html.unescape(r.text)
    assert filled_cells(r.text) == 0 and version_of(client.get(club).text) == 0
    r = post_hand(client, club, {"declarer": "2", "seich": "y"})
    assert r.status_code == 422
    assert re.search(r'<input id="seich" name="seich" type="checkbox" value="y">', r.text)  # not checked


def test_seich_is_not_offered_outside_the_club(client: FlaskClient, three: str) -> None:
    assert 'name="seich"' not in client.get(three).text
    r = post_hand(client, three, {"declarer": "1", "seich": "y"})
    assert r.status_code == 422  # without the field it is an ordinary hand with no row or points
    assert version_of(client.get(three).text) == 0


# --- issue 20: the match boxes speak the row's meaning; a tick never changes typed points ---
def _box_words(page: str, box: str) -> str:
    """The words next to the "every trick" (``match``) or "no trick" (``countermatch``) box."""
    m = re.search(rf'<input[^>]*name="{box}"[^>]*>\s*<span data-mark-text[^>]*>([^<]*)</span>', page)
    assert m, box
    return html.unescape(m.group(1))


def test_without_script_the_boxes_name_the_trick_and_both_meanings(client: FlaskClient, club: str) -> None:
    page = client.get(club).text
    # tonight has Misère rows: the page cannot follow the row without its script, so each box
    # says first what happened at the table, then what that is in an ordinary row and in a Misère
    assert _box_words(page, "match") == "Every trick taken (★ match; in a Misère ✗ countermatch)"
    assert _box_words(page, "countermatch") == "No trick taken (✗ countermatch; in a Misère ★ match)"
    assert "Match (every trick)" not in page
    # the script's words per row: a Misère's ★ match is the box of "no trick taken"
    assert 'data-misere="★ Misère match: no trick taken"' in html.unescape(page)
    assert re.search(r'<option value="misere:obenabe"[^>]*data-misere="1"', page)
    assert not re.search(r'<option value="suit:H"[^>]*data-misere', page)


def test_a_misere_without_a_trick_ticked_as_such_is_the_misere_match(client: FlaskClient, club: str) -> None:
    """The box the plain form names "No trick taken ... in a Misère ★ match" writes the Misère's
    match (the opponents' 157 x 5 + 100), shown with the ★ of the slate's key: never the
    opposite (0)."""
    hand = {
        "declarer": "1",
        "row": "misere_zwueschi",
        "played_as": "misere:undenufe",
        "declarer_points": "0",
        "defender_points": "157",
        "countermatch": "y",
    }
    assert post_hand(client, club, hand).status_code == 302
    page = client.get(club).text
    assert flashes(page) == ["Hand recorded: hand 1: Beat · Misère / Zwüschedüre · Misère: Undenufe · 0 : 157 · match"]
    assert re.search(r'<td class="filled match[^"]*">\s*<a class="cell"[^>]*>\s*885', page)
    assert "★ match (a Misère: no trick), ✗ countermatch (a Misère: every trick)" in page
    # the correction form has the same box ticked, with the same words
    edit = client.get(f"{club}/entries/0").text
    assert re.search(r'<input[^>]*checked[^>]*name="countermatch"|<input[^>]*name="countermatch"[^>]*checked', edit)
    assert _box_words(edit, "countermatch") == "No trick taken (✗ countermatch; in a Misère ★ match)"


def test_a_variant_without_misere_says_match_and_countermatch_plainly(client: FlaskClient, three: str) -> None:
    page = client.get(three).text
    assert _box_words(page, "match") == "★ Match: every trick taken"
    assert _box_words(page, "countermatch") == "✗ Countermatch: no trick taken"
    assert 'data-marks="fixed"' in page


@pytest.mark.parametrize("box", ["match", "countermatch"])
def test_typed_points_and_a_ticked_box_that_disagree_are_refused(client: FlaskClient, club: str, box: str) -> None:
    """100 : 57 typed and "every trick" (or "no trick") ticked: refused with the typed points in the
    message, nothing written, the typed points kept (the server never makes it 157 : 0)."""
    hand = {"declarer": "0", "row": "obenabe", "declarer_points": "100", "defender_points": "57", box: "y"}
    r = post_hand(client, club, hand)
    assert r.status_code == 422
    (message,) = flashes(r.text)
    assert "but they are 100 : 57" in message and ("157 : 0" if box == "match" else "0 : 157") in message
    assert re.search(r'name="declarer_points"[^>]*value="100"', r.text)
    assert re.search(r'name="defender_points"[^>]*value="57"', r.text)
    page = client.get(club).text
    assert version_of(page) == 0 and filled_cells(page) == 0


def test_a_seich_leaves_its_mark_on_the_slate(client: FlaskClient, club: str) -> None:
    """Issue 20: where a team's one Seich went stays on the slate (a Seich row under the cells,
    its hand linking to the correction), and the turn guide says who used it in which hand."""
    assert '<tr class="seich">' not in client.get(club).text  # nothing called yet: no row
    assert post_hand(client, club, {"declarer": "1", "seich": "y"}).status_code == 302  # Beat, in the barrel
    page = client.get(club).text
    row = re.search(r'<tr class="seich">(.*?)</tr>', page, re.S)
    assert row, "no Seich row on the slate"
    cells = re.findall(r"<td>(.*?)</td>", row.group(1), re.S)
    assert len(cells) == 2 and "not called yet" in cells[0]
    assert re.search(r'<a href="[^"]*/entries/0"[^>]*>hand 1 · Beat</a>', cells[1])
    assert "Used: Beat &amp; Dora in hand 1 (Beat)." in page
