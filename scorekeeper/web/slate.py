"""The slate page of an evening: grid, turn guide, record/correct/undo, cuts, end, poll."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from werkzeug.wrappers import Response

from ..forms import ActionForm, AgainForm, ButtonForm, CutForm, HandForm, new_request_id, renew_request_id
from ..game.errors import RuleError
from ..game.hand_entry import HandEntry
from ..i18n import _
from ..models import Circle, Evening
from ..present.errors import error_text
from ..present.housekeeping import evening_label
from ..present.labels import describe
from ..present.offline import fixed_rules, rule_snapshot
from ..present.slate_page import LiveView, SlatePage, build_live, build_slate_page, hand_choices, last_hand
from ..scoring.final import Cut
from ..services import circles as circle_service
from ..services import evenings as svc
from ..services import house_rules
from ..services.errors import EveningDeleted, LinkGone, NotFound, RequestIdReused, StaleVersion
from ..services.read import outlook as outlook_svc
from ..services.read import snapshot
from ..services.read.outlook import EveningOutlook
from ..services.read.replay import ruleset_of
from ..services.read.snapshot import EveningSnapshot
from ..services.read.stamp import poll_state, stamp_of
from . import page_cache
from .common import evening_or_404, open_or_404, require_write, seat_names
from .errors import link_gone, typed_hand
from .hand_form import entry_from_form, make_hand_form, refresh_version
from .picture import picture_link
from .poll import fragment_unchanged, mark_page

bp = Blueprint("slate", __name__, url_prefix="/c/<token>/e/<evening_id>")

Page = Response | str | tuple[str, int] | tuple[str, int, dict[str, str]]


def _load(token: str, evening_id: str, *, write: bool = False) -> tuple[Circle, bool, Evening]:
    circle, can_write = open_or_404(token)
    if write:
        require_write(can_write)
    return circle, can_write, evening_or_404(circle, evening_id)


def _action_form(version: int) -> ActionForm:
    return ActionForm(formdata=None, data={"expected_version": version, "request_id": new_request_id()})


Read = tuple[EveningSnapshot, EveningOutlook]  # what a slate page reads before it is built


def _read(circle: Circle, ev: Evening) -> Read:
    """Everything a slate page shows, read first: the evening's snapshot and its outlook."""
    snap = snapshot.load_snapshot(ev)
    return snap, outlook_svc.outlook_of(snap, circle)


def _live_around(token: str, can_write: bool, snap: EveningSnapshot) -> dict[str, Any]:
    """The links and forms around the live fragment's view."""
    ended = not snap.is_open
    return {
        "token": token,
        "evening": snap,
        "can_write": can_write and not ended,
        "ended": ended,
        "outlook_toggle": can_write,  # a setting of the evening, not of its slate: also once ended
        "button": ButtonForm(formdata=None),
        "grid_html": None,  # the grid already drawn, where the answer to a write drew it first (slate/_swap.html)
    }


def _live_context(token: str, can_write: bool, snap: EveningSnapshot, live: LiveView) -> dict[str, Any]:
    """What the live fragment shows (slate/_live.html; a test holds it to every name the
    fragment's templates use): its view, and the links and forms around it."""
    return {**_live_around(token, can_write, snap), **live.parts()}


def _around(token: str, circle: Circle, can_write: bool, snap: EveningSnapshot) -> dict[str, Any]:
    """The links and forms around the slate page's view that the answer to a write sent by the
    page's script shows too (slate/_swap.html)."""
    ended = not snap.is_open
    return {
        **_live_around(token, can_write, snap),
        "circle": circle,
        "may_reopen": can_write and ended,
        "ruleset": snap.ruleset,
        "names": list(snap.names),
        "slate": snap.slate,
        "pending": snap.pending,
        "action_form": _action_form(snap.version),
        "form_messages": [],
        "invalid": None,
    }


