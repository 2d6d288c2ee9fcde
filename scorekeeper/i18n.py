"""Language choice and translation helpers for the web layer.

The pure packages raise ``RuleError(message, code, **params)`` with an English
template marked ``N_``. Here the template is translated with gettext and the
parameters filled in; a ``Card``, ``Suit`` or ``Contract`` parameter is named in
the evening's deck style and the user's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from flask_babel import get_locale, gettext

from .extensions import normalize_language, select_locale  # noqa: F401  (one language rule)
from .game.cards import Card, DeckStyle, Suit, card_name, suit_name
from .game.contracts import Contract
from .game.errors import RuleError

if TYPE_CHECKING:
    from babel import Locale

LANGUAGES: dict[str, str] = {"en": "English", "de_CH": "Deutsch"}
DEFAULT_LANGUAGE = "en"
LANG_COOKIE = "lang"  # read by extensions.language_from (the locale selector)


def current_language() -> str:
    loc = get_locale()
    return str(loc) if loc is not None else DEFAULT_LANGUAGE


def render_param(value: Any, deck: DeckStyle | str = DeckStyle.SWISS, language: str | None = None) -> str:
    """A message parameter as text: cards and suits by name in the deck style and language."""
    lang = language or current_language()
    if isinstance(value, Card):
        return card_name(value, deck, lang)
    if isinstance(value, Suit):
        return suit_name(value, deck, lang)
    if isinstance(value, Contract):
        from .web.labels import contract_label  # late: labels imports this module

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


# --- dates and times in the browser's region ------------------------------------------
# The words stay in the app's languages (en, de_CH); the shape of a date follows the
# region the browser asks for where Babel knows it: en-GB 29 Nov 2026, 15:10; en-US
# Nov 29, 2026, 3:10 PM; de-CH 29.11.2026, 15:10; de-DE 29.11.2026, 15:10.


def format_locale() -> Locale:
    """The Babel locale for dates: the browser's first region of the current language."""
    from babel import Locale, UnknownLocaleError
    from flask import has_request_context, request

    lang = current_language()
    base = lang.split("_")[0]
    if has_request_context():
        for value, _q in request.accept_languages:
            try:
                loc = Locale.parse(value.replace("-", "_"))
            except (ValueError, UnknownLocaleError):
                continue
            if loc.language == base and loc.territory:
                return loc
    return Locale.parse(lang)


def _local(value: Any) -> Any:
    from flask_babel import to_user_timezone

    return to_user_timezone(value)


def local_date(value: Any) -> str:
    """A date as the browser's region writes it (medium length)."""
    from babel.dates import format_date

    return format_date(_local(value), "medium", locale=format_locale())


def local_time(value: Any) -> str:
    """A time of day as the browser's region writes it (hours and minutes)."""
    from babel.dates import format_time

    return format_time(_local(value), "short", locale=format_locale())


def local_datetime(value: Any) -> str:
    """``29 Nov 2026, 15:10`` (en-GB), ``29.11.2026, 15:10`` (de-CH)."""
    loc = format_locale()
    pattern = str(loc.datetime_formats.get("medium", "{1} {0}"))
    return pattern.replace("{1}", local_date(value)).replace("{0}", local_time(value))
