"""The mobile web pages: blueprints, filters, headers. ``register(app)`` is called by ``create_app``.

- ``home``: create a circle, the language switch; ``circles``: the circle page and
  starting an evening; ``housekeeping``: rename, merge, delete a test evening, undo;
  ``data``: export (JSON, CSV), delete a circle for good (``home`` restores an export);
  ``paper``: type a past evening from a paper slate;
  ``slate``: an evening's slate (record, correct, undo, cuts,
  end, poll) and ``hand_form`` its record form; ``picture``: the slate as a PNG;
  ``digital_table``: the digital table's organiser and seat pages;
  ``offline``: the web app manifest and the service worker (issue 11);
  ``page_cache``: slate pages and live fragments kept per worker once drawn; ``poll``: the
  unchanged poll and page answered before the request cycle (issue 15);
  ``memory``: statistics, ratings, the purse and the charts (SVG, PNG);
  ``common``: opening a circle or evening by link, pages of long lists; ``errors``: error pages.
(gunicorn's log without secrets is ``scorekeeper.accesslog``, shared with ``hosting``.)

What a page shows comes from ``scorekeeper.present``; the pages never import ``api``.
"""

from __future__ import annotations

from typing import Any

import segno
from flask import Flask, Response, request, url_for
from flask.globals import request_ctx
from flask_wtf.csrf import CSRFError
from markupsafe import Markup

from ..hosting import static_version
from ..i18n import LANGUAGES, current_language, local_date, local_datetime, local_time
from ..present.labels import chf, signed
from ..present.offline import offline_texts
from ..services.errors import EveningDeleted, LinkGone
from .common import page_url

HTMX_PATH = "vendor/htmx-2.0.11.min.js"

# Pages whose URL holds a secret token (a circle's link, a picture link): never send it on as a
# Referer, never index.
PRIVATE_PREFIXES = ("/c/", "/p/")
# A page that showed a flashed message ("Hand recorded: ...") says so: the offline app's worker
# keeps a copy without it instead, and the browser keeps none (no ETag: a later visit would get a
# 304 and show the message again).
FLASHED_HEADER = "X-Flashed"


def _headers(response: Response) -> Response:
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    if request.path.startswith(PRIVATE_PREFIXES) or request.path == "/":
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["X-Robots-Tag"] = "noindex, nofollow"
        if request.path.startswith(PRIVATE_PREFIXES):
            response.headers.setdefault("Cache-Control", "no-store")
    if request_ctx.flashes and response.mimetype == "text/html":
        response.headers[FLASHED_HEADER] = "1"
        response.headers["Cache-Control"] = "no-store"
        response.headers.pop("ETag", None)
    return response


def asset(filename: str) -> str:
    """A static file's URL with a hash of its content: cached for a year, never stale (see hosting)."""
    return url_for("static", filename=filename, v=static_version(filename))


def _context() -> dict[str, Any]:
    return {
        "languages": LANGUAGES,
        "current_lang": current_language(),
        "htmx_path": HTMX_PATH,
        "asset": asset,
        "offline_texts": offline_texts,
        "page_url": page_url,
    }


def _zip(a: Any, b: Any) -> list[tuple[Any, Any]]:
    return list(zip(a, b, strict=False))


def qr_code(url: str) -> Markup:
    """A link as a QR code (inline SVG, as the seat links have it): other phones join by camera."""
    return Markup(segno.make(url, error="m").svg_inline(scale=4, dark="#111", light="#fff"))


def register(app: Flask) -> None:
    from .adviser import bp as adviser_bp
    from .circles import bp as circles_bp
    from .data import bp as data_bp
    from .digital_table import bp as digital_table_bp
    from .errors import csrf_error, evening_deleted, forbidden, link_gone, not_found
    from .home import bp as home_bp
    from .housekeeping import bp as housekeeping_bp
    from .memory import bp as memory_bp
    from .offline import bp as offline_bp
    from .page_cache import install as install_page_cache
    from .paper import bp as paper_bp
    from .picture import bp as picture_bp
    from .slate import bp as slate_bp

    app.register_blueprint(home_bp)
    app.register_blueprint(circles_bp)
    app.register_blueprint(housekeeping_bp)
    app.register_blueprint(data_bp)
    app.register_blueprint(paper_bp)
    app.register_blueprint(slate_bp)
    app.register_blueprint(digital_table_bp)
    app.register_blueprint(picture_bp)
    app.register_blueprint(offline_bp)
    app.register_blueprint(memory_bp)
    app.register_blueprint(adviser_bp)
    install_page_cache(app)
    app.after_request(_headers)
    app.context_processor(_context)
    app.add_template_filter(chf, "chf")
    app.add_template_filter(signed, "signed")
    app.add_template_filter(_zip, "zip")
    app.add_template_filter(qr_code, "qr")
    app.add_template_filter(local_date, "local_date")
    app.add_template_filter(local_time, "local_time")
    app.add_template_filter(local_datetime, "local_datetime")
    app.register_error_handler(404, not_found)
    app.register_error_handler(403, forbidden)
    app.register_error_handler(CSRFError, csrf_error)
    app.register_error_handler(LinkGone, link_gone)
    app.register_error_handler(EveningDeleted, evening_deleted)  # the API answers it itself (JSON, 410)
