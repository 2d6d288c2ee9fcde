"""The user's language: which one, typed gettext, dates and times in the browser's region, money.

The language itself is chosen here too, by ``select_locale`` (``?lang=``, the
``lang`` cookie, the browser's Accept-Language; Flask-Babel's locale selector). ``gettext``/``_`` and ``ngettext``
are Flask-Babel's, typed (Flask-Babel ships no type information): every module that
shows text imports them from here. Error texts and the names of rows, contracts and
cards live in ``scorekeeper.present``.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import ROUND_HALF_EVEN, Decimal
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import flask_babel
from flask import Request, current_app, has_request_context, request

if TYPE_CHECKING:
    from babel import Locale

# Code -> the language's own name (the switch in every page's chrome shows them in this order).
LANGUAGES: dict[str, str] = {"de_CH": "Deutsch", "fr_CH": "Français", "it_CH": "Italiano", "en": "English"}
DEFAULT_LANGUAGE = "en"
LANG_COOKIE = "lang"  # read by language_from (the locale selector)


def normalize_language(code: str | None) -> str | None:
    """``de``, ``de-CH``, ``de_DE``, ``gsw``, ``rm`` -> ``de_CH``; ``fr``, ``fr-FR`` -> ``fr_CH``;
    ``it``, ``it-IT`` -> ``it_CH``; ``en-GB`` -> ``en``; else None."""
    if not code:
        return None
    c = code.strip().replace("-", "_").lower()
    if c.startswith(("de", "gsw", "rm_")) or c == "rm":  # Romansh readers: German
        return "de_CH"
    if c == "fr" or c.startswith("fr_"):
        return "fr_CH"
    if c == "it" or c.startswith("it_"):
        return "it_CH"
    if c.startswith("en"):
        return "en"
    return None


def language_from(req: Request) -> str | None:
    """``?lang=``, then the ``lang`` cookie, then the browser's Accept-Language."""
    for explicit in (req.args.get("lang"), req.cookies.get(LANG_COOKIE)):
        lang = normalize_language(explicit)
        if lang:
            return lang
    for value, _quality in req.accept_languages:  # already sorted by quality
        lang = normalize_language(value)
        if lang:
            return lang
    return None


def select_locale() -> str | None:
    if not has_request_context():
        return None
    return language_from(request) or current_app.config.get("BABEL_DEFAULT_LOCALE", "en")


def gettext(string: str, **variables: Any) -> str:
    """``string`` in the user's language, ``%(name)s`` filled from ``variables``."""
    return str(flask_babel.gettext(string, **variables))


_ = gettext


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    """The singular or plural form for ``num`` (``%(num)s`` is filled too)."""
    return str(flask_babel.ngettext(singular, plural, num, **variables))


def current_language() -> str:
    loc = flask_babel.get_locale()
    return str(loc) if loc is not None else DEFAULT_LANGUAGE


def or_list(items: list[str]) -> str:
    """``a, b or c`` as the language joins alternatives (Babel): ``a, b oder c``, ``a, b ou c``."""
    from babel.lists import format_list

    return str(format_list(items, style="or", locale=current_language()))


# --- dates and times in the browser's region ------------------------------------------
# The words stay in the app's languages (en, de_CH, fr_CH, it_CH); the shape of a date follows the
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
    """An instant in the user's time zone; a plain date (a season's bound) stays as it is."""
    if isinstance(value, date) and not isinstance(value, datetime):
        return value
    return flask_babel.to_user_timezone(value)


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


# --- money and decimals, as the language writes them -------------------------------------
# Money is always Swiss francs: English shows them as Swiss English does (en_CH). Points stay
# plain digits, as chalked on a slate (docs/DECISIONS.md, Languages).
MONEY_LOCALES: dict[str, str] = {"en": "en_CH"}


def money_locale() -> str:
    """The Babel locale money and decimals are written in: the current language's, Swiss English for English."""
    lang = current_language()
    return MONEY_LOCALES.get(lang, lang)


def format_chf(rappen: int, *, signed: bool = False) -> str:
    """Rappen in francs as the language writes them (Babel): ``CHF 12.35``, ``12,35 CHF``;
    ``signed`` puts a ``+`` before a gain. Any whole number: the decimal context is as precise
    as the number is long (the default 28 digits made a stored huge amount fail the page)."""
    from decimal import localcontext

    from babel.numbers import format_currency

    rappen = int(rappen)
    with localcontext() as ctx:
        ctx.prec = max(28, len(str(abs(rappen))) + 8)
        text = format_currency(Decimal(rappen).scaleb(-2), "CHF", locale=money_locale())
    return f"+{text}" if signed and rappen > 0 else text


@lru_cache(maxsize=16)
def _decimal_symbols(locale: str) -> tuple[str, str]:
    """The language's decimal sign and minus sign (Babel's, read once per language)."""
    from babel.numbers import get_decimal_symbol, get_minus_sign_symbol

    return str(get_decimal_symbol(locale)), str(get_minus_sign_symbol(locale))


_TENTH = Decimal("0.1")


def format_tenths(value: float) -> str:
    """A number to one decimal as the language writes it: ``27.3``, ``27,3`` (fr_CH). What
    Babel's ``format_decimal(value, format="0.0")`` writes (its decimal and minus signs, the
    shortest repr rounded half to even, ``-0.0`` kept; tests/i18n holds it to Babel), some
    five times faster: a ratings page writes some 500 of them."""
    locale = money_locale()
    if not abs(value) < 1e15:  # huge, infinite or not a number: Babel's own way
        from babel.numbers import format_decimal

        return str(format_decimal(value, format="0.0", locale=locale))
    dec, minus = _decimal_symbols(locale)
    rounded = Decimal(repr(float(value))).quantize(_TENTH, rounding=ROUND_HALF_EVEN)
    whole, _dot, tenth = f"{abs(rounded):f}".partition(".")
    return f"{minus if rounded.is_signed() else ''}{whole}{dec}{tenth}"
