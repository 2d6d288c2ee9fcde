"""Whole evenings of every variant through the pages: start, fill, cut, end, money, history."""

from __future__ import annotations

import html
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from shared_helpers import flashes, hidden, settled
from web_helpers import NAMES, create_circle, fill_evening, post_hand, start_evening, start_form, version_of

from scorekeeper.game.contracts import Kind
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.present.labels import chf
from scorekeeper.scoring.final import Result
from scorekeeper.scoring.payouts import Payout
from scorekeeper.services import circles as circle_service
from scorekeeper.services import evenings as svc
from scorekeeper.services.read.replay import ruleset_of


def _end(client: FlaskClient, ev: str, *, early: bool = False) -> None:
    fields = hidden(client.get(ev).text, "/end")
    r = client.post(f"{ev}/end", data={**fields, **({"early": "1", "counts_in_money": "1"} if early else {})})
    assert r.status_code == 302


def _draw(client: FlaskClient, ev: str) -> None:
    r = client.post(f"{ev}/cuts/draw", data=hidden(client.get(ev).text, "/cuts/draw"))
    assert r.status_code == 302
    assert "The app cut the cards." in flashes(client.get(ev).text)


def _result(app: Flask, write: str, ev: str) -> tuple[Result, Payout]:
    with app.app_context():
        circle, _w = circle_service.open_circle(write.split("/")[2])
        found = settled(svc.get_evening(circle, ev.split("/")[-1]))
    assert found is not None, "the evening has no result"
    return found


@pytest.mark.parametrize(
    ("variant", "hands"), [(Variant.THREE, 30), (Variant.TEAMS, 16), (Variant.SOLO4, 32), (Variant.CLUB, 24)]
)
def test_complete_evening(app: Flask, client: FlaskClient, variant: Variant, hands: int) -> None:
    write, view = create_circle(client)
    ev = start_evening(client, write, variant)
    sent = fill_evening(client, ev, variant)
    assert len(sent) == hands
    page = client.get(ev).text
    assert version_of(page) == hands
    assert len(re.findall(r'<td class="filled', page)) == hands
    assert "Record a hand" not in page
    over = "The slate is full: the evening is over and counts in the purse and the statistics."
    cut = "Ties to cut" in page
    if cut:  # the last cell filled, a tie to cut: open until it is cut
        assert "Every cell is filled." in page and over not in html.unescape(page)
        _draw(client, ev)  # the cut that decides the last tie closes it
    else:  # the hand that filled the last cell closed it: nobody has to tap "Close the evening"
        assert any(f.startswith(over) for f in flashes(html.unescape(page)))
    page = html.unescape(client.get(ev).text)
    assert "/end" not in page and "/reopen" in page  # over: only reopening is offered
    late = client.post(f"{ev}/end", data=hidden(page, "/reopen"))  # a late tap on "Close" (its fields): no change
    assert late.status_code == 302
    page = html.unescape(client.get(ev).text)
    assert "The evening is over." in flashes(page) and version_of(page) == hands + (1 if cut else 0)
    res, pay = _result(app, write, ev)
    assert sum(pay.net) == 0
    names = NAMES[variant]
    for seat, rappen in enumerate(pay.net):
        assert re.search(rf"<td>{names[seat]}</td><td class=\"num[^\"]*\">{re.escape(chf(rappen, True))}</td>", page)
    for t in pay.transfers:
        assert f"{names[t.payer]} pays {names[t.payee]}" in page and chf(t.rappen) in page
    assert ("Shared win" in page) == (len(res.winners) > 1)
    assert 'id="live"' in page and "hx-trigger" not in page  # ended: no more polling, no forms
    assert "Record a hand" not in page and "Undo last entry" not in page
    # the history lists it and opens the slate read-only
    circle_page = html.unescape(client.get(write).text)
    public_id = ev.split("/")[-1]
    assert f"/e/{public_id}" in circle_page and ", ".join(names) in circle_page
    records = re.findall(
        r"<tr><td><span class=\"name\" data-name>(\w+)</span></td><td class=\"num\">(\d+)</td>"
        r"<td class=\"num\">(\d+)</td>",
        circle_page,
    )
    assert sorted(n for n, _e, _w in records) == sorted(names) and all(e == "1" for _n, e, _w in records)
    assert client.get(ev.replace(write, view)).status_code == 200


def test_three_players_result_shows_sticks_potatoes_and_cuts(app: Flask, client: FlaskClient) -> None:
    write, _view = create_circle(client)
    ev = start_evening(client, write, Variant.THREE)
    # Anna and Beat always 100, Cla 50: every row is a tie for the sticks between Anna and Beat
    fill_evening(client, ev, Variant.THREE, points=lambda i, seat: 50 if seat == 2 else 100)
    page = html.unescape(client.get(ev).text)
    assert "Ties to cut" in page and "Close the evening" in page
    assert 'id="result"' not in page
    # a real cut at the table for the acorns row: Beat had the higher card
    fields = hidden(client.get(ev).text, "/cuts")
    assert fields["row_key"] == "suit_C" and fields["end"] == "high"
    r = client.post(f"{ev}/cuts", data={**fields, "winner": "1"})
    assert r.status_code == 302 and "Cut recorded." in flashes(client.get(ev).text)
    _draw(client, ev)  # the app cuts the other nine
    page = html.unescape(client.get(ev).text)
    assert 'id="result"' in page
    assert "tie for the sticks: Beat > Anna (highest card first, cut at the table)" in page
    assert page.count("drawn by the app") == 9
    res, pay = _result(app, write, ev)
    assert res.net is not None and sum(res.net) == 0 and res.net[2] < 0
    assert re.search(r'<th class="rowlabel">Net sticks</th>(<td>[^<]+</td>){3}', page)
    assert chf(pay.net[2], True) in page


