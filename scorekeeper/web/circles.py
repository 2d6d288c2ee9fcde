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
    OwnRulesForm,
    StartEveningForm,
    choices,
    new_request_id,
    own_rules_form_class,
    renew_request_id,
    start_form_class,
    suit_order_default,
)
from ..game.cards import DeckStyle
from ..game.errors import RuleError
from ..game.rulesets import (
    HOUSE_OPTIONS,
    ROWS_MAX,
    RuleSet,
    Scoring,
    Variant,
    default_ruleset,
    shared_factors,
    stake_of,
    takes_extra_rows,
    typed_factors,
)
from ..i18n import _
from ..models import Circle
from ..present.errors import error_text
from ..present.labels import VARIANT_LABELS, VARIANT_SHORT, row_label, suit_order_label
from ..services import circles as circle_service
from ..services import evenings as evening_service
from ..services import house_rules
from ..services.errors import RequestIdReused
from ..services.read import listings, who_is_who
from . import rules_form
from .common import flash_error, open_or_404, page_of, require_write

bp = Blueprint("circles", __name__, url_prefix="/c/<token>")
HISTORY_PAGE = 20  # evenings per page of the history list


@bp.route("")
def circle(token: str) -> str:
    circ, can_write = open_or_404(token)
    history = listings.history(circ)
    house = house_rules.house_rules(circ)
    return render_template(
        "circles/circle.html",
        circle=circ,
        token=token,
        can_write=can_write,
        view_url=_onlookers_url(circ, token, can_write),
        open_evenings=[ev for ev in history if ev.status == "open"],
        past=page_of([ev for ev in history if ev.status != "open"], "page", HISTORY_PAGE),
        records=listings.player_records(circ),
        player_form=AddPlayerForm(formdata=None),
        button=ButtonForm(formdata=None),
        variants=VARIANT_LABELS,
        variants_short={v.value: str(label) for v, label in VARIANT_SHORT.items()},
        house=house,
        house_rows=[f"{row_label(r, house.deck)} ×{r.factor}" for r in house.rows] if house else [],
        has_last=bool(history),
    )


def _onlookers_url(circ: Circle, token: str, can_write: bool) -> str | None:
    """The onlookers link the page shows (with its QR code): an onlooker's own; for the write
    link's holders the current one when it was kept (``services.store.link_seal``), else None."""
    view_token = circle_service.onlookers_link(circ, token) if can_write else token
    return url_for("circles.circle", token=view_token, _external=True) if view_token else None


@bp.route("/view-link", methods=["POST"])
def new_view_link(token: str) -> Response | tuple[str, int]:
    """A new onlookers link (the old one stops working), shown once."""
    circ, can_write = open_or_404(token)
    require_write(can_write)
    if not ButtonForm().validate():  # only the CSRF token
        flash(_("The form was too old or not sent by this app. Nothing was written."), "error")
        return redirect(url_for("circles.circle", token=token) + "#share")
    view_token = circle_service.new_view_link(circ, token)  # kept for this page to show again
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
    write_token = circle_service.new_write_link(circ, token)  # the onlookers link stays shown
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
    if not takes_extra_rows(variant):
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
    deck = form.deck.data if form.deck.data in {d.value for d in DeckStyle} else shape.deck
    form.suit_order.choices = choices((name, suit_order_label(suits, deck)) for name, suits in SUIT_ORDERS.items())
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
        extra_rows=extras if takes_extra_rows(shape.variant) else (),
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
    if request.method == "GET" and not request.args and circ.house_rules:  # the circle's own are the default
        return redirect(url_for("circles.start_own", token=token, preset="house"))
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
    shared: list[tuple[int, tuple[str, ...]]] = []
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
                except RuleError as err:
                    flash(_("These options do not fit together: %(reason)s", reason=error_text(err)), "error")
                else:
                    shared = shared_factors(ruleset)
                    if shared and request.form.get("keep_factors") != _shared_signature(shared):
                        # asked first; "keep" counts only for the very rows the page named
                        flash(_shared_text(ruleset, shared), "warning")
                        return _start_page(circ, token, form, shape, variant, shared, 200)
                    try:
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
                    else:
                        return redirect(url_for("slate.evening", token=token, evening_id=evening.public_id))
        else:
            for name, _errors in form.errors.items():
                if name == "csrf_token":
                    flash(_("The form was too old or not sent by this app. Nothing was written."), "error")
    return _start_page(circ, token, form, shape, variant, shared, status)


