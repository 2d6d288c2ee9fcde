"""Housekeeping pages (issue 9.12): rename a player, merge two players who are the same
person, delete a test evening, take a change back. Every change is asked for on a
page, then confirmed on a second page that says what will happen; only the
confirmation (POST, CSRF, a request id) writes."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, redirect, render_template, request, url_for
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response

from ..forms import ButtonForm, new_request_id
from ..game.errors import RuleError
from ..history.records import Housekeeping, HousekeepingKind
from ..i18n import _
from ..models import Circle
from ..present.housekeeping import Words, change_text, confirm_text, evening_words, nothing_lost
from ..present.slate import build_slate_view
from ..services import evenings
from ..services import housekeeping as svc
from ..services.errors import NotFound
from ..services.read import listings, snapshot, who_is_who
from ..services.read.snapshot import EveningSnapshot
from .common import flash_error, open_or_404, require_write

bp = Blueprint("housekeeping", __name__, url_prefix="/c/<token>/housekeeping")

KINDS = {k.value: k for k in HousekeepingKind}


def _words(circle: Circle, state: who_is_who.State) -> tuple[Words, list[listings.EveningLabel]]:
    labels = listings.evening_labels(circle)
    evenings = {e.public_id: evening_words(e, in_sentence=True) for e in labels}
    return Words(state.folded.names, evenings, who_is_who.names_before(state)), labels


def _evening_shown(circle: Circle, event: Housekeeping, log: dict[int, Housekeeping]) -> EveningSnapshot | None:
    """The evening a delete (or the undo of one) is about, to show it on the confirmation page."""
    target = log.get(event.undoes or 0) if event.kind is HousekeepingKind.UNDO else event
    if target is None or target.kind is not HousekeepingKind.DELETE_EVENING or target.evening is None:
        return None
    try:
        return snapshot.load_snapshot(evenings.get_evening(circle, target.evening, deleted_ok=True))
    except NotFound:
        return None


def _int(source: MultiDict[str, str], name: str) -> int | None:
    value = source.get(name, "")
    return int(value) if value.isdigit() and len(value) < 12 else None


def _event(source: MultiDict[str, str]) -> Housekeeping | None:
    """The change a form asks for (not yet checked), or None when the form makes no sense."""
    kind = KINDS.get(source.get("kind", ""))
    if kind is None:
        return None
    player, into, undoes = _int(source, "player"), _int(source, "into"), _int(source, "undoes")
    return Housekeeping(
        seq=0,
        kind=kind,
        player=None if player is None else str(player),
        into=None if into is None else str(into),
        name=source.get("name") if kind is HousekeepingKind.RENAME else None,
        evening=source.get("evening") or None if kind is HousekeepingKind.DELETE_EVENING else None,
        undoes=undoes,
    )


def _back(token: str) -> Response:
    return redirect(url_for("housekeeping.page", token=token))


@bp.route("")
def page(token: str) -> str:
    circ, can_write = open_or_404(token)
    state = who_is_who.folded(circ)
    words, labels = _words(circ, state)
    log = {e.seq: e for e in state.events}
    return render_template(
        "housekeeping/page.html",
        circle=circ,
        token=token,
        can_write=can_write,
        players=who_is_who.players_now(state),
        evenings=[(e, evening_words(e)) for e in labels if not e.deleted],
        changes=[(c, change_text(c.event, words, log)) for c in who_is_who.changes(state)],
    )


@bp.route("/confirm")
def confirm(token: str) -> Response | str:
    """What the change will do, and the one button that writes it."""
    circ, can_write = open_or_404(token)
    require_write(can_write)
    event = _event(request.args)
    if event is None:
        flash(_("Choose what to change first."), "error")
        return _back(token)
    try:
        checked = svc.preview(circ, event)
    except RuleError as err:
        flash_error(err)
        return _back(token)
    state = who_is_who.folded(circ)
    words, _labels = _words(circ, state)
    log = {e.seq: e for e in state.events}
    played = sum(1 for seats in state.seats.values() if checked.player in seats)
    shown = _evening_shown(circ, checked, log)
    fields: dict[str, Any] = {
        "kind": checked.kind.value,
        "player": checked.player,
        "into": checked.into,
        "name": checked.name,
        "evening": checked.evening,
        "undoes": checked.undoes,
    }
    return render_template(
        "housekeeping/confirm.html",
        circle=circ,
        token=token,
        kind=checked.kind.value,
        sentences=confirm_text(checked, words, log, played),
        nothing_lost=nothing_lost(),
        evening=shown,
        view=None if shown is None else build_slate_view(shown),
        fields={k: v for k, v in fields.items() if v is not None},
        request_id=new_request_id(),
        button=ButtonForm(formdata=None),
    )


@bp.route("", methods=["POST"])
def change(token: str) -> Response:
    circ, can_write = open_or_404(token)
    require_write(can_write)
    if not ButtonForm().validate():  # only the CSRF token
        flash(_("The form was too old or not sent by this app. Nothing was written."), "error")
        return _back(token)
    event = _event(request.form)
    if event is None:
        flash(_("Choose what to change first."), "error")
        return _back(token)
    rid = request.form.get("request_id", "")
    author = request.form.get("author") or None
    try:
        if event.kind is HousekeepingKind.RENAME:
            svc.rename_player(circ, int(event.player or 0), event.name or "", request_id=rid, author=author)
        elif event.kind is HousekeepingKind.MERGE:
            svc.merge_players(circ, int(event.player or 0), int(event.into or 0), request_id=rid, author=author)
        elif event.kind is HousekeepingKind.DELETE_EVENING:
            svc.delete_evening(circ, event.evening or "", request_id=rid, author=author)
        else:
            svc.undo_change(circ, event.undoes or 0, request_id=rid, author=author)
    except RuleError as err:
        flash_error(err)
    else:
        flash(_("Done. The change is in the list below and can be taken back."), "success")
    return _back(token)
