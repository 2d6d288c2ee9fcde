"""Flask extensions, created unbound and bound to an app in ``create_app``."""

from __future__ import annotations

from flask import Request, current_app, has_request_context, request
from flask_babel import Babel
from flask_compress import Compress
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase

# Named constraints: Alembic's batch mode (SQLite table rebuilds) and downgrades
# need a name for every constraint.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


db = SQLAlchemy(model_class=Base)
migrate = Migrate()
csrf = CSRFProtect()
babel = Babel()
compress = Compress()


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
    for explicit in (req.args.get("lang"), req.cookies.get("lang")):
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