def _shared_signature(shared: list[tuple[int, tuple[str, ...]]]) -> str:
    """Which shared factors the page asked about (``keep_factors`` must name the same)."""
    return " ".join(f"{factor}:{'+'.join(keys)}" for factor, keys in shared)


def _shared_text(ruleset: RuleSet, shared: list[tuple[int, tuple[str, ...]]]) -> str:
    groups = "; ".join(
        _(
            "%(rows)s (each ×%(factor)s)",
            rows=", ".join(row_label(ruleset.row(key), ruleset.deck) for key in keys),
            factor=factor,
        )
        for factor, keys in shared
    )
    return _(
        "Rows with the same factor: %(groups)s. Change one, or tick “Keep these factors” and start "
        "again (some tables play it so). The evening has not started yet.",
        groups=groups,
    )


def _start_page(
    circ: Any,
    token: str,
    form: StartEveningForm,
    shape: RuleSet,
    variant: Variant,
    shared: list[tuple[int, tuple[str, ...]]],
    status: int,
) -> tuple[str, int]:
    players = who_is_who.players_now(who_is_who.folded(circ))
    shared_keys = {key for _factor, keys in shared for key in keys}
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
            factor_fields=[(r, getattr(form, f"factor_{r.key}"), r.key in shared_keys) for r in shape.rows],
            extras_allowed=takes_extra_rows(variant),
            own_presets=[(key, label) for key, label in rules_form.presets(circ) if key in rules_form.PRESETS],
            shared_factors=_shared_signature(shared) if shared else "",
        ),
        status,
    )


# --- our own rules: presets, the row editor, the house rules (issue 24) -------------------------
def _own_form(data: dict[str, Any], source: MultiDict[str, str] | None) -> tuple[OwnRulesForm, RuleSet]:
    """The own-rules form for the snapshot ``data`` (its seats and rows), with what ``source`` typed."""
    shown = RuleSet.from_dict(data)
    cls = own_rules_form_class(shown.n_players, len(shown.rows))
    stake = shown.stake
    defaults: dict[str, Any] = {
        "rules": rules_form.write_snapshot(data),
        "variant": shown.variant.value,
        "deck": shown.deck.value,
        "barrel": shown.barrel.value,
        "seich": shown.seich,
        "seich_times": shown.seich_times,
        "scoring": shown.scoring.value,
        "match_points": shown.match_points,
        "match_bonus": shown.match_bonus,
        "countermatch_cost": shown.countermatch_cost,
        "undenufe_six11": shown.undenufe_six11,
        "stake_chf": Decimal(stake.rappen) / 100,
        "per_points": stake.per_points,
        "round_to": str(stake.round_to),
        "first_dealer": 0,
        "request_id": new_request_id(),
        **{f"factor_{i}": r.factor for i, r in enumerate(shown.rows)},
    }
    form = cls(formdata=source, data=defaults)
    form.variant.choices = choices((v.value, str(label)) for v, label in VARIANT_SHORT.items())
    form.add_row.choices = choices(rules_form.add_choices(form.deck.data or shown.deck))
    form.first_dealer.choices = choices((i, str(i + 1)) for i in range(shown.n_players))
    return form, shown


