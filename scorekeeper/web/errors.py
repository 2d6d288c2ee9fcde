"""Error pages that say what happened and leak nothing (no token, no evening id)."""

from __future__ import annotations

from typing import Any

from flask import render_template, request
from flask_wtf.csrf import CSRFError

from ..i18n import _


def not_found(_err: Any) -> tuple[str, int]:
    return render_template(
        "errors/error.html", title=_("Not found"), text=_("There is nothing here. Check the link you were given.")
    ), 404


def forbidden(_err: Any) -> tuple[str, int]:
    return render_template(
        "errors/error.html",
        title=_("Read-only"),
        text=_("This link is read-only: it shows the slate but cannot change it."),
    ), 403


def csrf_error(_err: CSRFError) -> tuple[str, int]:
    text = _("The form was too old or not sent by this app. Nothing was written. Open the page again and retry.")
    if request.headers.get("HX-Request"):
        return text, 400
    return render_template("errors/error.html", title=_("Nothing was written"), text=text), 400
