""" "Which row?": the row adviser on the slate (issue 25).

``GET  /c/<token>/e/<id>/adviser``: the page, 36 cards to tap (the evening's deck), who asks,
    whether everybody else passed. Reads only.
``POST /c/<token>/e/<id>/adviser``: the answer for the tapped hand (htmx: the answer
    fragment alone). The hand travels in the body only, never in a URL; it is used for this
    answer and dropped: nothing is stored, logged or shown to another phone (the answer is
    ``no-store``).

The write link only (the players at the table): an onlooker gets 403. An onlooker is not
at the table, and a hint to a player from outside is kibitzing; the answer also costs up to
1.5 s of the server, which a link passed around should not be able to ask for.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request
from werkzeug.wrappers import Response

from ..bots.adviser import HandError
from ..forms import ButtonForm
from ..i18n import _
from ..present.adviser import answer_view, card_taps, hand_error_text
from ..present.labels import side_labels
from ..services.read import adviser as adviser_svc
from ..services.read import snapshot
from ..services.read.snapshot import EveningSnapshot
from .common import evening_or_404, open_or_404, require_write

bp = Blueprint("adviser", __name__, url_prefix="/c/<token>/e/<evening_id>/adviser")

MAX_FIELDS = 40  # more card fields than a deck has: refused before reading them


def _snap(token: str, evening_id: str) -> EveningSnapshot:
    circle, can_write = open_or_404(token)
    require_write(can_write)
    return snapshot.load_snapshot(evening_or_404(circle, evening_id))


def _context(token: str, snap: EveningSnapshot, seat: int | None, chosen: list[str], must: bool) -> dict[str, Any]:
    seats = adviser_svc.asking_seats(snap)
    names = list(snap.names)
    rs = snap.ruleset
    sides = side_labels(rs, names)
    return {
        "token": token,
        "evening": snap,
        "ruleset": rs,
        "seats": [(s, names[s], sides[rs.side_of(s)]) for s in seats],
        "seat": seat if seat in seats else (seats[0] if seats else None),
        "cards": card_taps(rs, chosen),
        "n_cards": rs.n_tricks,
        "must_choose": must,
        "button": ButtonForm(formdata=None),
    }


def _private(body: str, status: int = 200) -> Response:
    resp = Response(body, status, mimetype="text/html")
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.route("", methods=["GET"])
def page(token: str, evening_id: str) -> Response:
    snap = _snap(token, evening_id)
    return _private(render_template("adviser/page.html", **_context(token, snap, None, [], False)))


@bp.route("", methods=["POST"])
def ask(token: str, evening_id: str) -> Response:
    snap = _snap(token, evening_id)
    fragment = request.headers.get("HX-Request") == "true"
    cards = request.form.getlist("card")[:MAX_FIELDS]
    must = request.form.get("must_choose") == "1"
    seat = request.form.get("seat", type=int)
    ctx = _context(token, snap, seat, [c.strip().upper() for c in cards], must)
    form = ButtonForm()
    error: str | None = None
    answer = None
    status = 200
    if not form.validate():
        error, status = _("The form was too old or not sent by this app. Nothing was kept."), 400
    elif seat is None or seat not in {s for s, _n, _side in ctx["seats"]}:
        error, status = _("Choose who is asking: a player who still has open rows."), 422
    else:
        try:
            ans = adviser_svc.answer(snap, seat, cards, must)
        except HandError as err:
            error, status = hand_error_text(err.code, err.cards, err.expected), 422
        except adviser_svc.NotAsking:
            error, status = _("Choose who is asking: a player who still has open rows."), 422
        else:
            answer = answer_view(snap.ruleset, ans)
    parts = {**ctx, "error": error, "answer": answer}
    template = "adviser/_answer.html" if fragment else "adviser/page.html"
    return _private(render_template(template, **parts), status)
