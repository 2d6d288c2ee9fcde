"""Languages through the test client: browser choice, the switch, rule errors, suit names."""

from __future__ import annotations

import html
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from i18n_helpers import load_catalog, make_evening, rows_shown, visible_texts, whole_evening
from shared_helpers import flashes

from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.i18n import LANGUAGES

DE = {"Accept-Language": "de-CH,de;q=0.9,en;q=0.5"}
EN = {"Accept-Language": "en-GB,en;q=0.8"}
FR = {"Accept-Language": "fr-CH,fr;q=0.9"}
IT = {"Accept-Language": "it-CH,it;q=0.9"}

SUITS = {  # deck -> language -> the suit rows' labels in the three-player order (C, H, S, D)
    "swiss": {"de": ["Eichel", "Rose", "Schilte", "Schelle"], "en": ["Acorns", "Roses", "Shields", "Bells"]},
    "french": {"de": ["Kreuz", "Herz", "Schaufel", "Ecke"], "en": ["Clubs", "Hearts", "Spades", "Diamonds"]},
}


# --- the browser's language, and the switch ------------------------------------------
def test_home_page_follows_the_browser(client: FlaskClient) -> None:
    de = client.get("/", headers=DE).text
    assert 'lang="de-CH"' in de
    assert "Neue Jassrunde" in de and "Jassrunde erstellen" in de and "Name der Jassrunde" in de
    assert "New circle" not in de
    en = client.get("/", headers=EN).text
    assert 'lang="en"' in en and "New circle" in en and "Neue Jassrunde" not in en
    other = client.get("/", headers={"Accept-Language": "es-ES,es;q=0.9"}).text  # not offered: English
    assert "New circle" in other


@pytest.mark.parametrize(
    ("accept", "lang", "words"),
    [
        ("fr-CH,fr;q=0.9,en;q=0.5", "fr-CH", "Nouveau cercle"),
        ("fr-FR", "fr-CH", "Créer le cercle"),
        ("fr", "fr-CH", "Nom du cercle"),
        ("it-CH,it;q=0.9", "it-CH", "Nuovo gruppo"),
        ("it-IT,en;q=0.5", "it-CH", "Crea il gruppo"),
        ("it", "it-CH", "Nome del gruppo"),
        ("de", "de-CH", "Neue Jassrunde"),
        ("es,it;q=0.5,fr;q=0.4", "it-CH", "Nuovo gruppo"),
    ],
)
def test_french_and_italian_browsers(client: FlaskClient, accept: str, lang: str, words: str) -> None:
    page = client.get("/", headers={"Accept-Language": accept}).text
    assert f'lang="{lang}"' in page and words in page and "New circle" not in page


def test_circle_and_slate_pages_in_swiss_german(app: Flask, client: FlaskClient) -> None:
    write, _view, ev = make_evening(app)
    circle = client.get(f"/c/{write}", headers=DE).text
    for text in ("Abend beginnen", "Laufender Abend", "Spieler", "Verlauf", "Drei Spieler (Striche und Härdöpfel)"):
        assert text in circle, text
    slate = client.get(f"/c/{write}/e/{ev}", headers=DE).text
    for text in (
        "Spiel eintragen",
        "Auf die Tafel schreiben",
        "Punkte Ansager",
        "Punkte Gegner",
        "✗ Gegenmatch: kein Stich gemacht",
        "ist Vorhand und wählt zuerst.",
        "gibt.",
        "Reihenfolge und Fass",
        "Fass (Buch-Regel)",
        "Striche netto bisher",  # three players: the running count, no points total
    ):
        assert text in slate, text
    assert "Record a hand" not in slate and "is forehand" not in slate


