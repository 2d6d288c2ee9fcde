"""The installable app (issue 11): the web app manifest and the service worker.

Both are served from the app's own origin at its root, so the worker's scope is the
whole app (``/``, no ``Service-Worker-Allowed`` needed) and the strict policy's
``worker-src 'self'`` and ``manifest-src 'self'`` allow them. The worker is
``static/js/sw.js`` preceded by one line of configuration: its version (a hash of the
worker and of every file of the app shell, so a new release is a new worker), the
shell's versioned URLs and the pages it may keep. It is never cached as immutable
(``no-cache``): the browser checks it on every visit, with its ETag (a 304 while unchanged).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from flask import Blueprint, Response, current_app, render_template, request, url_for

from ..hosting import static_version
from ..i18n import _
from . import HTMX_PATH, asset

bp = Blueprint("offline", __name__)

THEME = "#1d2b24"  # base.html's theme-color: the slate's dark green
# The app shell: what every page the worker keeps needs (the PNG icons are the installer's);
# slate.js too (the slate's piles and cell taps): a browser whose HTTP cache does not answer
# the worker's fetch (WebKit's) would show the offline slate without it; and waiting.js, which
# a slate page fetches only once hands wait in the queue (also offline).
SHELL = (
    "css/app.css",
    "js/app.js",
    "js/checks.js",
    "js/queue.js",
    "js/offline.js",
    "js/slate.js",
    "js/waiting.js",
    HTMX_PATH,
    "icons/icon.svg",
)
# Pages the worker keeps for offline use (path patterns): the home page, a circle, an evening's
# slate. Never a seat or table page (a private hand) nor anything else.
KEEP = (r"^/$", r"^/c/[A-Za-z0-9_-]+$", r"^/c/[A-Za-z0-9_-]+/e/[A-Za-z0-9_-]+$")


def _worker_source() -> str:
    return (Path(current_app.static_folder or "") / "js" / "sw.js").read_text(encoding="utf-8")


@bp.route("/sw.js")
def service_worker() -> Response:
    source = _worker_source()
    shell = [asset(name) for name in SHELL]
    version = hashlib.sha256((source + "".join(static_version(name) for name in SHELL)).encode("utf-8")).hexdigest()[
        :12
    ]
    config = {"version": version, "shell": shell, "keep": list(KEEP), "static": url_for("static", filename="")}
    body = f"self.SK_CONFIG = {json.dumps(config, sort_keys=True)};\n{source}"
    response = Response(body, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    # a validator: the browser's check on every visit is a 304 while the worker is the same
    # (Flask-Compress marks a compressed answer's tag with its encoding and answers 304 to that)
    response.set_etag(hashlib.sha256(body.encode("utf-8")).hexdigest()[:20])
    response.make_conditional(request)
    return response


@bp.route("/manifest.webmanifest")
def manifest() -> Response:
    icons = [
        {"src": asset(f"icons/{name}-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
        for name, purpose in (("icon", "any"), ("icon-maskable", "maskable"))
        for size in (192, 512)
    ]
    data = {
        "name": _("Coiffeur slate"),
        "short_name": _("Slate"),
        "description": _("The Coiffeur Jass slate of your circle, also without network."),
        "id": "/",
        "start_url": url_for("home.index"),
        "scope": "/",
        "display": "standalone",
        "background_color": THEME,
        "theme_color": THEME,
        "icons": icons,
    }
    response = Response(json.dumps(data, ensure_ascii=False), mimetype="application/manifest+json")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.route("/home-screen")
def home_screen() -> Response:
    """The words that tell an iPhone how to put the app on its Home Screen (Safari has no install
    prompt): a fragment fetched by offline.js only on a phone that needs it, so other phones'
    pages carry none of its weight. In the language of the person's pages."""
    response = Response(render_template("offline/home_screen.html"), mimetype="text/html")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Vary"] = "Cookie, Accept-Language"
    return response
