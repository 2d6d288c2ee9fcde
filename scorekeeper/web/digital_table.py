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
from ..present.adviser import answer_view
from ..present.errors import error_text
from ..present.labels import level_labels, side_labels
from ..present.seat import seat_page
from ..services import digital_table as svc
from ..services import seats as seat_svc
from ..services.digital_table import StaleTable, TableState
from ..services.errors import Forbidden, NotFound
from ..services.read import adviser as adviser_svc
from ..services.read.replay import ruleset_of
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
    """Open the evening's digital table. ``computer``: seats the computers play; ``me``: the seat
    this phone plays (opened here, no seat link to copy), with ``against=computers`` every other
    seat a computer."""
    circle, ev = _evening(token, evening_id)
    n = ruleset_of(ev).n_players
    computers = {int(v) for v in request.form.getlist("computer") if v.isdigit() and int(v) < n}
    me = request.form.get("me", type=int)
    if me is not None and not 0 <= me < n:
        abort(400)
    if me is not None:
        computers = set(range(n)) - {me} if request.form.get("against") == "computers" else computers - {me}
    try:
        table = svc.open_table(ev, computers=computers, level=_default_level())
    except RuleError as err:
        return _no_deal(err, ev)
    if me is not None:
        return _sit_here(table, me)
    return _to_table(token, evening_id)


@bp.route("/c/<token>/e/<evening_id>/table/take", methods=["POST"])
def take(token: str, evening_id: str) -> Page:
    """This phone (the organiser's) takes a seat: opened here, as its seat link would open it."""
    _circle, ev = _evening(token, evening_id)
    table = _table_of(ev)
    seat = request.form.get("seat", type=int)
    if seat is None or not 0 <= seat < ruleset_of(ev).n_players:
        abort(400)
    try:
        return _sit_here(table, seat)
    except RuleError:
        abort(400)


def _sit_here(table: DigitalTable, seat: int) -> Response:
    """A new token for ``seat`` in this phone's seat cookie (whoever held the seat is shut out),
    the seat marked as joined, and on to the seat page: what opening a seat link does."""
    seat_token = seat_svc.issue_seat_token(table, seat)
    seat_svc.mark_joined(table, seat)
    svc.run_computers(table)
    return _seated(table, seat_token)


def _seated(table: DigitalTable, seat_token: str) -> Response:
    """To the token-free seat page, the seat token in an HttpOnly cookie scoped to the table."""
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


def _default_level() -> str:
    """The computers' level when the organiser picks none: the app's ``TABLE_COMPUTER_LEVEL``."""
    return str(current_app.config["TABLE_COMPUTER_LEVEL"])


def _no_deal(err: RuleError, ev: Evening) -> tuple[str, int]:
    text = error_text(err, ruleset_of(ev), seat_names(ev))
    return render_template("errors/error.html", title=_("No digital deal"), text=text), 422


def _manage_context(token: str, circle: Circle, ev: Evening, table: DigitalTable) -> dict[str, Any]:
    st = svc.load(table)  # a read: the computers moved in the write that made it their turn
    names = list(st.names)
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
    """The seat link: the token into the seat cookie, on to the seat page. A GET writes nothing
    (a link preview or prefetch takes no seat): the seat page notes the phone (``sit``)."""
    try:
        table, _seat_no = seat_svc.table_of_token(seat_token)
    except Forbidden:
        return _seat_refused(), 403
    return _seated(table, seat_token)


def _seat(table_id: str) -> tuple[DigitalTable, int]:
    try:
        table = svc.get_table(table_id)
        seat = seat_svc.seat_of_token(table, request.cookies.get(SEAT_COOKIE))
    except (NotFound, Forbidden):
        abort(make_response(_seat_refused(), 403))
    return table, seat


def _seat_context(st: TableState, seat: int, error: str | None = None) -> dict[str, Any]:
    """What a seat page shows, all of it from the table as ``load`` read it (one snapshot)."""
    names = list(st.names)
    view = st.view(seat)
    page = seat_page(st.ruleset, names, view) if view is not None else None
    slate = st.slate
    assert st.evening is not None
    can_deal = st.evening.is_open and st.hand_over and not slate.complete
    return {
        "st": st,
        "table": st.table,
        "seat": seat,
        "page": page,
        "error": error,
        "names": names,
        "can_deal": can_deal,
        "sit": st.table.is_open and (seat not in st.joined or _computer_waits(st)),
        "slate_totals": slate.totals,
        "button": ButtonForm(formdata=None),
    }