def _context(token: str, circle: Circle, can_write: bool, read: Read) -> dict[str, Any]:
    """Everything the slate page shows: the links and forms around it, and its view, built in
    one call from what was read. For the parts a write sent by the page's script is answered
    with (slate/_swap.html), what only the whole page shows is left out (the cuts' forms, the
    picture's links, the offline script's settings, "Same again")."""
    snap, outlook = read
    around = _around(token, circle, can_write, snap)
    page = build_slate_page(snap, outlook)
    ctx = {**around, **page.live.parts(), **page.parts(), "page": page}
    if _swap_asked() and _keeps_shape(ctx):
        return ctx
    return {**ctx, **_whole_page(token, circle, can_write, snap, page)}


def _whole_page(token: str, circle: Circle, can_write: bool, snap: EveningSnapshot, page: SlatePage) -> dict[str, Any]:
    """What only the whole slate page shows, around its parts."""
    ended = not snap.is_open
    return {
        # "Same again" (issue 24): the next evening, same players and rules, the next first dealer
        "again_form": AgainForm(formdata=None, data={"request_id": new_request_id()}) if can_write and ended else None,
        "next_dealer": snap.standing.next_first_dealer,
        "cut_forms": [
            (
                t,
                CutForm(
                    formdata=None,
                    data={
                        "row_key": t.row_key,
                        "end": t.end,
                        "expected_version": snap.version,
                        "request_id": new_request_id(),
                    },
                ),
            )
            for t in snap.pending
        ],
        # The picture: through the redirect to its picture link, never a URL with the circle's link
        # (web/picture.py); in the page's language, also where it is shared (?lang= wins).
        "png_url": url_for("picture.picture", token=token, evening_id=snap.public_id),
        "picture_link": picture_link(circle, snap.public_id),
        "offline_evening": _offline_evening(token, snap, can_write and not ended),
        "fixed_rules": fixed_rules(snap, page.words),
    }


def deleted_page() -> Response:
    """An evening deleted as a test (housekeeping): said so, 410, on every page of the evening and
    on every write to it (a phone that still has the slate open). Its poll (htmx) is told to load
    the page again, so a phone left on the slate shows this page instead of polling on. A phone
    that may write sees here what it still holds in its offline queue for the evening (the queue
    sends it, and shows the server's refusal and "Drop")."""
    args = request.view_args or {}
    token, evening_id = args.get("token"), args.get("evening_id")
    ctx: dict[str, Any] = {"token": None, "circle": None, "label": None, "offline_evening": None, "rules": None}
    if isinstance(token, str) and isinstance(evening_id, str):
        try:
            circle, can_write = circle_service.open_circle(token)
            snap = snapshot.load_snapshot(svc.get_evening(circle, evening_id, deleted_ok=True))
        except NotFound:
            pass
        else:
            ctx.update(token=token, circle=circle, label=evening_label(snap.created_at, snap.names))
            if can_write:
                ctx.update(offline_evening=_offline_evening(token, snap, True), rules=rule_snapshot(snap))
    response = make_response(render_template("slate/deleted.html", written=request.method == "POST", **ctx), 410)
    response.headers["Cache-Control"] = "no-store"
    if request.headers.get("HX-Request"):
        response.headers["HX-Refresh"] = "true"
    return response


def _offline_evening(token: str, snap: EveningSnapshot, can_write: bool) -> dict[str, Any]:
    """What the offline script needs: the evening, and where a phone that may write sends its queue."""
    if not can_write:
        return {"evening": snap.public_id, "can_write": False}
    api = url_for("api.record_hand", evening_id=snap.public_id)
    return {"evening": snap.public_id, "can_write": True, "api": api, "token": token}


# The field a rule error is about: the page focuses it (and marks it invalid).
_FIELD_OF_CODE = {
    "row_required": "row",
    "row_unknown": "row",
    "row_closed": "row",
    "side_full": "declarer",
    "declarer_unknown": "declarer",
    "not_in_barrel": "declarer",
    "seich_used": "declarer",
    "contract_required": "played_as",
    "contract_not_allowed": "played_as",
    "points_not_whole": "declarer_points",
    "points_range": "declarer_points",
    "points_sum": "declarer_points",
    "match_needs_all": "declarer_points",
    "countermatch_needs_none": "declarer_points",
    "match_and_countermatch": "match",
}


# A write sent by the slate page's script (slate.js) asks for the parts of the page it changes
# instead of a redirect (slate/_swap.html); the answer says it is one.
SWAP = "X-Slate-Swap"


