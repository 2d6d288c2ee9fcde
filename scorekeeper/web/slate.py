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

from ..forms import ActionForm, ButtonForm, CutForm, HandForm, new_request_id, renew_request_id
from ..game.errors import RuleError
from ..i18n import _, current_language
from ..models import Circle, Evening
from ..present.errors import error_text
from ..present.labels import describe, row_labels
from ..present.offline import rule_snapshot
from ..present.outlook import build_outlook_view
from ..present.result import result_view
from ..present.slate import build_slate_view, contract_choices
from ..scoring.final import Cut
from ..services import evenings as svc
from ..services import outlook as outlook_svc
from ..services.errors import NotFound, RequestIdReused, StaleVersion
from ..services.snapshot import EveningSnapshot
from ..services.stamp import poll_state, stamp_of
from . import page_cache
from .common import evening_or_404, open_or_404, require_write, seat_names
from .hand_form import entry_from_form, make_hand_form, refresh_version, row_options, side_of_seats
from .poll import fragment_unchanged, mark_page

bp = Blueprint("slate", __name__, url_prefix="/c/<token>/e/<evening_id>")

Page = Response | str | tuple[str, int]


def _load(token: str, evening_id: str, *, write: bool = False) -> tuple[Circle, bool, Evening]:
    circle, can_write = open_or_404(token)
    if write:
        require_write(can_write)
    return circle, can_write, evening_or_404(circle, evening_id)


def _action_form(version: int) -> ActionForm:
    return ActionForm(formdata=None, data={"expected_version": version, "request_id": new_request_id()})


def _live_context(token: str, circle: Circle, can_write: bool, snap: EveningSnapshot) -> dict[str, Any]:
    """What the live fragment shows (slate/_live.html; a test holds it to every name the
    fragment's templates use), from the evening's snapshot."""
    ended = not snap.is_open
    return {
        "token": token,
        "evening": snap,
        "can_write": can_write and not ended,
        "ended": ended,
        "view": build_slate_view(snap),
        "outlook_view": build_outlook_view(snap, outlook_svc.outlook_of(snap, circle)),
        "outlook_toggle": can_write,  # a setting of the evening, not of its slate: also once ended
        "button": ButtonForm(formdata=None),
        "open_by_row": {r["key"]: r["open"] for r in row_options(snap.ruleset, snap.slate)},
        "rules": rule_snapshot(snap),
    }


def _context(token: str, circle: Circle, can_write: bool, snap: EveningSnapshot) -> dict[str, Any]:
    """Everything the slate page shows: the live fragment's and the rest, from the evening's snapshot."""
    ruleset, names, slate = snap.ruleset, list(snap.names), snap.slate
    ended = not snap.is_open
    return {
        **_live_context(token, circle, can_write, snap),
        "circle": circle,
        "may_reopen": can_write and ended,
        "ruleset": ruleset,
        "names": names,
        "slate": slate,
        "pending": snap.pending,
        "row_names": row_labels(ruleset),
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
        "result": result_view(snap),
        "log": [
            (item, describe(ruleset, names, item.previous), describe(ruleset, names, item.entry))
            for item in snap.corrections
        ],
        "action_form": _action_form(snap.version),
        # The picture in the page's language, also where the link is shared (?lang= wins over everything).
        "png_url": url_for("picture.slate_png", token=token, evening_id=snap.public_id, lang=current_language()),
        "offline_evening": _offline_evening(token, snap, can_write and not ended),
        "last_hand": _last_hand(snap),
        "form_messages": [],
        "invalid": None,
    }


def _offline_evening(token: str, snap: EveningSnapshot, can_write: bool) -> dict[str, Any]:
    """What the offline script needs: the evening, and where a phone that may write sends its queue."""
    if not can_write:
        return {"evening": snap.public_id, "can_write": False}
    api = url_for("api.record_hand", evening_id=snap.public_id)
    return {"evening": snap.public_id, "can_write": True, "api": api, "token": token}


def _last_hand(snap: EveningSnapshot) -> str | None:
    """What the undo button takes back: ``hand 14: Anna · Roses · 88 : 69``."""
    entries = snap.slate.entries
    if not entries:
        return None
    return _("hand %(n)s: %(what)s", n=len(entries), what=describe(snap.ruleset, snap.names, entries[-1]))


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


