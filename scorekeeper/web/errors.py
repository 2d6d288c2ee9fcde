"""Error pages that say what happened and leak nothing (no token, no evening id)."""

from __future__ import annotations

from typing import Any

from flask import render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.wrappers import Response

from ..forms import HandForm
from ..i18n import _
from ..models import is_public_id
from ..present.errors import error_text
from ..services import evenings as evening_service
from ..services import retired
from ..services.errors import LinkGone
from ..services.read.replay import ruleset_of
from ..services.store.tokens import hash_token
from .hand_form import make_hand_form

# What a link that opened something once and no longer does is answered with (never a 404:
# the phone is told what happened, and the rate limiter does not count it as a guess).
GONE_STATUS = 410
GONE_HEADER = "X-Link-Gone"  # the error's code: the page's script stops polling at the first one


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


def gone_title(err: LinkGone) -> str:
    if err.code == "circle_deleted":
        return _("Circle deleted")
    if err.code == "link_replaced":
        return _("Link replaced")
    return _("Link no longer valid")


def link_gone(err: LinkGone, typed: list[tuple[str, str]] | None = None) -> tuple[str, int, dict[str, str]]:
    """410: the link was replaced, its circle deleted, or it is not in a restored backup. A
    fragment (the poll) gets the sentence alone; a page says it, with what the phone had typed
    (``typed``: a hand sent to a write link that was replaced, so nothing typed is lost)."""
    text = error_text(err)
    headers = {"Cache-Control": "no-store", GONE_HEADER: err.code}
    if request.headers.get("HX-Request"):
        return text, GONE_STATUS, headers
    page = render_template("errors/gone.html", title=gone_title(err), text=text, code=err.code, typed=typed or [])
    return page, GONE_STATUS, headers


def _chosen(field: Any) -> str | None:
    for value, label, selected, *_rest in field.iter_choices():
        if selected and value not in ("", None):
            return str(label)
    return None


def typed_hand(token: str, evening_id: str, formdata: Any) -> list[tuple[str, str]]:
    """What a phone sent as a hand to a link that no longer opens anything, in words (the form's
    own labels): the declarer and the row by name where the link was the write link of a circle
    that still exists (the phone had them on its page), the points and ticks always."""
    ev = retired.evening_of(hash_token(token), evening_id) if token and is_public_id(evening_id) else None
    if ev is not None:
        ruleset, names = ruleset_of(ev), evening_service.names_of(ev)
        form = make_hand_form(ruleset, names, version=0, formdata=formdata)
    else:
        form = HandForm(formdata=formdata)
    out: list[tuple[str, str]] = []
    if ev is not None:
        who = _chosen(form.declarer)
        if who:
            out.append((str(form.declarer.label.text), who))
    if form.is_seich():
        out.append((str(form.seich.label.text), _("yes")))
        return out
    if ev is not None:
        for field in (form.row, form.played_as):
            text = _chosen(field)
            if text:
                out.append((str(field.label.text), text))
    for field in (form.declarer_points, form.defender_points):
        raw = (field.raw_data or [""])[0].strip()[:8]
        if raw:
            out.append((str(field.label.text), raw))
    for field in (form.match, form.countermatch):
        if field.data:
            out.append((str(field.label.text), _("yes")))
    return out


def evening_deleted(_err: Any) -> Response:
    """An evening deleted as a test (``services.errors.EveningDeleted``), on any page of it."""
    from .slate import deleted_page

    return deleted_page()
