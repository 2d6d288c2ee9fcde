"""The user's language: which one, typed gettext, dates and times in the browser's region.

The language itself is chosen by ``extensions.select_locale`` (``?lang=``, the
``lang`` cookie, the browser's Accept-Language). ``gettext``/``_`` and ``ngettext``
are Flask-Babel's, typed (Flask-Babel ships no type information): every module that
shows text imports them from here. Error texts and the names of rows, contracts and
cards live in ``scorekeeper.present``.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import TYPE_CHECKING, Any

import flask_babel

if TYPE_CHECKING:
    from babel import Locale

LANGUAGES: dict[str, str] = {"en": "English", "de_CH": "Deutsch"}
DEFAULT_LANGUAGE = "en"
LANG_COOKIE = "lang"  # read by extensions.language_from (the locale selector)


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