def _render(ctx: dict[str, Any], form: HandForm | None, status: int = 200) -> tuple[str, int]:
    ruleset = ctx["ruleset"]
    if form is None and ctx["can_write"] and not ctx["slate"].complete:
        form = make_hand_form(ruleset, ctx["names"], version=ctx["evening"].version)
    return (
        render_template(
            "slate/evening.html",
            form=form,
            rows=row_options(ruleset, ctx["slate"]),
            contracts=contract_choices(ruleset),
            seat_side=side_of_seats(ruleset),
            **ctx,
        ),
        status,
    )


@bp.route("")
def evening(token: str, evening_id: str) -> Page:
    """The slate page, with an ETag: asked again unchanged, it is a 304 (see web/poll.py); drawn
    once per stamp and kept (web/page_cache.py)."""
    kept = page_cache.lookup("page", token, evening_id)
    if kept is not None:
        text, stamp, can_write = kept
        return mark_page(current_app, request, session, make_response(text), stamp, can_write=can_write)
    circle, can_write, ev = _load(token, evening_id)
    snap = svc.load_snapshot(ev)
    with page_cache.drawing() as drawing:
        body, status = _render(_context(token, circle, can_write, snap), None)
    page_cache.keep(drawing, "page", token, snap, can_write, body)
    return mark_page(current_app, request, session, make_response(body, status), stamp_of(snap), can_write=can_write)


@bp.route("/version")
def version(token: str, evening_id: str) -> Page:
    """Poll: 204 while ``?v=`` is the current version (and ``?o=`` the outlook setting, ``?n=`` the
    number of naming events: see services.stamp), else the fresh live fragment (kept once drawn)."""
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
    snap = svc.load_snapshot(evening_or_404(circle, evening_id))
    with page_cache.drawing() as drawing:
        text = render_template("slate/_live.html", **_live_context(token, circle, can_write, snap))
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
    evening_id: str,
    form: HandForm,
    apply: Callable[[Evening, Any], Any],
    rerender: Callable[[dict[str, Any], HandForm, int], Page],
) -> Page:
    """Validate and apply; on failure the page comes back with the form, the message next to
    it (not at the top of the page) and the first invalid field marked."""
    circle, can_write, ev = _load(token, evening_id, write=True)
    ruleset = svc.ruleset_of(ev)
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
        ctx = _context(token, circle, can_write, svc.load_snapshot(ev))
        ctx["form_messages"] = messages
        ctx["invalid"] = next((n for n in form.errors if n in form._fields and n not in _HIDDEN), None)
        return rerender(ctx, form, 422)
    try:
        entry = entry_from_form(ruleset, form)
        apply(ev, entry)
    except StaleVersion as err:
        fresh = svc.load_snapshot(svc.get_evening(circle, evening_id))
        ctx = _context(token, circle, can_write, fresh)
        ctx["form_messages"] = [("warning", error_text(err, ruleset, fresh.names))]
        refresh_version(form, fresh.version)
        return rerender(ctx, form, 409)
    except RuleError as err:
        snap = svc.load_snapshot(ev)
        ctx = _context(token, circle, can_write, snap)
        ctx["form_messages"] = [("error", error_text(err, ruleset, snap.names))]
        ctx["invalid"] = _FIELD_OF_CODE.get(err.code)
        if form.is_seich():  # a refused Seich comes back unticked: the next entry is a hand, visibly
            form.seich.data = False
        refresh_version(form, snap.version)
        if isinstance(err, RequestIdReused):
            renew_request_id(form)
        return rerender(ctx, form, 422)
    # the top of the page: the message (what was written) and the turn guide (who deals next) in view
    return redirect(url_for("slate.evening", token=token, evening_id=evening_id))


_HIDDEN = ("csrf_token", "expected_version", "request_id")


@bp.route("/hands", methods=["POST"])
def record(token: str, evening_id: str) -> Page:
    _c, _w, ev = _load(token, evening_id, write=True)
    form = make_hand_form(svc.ruleset_of(ev), seat_names(ev), version=ev.version, formdata=request.form)

    def apply(evening: Evening, entry: Any) -> None:
        svc.record_hand(
            evening,
            entry,
            expected_version=form.expected_version.data,
            request_id=form.request_id.data,
            author=form.author.data or None,
            queued_after=form.queued_after.data.split() if form.queued_after.data else None,
        )

    ok = _submit(token, evening_id, form, apply, _render)
    if isinstance(ok, Response):
        snap = svc.load_snapshot(svc.get_evening(_c, evening_id))
        flash(_("Hand recorded: %(hand)s", hand=_last_hand(snap)), "success")
    return ok


