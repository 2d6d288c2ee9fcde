"""The slate pages' details at a real table: ties before closing, reopening to correct,
errors next to the form, share links, the turn guide, history rows, clear messages, dates."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime

from flask import Flask
from flask.testing import FlaskClient
from shared_helpers import flashes, forms, hand_data, hidden
from web_helpers import create_circle, fill_evening, post_hand, start_evening, start_form, version_of

from scorekeeper.game.contracts import Contract, Kind, all_contracts
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.i18n import local_date, local_datetime
from scorekeeper.present.labels import SHY, hyphenate
from scorekeeper.present.slate import build_slate_view
from scorekeeper.present.slate_page import build_live
from scorekeeper.scoring.slate import Slate
from scorekeeper.services import circles, evenings
from scorekeeper.services.read.snapshot import load_snapshot

GOOD = {"declarer": "1", "row": "suit_H", "declarer_points": "100", "defender_points": "57"}


def _form_tag(page: str, action_end: str) -> str:
    m = re.search(r'<form method="post" action="[^"]*' + re.escape(action_end) + r'"[^>]*>', page)
    assert m, action_end
    return html.unescape(m.group(0))


def test_ties_come_before_closing_and_closing_says_the_app_cuts(client: FlaskClient) -> None:
    write, _view = create_circle(client)
    ev = start_evening(client, write, Variant.THREE)
    fill_evening(client, ev, Variant.THREE, points=lambda i, seat: 80)  # every row ties: 80 80 80
    page = client.get(ev).text
    assert page.index('id="cuts"') < page.index('id="slate"')  # the cut section comes first
    assert "Let the app cut" in page and "Highest card" in page  # or enter the real cut
    end = _form_tag(page, "/end")
    assert "10 ties are not cut yet: the app will cut them at random. Close the evening anyway?" in end
    assert "Close, the app cuts the open ties" in page and ">Close the evening<" not in page
    # the real cut entered by the table: one tie less
    r = client.post(f"{ev}/cuts", data={**hidden(page, "/cuts"), "winner": "2", "lowest": "0"})
    assert r.status_code == 302
    assert "9 ties are not cut yet" in _form_tag(client.get(ev).text, "/end")


def test_ending_early_asks_and_names_the_open_ties(client: FlaskClient) -> None:
    write, _view = create_circle(client)
    ev = start_evening(client, write, Variant.THREE)
    page = client.get(ev).text
    assert "End the evening now, with the standing as it is?" in _form_tag(page, "/end")
    fill_evening(client, ev, Variant.THREE, hands=3, points=lambda i, seat: 80)  # one row filled by all: a tie
    end = _form_tag(client.get(ev).text, "/end")
    assert "End the evening now, with the standing as it is? 1 tie is not cut yet" in end


def _end_early(client: FlaskClient, ev: str) -> None:
    r = client.post(f"{ev}/end", data={**hidden(client.get(ev).text, "/end"), "early": "1", "counts_in_money": "1"})
    assert r.status_code == 302


def test_reopen_an_ended_evening_to_correct_a_hand(client: FlaskClient) -> None:
    write, view = create_circle(client)
    ev = start_evening(client, write, Variant.TEAMS)
    assert post_hand(client, ev, GOOD).status_code == 302
    _end_early(client, ev)
    slate = client.get(ev).text
    assert "Reopen to correct" in slate and "/reopen" in slate
    assert "Reopen to correct" not in client.get(ev.replace(write, view)).text  # onlookers cannot
    page = client.get(f"{ev}/entries/0")  # was a misleading 404
    assert page.status_code == 200
    assert "This evening is closed" in page.text and "To correct hand 1, reopen the evening first" in page.text
    late = client.post(f"{ev}/entries/0", data={**hidden(slate, "/reopen"), **GOOD})
    assert late.status_code == 409 and "This evening is closed" in late.text
    before = version_of(slate)
    r = client.post(f"{ev}/reopen", data=hidden(page.text, "/reopen"))
    assert r.status_code == 302
    opened = client.get(ev).text
    assert version_of(opened) == before + 1 and "The evening is open again" in " ".join(flashes(opened))
    assert "/hands" in opened  # the record form is back
    form = client.get(f"{ev}/entries/0").text
    r = client.post(
        f"{ev}/entries/0", data={**hidden(form, "/entries/0"), **GOOD, "declarer_points": "90", "defender_points": "67"}
    )
    assert r.status_code == 302
    assert any(m.startswith("Hand 1 corrected: ") for m in flashes(client.get(ev).text))
    assert client.post(f"{ev.replace(write, view)}/reopen", data=hidden(form, "/entries/0")).status_code == 403


def test_a_refused_hand_comes_back_at_the_form_with_the_message_near_it(client: FlaskClient) -> None:
    write, _view = create_circle(client)
    ev = start_evening(client, write, Variant.THREE)
    page = client.get(ev).text
    actions = [f.action for f in forms(page) if "/hands" in f.action]
    assert actions and all(a.endswith("/hands#record") for a in actions)
    assert 'id="record"' in page
    r = post_hand(client, ev, {**GOOD, "defender_points": "50"}, page=page)
    assert r.status_code == 422
    form_html = r.text[r.text.index('id="record"') :]
    assert "must add up to 157" in form_html  # the message sits in the form, not at the top of the page
    assert '<div class="flashes"' not in r.text
    assert re.search(
        r'name="declarer_points"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*name="declarer_points"', r.text
    )
    # a field error appears once: under its field, not also as a message
    r = post_hand(client, ev, {**GOOD, "declarer_points": "", "defender_points": "57"})
    assert r.status_code == 422
    assert r.text.count("Enter the declarer&#39;s points (0 to 157).") == 1
    assert flashes(r.text) == []
    r = post_hand(client, ev, {**GOOD, "row": "suit_H"})  # fine
    assert r.status_code == 302
    r = post_hand(client, ev, {**GOOD, "declarer": "1"})  # the row is filled for Beat
    assert re.search(r'<select id="row" name="row" aria-invalid="true">', r.text)
    corr = client.get(f"{ev}/entries/0").text
    assert any(f.action.endswith("/entries/0#record") for f in forms(corr))


def test_share_the_links_and_make_a_new_onlookers_link(client: FlaskClient) -> None:
    write, view = create_circle(client)
    page = client.get(write).text
    assert 'id="share"' in page
    assert re.search(r'id="write-link"[^>]*value="http://localhost' + re.escape(write) + '"', page)
    assert 'data-copy="write-link"' in page
    assert 'id="share"' not in client.get(view).text  # onlookers get no share section
    r = client.post(f"{write}/view-link", data=hidden(page, "/view-link"))
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store"
    m = re.search(r'id="view-link"[^>]*value="http://localhost(/c/[^"]+)"', r.text)
    assert m and 'data-copy="view-link"' in r.text
    fresh = m.group(1)
    assert fresh != view
    assert client.get(view).status_code == 410  # the old onlookers link stops working, and says so
    ro = client.get(fresh)
    assert ro.status_code == 200 and "read-only" in ro.text
    assert client.post(f"{fresh}/view-link", data=hidden(page, "/view-link")).status_code == 403
    assert client.post(f"{write}/view-link", data={}).status_code == 400  # no CSRF token: nothing made
    assert client.get(fresh).status_code == 200


def test_turn_guide_when_the_forehand_is_full(client: FlaskClient) -> None:
    write, _view = create_circle(client)
    ev = start_evening(client, write, Variant.THREE, names=["Anna", "Beat", "Cécile"])
    rs = default_ruleset(Variant.THREE)
    sent: list[HandEntry] = []

    def contract(key: str) -> Contract | None:
        row = rs.row(key)
        return next(iter(row.contracts), None) if row.is_choice else None

    for key in [r.key for r in rs.rows]:  # Beat fills all his rows
        sent.append(HandEntry(key, 1, contract(key), 100, 57))
    sent += [HandEntry(rs.rows[0].key, 0, None, 90, 67), HandEntry(rs.rows[0].key, 2, None, 70, 87)]
    for entry in sent:
        assert post_hand(client, ev, hand_data(entry)).status_code == 302
    slate = Slate.build(rs, 0, sent)
    assert slate.forehand == 1 and rs.side_of(1) in slate.full_sides() and slate.eligible_seats()[0] == 2
    guide = html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", client.get(ev).text)))
    assert "Anna deals. Beat (forehand) is full; Cécile chooses first." in guide
    assert "Beat is forehand and chooses first" not in guide


def test_history_rows_show_date_time_early_end_and_unbroken_money(client: FlaskClient) -> None:
    write, _view = create_circle(client)
    ev = start_evening(client, write, Variant.TEAMS)
    post_hand(client, ev, GOOD)
    _end_early(client, ev)
    page = client.get(write, headers={"Accept-Language": "en-GB"}).text
    item = page[page.index('class="list history"') :]
    assert re.search(r'<a class="evening-link" href="[^"]*/e/[^"]+">', item)  # the whole row is the link
    assert re.search(r"<strong>\d{1,2} \w{3} \d{4}, \d{2}:\d{2}</strong>", item)  # date and time (en-GB)
    assert '<span class="badge early">ended early</span>' in item
    # the amount never breaks (Babel's Swiss francs, en_CH: "+CHF 1.00", "CHF-1.00"); a long name may
    # wrap before it (a 360 px phone)
    assert re.search(
        r'<span class="money (pos|neg)?">Anna <span class="nowrap">(\+CHF\xa0|CHF-)\d+\.\d\d</span></span>', item
    )
    assert 'class="back"' in client.get(ev).text  # back links are big enough to tap


def test_stake_and_factor_errors_in_clear_words(client: FlaskClient) -> None:
    write, _view = create_circle(client)
    url = f"{write}/start?variant=teams"
    base = {
        **start_form(client.get(url).text, Variant.TEAMS, names=["A", "B", "C", "D"]),
        "barrel": "book",
        "suit_order": "swiss",
    }
    for stake in ("abc", "-1", "5000", ""):
        r = client.post(url, data={**base, "stake_chf": stake})
        assert r.status_code == 422
        assert r.text.count("The stake is an amount in francs from 0 to 1000, for example 0.50.") == 1, stake
        assert "Number must be between" not in r.text and "Not a valid decimal" not in r.text
    r = client.post(url, data={**base, "stake_chf": "0.5", "per_points": "x", "factor_suit_S": "zwei"})
    assert "“Per how many points” is a whole number from 1 to 10000" in html.unescape(r.text)
    assert "A factor is a whole number from 1 to 1000." in r.text and "Not a valid integer" not in r.text
    client.get("/lang/de_CH")
    r = client.post(url, data={**base, "stake_chf": "abc"})
    assert "Der Einsatz ist ein Betrag in Franken von 0 bis 1000, zum Beispiel 0.50." in r.text
    r = client.post(url, data={**base, "stake_chf": "0,50"})  # a Swiss keyboard's comma
    assert r.status_code == 302


def test_start_form_offers_the_first_dealer_by_name(client: FlaskClient) -> None:
    write, _view = create_circle(client)
    page = client.get(f"{write}/start?variant=three").text
    assert re.search(r'value="1"[^>]*> <span data-seat-name="Seat 2">Seat 2</span>', page)
    assert 'placeholder="Name"' in page
    assert re.search(r'<input[^>]*name="barrel"[^>]*type="radio"|<input[^>]*type="radio"[^>]*name="barrel"', page)
    r = client.post(
        f"{write}/start?variant=three",
        data={**hidden(page, "/start"), "seat_0": "Anna", "seat_1": "Beat", "seat_2": "", "stake_chf": "0.5"},
    )
    assert r.status_code == 422
    assert '<span data-seat-name="Seat 2">Beat</span>' in r.text  # the typed names after a refusal too


def test_a_misere_countermatch_is_coloured_as_good_for_the_declarer(app: Flask) -> None:
    rs = default_ruleset(Variant.CLUB)
    row = rs.row("misere_zwueschi")
    misere = next(c for c in all_contracts(Kind.MISERE) if row.allows(c))
    entries = [
        HandEntry("misere_zwueschi", 1, misere, 0, 157, countermatch=True),
        HandEntry(rs.rows[0].key, 2, None, 0, 157, countermatch=True),
    ]
    with app.test_request_context():
        circle, _w, _v = circles.create_circle("Runde")
        ev = evenings.start_evening(
            circle, ruleset=rs, player_names=["A", "B", "C", "D"], first_dealer=0, request_id="misere-start"
        )
        for i, entry in enumerate(entries):
            ev = evenings.record_hand(ev, entry, expected_version=ev.version, request_id=f"misere-{i}")
        view = build_slate_view(load_snapshot(ev))
    by_key = {r.key: r for r in view.rows}
    good = by_key["misere_zwueschi"].cells[1]
    assert good.value is not None and good.value > 0 and good.match and not good.countermatch
    bad = by_key[rs.rows[0].key].cells[0]
    assert bad.countermatch and not bad.match


def test_long_labels_break_at_natural_points_only() -> None:
    assert hyphenate("Misère / Zwüschedüre") == f"Misère / Zwü{SHY}sche{SHY}düre"
    assert hyphenate("Riesenslalom (4 tricks)") == f"Riesen{SHY}slalom (4 tricks)"
    assert hyphenate("Rose") == "Rose"


def test_dates_follow_the_browsers_region(app: Flask) -> None:
    when = datetime(2026, 11, 29, 14, 10, tzinfo=UTC)  # 15:10 in Zurich
    expected = {
        "en-GB,en;q=0.8": "29 Nov 2026, 15:10",
        "en-US": "Nov 29, 2026, 3:10\u202fPM",
        "de-CH": "29.11.2026, 15:10",
        "de-DE,de;q=0.9": "29.11.2026, 15:10",
    }
    for header, text in expected.items():
        with app.test_request_context(headers={"Accept-Language": header}):
            assert local_datetime(when) == text, header
    with app.test_request_context(headers={"Accept-Language": "en-GB", "Cookie": "lang=de_CH"}):
        assert local_date(when) == "29.11.2026"  # German words: the region of a German browser, else de_CH


def test_the_live_fragment_is_given_every_name_its_templates_use(app: Flask, client: FlaskClient) -> None:
    """The fragment is drawn from the lighter live context (no forms, result or log): a name its
    templates use and that context lacks would draw as nothing, silently."""
    from jinja2 import meta

    from scorekeeper.web import slate

    env = app.jinja_env
    used: set[str] = set()

    def walk(name: str) -> None:
        assert env.loader is not None
        tree = env.parse(env.loader.get_source(env, name)[0])
        used.update(meta.find_undeclared_variables(tree))
        for ref in meta.find_referenced_templates(tree):
            if ref:
                walk(ref)

    walk("slate/_live.html")
    write, _view = create_circle(client)
    page = start_evening(client, write, Variant.TEAMS)
    with app.test_request_context(page):
        circle, can_write = circles.open_circle(write.rsplit("/", 1)[-1])
        ev = evenings.get_evening(circle, page.rsplit("/", 1)[-1])
        snap, outlook = slate._read(circle, ev)
        given = slate._live_context(write.rsplit("/", 1)[-1], can_write, snap, build_live(snap, outlook))
    globals_ = set(env.globals) | {"key"}  # key: the names key's own {% with %}
    assert used - set(given) - globals_ == set(), used - set(given) - globals_