def test_switch_sets_a_cookie_that_sticks(app: Flask, client: FlaskClient) -> None:
    write, _view, ev = make_evening(app)
    slate_path = f"/c/{write}/e/{ev}"
    r = client.get("/lang/de_CH", headers={**EN, "Referer": f"http://localhost{slate_path}"})
    assert r.status_code == 302 and r.headers["Location"] == slate_path
    assert "lang=de_CH" in r.headers["Set-Cookie"]
    # The browser still says English; the chosen language wins, on every page.
    assert "Spiel eintragen" in client.get(slate_path, headers=EN).text
    assert "Neue Jassrunde" in client.get("/", headers=EN).text
    assert "Abend beginnen" in client.get(f"/c/{write}", headers=EN).text
    r = client.get("/lang/en", headers={**DE, "Referer": f"http://localhost/c/{write}"})
    assert r.status_code == 302 and r.headers["Location"] == f"/c/{write}"
    assert "Record a hand" in client.get(slate_path, headers=DE).text
    assert "New circle" in client.get("/", headers=DE).text
    assert client.get("/lang/fr").status_code == 404
    # A page opened with ?lang= (a shared link): the switch goes back without it, so the choice shows.
    r = client.get("/lang/it_CH", headers={"Referer": f"http://localhost{slate_path}?lang=fr_CH&x=1"})
    assert r.headers["Location"] == f"{slate_path}?x=1"
    for code, words in (("fr_CH", "Inscrire une donne"), ("it_CH", "Scrivi una mano")):
        r = client.get(f"/lang/{code}", headers={**EN, "Referer": f"http://localhost{slate_path}"})
        assert r.status_code == 302 and f"lang={code}" in r.headers["Set-Cookie"]
        assert words in client.get(slate_path, headers=DE).text


def test_the_switch_is_on_every_page(app: Flask, client: FlaskClient) -> None:
    write, view, ev = make_evening(app, hands=[HandEntry("suit_H", 1, None, 100, 57)])
    pages = [
        "/",
        f"/c/{write}",
        f"/c/{write}/start?variant=three",
        f"/c/{write}/e/{ev}",
        f"/c/{write}/e/{ev}/entries/0",
        f"/c/{view}/e/{ev}",
        "/no/such/page",
    ]
    for path in pages:
        for lang, accept in (("de_CH", DE), ("en", EN), ("fr_CH", FR), ("it_CH", IT)):
            page = client.get(path, headers=accept).text
            assert f'aria-current="true">{LANGUAGES[lang]}<' in page, (path, lang)
            others = [code for code in LANGUAGES if code != lang]
            assert all(f'href="/lang/{code}"' in page for code in others), (path, lang)


def test_no_english_left_on_german_pages(app: Flask, client: FlaskClient) -> None:
    """No text on a German page is an English msgid whose translation differs (e.g. a gettext call
    made once at import time instead of per request)."""
    catalog = load_catalog("de_CH")
    english = {m.id for m in catalog if m.id and isinstance(m.id, str) and m.string != m.id}
    write, view, ev = make_evening(
        app, hands=[HandEntry("suit_H", 1, None, 100, 57), HandEntry("suit_C", 2, None, 80, 77)]
    )
    pages = [
        "/",
        f"/c/{write}",
        f"/c/{write}/start?variant=three",
        f"/c/{write}/start?variant=teams",
        f"/c/{write}/e/{ev}",
        f"/c/{write}/e/{ev}/entries/1",
        f"/c/{view}/e/{ev}",
        "/no/such/page",
    ]
    done_write, _done_view, done = make_evening(app, hands=whole_evening())
    result = client.get(f"/c/{done_write}/e/{done}", headers=DE).text
    for text in (
        "Resultat",
        "Sieger: Anna",
        "Striche netto",
        "| = Strich, o = Härdöpfel.",
        "Wer zahlt wem",
        "Beat zahlt an Anna",
    ):
        assert text in result, text
    pages.append(f"/c/{done_write}/e/{done}")
    leftovers = {}
    for path in pages:
        r = client.get(path, headers=DE)
        found = sorted({t for t in visible_texts(r.text) if t in english})
        if found:
            leftovers[path] = found
    assert not leftovers, leftovers


# --- rule errors ---------------------------------------------------------------------
def _post_bad_sum(client: FlaskClient, write: str, ev: str, headers: dict[str, str]) -> str:
    r = client.post(
        f"/c/{write}/e/{ev}/hands",
        headers=headers,
        data={
            "declarer": "1",
            "row": "suit_H",
            "declarer_points": "100",
            "defender_points": "50",
            "expected_version": "0",
            "request_id": "bad-sum-1",
        },
    )
    assert r.status_code == 422
    return r.text


def test_rule_error_on_a_german_page(app: Flask, client: FlaskClient) -> None:
    write, _view, ev = make_evening(app)
    de = flashes(_post_bad_sum(client, write, ev, DE))
    assert "Die Punkte von Ansager und Gegnern müssen zusammen 157 ergeben (100 + 50 = 150)." in de
    en = flashes(_post_bad_sum(client, write, ev, EN))
    assert "Declarer's and defenders' points must add up to 157 (100 + 50 = 150)." in en