def _typed_over(form: OwnRulesForm, data: dict[str, Any]) -> dict[str, Any]:
    """The snapshot with what the form typed over it: factors, the table, the scoring settings
    (values the form could not read stay as they were; the page shows their message)."""
    out = dict(data)
    rows = [dict(r) for r in data["rows"]]
    for i, row in enumerate(rows):
        field = getattr(form, f"factor_{i}", None)
        if field is not None and not field.process_errors and field.data is not None:
            row["factor"] = int(field.data)
    out["rows"] = rows
    if form.variant.data in {v.value for v in Variant} and form.variant.data != out.get("variant"):
        out["variant"] = form.variant.data  # another table: its own scoring and match
        for key in HOUSE_OPTIONS:
            out.pop(key, None)
    elif out.get("variant") != Variant.THREE.value:  # three players write card points (the core)
        if form.scoring.data in {sc.value for sc in Scoring}:
            out["scoring"] = form.scoring.data
        for key in HOUSE_OPTIONS[1:]:
            field = getattr(form, key)
            if field.data is not None and not field.process_errors:
                out[key] = int(field.data)
    if form.deck.data in {d.value for d in DeckStyle}:
        out["deck"] = form.deck.data
    if form.barrel.data in {"book", "online"}:
        out["barrel"] = form.barrel.data
    out["seich"] = bool(form.seich.data)
    out["undenufe_six11"] = bool(form.undenufe_six11.data)
    stake = dict(data.get("stake", {}))
    if form.stake_chf.data is not None and not form.stake_chf.process_errors:
        stake["rappen"] = int((form.stake_chf.data * 100).to_integral_value())
    if form.per_points.data is not None and not form.per_points.process_errors:
        stake["per_points"] = int(form.per_points.data)
    if form.round_to.data in ("1", "5"):
        stake["round_to"] = int(form.round_to.data)
    if out.get("variant") == Variant.THREE.value:
        stake["per_points"] = 1  # three players pay per stick
    out["stake"] = stake
    return out


def _carry(form: OwnRulesForm, new: OwnRulesForm, n_players: int) -> None:
    """What a step keeps of the page: the names typed, the first dealer, the request id."""
    for seat in range(n_players):
        old, field = getattr(form, f"seat_{seat}", None), getattr(new, f"seat_{seat}")
        if old is not None:
            field.data = old.data
    if form.first_dealer.data is not None and 0 <= int(form.first_dealer.data) < n_players:
        new.first_dealer.data = int(form.first_dealer.data)
    if form.request_id.data:
        new.request_id.data = form.request_id.data


def _own_page(
    circ: Circle, token: str, form: OwnRulesForm, shown: RuleSet, status: int, preset: str
) -> tuple[str, int]:
    problem = None
    try:
        shown.check()
    except RuleError as err:
        problem = error_text(err, shown)
    deck = form.deck.data or shown.deck.value
    seat_fields = [getattr(form, f"seat_{i}") for i in range(shown.n_players)]
    typed = [(f.data or "").strip() or _("Seat %(n)s", n=i + 1) for i, f in enumerate(seat_fields)]
    data = rules_form.read_snapshot(form.rules.data)
    return (
        render_template(
            "circles/own_rules.html",
            circle=circ,
            token=token,
            form=form,
            shape=shown,
            preset=preset,
            presets=rules_form.presets(circ),
            players=who_is_who.players_now(who_is_who.folded(circ)),
            seat_fields=seat_fields,
            sides=[" & ".join(typed[s] for s in shown.seats_of(side)) for side in range(shown.n_sides)],
            rows=[
                (i, rules_form.row_name(r, deck), getattr(form, f"factor_{i}"), not r.get("kinds"))
                for i, r in enumerate(data["rows"])
            ],
            n_rows=len(data["rows"]),
            house_rows=any(not r.get("kinds") for r in data["rows"]),
            rows_max=ROWS_MAX,
            problem=problem,
            has_house=bool(circ.house_rules),
        ),
        status,
    )