def _swap_asked() -> bool:
    return request.headers.get(SWAP) == "1"


def _keeps_shape(ctx: dict[str, Any]) -> bool:
    """Whether the page after the write has the shape of the page before it (a form to record
    the next hand, the undo button, no cuts to make, no result): then its parts are swapped in
    place; otherwise (the slate filled up, a tie to cut, the evening over) the page loads anew."""
    snap: EveningSnapshot = ctx["evening"]
    return bool(ctx["can_write"]) and not ctx["slate"].complete and not snap.pending and not snap.hand_in_play


def _page(template: str, ctx: dict[str, Any], status: int, **parts: Any) -> Page:
    """The page ``template``, or, for a write sent by the page's script, its parts (slate/_swap.html)."""
    if _swap_asked() and _keeps_shape(ctx):
        body = render_template("slate/_swap.html", **parts, **ctx)
        return body, status, {SWAP: "1", "Cache-Control": "no-store"}
    return render_template(template, **parts, **ctx), status


def _record_parts(ctx: dict[str, Any], form: HandForm | None) -> dict[str, Any]:
    """What the slate page's record form needs besides the page's context."""
    if form is None and ctx["can_write"] and not ctx["slate"].complete:
        form = make_hand_form(ctx["ruleset"], ctx["names"], version=ctx["evening"].version)
    return {"record_part": "slate/_record.html", "form": form, **ctx["page"].choices.parts()}


def _render(ctx: dict[str, Any], form: HandForm | None, status: int = 200) -> Page:
    return _page("slate/evening.html", ctx, status, **_record_parts(ctx, form))


def _in_place(token: str, evening_id: str, written: Page, loaded: tuple[Circle, EveningSnapshot] | None = None) -> Page:
    """After a write (its message flashed): for the page's script, the parts of the fresh page
    (the message taken along); else, or where the page changes its shape, ``written`` (the
    redirect to the page). ``loaded``: the circle (opened with a link that may write) and the
    evening's snapshot after the write, where the caller has them)."""
    if not _swap_asked():
        return written
    if loaded is None:
        circle, _can_write, ev = _load(token, evening_id, write=True)
        loaded = circle, snapshot.load_snapshot(ev)
    circle, snap = loaded
    ctx = _context(token, circle, True, (snap, outlook_svc.outlook_of(snap, circle)))
    if not _keeps_shape(ctx):
        return written
    return _render(ctx, None)


@bp.route("")
def evening(token: str, evening_id: str) -> Page:
    """The slate page, with an ETag: asked again unchanged, it is a 304 (see web/poll.py); drawn
    once per stamp and kept (web/page_cache.py)."""
    kept = page_cache.lookup("page", token, evening_id)
    if kept is not None:
        text, stamp, can_write = kept
        return mark_page(current_app, request, session, make_response(text), stamp, can_write=can_write)
    circle, can_write, ev = _load(token, evening_id)
    read = _read(circle, ev)
    snap = read[0]
    with page_cache.drawing() as drawing:
        ctx = _context(token, circle, can_write, read)
        body = render_template("slate/evening.html", **_record_parts(ctx, None), **ctx)
    page_cache.keep(drawing, "page", token, snap, can_write, body)
    return mark_page(current_app, request, session, make_response(body), stamp_of(snap), can_write=can_write)


@bp.route("/version")
def version(token: str, evening_id: str) -> Page:
    """Poll: 204 while ``?v=`` is the current version (and ``?o=`` the outlook setting, ``?n=`` the
    number of naming events: see services.read.stamp), else the fresh live fragment (kept once drawn)."""
    circle, can_write = open_or_404(token)
    try:
        current = poll_state(circle, evening_id)
    except NotFound:
        abort(404)
    args = request.args
    if fragment_unchanged(current, args.get("v", type=int), args.get("o", type=int), args.get("n", type=int)):
        return "", 204
    kept = page_cache.take("live", token, evening_id, current, can_write)
    if kept is not None:
        return kept, 200
    snap, outlook = _read(circle, evening_or_404(circle, evening_id))
    with page_cache.drawing() as drawing:
        text = render_template("slate/_live.html", **_live_context(token, can_write, snap, build_live(snap, outlook)))
    page_cache.keep(drawing, "live", token, snap, can_write, text)
    return text, 200


