"""No English inside a translated sentence: the API's type errors, the start form's "options do
not fit together" reasons, the suit-order choices in the chosen deck's names."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from i18n_helpers import make_evening
from shared_helpers import flashes

from scorekeeper.api import errors as api_errors
from scorekeeper.api.shapes import SCHEMAS
from scorekeeper.game.errors import RuleError
from scorekeeper.game.rulesets import SUIT_ORDERS
from scorekeeper.web import circles as circle_pages

ACCEPT = {"de_CH": "de-CH", "fr_CH": "fr-CH", "it_CH": "it-CH", "en": "en"}
JSON_TYPES = ("integer", "number", "string", "boolean", "array", "object")


def _type_sets(schema: Any) -> Iterator[frozenset[str]]:
    if isinstance(schema, Mapping):
        kinds = schema.get("type")
        if isinstance(kinds, str) and kinds in JSON_TYPES + ("null",):
            yield frozenset({kinds})
        elif isinstance(kinds, list):
            yield frozenset(kinds)
        for value in schema.values():
            yield from _type_sets(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _type_sets(value)


def test_every_type_the_api_checks_has_its_own_sentence() -> None:
    used = set(_type_sets(SCHEMAS))
    assert frozenset({"string", "null"}) in used and frozenset({"integer"}) in used
    assert used <= set(api_errors.TYPE_MESSAGES), used - set(api_errors.TYPE_MESSAGES)


def _hand(ev: str, **fields: Any) -> dict[str, Any]:
    return {
        "expected_version": 0,
        "request_id": "api-type-1",
        "declarer_seat": 1,
        "row_key": "suit_H",
        "played_as": None,
        "declarer_points": 100,
        "defender_points": 57,
        "match": False,
        "countermatch": False,
        **fields,
    }


@pytest.mark.parametrize(
    ("lang", "field", "value", "message"),
    [
        ("de_CH", "declarer_points", "100", "Das Feld declarer_points muss eine ganze Zahl sein."),
        ("de_CH", "row_key", 5, "Das Feld row_key muss ein Text oder null sein."),
        ("de_CH", "match", "yes", "Das Feld match muss true oder false sein."),
        ("fr_CH", "declarer_points", "100", "Le champ declarer_points doit être un nombre entier."),
        ("fr_CH", "row_key", 5, "Le champ row_key doit être un texte ou null."),
        ("it_CH", "declarer_points", "100", "Il campo declarer_points deve essere un numero intero."),
        ("it_CH", "match", "yes", "Il campo match deve essere true o false."),
        ("en", "declarer_points", "100", "The field declarer_points must be a whole number."),
    ],
)
def test_api_type_errors_are_whole_sentences(
    app: Flask, client: FlaskClient, lang: str, field: str, value: Any, message: str
) -> None:
    write, _view, ev = make_evening(app)
    r = client.post(
        f"/api/v1/evenings/{ev}/hands",
        json=_hand(ev, **{field: value}),
        headers={"Authorization": f"Bearer {write}", "Accept-Language": ACCEPT[lang]},
    )
    assert r.status_code == 400
    error = r.get_json()["error"]
    assert error["code"] == "wrong_type" and error["message"] == message
    assert error["params"]["field"] == field  # the machine-read part stays as it was


@pytest.mark.parametrize(
    ("lang", "reason"),
    [
        ("de_CH", "Diese Optionen passen nicht zusammen: Die zusätzlichen Zeilen (Slalom, Gustav, TUO) gibt es nur"),
        ("fr_CH", "Ces options ne vont pas ensemble\u00a0: Les lignes en plus (Slalom, Gustav, TUO) n'existent que"),
        ("it_CH", "Queste opzioni non vanno d'accordo: Le righe in più (Slalom, Gustav, TUO) esistono solo"),
        ("en", "These options do not fit together: The optional rows (Slalom, Gustav, TUO) belong to"),
    ],
)
def test_api_options_that_do_not_fit_in_the_callers_language(
    app: Flask, client: FlaskClient, lang: str, reason: str
) -> None:
    write, _view, _ev = make_evening(app)
    r = client.post(
        "/api/v1/evenings",
        json={
            "variant": "three",
            "players": ["A", "B", "C"],
            "first_dealer": 0,
            "options": {"extra_rows": ["tuo"]},
            "request_id": "api-options-1",
        },
        headers={"Authorization": f"Bearer {write}", "Accept-Language": ACCEPT[lang]},
    )
    assert r.status_code == 422
    error = r.get_json()["error"]
    assert error["code"] == "options_invalid" and error["message"].startswith(reason), error["message"]
    assert error["params"]["rule"] == "extra_rows_variant"


def _start_data(client: FlaskClient, write: str, variant: str = "teams") -> dict[str, str]:
    page = client.get(f"/c/{write}/start?variant={variant}").text
    fields = dict(re.findall(r'<input[^>]*name="([a-z_0-9]+)"[^>]*value="([^"]*)"', page))
    data = {k: v for k, v in fields.items() if k.startswith(("factor_", "csrf", "request_id", "variant"))}
    names = ["Anna", "Beat", "Cla", "Dora"]
    data.update({f"seat_{i}": n for i, n in enumerate(names)})
    data.update(deck="swiss", suit_order="pagat", barrel="online", stake_chf="0.10", per_points="10", round_to="5")
    data["first_dealer"] = "0"
    return data


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("de_CH", "Diese Optionen passen nicht zusammen: Dieses Spiel hat keine Zeile gustav."),
        ("fr_CH", "Ces options ne vont pas ensemble : Ce jeu n'a pas de ligne gustav."),  # flashes(): spaces as one
        ("it_CH", "Queste opzioni non vanno d'accordo: Questo gioco non ha la riga gustav."),
    ],
)
def test_start_form_reason_is_translated(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch, lang: str, text: str
) -> None:
    """The rule-set builder's refusals reach the start form as translated RuleErrors (the form's own
    checks leave them rare: here the builder is made to refuse a row, as a stale form could)."""
    write, _view, _ev = make_evening(app)
    client.set_cookie("lang", lang)
    data = _start_data(client, write)

    def refuse(*_args: Any, **_kw: Any) -> Any:
        raise RuleError("This game has no row %(rows)s.", "factor_row_unknown", rows="gustav")

    monkeypatch.setattr(circle_pages, "_ruleset_from", refuse)
    r = client.post(f"/c/{write}/start?variant=teams", data=data)
    assert r.status_code == 422
    assert text in flashes(r.text)


SUIT_ORDER_WORDS = {  # (language, deck) -> the "pagat" order's label
    ("de_CH", "swiss"): "Schilte, Eichel, Schelle, Rose",
    ("de_CH", "french"): "Schaufel, Kreuz, Ecke, Herz",
    ("fr_CH", "swiss"): "écusson, gland, grelot, rose",
    ("fr_CH", "french"): "pique, trèfle, carreau, cœur",
    ("it_CH", "swiss"): "scudi, ghiande, campanelli, rose",
    ("it_CH", "french"): "picche, fiori, quadri, cuori",
    ("en", "swiss"): "shields, acorns, bells, roses",
    ("en", "french"): "spades, clubs, diamonds, hearts",
}


@pytest.mark.parametrize(("lang", "deck"), sorted(SUIT_ORDER_WORDS))
def test_suit_order_choices_follow_the_deck(app: Flask, client: FlaskClient, lang: str, deck: str) -> None:
    write, _view, _ev = make_evening(app)
    client.set_cookie("lang", lang)
    # What htmx asks for when the deck changes (the form's fields in the query).
    page = client.get(f"/c/{write}/start?variant=teams&deck={deck}&suit_order=swiss").text
    select = page[page.index('id="suit-order-field"') :]
    select = select[: select.index("</select>")]
    options = re.findall(r'<option[^>]*value="(\w+)"[^>]*>([^<]*)</option>', select)
    assert [v for v, _ in options] == list(SUIT_ORDERS)
    assert dict(options)["pagat"] == SUIT_ORDER_WORDS[(lang, deck)]
    other = "french" if deck == "swiss" else "swiss"
    assert SUIT_ORDER_WORDS[(lang, other)] not in select
    assert re.search(r'<option[^>]*selected[^>]*value="swiss"|<option[^>]*value="swiss"[^>]*selected', select)
    # The deck's radios fetch the suit order again (and the rows' names).
    assert 'hx-select-oob="#suit-order-field"' in page


API_MISTAKES: list[tuple[str, str, dict[str, Any] | None, int]] = [  # (method, path under the evening, body, status)
    ("POST", "/hands", {"declarer_points": 100, "defender_points": 50}, 422),  # points_sum
    ("POST", "/hands", {"row_key": "no_such_row"}, 422),
    ("POST", "/hands", {"declarer_points": 100.5}, 400),
    ("POST", "/hands", {"points": 3}, 400),  # unknown field
    ("POST", "/hands", {"declarer_seat": None}, 400),
    ("POST", "/hands", {"expected_version": 7}, 409),
    ("GET", "/no-such-thing", None, 404),
    ("DELETE", "", None, 405),
]


@pytest.mark.parametrize(("method", "path", "fields", "status"), API_MISTAKES)
def test_api_errors_speak_the_callers_language(
    app: Flask, client: FlaskClient, method: str, path: str, fields: dict[str, Any] | None, status: int
) -> None:
    """The same mistake answered in English, German, French and Italian: four different texts, the
    same code and parameters."""
    write, _view, ev = make_evening(app)
    answers = {}
    for lang, accept in ACCEPT.items():
        body = None if fields is None else _hand(ev, **fields)
        r = client.open(
            f"/api/v1/evenings/{ev}{path}",
            method=method,
            json=body,
            headers={"Authorization": f"Bearer {write}", "Accept-Language": accept},
        )
        assert r.status_code == status, (lang, r.get_json())
        answers[lang] = r.get_json()["error"]
    messages = {lang: a["message"] for lang, a in answers.items()}
    assert len(set(messages.values())) == 4, messages
    assert len({(a["code"], json.dumps(a["params"], sort_keys=True)) for a in answers.values()}) == 1
