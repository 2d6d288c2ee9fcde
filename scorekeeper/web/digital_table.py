"""The digital table pages: open it from the slate, hand out seats (link + QR), the seat page.

Organizer pages live under the circle's write link (``/c/<token>/e/<id>/table``).
A seat link ``/s/<seat token>`` stores the token in an HttpOnly, SameSite cookie
scoped to ``/t/<table>`` and redirects to the token-free seat page ``/t/<table>``.
Every response of this blueprint is ``no-store``. A seat page shows only what
``TableState.view(seat)`` (the engine's ``build_view``) gives that seat.
"""

from __future__ import annotations

from typing import Any

import segno
from flask import Blueprint, abort, current_app, make_response, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ..bots import LEVELS
from ..forms import ButtonForm
from ..game.errors import RuleError
from ..i18n import _
from ..models import Circle, DigitalTable, Evening
from ..present.errors import error_text
from ..present.labels import level_labels, side_labels
from ..present.seat import seat_page
from ..services import digital_table as svc
from ..services import evenings
from ..services import seats as seat_svc
from ..services.digital_table import StaleTable, TableState
from ..services.errors import Forbidden, NotFound
from .common import evening_or_404, open_or_404, require_write, seat_names

bp = Blueprint("table", __name__)

SEAT_COOKIE = "sk_seat"
COOKIE_MAX_AGE = 60 * 60 * 24 * 2  # an evening, and the morning after

Page = Response | str | tuple[str, int]


@bp.after_request
def _private(response: Response) -> Response:
    """Seat pages and fragments carry a hand: never stored, never sent on."""
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Robots-Tag"] = "noindex, nofollow"
    return response


# --- the organizer (the circle's write link) ---------------------------------------------
def _evening(token: str, evening_id: str) -> tuple[Circle, Evening]:
    circle, can_write = open_or_404(token)
    require_write(can_write)
    return circle, evening_or_404(circle, evening_id)


def _table_of(evening: Evening) -> DigitalTable:
    table = svc.open_table_of(evening)
    if table is None:
        abort(404)
    return table


def _to_table(token: str, evening_id: str) -> Response:
    return redirect(url_for("table.manage", token=token, evening_id=evening_id))


@bp.route("/c/<token>/e/<evening_id>/table/open", methods=["POST"])
def open_table(token: str, evening_id: str) -> Page:
    circle, ev = _evening(token, evening_id)
    n = evenings.ruleset_of(ev).n_players
    computers = {int(v) for v in request.form.getlist("computer") if v.isdigit() and int(v) < n}
    try:
        svc.open_table(ev, computers=computers, level=_default_level())
    except RuleError as err:
        return _no_deal(err, ev)
    return _to_table(token, evening_id)


def _default_level() -> str:
    """The computers' level when the organiser picks none: the app's ``TABLE_COMPUTER_LEVEL``."""
    return str(current_app.config["TABLE_COMPUTER_LEVEL"])


def _no_deal(err: RuleError, ev: Evening) -> tuple[str, int]:
    text = error_text(err, evenings.ruleset_of(ev), seat_names(ev))
    return render_template("errors/error.html", title=_("No digital deal"), text=text), 422


def _manage_context(token: str, circle: Circle, ev: Evening, table: DigitalTable) -> dict[str, Any]:
    st = svc.run_computers(table)
    names = seat_names(ev)
    mover = st.to_move()
    return {
        "token": token,
        "circle": circle,
        "evening": ev,
        "table": st.table,
        "names": names,
        "st": st,
        "seats": seat_svc.seats(table),
        "to_move": None if mover is None else names[mover],
        "sides": side_labels(st.ruleset, names),
        "level_names": level_labels(LEVELS),
        "button": ButtonForm(formdata=None),
    }


@bp.route("/c/<token>/e/<evening_id>/table")
def manage(token: str, evening_id: str) -> Page:
    circle, ev = _evening(token, evening_id)
    table = _table_of(ev)
    return render_template("table/manage.html", **_manage_context(token, circle, ev, table))


@bp.route("/c/<token>/e/<evening_id>/table/poll")
def manage_poll(token: str, evening_id: str) -> Page:
    """204 while ``?v=`` is the table's version, else the fresh seats fragment."""
    circle, ev = _evening(token, evening_id)
    table = _table_of(ev)
    ctx = _manage_context(token, circle, ev, table)
    if request.args.get("v", type=int) == ctx["table"].version:
        return "", 204
    return render_template("table/_manage_live.html", **ctx)


@bp.route("/c/<token>/e/<evening_id>/table/links", methods=["POST"])
def links(token: str, evening_id: str) -> Page:
    """New seat links (+ QR codes): for one seat (handing it to another phone, which shuts
    the old one out) or for every human seat nobody has opened yet."""
    circle, ev = _evening(token, evening_id)
    table = _table_of(ev)
    rows = seat_svc.seats(table)
    wanted = request.form.get("seat", type=int)
    if wanted is not None:
        chosen = [r.seat for r in rows if r.seat == wanted]
    else:
        chosen = [r.seat for r in rows if not r.computer and r.joined_at is None]
    names = seat_names(ev)
    shown = []
    for seat in chosen:
        url = url_for("table.join", seat_token=seat_svc.issue_seat_token(table, seat), _external=True)
        shown.append((names[seat], url, segno.make(url, error="m").svg_inline(scale=4, dark="#111", light="#fff")))
    return render_template("table/links.html", token=token, circle=circle, evening=ev, links=shown)