@bp.route("/outlook", methods=["POST"])
def outlook_setting(token: str, evening_id: str) -> Page:
    """Hide or show the outlook for this evening (remembered; every phone follows)."""
    _circle, _can_write, ev = _load(token, evening_id, write=True)
    back = redirect(url_for("slate.evening", token=token, evening_id=evening_id) + "#outlook")
    form = ButtonForm()
    hidden = request.form.get("hidden")
    if not form.validate():
        flash(_("The form was too old or not sent by this app. Nothing was written."), "error")
        return back
    if hidden not in ("0", "1"):
        flash(_("Hide or show the outlook: nothing else can be chosen here."), "error")
        return back
    outlook_svc.set_hidden(ev, hidden == "1")
    done = _("The outlook is hidden for this evening.") if hidden == "1" else _("The outlook is shown again.")
    flash(done, "success")
    return back


def _submit(
    token: str,
    loaded: tuple[Circle, bool, Evening],
    form: HandForm,
    apply: Callable[[Evening, HandEntry], Evening],
    rerender: Callable[[dict[str, Any], HandForm, int], Page],
    done: Callable[[EveningSnapshot], str],
) -> Page:
    """Validate and apply to the evening ``loaded`` (once, by the route). Written: ``done``'s
    message flashed, the page after it (``_written``). Refused: the page comes back with the
    form, the message next to it (not at the top of the page) and the first invalid field marked."""
    circle, can_write, ev = loaded
    ruleset = ruleset_of(ev)
    if not ev.is_open:
        return _closed(token, circle, ev, 409)
    if not form.validate():
        messages: list[tuple[str, str]] = []
        for name in form.errors:
            if name == "csrf_token":
                messages.append(("error", _("The form was too old or not sent by this app. Nothing was written.")))
            elif name in ("expected_version", "request_id"):
                messages.append(("error", _("This form is out of date. Nothing was written; please try again.")))
            # every other field shows its own message under the field (once)
        refresh_version(form, ev.version)
        ctx = _context(token, circle, can_write, _read(circle, ev))
        ctx["form_messages"] = messages
        ctx["invalid"] = next((n for n in form.errors if n in form._fields and n not in _HIDDEN), None)
        return rerender(ctx, form, 422)
    try:
        written = apply(ev, entry_from_form(ruleset, form))
    except EveningDeleted:
        return deleted_page()  # deleted while the hand was on its way: nothing written
    except StaleVersion as err:
        fresh = _read(circle, svc.get_evening(circle, ev.public_id))
        ctx = _context(token, circle, can_write, fresh)
        ctx["form_messages"] = [("warning", error_text(err, ruleset, fresh[0].names))]
        refresh_version(form, fresh[0].version)
        return rerender(ctx, form, 409)
    except RuleError as err:
        read = _read(circle, ev)
        ctx = _context(token, circle, can_write, read)
        ctx["form_messages"] = [("error", error_text(err, ruleset, read[0].names))]
        ctx["invalid"] = _FIELD_OF_CODE.get(err.code)
        if form.is_seich():  # a refused Seich comes back unticked: the next entry is a hand, visibly
            form.seich.data = False
        refresh_version(form, read[0].version)
        if isinstance(err, RequestIdReused):
            renew_request_id(form)
        return rerender(ctx, form, 422)
    snap = snapshot.load_snapshot(written)
    flash(done(snap), "success")
    _say_if_over(snap.is_open)
    # the top of the page: the message (what was written) and the turn guide (who deals next) in view
    back = redirect(url_for("slate.evening", token=token, evening_id=snap.public_id))
    return _in_place(token, snap.public_id, back, (circle, snap))


_HIDDEN = ("csrf_token", "expected_version", "request_id")