def test_real_cut_must_name_a_tied_player(client: FlaskClient) -> None:
    write, _view = create_circle(client)
    ev = start_evening(client, write, Variant.THREE)
    fill_evening(client, ev, Variant.THREE, points=lambda i, seat: 50 if seat == 2 else 100)
    before = version_of(client.get(ev).text)
    fields = hidden(client.get(ev).text, "/cuts")
    client.post(f"{ev}/cuts", data={**fields, "winner": "2"})
    assert any("not in the tie" in m for m in flashes(client.get(ev).text))
    assert version_of(client.get(ev).text) == before


def test_end_early_with_the_standing(app: Flask, client: FlaskClient) -> None:
    write, _view = create_circle(client)
    ev = start_evening(client, write, Variant.TEAMS)
    fill_evening(client, ev, Variant.TEAMS, hands=3)
    page = open_page = client.get(ev).text
    assert "End the evening now, with the standing as it is?" in page  # asks for confirmation
    fields = hidden(page, "/end")
    fields.pop("early")
    r = client.post(f"{ev}/end", data=fields)  # without early=1 an incomplete evening does not end
    assert "Some cells are still open" in " ".join(flashes(client.get(ev).text))
    _end(client, ev, early=True)
    page = html.unescape(client.get(ev).text)
    assert "ended early" in page and 'id="result"' in page
    res, pay = _result(app, write, ev)
    assert not res.complete and sum(pay.net) == 0
    assert "/hands" not in page  # no record form on an ended evening
    r = post_hand(
        client,
        ev,
        {"declarer": "1", "row": "suit_H", "declarer_points": "57", "defender_points": "100"},
        page=open_page,
    )  # a phone that still shows the form
    assert r.status_code == 409 or "This evening has ended" in " ".join(flashes(r.text))
    assert version_of(client.get(ev).text) == 4  # 3 hands + the end; the refused end wrote nothing


def test_start_form_errors_keep_nothing(client: FlaskClient) -> None:
    write, _view = create_circle(client)
    url = f"{write}/start?variant=three"
    data = start_form(client.get(url).text, Variant.THREE, names=["Anna", "anna", "Cla"])
    r = client.post(url, data=data)
    assert r.status_code == 422 and "Every seat needs a different player." in flashes(r.text)
    r = client.post(url, data={**data, "seat_1": ""})
    assert r.status_code == 422 and "Every seat needs a player." in r.text
    r = client.post(url, data={**data, "seat_1": "Beat", "factor_gustav": "0"})
    assert r.status_code == 422 and "A factor is a whole number from 1 to 1000." in r.text
    assert "/e/" not in client.get(write).text


def test_start_with_options(app: Flask, client: FlaskClient) -> None:
    write, _view = create_circle(client)
    ev = start_evening(
        client,
        write,
        Variant.TEAMS,
        extra={
            "extra_rows": ["slalom", "gustav"],
            "deck": "french",
            "factor_suit_S": "2",
            "suit_order": "swiss",
            "stake_chf": "0.50",
            "per_points": "100",
            "undenufe_six11": "y",
            "keep_factors": "2:suit_H+suit_S",  # Spades x2 as Hearts: asked first, kept on purpose
        },
    )
    page = html.unescape(client.get(ev).text).replace("\u00ad", "")  # soft hyphens: break points on a phone
    rows = re.findall(r'<th scope="row" class="rowlabel">([^<]+) <span class="factor">×(\d+)</span>', page)
    assert rows == [
        ("Clubs", "1"),
        ("Hearts", "2"),
        ("Spades", "2"),
        ("Diamonds", "4"),
        ("Obenabe", "5"),
        ("Undenufe", "6"),
        ("Slalom", "7"),
        ("Gustav", "8"),
        ("Joker", "9"),
        ("Joker", "10"),
    ]
    with app.app_context():
        circle, _w = circle_service.open_circle(write.split("/")[2])
        rs = ruleset_of(svc.get_evening(circle, ev.split("/")[-1]))
    assert rs.stake.rappen == 50 and rs.stake.per_points == 100 and rs.undenufe_six11 and rs.deck.value == "french"