@bp.route("/c/<token>/e/<evening_id>/table/computer", methods=["POST"])
def computer(token: str, evening_id: str) -> Page:
    _circle, ev = _evening(token, evening_id)
    table = _table_of(ev)
    seat = request.form.get("seat", type=int)
    if seat is None:
        abort(400)
    try:
        seat_svc.set_computer(table, seat, request.form.get("level") or _default_level())
        svc.run_computers(table)
    except RuleError:
        abort(400)
    return _to_table(token, evening_id)


@bp.route("/c/<token>/e/<evening_id>/table/next", methods=["POST"])
def manage_next(token: str, evening_id: str) -> Page:
    _circle, ev = _evening(token, evening_id)
    try:
        svc.deal_next(_table_of(ev))
    except RuleError as err:
        return _no_deal(err, ev)
    return _to_table(token, evening_id)


@bp.route("/c/<token>/e/<evening_id>/table/close", methods=["POST"])
def manage_close(token: str, evening_id: str) -> Page:
    _circle, ev = _evening(token, evening_id)
    svc.close_table(_table_of(ev))
    return redirect(url_for("slate.evening", token=token, evening_id=evening_id))


# --- the seats (a phone each) -------------------------------------------------------------
def _seat_refused() -> str:
    return render_template(
        "errors/error.html",
        title=_("Seat link not valid"),
        text=_("This seat link is not valid (any more). Ask for a new one."),
    )


@bp.route("/s/<seat_token>")
def join(seat_token: str) -> Page:
    try:
        table, seat = seat_svc.table_of_token(seat_token)
    except Forbidden:
        return _seat_refused(), 403
    seat_svc.mark_joined(table, seat)
    response = redirect(url_for("table.seat", table_id=table.public_id))
    response.set_cookie(
        SEAT_COOKIE,
        seat_token,
        max_age=COOKIE_MAX_AGE,
        path=f"/t/{table.public_id}",
        httponly=True,
        samesite="Lax",
        secure=request.is_secure,
    )
    return response


def _seat(table_id: str) -> tuple[DigitalTable, int, Evening]:
    try:
        table = svc.get_table(table_id)
        seat = seat_svc.seat_of_token(table, request.cookies.get(SEAT_COOKIE))
    except (NotFound, Forbidden):
        abort(make_response(_seat_refused(), 403))
    evening = table.evening
    return table, seat, evening


def _seat_context(st: TableState, seat: int, evening: Evening, error: str | None = None) -> dict[str, Any]:
    names = seat_names(evening)
    view = st.view(seat)
    page = seat_page(st.ruleset, names, view) if view is not None else None
    slate = evenings.load_slate(evening)
    can_deal = evening.is_open and st.hand_over and not slate.complete
    return {
        "st": st,
        "table": st.table,
        "seat": seat,
        "page": page,
        "error": error,
        "names": names,
        "can_deal": can_deal,
        "slate_totals": slate.totals,
        "button": ButtonForm(formdata=None),
    }


def _render_seat(st: TableState, seat: int, evening: Evening, error: str | None = None, status: int = 200) -> Page:
    ctx = _seat_context(st, seat, evening, error)
    template = "table/_seat_live.html" if request.headers.get("HX-Request") else "table/seat.html"
    return render_template(template, **ctx), status


@bp.route("/t/<table_id>")
def seat(table_id: str) -> Page:
    table, seat_no, evening = _seat(table_id)
    return _render_seat(svc.run_computers(table), seat_no, evening)


@bp.route("/t/<table_id>/poll")
def poll(table_id: str) -> Page:
    """204 while ``?v=`` is the table's version (computer turns are played first)."""
    table, seat_no, evening = _seat(table_id)
    st = svc.run_computers(table)
    if request.args.get("v", type=int) == st.table.version:
        return "", 204
    return render_template("table/_seat_live.html", **_seat_context(st, seat_no, evening)), 200


def _after_post(table: DigitalTable, seat_no: int) -> Page:
    if request.headers.get("HX-Request"):
        return _render_seat(svc.load(table), seat_no, table.evening)
    return redirect(url_for("table.seat", table_id=table.public_id))


@bp.route("/t/<table_id>/act", methods=["POST"])
def act(table_id: str) -> Page:
    table, seat_no, evening = _seat(table_id)
    action = request.form.get("action", type=int)
    seq = request.form.get("seq", type=int)
    if action is None or seq is None:
        abort(400)
    try:
        svc.act(table, seat_no, action, expected_seq=seq)
    except StaleTable as err:
        return _render_seat(svc.load(table), seat_no, evening, error_text(err), 409)
    except RuleError as err:
        rs = evenings.ruleset_of(evening)
        return _render_seat(svc.load(table), seat_no, evening, error_text(err, rs, seat_names(evening)), 422)
    return _after_post(table, seat_no)


@bp.route("/t/<table_id>/next", methods=["POST"])
def next_hand(table_id: str) -> Page:
    table, seat_no, evening = _seat(table_id)
    try:
        svc.deal_next(table)
    except RuleError as err:
        return _render_seat(svc.load(table), seat_no, evening, error_text(err, evenings.ruleset_of(evening)), 422)
    return _after_post(table, seat_no)


@bp.route("/t/<table_id>/close", methods=["POST"])
def close(table_id: str) -> Page:
    table, seat_no, _evening = _seat(table_id)
    svc.close_table(table)
    return _after_post(table, seat_no)