@bp.route("/hands", methods=["POST"])
def record(token: str, evening_id: str) -> Page:
    try:
        loaded = _load(token, evening_id, write=True)
    except LinkGone as err:  # the link was replaced meanwhile: say so, and repeat what was typed
        return link_gone(err, typed_hand(token, evening_id, request.form))
    ev = loaded[2]
    form = make_hand_form(ruleset_of(ev), seat_names(ev), version=ev.version, formdata=request.form)

    def apply(evening: Evening, entry: HandEntry) -> Evening:
        return svc.record_hand(
            evening,
            entry,
            expected_version=form.expected_version.data,
            request_id=form.request_id.data,
            author=form.author.data or None,
            queued_after=form.queued_after.data.split() if form.queued_after.data else None,
        )

    def done(snap: EveningSnapshot) -> str:
        return _("Hand recorded: %(hand)s", hand=last_hand(snap.ruleset, snap.names, snap.slate.entries))

    return _submit(token, loaded, form, apply, _render, done)


def _say_if_over(is_open: bool) -> None:
    """The write filled the last cell (and every tie is cut): the evening closed with it."""
    if not is_open:
        flash(
            _(
                "The slate is full: the evening is over and counts in the purse and the statistics. "
                "A mistake? Reopen it to correct a hand."
            ),
            "success",
        )


def _render_edit(index: int) -> Callable[[dict[str, Any], HandForm, int], Page]:
    def render(ctx: dict[str, Any], form: HandForm, status: int) -> Page:
        slate = ctx["slate"]
        if not 0 <= index < len(slate.entries):
            abort(404)
        current = slate.entries[index]
        return _page(
            "slate/entry.html",
            ctx,
            status,
            record_part="slate/_correct.html",
            in_slate=_swap_asked(),
            form=form,
            index=index,
            current=describe(ctx["ruleset"], ctx["names"], current),
            **hand_choices(ctx["ruleset"], slate, keep=current.row_key).parts(),
        )

    return render


@bp.route("/entries/<int:index>", methods=["GET", "POST"])
def correct(token: str, evening_id: str, index: int) -> Page:
    loaded = _load(token, evening_id, write=True)
    circle, can_write, ev = loaded
    ruleset, names = ruleset_of(ev), seat_names(ev)
    if not ev.is_open:
        return _closed(token, circle, ev, 409 if request.method == "POST" else 200, index=index)
    if request.method == "GET":
        ctx = _context(token, circle, can_write, _read(circle, ev))
        if not 0 <= index < len(ctx["slate"].entries):
            abort(404)
        form = make_hand_form(ruleset, names, version=ev.version, entry=ctx["slate"].entries[index])
        return _render_edit(index)(ctx, form, 200)
    form = make_hand_form(ruleset, names, version=ev.version, formdata=request.form)

    def apply(evening: Evening, entry: HandEntry) -> Evening:
        return svc.correct_entry(
            evening,
            index,
            entry,
            expected_version=form.expected_version.data,
            request_id=form.request_id.data,
            author=form.author.data or None,
        )

    def done(snap: EveningSnapshot) -> str:
        corrected = describe(snap.ruleset, snap.names, snap.slate.entries[index])
        return _("Hand %(n)s corrected: %(hand)s", n=index + 1, hand=corrected)

    return _submit(token, loaded, form, apply, _render_edit(index), done)


def _closed(token: str, circle: Circle, ev: Evening, status: int, *, index: int | None = None) -> tuple[str, int]:
    """An entry page of an ended evening: say so, and offer to reopen it."""
    return render_template(
        "slate/closed.html", token=token, circle=circle, evening=ev, index=index, action_form=_action_form(ev.version)
    ), status


def _action(
    token: str,
    evening_id: str,
    form: ActionForm,
    change: Callable[..., Evening],
    done: str,
    loaded: tuple[Circle, bool, Evening] | None = None,
    answer: Callable[[Page, tuple[Circle, EveningSnapshot] | None], Page] | None = None,
) -> Page:
    """A POST-only button that changes the evening: ``change(evening, expected_version=...,
    request_id=...)`` with the version and request id the page's form carried (``loaded``:
    the evening its caller already opened with a link that may write). The answer is the
    redirect to the slate, or ``answer(redirect, (circle, the snapshot written))``: the
    snapshot where the change was written, None where it was refused."""
    circle, _can_write, ev = loaded or _load(token, evening_id, write=True)
    back = redirect(url_for("slate.evening", token=token, evening_id=evening_id) + "#slate")
    written = None
    if not form.validate():
        flash(_("The form was too old or not sent by this app. Nothing was written."), "error")
        return back
    was_open = ev.is_open
    try:
        after = change(ev, expected_version=form.expected_version.data, request_id=form.request_id.data)
    except StaleVersion as err:
        flash(error_text(err), "warning")
    except RuleError as err:
        flash(error_text(err, ruleset_of(ev), seat_names(ev)), "error")
    else:
        flash(done, "success")
        if was_open and request.endpoint != "slate.end":  # a cut that decided the last tie of a full slate
            _say_if_over(after.is_open)
        if answer is not None:
            written = circle, snapshot.load_snapshot(after)
    return back if answer is None else answer(back, written)