def _computer_waits(st: TableState) -> bool:
    """A computer is to move and has not: its moves were not stored by the write that made it
    its turn (a worker stopped in between). The seat page asks for them with ``sit``."""
    mover = st.to_move()
    return mover is not None and mover in st.computers and mover not in st.failed


def _render_seat(st: TableState, seat: int, error: str | None = None, status: int = 200) -> Page:
    ctx = _seat_context(st, seat, error)
    template = "table/_seat_live.html" if request.headers.get("HX-Request") else "table/seat.html"
    return render_template(template, **ctx), status


@bp.route("/t/<table_id>")
def seat(table_id: str) -> Page:
    table, seat_no = _seat(table_id)
    return _render_seat(svc.load(table), seat_no)


@bp.route("/t/<table_id>/poll")
def poll(table_id: str) -> Page:
    """204 while ``?v=`` is the table's version. A read: it plays nothing."""
    table, seat_no = _seat(table_id)
    st = svc.load(table)
    if request.args.get("v", type=int) == st.table.version:
        return "", 204
    return render_template("table/_seat_live.html", **_seat_context(st, seat_no)), 200


def _after_post(table: DigitalTable, seat_no: int) -> Page:
    if request.headers.get("HX-Request"):
        return _render_seat(svc.load(table), seat_no)
    return redirect(url_for("table.seat", table_id=table.public_id))


@bp.route("/t/<table_id>/sit", methods=["POST"])
def sit(table_id: str) -> Page:
    """The phone is at its seat (the seat page posts this once it is open): the seat is noted as
    joined, and computers whose turn it is and who have not moved play now."""
    table, seat_no = _seat(table_id)
    seat_svc.mark_joined(table, seat_no)
    svc.run_computers(table)
    return _after_post(table, seat_no)


@bp.route("/t/<table_id>/act", methods=["POST"])
def act(table_id: str) -> Page:
    table, seat_no = _seat(table_id)
    action = request.form.get("action", type=int)
    seq = request.form.get("seq", type=int)
    if action is None or seq is None:
        abort(400)
    try:
        svc.act(table, seat_no, action, expected_seq=seq)
    except StaleTable as err:
        return _render_seat(svc.load(table), seat_no, error_text(err), 409)
    except RuleError as err:
        now = svc.load(table)
        return _render_seat(now, seat_no, error_text(err, now.ruleset, now.names), 422)
    return _after_post(table, seat_no)


@bp.route("/t/<table_id>/hint", methods=["POST"])
def hint(table_id: str) -> Page:
    """ "Which row?" for the seat that must choose the contract now: the adviser on the seat's own
    cards (issue 25), answered to this phone only (a fragment for htmx, else the seat page with it).
    Writes nothing; a seat that need not choose gets the seat page back."""
    table, seat_no = _seat(table_id)
    st = svc.load(table)
    view = st.view(seat_no)
    ans = None
    if view is not None and st.evening is not None and view.legal_actions:
        ans = adviser_svc.seat_answer(st.ruleset, st.slate, view, st.evening.outlook_hidden)
    answer = answer_view(st.ruleset, ans) if ans is not None else None
    if request.headers.get("HX-Request"):
        text = render_template(
            "adviser/_answer.html", answer=answer, error=None if answer else _("Nothing to choose now.")
        )
    else:
        text = render_template("table/seat.html", **_seat_context(st, seat_no), hint=answer)
    resp = make_response(text, 200)
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.route("/t/<table_id>/next", methods=["POST"])
def next_hand(table_id: str) -> Page:
    table, seat_no = _seat(table_id)
    try:
        svc.deal_next(table)
    except RuleError as err:
        now = svc.load(table)
        return _render_seat(now, seat_no, error_text(err, now.ruleset), 422)
    return _after_post(table, seat_no)


@bp.route("/t/<table_id>/close", methods=["POST"])
def close(table_id: str) -> Page:
    table, seat_no = _seat(table_id)
    svc.close_table(table)
    return _after_post(table, seat_no)
