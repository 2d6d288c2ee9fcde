"""The export's words: the CSV headings in the reader's language, the time zone for its
dates, and the file's name."""

from __future__ import annotations

from datetime import tzinfo

from flask_babel import get_timezone

from ..history.spreadsheet import CSV_COLUMNS
from ..i18n import gettext


def csv_headings() -> dict[str, str]:
    """Column key -> its heading, translated."""
    return {key: gettext(label) for key, label in CSV_COLUMNS}


def time_zone() -> tzinfo:
    """The reader's time zone (the app's default: Europe/Zurich unless configured)."""
    zone: tzinfo = get_timezone()
    return zone
