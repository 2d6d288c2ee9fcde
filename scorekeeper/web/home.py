"""Home: create a circle, or restore one from an export file; the circles this browser
opened (kept in the browser only)."""

from __future__ import annotations

from functools import partial
from typing import Final
from urllib.parse import parse_qsl, urlencode, urlsplit

from flask import Blueprint, abort, current_app, flash, make_response, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ..extensions import csrf
from ..forms import CreateCircleForm, RestoreForm
from ..game.errors import RuleError
from ..i18n import LANG_COOKIE, LANGUAGES, _
from ..models import Circle
from ..present.errors import translate_error
from ..services import circles as circle_service
from ..services import restore as restore_service

bp = Blueprint("home", __name__)

ONE_YEAR = 365 * 24 * 3600
PIECE: Final = 64 * 1024  # an uploaded export is read in pieces this large


@bp.route("/", methods=["GET", "POST"])
def index() -> Response | str | tuple[str, int]:
    form = CreateCircleForm()
    if form.validate_on_submit():
        try:
            circle, write_token, view_token = circle_service.create_circle(form.name.data)
        except RuleError as err:
            flash(translate_error(err), "error")
            return render_template("home/index.html", form=form), 422
        return _created(circle, write_token, view_token)
    status = 422 if request.method == "POST" else 200
    return render_template("home/index.html", form=form), status


def _created(circle: Circle, write_token: str, view_token: str, *, restored: bool = False) -> Response:
    resp = make_response(
        render_template(
            "home/created.html",
            circle=circle,
            restored=restored,
            write_url=url_for("circles.circle", token=write_token, _external=True),
            view_url=url_for("circles.circle", token=view_token, _external=True),
        )
    )
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.route("/restore", methods=["GET", "POST"])
def restore() -> Response | str | tuple[str, int] | tuple[str, int, dict[str, str]]:
    """Restore an export file into a new circle (new links), or say why it cannot be."""
    if request.method == "POST":
        request.max_content_length = int(current_app.config["IMPORT_MAX_BYTES"])  # this page only
    form = RestoreForm()
    if request.method == "GET":
        return render_template("home/restore.html", form=form)
    if not form.validate_on_submit():
        flash(_("The form was too old or not sent by this app. Nothing was written."), "error")
        return render_template("home/restore.html", form=form), 422
    upload = form.file.data
    if upload is None or not getattr(upload, "filename", ""):
        flash(_("Choose the export file first."), "error")
        return render_template("home/restore.html", form=form), 422
    limit = int(current_app.config["IMPORT_MAX_BYTES"])
    try:
        pieces = iter(partial(upload.stream.read, PIECE), b"")
        circle, write_token, view_token = restore_service.restore_upload(pieces, limit=limit)
    except restore_service.ImportBusy as err:
        flash(translate_error(err), "error")
        headers = {"Retry-After": str(restore_service.RETRY_AFTER_S)}
        return render_template("home/restore.html", form=form), 503, headers
    except RuleError as err:
        flash(translate_error(err), "error")
        return render_template("home/restore.html", form=form), 413 if err.code == "too_large" else 422
    return _created(circle, write_token, view_token, restored=True)


# The CSRF token is checked by the form (``validate_on_submit``) after the page has raised its
# body limit; the app-wide check would read the upload first, under the small limit.
csrf.exempt(f"{__name__}.restore")


@bp.route("/lang/<code>")
def set_language(code: str) -> Response:
    """Set the language cookie and go back to the page the link was on."""
    if code not in LANGUAGES:
        abort(404)
    target = url_for("home.index")
    ref = request.referrer
    if ref:
        parts = urlsplit(ref)
        if parts.netloc == request.host and parts.path.startswith("/") and not parts.path.startswith("//"):
            # A ?lang= in the page's address would win over the new choice: it is left out.
            query = urlencode([(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "lang"])
            target = parts.path + (f"?{query}" if query else "")
    resp = redirect(target)
    resp.set_cookie(LANG_COOKIE, code, max_age=ONE_YEAR, samesite="Lax", httponly=True)
    return resp
