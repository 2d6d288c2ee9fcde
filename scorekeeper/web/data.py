"""The circle's data: export it (JSON to restore, CSV for a spreadsheet) and delete it for
good. Deleting is asked twice: a page that says what goes and offers the export first,
then the circle's name typed again; only then is every row of it erased."""

from __future__ import annotations

from flask import Blueprint, flash, make_response, render_template
from werkzeug.wrappers import Response

from ..downloads import download
from ..forms import DeleteCircleForm
from ..game.errors import RuleError
from ..i18n import _
from ..present.export import csv_headings, time_zone
from ..services import erase, restore
from .common import flash_error, open_or_404, require_write

bp = Blueprint("data", __name__, url_prefix="/c/<token>")


def _download(exported: restore.Exported) -> Response:
    return download(exported.text, exported.media_type, exported.filename)


@bp.route("/data")
def page(token: str) -> str:
    circ, can_write = open_or_404(token)
    require_write(can_write)
    return render_template("data/page.html", circle=circ, token=token)


@bp.route("/export.json")
def export_json(token: str) -> Response:
    circ, can_write = open_or_404(token)
    require_write(can_write)
    return _download(restore.export_json(circ))


@bp.route("/export.csv")
def export_csv(token: str) -> Response:
    circ, can_write = open_or_404(token)
    require_write(can_write)
    return _download(restore.export_csv(circ, headers=csv_headings(), tz=time_zone()))


@bp.route("/delete")
def delete(token: str) -> str:
    """The first question: what will go, with the export offered first."""
    circ, can_write = open_or_404(token)
    require_write(can_write)
    return render_template("data/delete.html", circle=circ, token=token)


@bp.route("/delete/confirm", methods=["GET", "POST"])
def delete_confirm(token: str) -> Response | str | tuple[str, int]:
    """The second question: the circle's name typed again. POST: erase, for good."""
    circ, can_write = open_or_404(token)
    require_write(can_write)
    form = DeleteCircleForm()
    if not form.is_submitted():
        return render_template("data/delete_confirm.html", circle=circ, token=token, form=form)
    if not form.validate():
        flash(_("The form was too old or not sent by this app. Nothing was written."), "error")
    else:
        name, public_id = circ.name, circ.public_id
        try:
            erase.delete_circle(circ, typed_name=form.name.data or "")
        except RuleError as err:
            flash_error(err)
        else:
            resp = make_response(render_template("data/deleted.html", name=name, public_id=public_id))
            resp.headers["Cache-Control"] = "no-store"
            return resp
    return render_template("data/delete_confirm.html", circle=circ, token=token, form=form), 422