@bp.route("/start/own", methods=["GET", "POST"])
def start_own(token: str) -> Response | str | tuple[str, int]:
    """Start an evening with rules of the table's own: a preset (the circle's house rules, those of
    its last evening, a variant of RULES 6) changed a step at a time. GET shows a preset; every
    POST is one step (answered with the page, or with its rows for htmx), ``start`` or ``save``."""
    circ, can_write = open_or_404(token)
    require_write(can_write)
    preset = request.values.get("preset", "")
    if request.method == "GET":
        rules = rules_form.preset_rules(circ, preset)
        if rules is None:
            flash(_("This circle has no such rules yet: here are the rules of the book."), "warning")
            preset, rules = Variant.THREE.value, default_ruleset(Variant.THREE)
        form, shown = _own_form(rules.to_dict(), None)
        return _own_page(circ, token, form, shown, 200, preset)
    try:
        data = rules_form.read_snapshot(request.form.get("rules"))
    except RuleError as err:
        flash_error(err)
        return redirect(url_for("circles.start_own", token=token, preset=preset or "house"))
    form, shown = _own_form(data, request.form)
    data = _typed_over(form, data)
    step_text = request.form.get("step", "")
    step = rules_form.Step.parse(step_text)
    if step is not None or step_text == "refresh":
        try:
            if step is not None:
                data = rules_form.apply_step(
                    data, step, request.form.get("add_row"), request.form.get("add_name", "")[:200]
                )
        except RuleError as err:
            flash_error(err)
        return _after_step(circ, token, form, data, preset)
    status = 422
    if not form.validate_on_submit():
        if "csrf_token" in form.errors:
            flash(_("The form was too old or not sent by this app. Nothing was written."), "error")
        return _own_page(circ, token, form, shown, status, preset)
    try:
        ruleset = RuleSet.from_dict(data)
        ruleset.check()
    except RuleError as err:
        flash(_("These rules cannot be played: %(reason)s", reason=error_text(err, shown)), "error")
        return _after_step(circ, token, form, data, preset, status)
    except (KeyError, TypeError, ValueError):
        flash(_("The rows on this page could not be read. Please start again."), "error")
        return _own_page(circ, token, form, shown, status, preset)
    if step_text == "save":
        house_rules.save_house_rules(circ, ruleset)
        flash(_("Saved: these are our house rules from now on."), "success")
        return redirect(url_for("circles.start_own", token=token, preset="house"))
    return _start_own_evening(circ, token, form, ruleset, data, preset)


def _after_step(
    circ: Circle, token: str, form: OwnRulesForm, data: dict[str, Any], preset: str, status: int = 200
) -> tuple[str, int]:
    """The page again after a step: a new form for the edited snapshot, keeping what was typed."""
    try:
        new, shown = _own_form(data, None)
    except (KeyError, TypeError, ValueError, RuleError):
        flash(_("The rows on this page could not be read. Please start again."), "error")
        new, shown = _own_form(rules_form.read_snapshot(form.rules.data), None)
    _carry(form, new, shown.n_players)
    for i in range(len(shown.rows)):  # a factor typed wrongly keeps its text and its message
        old_field = getattr(form, f"factor_{i}", None)
        if old_field is not None and old_field.process_errors and len(data["rows"]) == len(shown.rows):
            field = getattr(new, f"factor_{i}")
            field.raw_data, field.errors = old_field.raw_data, list(old_field.process_errors)
    return _own_page(circ, token, new, shown, status, preset)


def _start_own_evening(
    circ: Circle, token: str, form: OwnRulesForm, ruleset: RuleSet, data: dict[str, Any], preset: str
) -> Response | tuple[str, int]:
    names = [(getattr(form, f"seat_{i}").data or "").strip() for i in range(ruleset.n_players)]
    if not all(names):
        flash(_("Every seat needs a player."), "error")
        return _after_step(circ, token, form, data, preset, 422)
    try:
        evening = evening_service.start_evening(
            circ,
            ruleset=ruleset,
            player_names=names,
            first_dealer=int(form.first_dealer.data or 0),
            request_id=form.request_id.data,
        )
    except RuleError as err:
        flash_error(err, ruleset)
        if isinstance(err, RequestIdReused):
            renew_request_id(form)
        return _after_step(circ, token, form, data, preset, 422)
    return redirect(url_for("slate.evening", token=token, evening_id=evening.public_id))