def test_a_factor_typed_equal_to_another_rows_is_asked_about_first(app: Flask, client: FlaskClient) -> None:
    """Issue 20: a factor typed by hand equal to another row's starts nothing at first; the page
    names the rows and offers "Keep these factors", which then starts the evening with them.
    "Keep" counts for the rows it was asked about only."""
    write, _view = create_circle(client)
    url = f"{write}/start?variant=club"
    data = start_form(client.get(url).text, Variant.CLUB)
    r = client.post(url, data={**data, "factor_suit_H": "5"})  # Misère / Zwüschedüre is x5
    assert r.status_code == 200
    assert flashes(r.text) == [
        "Rows with the same factor: Roses, Misère / Zwüschedüre (each ×5). Change one, or tick “Keep these "
        "factors” and start again (some tables play it so). The evening has not started yet."
    ]
    keep = re.search(r'name="keep_factors" value="([^"]+)"', r.text)
    assert keep and keep.group(1) == "5:suit_H+misere_zwueschi"
    assert re.search(r'<input[^>]*aria-invalid="true"[^>]*name="factor_suit_H"', r.text)
    assert re.search(r'name="factor_suit_H"[^>]*value="5"', r.text)  # what was typed stays
    assert "/e/" not in client.get(write).text  # nothing started
    # "keep" for other rows than the ones now shared: asked again
    r = client.post(url, data={**data, "factor_suit_H": "6", "keep_factors": keep.group(1)})
    assert r.status_code == 200 and "(each ×6)" in flashes(r.text)[0]
    assert "/e/" not in client.get(write).text
    ev = start_evening(client, write, Variant.CLUB, extra={"factor_suit_H": "5", "keep_factors": keep.group(1)})
    with app.app_context():
        circle, _w = circle_service.open_circle(write.split("/")[2])
        rs = ruleset_of(svc.get_evening(circle, ev.split("/")[-1]))
    assert rs.row("suit_H").factor == rs.row("misere_zwueschi").factor == 5
    # three players: row values 1 to 3 repeat by design, nothing is asked
    start_evening(client, write, Variant.THREE, extra={"factor_suit_H": "2"})


def test_factor_list_follows_the_extra_rows(client: FlaskClient) -> None:
    write, _view = create_circle(client)
    r = client.get(f"{write}/start", query_string={"variant": "solo4", "suit_order": "pagat", "extra_rows": "tuo"})
    assert r.status_code == 200
    assert 'name="factor_tuo"' in r.text and 'name="factor_slalom"' not in r.text


def test_three_way_tie_is_cut_by_highest_and_lowest_card(client: FlaskClient) -> None:
    write, _view = create_circle(client)
    ev = start_evening(client, write, Variant.THREE)
    fill_evening(client, ev, Variant.THREE, points=lambda i, seat: 80)
    page = html.unescape(client.get(ev).text)
    assert page.count("three-way tie") == 10
    fields = hidden(client.get(ev).text, "/cuts")
    assert fields["end"] == "all"
    r = client.post(f"{ev}/cuts", data={**fields, "winner": "2", "lowest": "0"})
    assert r.status_code == 302
    page = html.unescape(client.get(ev).text)
    assert page.count("three-way tie") == 9  # one decided, nine to go
    _draw(client, ev)
    page = html.unescape(client.get(ev).text)
    assert "three-way tie: Cla > Beat > Anna (highest card first, cut at the table)" in page


def test_adding_rows_on_the_start_form_moves_the_jokers_up_like_the_api(app: Flask, client: FlaskClient) -> None:
    """Issue 9, point 5: the factors the page showed (jokers 7 and 8) were sent back unchanged
    with Slalom ticked (a phone without script, or before the list refreshed): the jokers move up."""
    write, _view = create_circle(client)
    shown = {f"factor_{r.key}": str(r.factor) for r in default_ruleset(Variant.TEAMS).rows}
    r = client.get(
        f"{write}/start",
        query_string={
            "variant": "teams",
            "suit_order": "pagat",
            "extra_rows": "slalom",
            "shown_order": "pagat",
            "shown_extras": "",
            **shown,
        },
    )
    assert re.search(r'name="factor_joker1"[^>]*value="8"', r.text) and re.search(
        r'name="factor_joker2"[^>]*value="9"', r.text
    )
    ev = start_evening(client, write, Variant.TEAMS, extra={**shown, "factor_obenabe": "10", "extra_rows": ["slalom"]})
    with app.app_context():
        circle, _w = circle_service.open_circle(write.split("/")[2])
        rs = ruleset_of(svc.get_evening(circle, ev.split("/")[-1]))
    assert [(row.key, row.factor) for row in rs.rows[4:]] == [
        ("obenabe", 10),
        ("undenufe", 6),
        ("slalom", 7),
        ("joker1", 8),
        ("joker2", 9),
    ]
    assert Kind.SLALOM not in rs.row("joker1").kinds  # RULES 6.2: suits, Obenabe, Undenufe
    ev = start_evening(client, write, Variant.TEAMS, extra={"extra_rows": ["slalom"], "jokers_play_extras": "y"})
    with app.app_context():
        rs = ruleset_of(svc.get_evening(circle, ev.split("/")[-1]))
    assert Kind.SLALOM in rs.row("joker2").kinds  # the evening option
