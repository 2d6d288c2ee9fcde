"""The slate as a picture to share: ``GET /c/<token>/e/<evening_id>/slate.png``.

The evening's snapshot becomes a ``render.SlatePicture`` (``present.picture``: the
page's words in the user's language); ``render.render_slate`` draws it with Pillow.
A read-only link is enough.
"""

from __future__ import annotations

from flask import Blueprint, Response
from flask_babel import format_date

from ..present.picture import slate_picture
from ..render import render_slate
from ..services import evenings as svc
from .common import evening_or_404, open_or_404

bp = Blueprint("picture", __name__, url_prefix="/c/<token>/e/<evening_id>")


@bp.route("/slate.png")
def slate_png(token: str, evening_id: str) -> Response:
    circle, _can_write = open_or_404(token)
    snap = svc.load_snapshot(evening_or_404(circle, evening_id))
    picture = slate_picture(snap, title=circle.name, date=format_date(snap.created_at, "medium"))
    response = Response(render_slate(picture), mimetype="image/png")
    response.headers["Cache-Control"] = "private, max-age=0"
    response.headers["Content-Disposition"] = f'inline; filename="coiffeur-{snap.created_at.date().isoformat()}.png"'
    return response
