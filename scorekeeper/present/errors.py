"""Error texts: a ``RuleError`` in the user's language, for the pages and the API alike.

The pure packages raise ``RuleError(message, code, **params)`` with an English
template marked ``N_``. Here the template is translated with gettext and the
parameters filled in: a ``Card``, ``Suit`` or ``Contract`` is named in the evening's
deck style and the user's language, a row key by the row's name, a seat by the
player's name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..game.cards import Card, DeckStyle, Suit, card_name, suit_name
from ..game.contracts import Contract
from ..game.errors import RuleError
from ..game.rulesets import RuleSet
from ..i18n import current_language, gettext
from .labels import contract_label, row_label


def render_param(value: Any, deck: DeckStyle | str = DeckStyle.SWISS, language: str | None = None) -> str:
    """A message parameter as text: cards and suits by name in the deck style and language."""
    lang = language or current_language()
    if isinstance(value, Card):
        return card_name(value, deck, lang)
    if isinstance(value, Suit):
        return suit_name(value, deck, lang)
    if isinstance(value, Contract):
        return contract_label(value, deck)
    return str(value)


def translate_error(
    err: RuleError, deck: DeckStyle | str = DeckStyle.SWISS, shown: Mapping[str, str] | None = None
) -> str:
    """The error's message in the user's language with its parameters filled in.

    ``shown`` replaces parameters by display text the caller knows better (a row key
    by the row's name, a seat number by the player's name).
    """
    template = gettext(err.message)
    if not err.params:
        return template
    params = {k: render_param(v, deck) for k, v in err.params.items()}
    params.update({k: v for k, v in (shown or {}).items() if k in params})
    try:
        return template % params
    except (KeyError, ValueError, TypeError):
        return template


def error_text(err: RuleError, ruleset: RuleSet | None = None, names: Sequence[str] | None = None) -> str:
    """The error in the user's language; rows, seats and contracts by their names."""
    shown: dict[str, str] = {}
    deck = ruleset.deck if ruleset is not None else DeckStyle.SWISS
    params = err.params
    if ruleset is not None and isinstance(params.get("row"), str):
        try:
            shown["row"] = row_label(ruleset.row(params["row"]), ruleset.deck)
        except KeyError:
            pass
    if names is not None and isinstance(params.get("seat"), int) and 0 <= params["seat"] < len(names):
        shown["seat"] = names[params["seat"]]
    if isinstance(params.get("contract"), str):
        try:
            shown["contract"] = contract_label(Contract.parse(params["contract"]), deck)
        except ValueError:
            pass
    return translate_error(err, deck, shown)
