"""The slate as a picture: ``GET /c/<token>/e/<evening_id>/slate.png`` (a circle's link) and
``GET /p/<key>/slate.png`` (a picture link: that picture and nothing else, see
``services.picture_links``).

The slate page never shows or shares a URL with the circle's link in it for the picture: its
button and its "The slate as a picture" link go to ``/c/<token>/e/<evening_id>/picture``,
which redirects to the picture link as it is at that moment (computed per request, so a page
kept by the browser or ``page_cache`` never offers one that stopped working). The share button
fetches that, shares the PNG file where the phone can, else the URL it landed on: the picture
link.

The evening's snapshot becomes a ``render.SlatePicture`` (``present.picture``: the
page's words in the user's language); ``render.render_slate`` draws it with Pillow.
A read-only link is enough.

Drawing costs (some 0.2 s of a worker's CPU; bounded whatever is stored: marks past
``render.MARKS_DRAWN`` are written as a count), building the picture from the snapshot
does not. So a worker keeps the last ``PICTURES_KEPT`` drawings under the evening, its
version and the picture's digest (``SlatePicture.digest``: every text on it, so the
language, the deck's words, a renamed player or circle each give another drawing), and
the answer carries that digest as its ETag: a phone asking again with ``If-None-Match``
gets 304 from any worker without a drawing, and a worker draws a version at most once
per language while it keeps it. Workers do not share drawings (each keeps its own; with
N workers a new version is drawn at most N times per language).
"""

from __future__ import annotations

from typing import Final

from flask import Blueprint, Response, abort, current_app, redirect, request, url_for
from flask_babel import format_date
from werkzeug.wrappers import Response as WerkzeugResponse

from ..downloads import content_disposition
from ..i18n import current_language
from ..models import Circle, Evening
from ..present.picture import slate_picture
from ..render import SlatePicture, render_slate
from ..services import picture_links
from ..services.errors import NotFound
from ..services.read import snapshot
from ..services.read.snapshot import Kept
from .common import evening_or_404, open_or_404

bp = Blueprint("picture", __name__)

PICTURES_KEPT: Final = 24  # some 350 KB each: under 10 MB per worker
DrawingKey = tuple[str, int, str]  # the evening's public id, its version, the picture's digest
_DRAWN: Kept[DrawingKey, bytes] = Kept(PICTURES_KEPT)


def drawing(key: DrawingKey, picture: SlatePicture) -> bytes:
    """The PNG of ``picture``, drawn once while this worker keeps it."""
    found = _DRAWN.get(key)
    if found is None:
        found = render_slate(picture)
        _DRAWN.put(key, found)
    return found


def forget() -> None:
    """Drop the drawings this worker keeps (tests; an erased circle's are never asked for again)."""
    _DRAWN.clear()


@bp.route("/c/<token>/e/<evening_id>/slate.png")
def slate_png(token: str, evening_id: str) -> Response:
    circle, _can_write = open_or_404(token)
    return _png(circle, evening_or_404(circle, evening_id))


@bp.route("/p/<token>/slate.png")
def shared_png(token: str) -> Response:
    """The picture link's picture (``token``: the picture key; so named, the wrong-token limit counts guesses)."""
    try:
        circle, evening = picture_links.open_picture(_secret(), token)
    except NotFound:
        abort(404)
    return _png(circle, evening)


@bp.route("/c/<token>/e/<evening_id>/picture")
def picture(token: str, evening_id: str) -> WerkzeugResponse:
    """To the evening's picture link (relative: the phone's own address), in the page's language
    (``?lang=``: a shared picture comes in the language it was shared from)."""
    circle, _can_write = open_or_404(token)
    evening = evening_or_404(circle, evening_id)
    response = redirect(picture_link(circle, evening.public_id))
    response.headers["Cache-Control"] = "no-store"
    return response


def picture_link(circle: Circle, evening_id: str) -> str:
    """The evening's picture link (relative), in the current language: what the slate page shares
    or copies within the tap itself (WebKit, so every iPhone browser, lets a page write the
    clipboard or open the share sheet only then, not after waiting for an answer)."""
    key = picture_links.picture_key(_secret(), circle, evening_id)
    return url_for("picture.shared_png", token=key, lang=current_language())


def _secret() -> str | bytes:
    secret: str | bytes = current_app.config["SECRET_KEY"]
    return secret


def _png(circle: Circle, evening: Evening) -> Response:
    snap = snapshot.load_snapshot(evening)
    picture = slate_picture(snap, title=circle.name, date=format_date(snap.created_at, "medium"))
    digest = picture.digest()
    if request.if_none_match.contains(digest):
        response = Response(status=304)
    else:
        response = Response(drawing((snap.public_id, snap.version, digest), picture), mimetype="image/png")
    response.set_etag(digest)
    response.headers["Cache-Control"] = "private, max-age=0"
    response.headers["Content-Disposition"] = content_disposition(
        f"coiffeur-{snap.created_at.date().isoformat()}.png", inline=True
    )
    return response