@bp.route("/undo", methods=["POST"])
def undo(token: str, evening_id: str) -> Page:
    form = ActionForm()
    author = form.author.data or None
    return _action(
        token,
        evening_id,
        form,
        lambda ev, **version: svc.undo_last(ev, author=author, **version),
        _("Last entry taken back."),
        answer=lambda back, written: _in_place(token, evening_id, back, written),
    )


@bp.route("/end", methods=["POST"])
def end(token: str, evening_id: str) -> Page:
    loaded = _load(token, evening_id, write=True)  # an onlooker's post: 403 before anything else
    early = request.form.get("early") == "1"
    counts = request.form.get("counts_in_money")
    if early and counts not in ("0", "1"):  # the table must say it; no default decides for them
        flash(_("Say whether this evening counts in the money totals. Nothing was written."), "error")
        return redirect(url_for("slate.evening", token=token, evening_id=evening_id))
    return _action(
        token,
        evening_id,
        ActionForm(),
        lambda ev, **version: svc.end_evening(ev, early=early, counts_in_money=counts != "0", **version),
        _("The evening is over."),
        loaded,
    )


@bp.route("/cuts/draw", methods=["POST"])
def draw_cuts(token: str, evening_id: str) -> Page:
    return _action(token, evening_id, ActionForm(), svc.draw_cuts, _("The app cut the cards."))


@bp.route("/cuts", methods=["POST"])
def set_cut(token: str, evening_id: str) -> Page:
    form = CutForm()

    def change(ev: Evening, **version: Any) -> Evening:
        winner = int(form.winner.data)
        order: tuple[int, ...] = ()
        lowest = request.form.get("lowest", type=int)
        if lowest is not None:  # a three-way tie: the highest and the lowest card are asked
            _cuts, pending = svc.cuts_and_pending(ev)
            tie = next((t for t in pending if (t.row_key, t.end) == (form.row_key.data, form.end.data)), None)
            if tie is not None:
                order = tie.order_of(winner, lowest)
        return svc.set_cut(ev, Cut(form.row_key.data, form.end.data, winner, False, order), **version)

    return _action(token, evening_id, form, change, _("Cut recorded."))


@bp.route("/reopen", methods=["POST"])
def reopen(token: str, evening_id: str) -> Page:
    _circle, _can_write, ev = _load(token, evening_id, write=True)
    if svc.load_slate(ev).complete:  # the correction fills the last cell again: it closes the evening again
        done = _(
            "The evening is open again: correct what was wrong. "
            "With every cell filled, it is over again once corrected."
        )
    else:
        done = _("The evening is open again: correct what was wrong, then close it again.")
    return _action(token, evening_id, ActionForm(), svc.reopen_evening, done)


@bp.route("/again", methods=["POST"])
def again(token: str, evening_id: str) -> Page:
    """ "Same again": the next evening with the same players, the same rules and the next first
    dealer. The form's request id makes a double tap start one evening only."""
    circle, _can_write, ev = _load(token, evening_id, write=True)
    form = AgainForm()
    back = redirect(url_for("slate.evening", token=token, evening_id=evening_id))
    if not form.validate():  # the CSRF token and the request id
        flash(_("The form was too old or not sent by this app. Nothing was written."), "error")
        return back
    try:
        started = house_rules.start_same_again(circle, ev, request_id=form.request_id.data)
    except RuleError as err:
        flash(error_text(err, ruleset_of(ev), seat_names(ev)), "error")
        return back
    flash(_("Same again: a new evening with the same players and rules."), "success")
    return redirect(url_for("slate.evening", token=token, evening_id=started.public_id))
