"""The circle page: players, history, records, and starting an evening."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from flask import Blueprint, abort, flash, make_response, redirect, render_template, request, url_for
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response

from ..forms import (
    EXTRA_ROWS,
    SUIT_ORDERS,
    AddPlayerForm,
    ButtonForm,
    StartEveningForm,
    choices,
    new_request_id,
    renew_request_id,
    start_form_class,
    suit_order_default,
)
from ..game.errors import RuleError
from ..game.rulesets import RuleSet, Variant, default_ruleset, stake_of, typed_factors
from ..i18n import _
from ..present.labels import VARIANT_LABELS, VARIANT_SHORT, row_label
from ..services import circles as circle_service
from ..services import evenings as evening_service
from ..services import housekeeping
from ..services.errors import RequestIdReused
from .common import flash_error, open_or_404, page_of, require_write

bp = Blueprint("circles", __name__, url_prefix="/c/<token>")
HISTORY_PAGE = 20  # evenings per page of the history list


@bp.route("")
def circle(token: str) -> str:
    circ, can_write = open_or_404(token)
    history = circle_service.history(circ)
    return render_template(
        "circles/circle.html",
        circle=circ,
        token=token,
        can_write=can_write,
        open_evenings=[ev for ev in history if ev.status == "open"],
        past=page_of([ev for ev in history if ev.status != "open"], "page", HISTORY_PAGE),
        records=circle_service.player_records(circ),
        player_form=AddPlayerForm(formdata=None),
        button=ButtonForm(formdata=None),
        variants=VARIANT_LABELS,
        variants_short={v.value: str(label) for v, label in VARIANT_SHORT.items()},
    )


@bp.route("/view-link", methods=["POST"])
def new_view_link(token: str) -> Response | tuple[str, int]:
    """A new onlookers link (the old one stops working), shown once."""
    circ, can_write = open_or_404(token)
    require_write(can_write)
    if not ButtonForm().validate():  # only the CSRF token
        flash(_("The form was too old or not sent by this app. Nothing was written."), "error")
        return redirect(url_for("circles.circle", token=token) + "#share")
    view_token = circle_service.new_view_link(circ)
    resp = make_response(
        render_template(
            "circles/view_link.html",
            circle=circ,
            token=token,
            view_url=url_for("circles.circle", token=view_token, _external=True),
        )
    )
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.route("/write-link", methods=["GET", "POST"])
def new_write_link(token: str) -> Response | tuple[str, int] | str:
    """A new write link. GET: what it does, and the button (every other phone loses access);
    POST: the old link stops working, the new one is shown once (this phone remembers it)."""
    circ, can_write = open_or_404(token)
    require_write(can_write)
    form = ButtonForm()
    if request.method == "GET":
        return render_template("circles/write_link.html", circle=circ, token=token, button=form, write_url=None)
    if not form.validate():  # only the CSRF token
        flash(_("The form was too old or not sent by this app. Nothing was written."), "error")
        return redirect(url_for("circles.new_write_link", token=token))
    write_token = circle_service.new_write_link(circ)
    resp = make_response(
        render_template(
            "circles/write_link.html",
            circle=circ,
            token=write_token,
            button=None,
            write_url=url_for("circles.circle", token=write_token, _external=True),
        )
    )
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.route("/players", methods=["POST"])
def add_player(token: str) -> Response | tuple[str, int]:
    circ, can_write = open_or_404(token)
    require_write(can_write)
    form = AddPlayerForm()
    if form.validate_on_submit():
        try:
            player = circle_service.add_player(circ, form.name.data or "")
        except RuleError as err:
            flash_error(err)
        else:
            flash(_("%(name)s joined the circle.", name=player.name), "success")
    else:
        for errors in form.errors.values():
            for e in errors:
                flash(str(e), "error")
    return redirect(url_for("circles.circle", token=token) + "#players")


# --- starting an evening ------------------------------------------------------------


def _shape(source: MultiDict[str, str]) -> tuple[Variant, str, list[str]]:
    try:
        variant = Variant(source.get("variant", "three"))
    except ValueError:
        abort(404)
    order = source.get("suit_order") or suit_order_default(variant)
    if order not in SUIT_ORDERS:
        order = suit_order_default(variant)
    extras = [e for e in source.getlist("extra_rows") if e in EXTRA_ROWS]
    if variant not in (Variant.TEAMS, Variant.SOLO4):
        extras = []
    return variant, order, extras


def _build_form(
    source: MultiDict[str, str] | None, variant: Variant, order: str, extras: list[str]
) -> tuple[StartEveningForm, RuleSet]:
    shape = default_ruleset(variant, suit_order=order, extra_rows=extras)
    cls = start_form_class(shape)
    stake = shape.stake
    defaults: dict[str, Any] = {
        "variant": variant.value,
        "deck": shape.deck.value,
        "suit_order": order,
        "barrel": shape.barrel.value,
        "extra_rows": extras,
        "stake_chf": Decimal(stake.rappen) / 100,
        "per_points": stake.per_points,
        "round_to": str(stake.round_to),
        "first_dealer": 0,
        "request_id": new_request_id(),
    }
    form = cls(formdata=source, data=defaults) if source is not None else cls(formdata=None, data=defaults)
    if source is not None:
        _follow_defaults(form, source, shape)
    form.shown_order.data, form.shown_extras.data = order, " ".join(extras)
    return form, shape


def _follow_defaults(form: StartEveningForm, source: MultiDict[str, str], shape: RuleSet) -> None:
    """Factors left as the page showed them take tonight's defaults (``rulesets.typed_factors``):
    ticking Slalom moves the jokers up, as in the API."""
    if "shown_order" not in source:
        return
    order = source.get("shown_order") or ""
    extras = [e for e in source.get("shown_extras", "").split() if e in EXTRA_ROWS]
    shown = default_ruleset(
        shape.variant,
        suit_order=order if order in SUIT_ORDERS else suit_order_default(shape.variant),
        extra_rows=extras if shape.variant in (Variant.TEAMS, Variant.SOLO4) else (),
    )
    typed: dict[str, int | None] = {}
    for row in shown.rows:
        field = getattr(form, f"factor_{row.key}", None)
        typed[row.key] = field.data if field is not None and not field.process_errors else None
    changed = typed_factors(shown, typed)
    for row in shape.rows:
        field = getattr(form, f"factor_{row.key}")
        if row.key not in changed and not field.process_errors:
            field.data, field.raw_data = row.factor, [str(row.factor)]


def _ruleset_from(form: StartEveningForm, shape: RuleSet, variant: Variant, order: str, extras: list[str]) -> RuleSet:
    factors = {}
    for row in shape.rows:
        value = getattr(form, f"factor_{row.key}").data
        factors[row.key] = int(value) if value is not None else row.factor
    chf = form.stake_chf.data
    assert chf is not None  # InputRequired
    rappen = int((chf * 100).to_integral_value())
    stake = stake_of(variant, rappen=rappen, per_points=form.per_points.data or None, round_to=int(form.round_to.data))
    return default_ruleset(
        variant,
        suit_order=order,
        extra_rows=extras,
        barrel=form.barrel.data,
        undenufe_six11=bool(form.undenufe_six11.data),
        stake=stake,
        deck=form.deck.data,
        factors=factors,
        jokers_play_extras=bool(extras and form.jokers_play_extras.data),
    )


@bp.route("/start", methods=["GET", "POST"])
def start(token: str) -> Response | str | tuple[str, int]:
    circ, can_write = open_or_404(token)
    require_write(can_write)
    if request.method == "POST":
        source: MultiDict[str, str] | None = request.form
    elif "suit_order" in request.args:  # the htmx refresh of the factor list keeps what was typed
        source = request.args
    else:
        source = None
    variant, order, extras = _shape(source if source is not None else request.args)
    form, shape = _build_form(source, variant, order, extras)
    form.first_dealer.choices = choices((i, str(i + 1)) for i in range(shape.n_players))
    status = 200
    if request.method == "POST":
        status = 422
        if form.validate_on_submit():
            names = [getattr(form, f"seat_{i}").data.strip() for i in range(shape.n_players)]
            lowered = [n.lower() for n in names]
            if len(set(lowered)) != len(lowered):
                flash(_("Every seat needs a different player."), "error")
            else:
                try:
                    ruleset = _ruleset_from(form, shape, variant, order, extras)
                    evening = evening_service.start_evening(
                        circ,
                        ruleset=ruleset,
                        player_names=names,
                        first_dealer=int(form.first_dealer.data),
                        request_id=form.request_id.data,
                    )
                except RuleError as err:
                    flash_error(err)
                    if isinstance(err, RequestIdReused):
                        renew_request_id(form)
                except (ValueError, KeyError) as err:
                    flash(_("These options do not fit together: %(reason)s", reason=str(err)), "error")
                else:
                    return redirect(url_for("slate.evening", token=token, evening_id=evening.public_id))
        else:
            for name, _errors in form.errors.items():
                if name == "csrf_token":
                    flash(_("The form was too old or not sent by this app. Nothing was written."), "error")
    players = housekeeping.players_now(housekeeping.folded(circ))
    return (
        render_template(
            "circles/start.html",
            circle=circ,
            token=token,
            form=form,
            shape=shape,
            variant=variant,
            variants=VARIANT_LABELS,
            players=players,
            row_labels={r.key: row_label(r, form.deck.data or shape.deck) for r in shape.rows},
            seat_fields=[getattr(form, f"seat_{i}") for i in range(shape.n_players)],
            factor_fields=[(r, getattr(form, f"factor_{r.key}")) for r in shape.rows],
            extras_allowed=variant in (Variant.TEAMS, Variant.SOLO4),
        ),
        status,
    )