def field_errors(page: str) -> list[str]:
    lists = re.findall(r'<ul class="errors"[^>]*>(.*?)</ul>', page, re.S)
    return [html.unescape(e).strip() for block in lists for e in re.findall(r"<li>(.*?)</li>", block, re.S)]


def test_form_errors_in_german(app: Flask, client: FlaskClient) -> None:
    write, _view, ev = make_evening(app)
    data = {
        "row": "suit_H",
        "declarer_points": "",
        "defender_points": "57",
        "expected_version": "0",
        "request_id": "x-12345678",
    }
    de = client.post(f"/c/{write}/e/{ev}/hands", headers=DE, data=data)
    assert de.status_code == 422
    assert {"Wer hat angesagt?", "Gib die Punkte des Ansagers ein (0 bis 157)."} <= set(field_errors(de.text))
    en = client.post(f"/c/{write}/e/{ev}/hands", headers=EN, data=data)
    assert {"Who declared?", "Enter the declarer's points (0 to 157)."} <= set(field_errors(en.text))


def test_rule_error_in_the_json_api(app: Flask, client: FlaskClient) -> None:
    write, _view, ev = make_evening(app)
    body = {
        "expected_version": 0,
        "request_id": "api-bad-sum",
        "declarer_seat": 1,
        "row_key": "suit_H",
        "played_as": None,
        "declarer_points": 100,
        "defender_points": 50,
        "match": False,
        "countermatch": False,
    }
    auth = {"Authorization": f"Bearer {write}"}
    de = client.post(f"/api/v1/evenings/{ev}/hands", json=body, headers={**auth, "Accept-Language": "de-CH"})
    assert de.status_code == 422
    error = de.get_json()["error"]
    assert error["code"] == "points_sum"
    assert error["message"] == "Die Punkte von Ansager und Gegnern müssen zusammen 157 ergeben (100 + 50 = 150)."
    en = client.post(f"/api/v1/evenings/{ev}/hands", json=body, headers={**auth, "Accept-Language": "en"})
    assert en.get_json()["error"] == {
        **error,
        "message": "Declarer's and defenders' points must add up to 157 (100 + 50 = 150).",
    }
    missing = client.post(
        f"/api/v1/evenings/{ev}/hands",
        json={k: v for k, v in body.items() if k != "declarer_seat"},
        headers={**auth, "Accept-Language": "de-CH"},
    )
    assert missing.status_code == 400 and missing.get_json()["error"]["message"].startswith("Das Feld ")


# --- suit names follow the evening's deck ------------------------------------------------
@pytest.mark.parametrize("deck", ["swiss", "french"])
def test_suit_rows_follow_the_deck_in_both_languages(app: Flask, client: FlaskClient, deck: str) -> None:
    write, _view, ev = make_evening(app, deck)
    other = "french" if deck == "swiss" else "swiss"
    for lang, headers in (("de", DE), ("en", EN)):
        page = client.get(f"/c/{write}/e/{ev}", headers=headers).text.replace("\u00ad", "")
        assert rows_shown(page)[:4] == SUITS[deck][lang], (deck, lang)
        for name in SUITS[other]["de"] + SUITS[other]["en"]:
            assert f">{name}<" not in page and f">{name} ×" not in page, (deck, lang, name)


@pytest.mark.parametrize(("deck", "de_row", "en_row"), [("swiss", "Rose", "Roses"), ("french", "Herz", "Hearts")])
def test_suit_in_a_rule_error_follows_the_deck(
    app: Flask, client: FlaskClient, deck: str, de_row: str, en_row: str
) -> None:
    write, _view, ev = make_evening(app, deck, hands=[HandEntry("suit_H", 1, None, 100, 57)])
    data = {
        "declarer": "1",
        "row": "suit_H",
        "declarer_points": "90",
        "defender_points": "67",
        "expected_version": "1",
        "request_id": "again-0001",
    }
    de = client.post(f"/c/{write}/e/{ev}/hands", headers=DE, data=data)
    assert de.status_code == 422
    assert f"Die Zeile «{de_row}» ist für diesen Spieler oder dieses Team schon gefüllt." in flashes(de.text)
    en = client.post(f"/c/{write}/e/{ev}/hands", headers=EN, data=data)
    assert f"The row “{en_row}” is already filled for this player or team." in flashes(en.text)