def _render_edit(index: int) -> Callable[[dict[str, Any], HandForm, int], tuple[str, int]]:
    def render(ctx: dict[str, Any], form: HandForm, status: int) -> tuple[str, int]:
        slate = ctx["slate"]
        if not 0 <= index < len(slate.entries):
            abort(404)
        current = slate.entries[index]
        return (
            render_template(
                "slate/entry.html",
                form=form,
                index=index,
                current=describe(ctx["ruleset"], ctx["names"], current),
                rows=row_options(ctx["ruleset"], slate, keep=current.row_key),
                contracts=contract_choices(ctx["ruleset"]),
                seat_side=side_of_seats(ctx["ruleset"]),
                **ctx,
            ),
            status,
        )

    return render


@bp.route("/entries/<int:index>", methods=["GET", "POST"])
def correct(token: str, evening_id: str, index: int) -> Page:
    circle, can_write, ev = _load(token, evening_id, write=True)
    ruleset, names = svc.ruleset_of(ev), seat_names(ev)
    if not ev.is_open:
        return _closed(token, circle, ev, 409 if request.method == "POST" else 200, index=index)
    if request.method == "GET":
        ctx = _context(token, circle, can_write, svc.load_snapshot(ev))
        if not 0 <= index < len(ctx["slate"].entries):
            abort(404)
        form = make_hand_form(ruleset, names, version=ev.version, entry=ctx["slate"].entries[index])
        return _render_edit(index)(ctx, form, 200)
    form = make_hand_form(ruleset, names, version=ev.version, formdata=request.form)

    def apply(evening: Evening, entry: Any) -> None:
        svc.correct_entry(
            evening,
            index,
            entry,
            expected_version=form.expected_version.data,
            request_id=form.request_id.data,
            author=form.author.data or None,
        )

    ok = _submit(token, evening_id, form, apply, _render_edit(index))
    if isinstance(ok, Response):
        snap = svc.load_snapshot(svc.get_evening(circle, evening_id))
        flash(
            _("Hand %(n)s corrected: %(hand)s", n=index + 1, hand=describe(ruleset, names, snap.slate.entries[index])),
            "success",
        )
    return ok


def _closed(token: str, circle: Circle, ev: Evening, status: int, *, index: int | None = None) -> tuple[str, int]:
    """An entry page of an ended evening: say so, and offer to reopen it."""
    return render_template(
        "slate/closed.html", token=token, circle=circle, evening=ev, index=index, action_form=_action_form(ev.version)
    ), status


def _action(token: str, evening_id: str, form: ActionForm, change: Callable[..., Any], done: str) -> Page:
    """A POST-only button that changes the evening: ``change(evening, expected_version=...,
    request_id=...)`` with the version and request id the page's form carried."""
    _circle, _can_write, ev = _load(token, evening_id, write=True)
    back = redirect(url_for("slate.evening", token=token, evening_id=evening_id) + "#slate")
    if not form.validate():
        flash(_("The form was too old or not sent by this app. Nothing was written."), "error")
        return back
    try:
        change(ev, expected_version=form.expected_version.data, request_id=form.request_id.data)
    except StaleVersion as err:
        flash(error_text(err), "warning")
    except RuleError as err:
        flash(error_text(err, svc.ruleset_of(ev), seat_names(ev)), "error")
    else:
        flash(done, "success")
    return back


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
    )


@bp.route("/end", methods=["POST"])
def end(token: str, evening_id: str) -> Page:
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
    )


@bp.route("/cuts/draw", methods=["POST"])
def draw_cuts(token: str, evening_id: str) -> Page:
    return _action(token, evening_id, ActionForm(), svc.draw_cuts, _("The app cut the cards."))


@bp.route("/cuts", methods=["POST"])
def set_cut(token: str, evening_id: str) -> Page:
    form = CutForm()

    def change(ev: Evening, **version: Any) -> None:
        winner = int(form.winner.data)
        order: tuple[int, ...] = ()
        lowest = request.form.get("lowest", type=int)
        if lowest is not None:  # a three-way tie: the highest and the lowest card are asked
            _cuts, pending = svc.cuts_and_pending(ev)
            tie = next((t for t in pending if (t.row_key, t.end) == (form.row_key.data, form.end.data)), None)
            if tie is not None:
                order = tie.order_of(winner, lowest)
        svc.set_cut(ev, Cut(form.row_key.data, form.end.data, winner, False, order), **version)

    return _action(token, evening_id, form, change, _("Cut recorded."))


@bp.route("/reopen", methods=["POST"])
def reopen(token: str, evening_id: str) -> Page:
    return _action(
        token,
        evening_id,
        ActionForm(),
        svc.reopen_evening,
        _("The evening is open again: correct what was wrong, then close it again."),
    )
