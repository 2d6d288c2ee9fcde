"""The slate picture in the language asked for (``?lang=`` or the reader's choice), its date and
money as Babel writes them for that language; money, decimals and dates on the pages likewise."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import flask_babel
import pytest
from babel.dates import format_date
from babel.numbers import format_currency, format_decimal
from flask import Flask
from flask.testing import FlaskClient
from i18n_helpers import make_evening, whole_evening
from shared_helpers import settled

from scorekeeper.i18n import format_chf, format_tenths, local_date
from scorekeeper.models import Evening
from scorekeeper.render import SlatePicture
from scorekeeper.web import picture as picture_page

LANGS = ("de_CH", "fr_CH", "it_CH", "en")
MONEY_LOCALE = {"de_CH": "de_CH", "fr_CH": "fr_CH", "it_CH": "it_CH", "en": "en_CH"}
WORDS = {  # what the finished three-player picture says, per language
    "de_CH": ("Sieger: Anna", "Eichel", "Punkte", "Beat zahlt an Anna"),
    "fr_CH": ("Vainqueur\u00a0: Anna", "Gland", "Points", "Beat paie Anna"),
    "it_CH": ("Vincitore: Anna", "Ghiande", "Punti", "Beat paga Anna"),
    "en": ("Winner: Anna", "Acorns", "Points", "Beat pays Anna"),
}


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[SlatePicture]:
    """The pictures the PNG route hands to the renderer (the drawing itself is tests/render's)."""
    pictures: list[SlatePicture] = []

    def keep(picture: SlatePicture, *_args: Any, **_kw: Any) -> bytes:
        pictures.append(picture)
        return b"\x89PNG"

    monkeypatch.setattr(picture_page, "render_slate", keep)
    return pictures


@pytest.mark.parametrize("lang", LANGS)
def test_the_picture_is_drawn_in_the_language_asked_for(
    app: Flask, client: FlaskClient, drawn: list[SlatePicture], lang: str
) -> None:
    _write, view, ev = make_evening(app, hands=whole_evening())
    # The browser says German and the cookie says English: ?lang= wins (a shared picture link).
    client.set_cookie("lang", "en" if lang != "en" else "de_CH")
    r = client.get(f"/c/{view}/e/{ev}/slate.png?lang={lang}", headers={"Accept-Language": "de-CH"})
    assert r.status_code == 200 and r.mimetype == "image/png"
    pic = drawn[-1]
    winner, first_row, totals_label, transfer = WORDS[lang]
    assert pic.winner == winner and pic.rows[0].label == first_row and pic.totals_label == totals_label
    assert any(line.startswith(transfer) for line in pic.money), pic.money
    with app.app_context():
        created = app.extensions["sqlalchemy"].session.query(Evening).filter_by(public_id=ev).one().created_at
    with app.test_request_context(f"/?lang={lang}"):
        when = flask_babel.to_user_timezone(created)
    assert pic.date == format_date(when, "medium", locale=lang if lang != "en" else "en")
    money = re.sub(r"^.*  ", "", next(line for line in pic.money if line.startswith(transfer)))
    assert money == format_currency(Decimal(money_value(money)), "CHF", locale=MONEY_LOCALE[lang])


def money_value(text: str) -> str:
    """The amount of a Babel-written franc sum, whatever the language's separators."""
    digits = re.sub(r"[^\d,.\-]", "", text).replace(",", ".")
    return digits


@pytest.mark.parametrize("lang", LANGS)
def test_the_result_page_links_the_picture_in_its_language(app: Flask, client: FlaskClient, lang: str) -> None:
    _write, view, ev = make_evening(app, hands=whole_evening())
    client.set_cookie("lang", lang)
    page = client.get(f"/c/{view}/e/{ev}").text
    link = f"/c/{view}/e/{ev}/picture"
    assert link in page
    # The page's link leads to the shared picture link, in the page's language.
    to = client.get(link).headers["Location"]
    assert to.startswith("/p/") and to.endswith(f"/slate.png?lang={lang}")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("rappen", [0, 5, 1235, -250, 123456789])
def test_money_is_babels_for_each_language(app: Flask, lang: str, rappen: int) -> None:
    with app.test_request_context("/", headers={"Cookie": f"lang={lang}"}):
        expected = format_currency(Decimal(rappen) / 100, "CHF", locale=MONEY_LOCALE[lang])
        assert format_chf(rappen) == expected
        assert format_chf(rappen, signed=True) == ("+" if rappen > 0 else "") + expected


@pytest.mark.parametrize("lang", LANGS)
def test_decimals_are_babels_for_any_number(app: Flask, lang: str) -> None:
    """``format_tenths`` writes what Babel writes (it is faster, not different): halves, ties to
    even, negative zero, whole numbers, large and tiny ones."""
    import random

    rng = random.Random(lang)
    values: list[float] = [0.0, -0.0, 0.05, -0.05, 0.15, 0.25, 0.35, -0.04, 2.5, 3, -7, 1e-9, -1e-9]
    values += [1e14 + 0.05, 123456789.95, 1e15, -1e16, 25.0, 25 / 3, 8.333333333333334]
    values += [rng.uniform(-1000, 1000) for _ in range(3000)] + [round(rng.uniform(-60, 60), 2) for _ in range(3000)]
    with app.test_request_context("/", headers={"Cookie": f"lang={lang}"}):
        for value in values:
            assert format_tenths(value) == format_decimal(value, format="0.0", locale=MONEY_LOCALE[lang]), value


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("value", [0, 27.34, -1.65, 1234.5])
def test_decimals_are_babels_for_each_language(app: Flask, lang: str, value: float) -> None:
    with app.test_request_context("/", headers={"Cookie": f"lang={lang}"}):
        assert format_tenths(value) == format_decimal(value, format="0.0", locale=MONEY_LOCALE[lang])
    with app.test_request_context("/", headers={"Cookie": "lang=fr_CH"}):
        assert format_tenths(27.34) == "27,3"  # French writes a decimal comma


@pytest.mark.parametrize("lang", LANGS)
def test_dates_are_babels_for_each_language(app: Flask, lang: str) -> None:
    from datetime import UTC, datetime

    when = datetime(2026, 11, 29, 14, 10, tzinfo=UTC)
    with app.test_request_context("/", headers={"Cookie": f"lang={lang}"}):
        local = flask_babel.to_user_timezone(when)
        assert local_date(when) == format_date(local, "medium", locale=lang)


def test_the_money_on_the_result_page_is_babels(app: Flask, client: FlaskClient) -> None:
    _write, view, ev = make_evening(app, hands=whole_evening())
    with app.app_context():
        from scorekeeper.services import circles, evenings

        result = settled(evenings.get_evening(circles.open_circle(view)[0], ev))
        assert result is not None
        nets = result[1].net
    for lang in LANGS:
        client.set_cookie("lang", lang)
        page = client.get(f"/c/{view}/e/{ev}").text
        cells = re.findall(r'<td class="num (?:pos|neg)?">([^<]+)</td>', page)
        expected = [
            ("+" if n > 0 else "") + format_currency(Decimal(n) / 100, "CHF", locale=MONEY_LOCALE[lang]) for n in nets
        ]
        assert cells[-len(nets) :] == expected, lang


def test_the_outlooks_expected_sticks_in_each_language(app: Flask) -> None:
    from scorekeeper.present.outlook import tenths

    for lang, plus, minus, zero in (
        ("fr_CH", "+2,3", "−2,3", "0,0"),
        ("de_CH", "+2.3", "−2.3", "0.0"),
        ("it_CH", "+2.3", "−2.3", "0.0"),
        ("en", "+2.3", "−2.3", "0.0"),
    ):
        with app.test_request_context("/", headers={"Cookie": f"lang={lang}"}):
            assert (tenths(2.34), tenths(-2.34), tenths(0.04)) == (plus, minus, zero), lang


def test_the_statistics_decimals_in_each_language(app: Flask) -> None:
    from scorekeeper.present.memory import average, decimal

    for lang, avg, neg in (("fr_CH", "84,5", "−1,6"), ("de_CH", "84.5", "−1.6"), ("en", "84.5", "−1.6")):
        with app.test_request_context("/", headers={"Cookie": f"lang={lang}"}):
            assert (average(84.46), decimal(-1.64)) == (avg, neg), lang
