"""The circle's memory: statistics (circle, player, pairings, head to head), ratings,
the purse with its settlements, and the charts as SVG and PNG files.

Every page reads the circle's memory (``services.read.memory.memory_of``: one statement
while nothing changed, else one load of a constant number) and derives its figures
through ``scorekeeper.history``, memoized per memory and filter. The filters (season,
variant) are query arguments: ``from`` and ``to`` (dates, both included, in the
circle's time zone) and ``variant``; a filter that cannot be read is named on the page
and left out.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any, TypeVar

import flask_babel
from flask import Blueprint, abort, flash, make_response, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ..downloads import content_disposition
from ..forms import SettlementForm, VoidForm, choices, new_request_id
from ..game.errors import RuleError
from ..game.rulesets import Variant
from ..history.purse import settlements_in_force
from ..history.ratings import Ladder
from ..history.records import PaymentKind, Settlement
from ..history.series import contract_points, money_over_time, rating_over_time
from ..history.stats import Filter
from ..i18n import _, current_language
from ..models import Circle
from ..present import memory as words
from ..present.labels import VARIANT_SHORT
from ..render import chart_paint, charts
from ..services import purse as purse_service
from ..services.purse import Payment
from ..services.read import memory as memory_service
from ..services.read.circle_record import player_key
from ..services.read.memory import Memory
from .common import Page, flash_error, open_or_404, page_of, require_write

bp = Blueprint("memory", __name__, url_prefix="/c/<token>")
OWN = "own"  # the variant filter's value for the evenings of a circle's own rules
T = TypeVar("T")
PER_PAGE = 20


# --- filters ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Asked:
    """The filter as the query string gave it, what it means, and what could not be read."""

    flt: Filter
    start: date | None
    end: date | None  # included
    variant: Variant | None
    errors: tuple[str, ...]
    own: bool = False  # the evenings of the circle's own rules (``variant`` is then None)

    @property
    def choice(self) -> str:
        """The rules chosen, as the query gives them: a variant, ``own``, or "" (all)."""
        return OWN if self.own else self.variant.value if self.variant else ""

    def args(self) -> dict[str, str]:
        """The query arguments that give this filter again (links, charts)."""
        out = {}
        if self.start:
            out["from"] = self.start.isoformat()
        if self.end:
            out["to"] = self.end.isoformat()
        if self.choice:
            out["variant"] = self.choice
        return out

    @property
    def key(self) -> Hashable:
        return (self.flt, current_language(), str(flask_babel.get_timezone()))


def _day(text: str, errors: list[str], what: str) -> date | None:
    if not text:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        errors.append(_("%(what)s is not a date (year-month-day, e.g. 2026-03-31): left out.", what=what))
        return None


def asked() -> Asked:
    errors: list[str] = []
    start = _day(request.args.get("from", "").strip(), errors, _("From"))
    end = _day(request.args.get("to", "").strip(), errors, _("To"))
    if start and end and end < start:
        errors.append(_("The season ends before it starts: the dates are left out."))
        start = end = None
    variant = None
    raw = request.args.get("variant", "").strip()
    own = raw == OWN
    if raw and not own:
        try:
            variant = Variant(raw)
        except ValueError:
            errors.append(_("There is no such variant: all variants are shown."))
    return Asked(words.season_filter(start, end, variant, own=own), start, end, variant, tuple(errors), own)


# --- pages ---------------------------------------------------------------------------------------
def _circle(token: str, *, write: bool = False) -> tuple[Circle, bool, Memory]:
    """The circle, whether its link may write, and its memory; ``write``: a link that may not
    write is refused (403) before the memory is read (which may store what it computed)."""
    circle, can_write = open_or_404(token)
    if write:
        require_write(can_write)
    return circle, can_write, memory_service.memory_of(circle)


def _common(token: str, circle: Circle, can_write: bool, a: Asked) -> dict[str, Any]:
    for e in a.errors:
        flash(e, "error")
    return {
        "token": token,
        "circle": circle,
        "can_write": can_write,
        "asked": a,
        "query": a.args(),
        # the four presets of RULES 6 (their evenings only), then the circle's own rules
        "variants": {**{v.value: str(label) for v, label in VARIANT_SHORT.items()}, OWN: _("Our own rules")},
        "words": words,
    }


@dataclass(frozen=True, slots=True)
class ChartTable:
    """A chart's table alternative, a page at a time (a season has many evenings)."""

    header: tuple[str, ...]
    rows: Page[tuple[str, ...]]
    arg: str  # the query argument of its page
    newest_first: bool


def chart_table(mem: Memory, drawn: Drawn, arg: str) -> ChartTable:
    """Lines over evenings: the latest evening first; bars: in their order."""
    chart = drawn.chart
    header, rows = mem.derive(("table", drawn.key), chart.table)  # rows are formatted where a page shows them
    newest_first = isinstance(chart, charts.LineChart)
    shown = rows.newest_first() if newest_first else rows
    return ChartTable(header, page_of(shown, arg, PER_PAGE), arg, newest_first)


# --- statistics --------------------------------------------------------------------------------
@bp.route("/stats")
def stats(token: str) -> str:
    circle, can_write, mem = _circle(token)
    a = asked()
    st = mem.stats(a.flt, contracts=False)  # the page shows no contract figures: the hands are not read
    money = _chart(mem, "money", a)
    three = any(p.sticks or p.potatoes for p in st.players) or a.variant is Variant.THREE
    names = {p.player: p.name for p in st.players}
    return render_template(
        "memory/stats.html",
        **_common(token, circle, can_write, a),
        stats=st,
        three=three,
        names=names,
        active=[p for p in st.players if p.evenings],
        pairings=page_of(st.pairings, "pairs", PER_PAGE),
        h2h=page_of(st.head_to_head, "h2h", PER_PAGE),
        money=money.chart,
        money_table=chart_table(mem, money, "money-page"),
    )


@bp.route("/stats/players/<int:player_id>")
def player(token: str, player_id: int) -> str:
    circle, can_write, mem = _circle(token)
    a = asked()
    key = player_key(player_id)
    st = mem.stats(a.flt, of=key)  # her contract figures: only her evenings' hands are read
    try:
        me = st.player(key)
    except KeyError:
        abort(404)
    bars = _drawn(mem, "contracts", a, key)
    ladders = mem.ratings(a.flt)
    mine = [(ladder, r) for ladder, lr in ladders.items() for r in lr.players if r.player == key]
    names = {p.player: p.name for p in st.players}
    return render_template(
        "memory/player.html",
        **_common(token, circle, can_write, a),
        stats=st,
        me=me,
        contracts=st.contracts_of(key),
        ratings=mine,
        pairings=[p for p in st.pairings if key in p.players],
        h2h=[h for h in st.head_to_head if key in h.players],
        names=names,
        bars=bars.chart,
        bars_table=chart_table(mem, bars, "contracts-page"),
        player_id=player_id,
    )


@bp.route("/ratings")
def ratings_page(token: str) -> str:
    circle, can_write, mem = _circle(token)
    a = asked()
    ladders = mem.ratings(a.flt)
    shown = [lr for lr in ladders.values() if lr.players]
    rating_charts = {lr.ladder: _drawn(mem, "rating", a, lr.ladder) for lr in shown}
    return render_template(
        "memory/ratings.html",
        **_common(token, circle, can_write, a),
        ladders=shown,
        rating_charts={ladder: drawn.chart for ladder, drawn in rating_charts.items()},
        rating_tables={
            ladder: chart_table(mem, drawn, f"{ladder.value}-page") for ladder, drawn in rating_charts.items()
        },
    )


# --- the purse --------------------------------------------------------------------------------
def _settlement_form(mem: Memory, formdata: Any = None, **data: Any) -> SettlementForm:
    players = [(p.id, p.name) for p in sorted(mem.view.players, key=lambda p: p.name.casefold())]
    form = SettlementForm(formdata=formdata, data={"request_id": new_request_id(), "paid_on": words.today(), **data})
    form.payer.choices = choices([("", "—"), *players])
    form.payee.choices = choices([("", "—"), *players])
    form.author.choices = choices([("", "—"), *((name, name) for _pid, name in players)])
    return form


def _purse_page(token: str, circle: Circle, can_write: bool, mem: Memory, form: SettlementForm) -> str:
    a = asked()
    p = mem.purse(a.flt)
    name = mem.view.player_name
    payments = {s.seq: s for s in mem.view.settlements}
    lines = mem.derive(("ledger", a.key), lambda: words.ledger_lines(p, payments, name))
    in_force = list(reversed(settlements_in_force(mem.view.settlements)))
    return render_template(
        "memory/purse.html",
        **_common(token, circle, can_write, a),
        purse=p,
        name=name,
        lines=page_of(lines, "page", PER_PAGE),
        payments=page_of(in_force, "paid", PER_PAGE),
        form=form,
        void=VoidForm(formdata=None, data={"request_id": new_request_id()}),
        correction=lambda s: _settlement_form(
            mem,
            payer=s.payer,
            payee=s.payee,
            amount=Decimal(s.rappen or 0) / 100,
            paid_on=flask_babel.to_user_timezone(s.paid_at).date() if s.paid_at else None,
            supersedes=s.seq,
        ),
        today=words.today().isoformat(),
        new_request_id=new_request_id,
    )


@bp.route("/purse")
def purse_page(token: str) -> str:
    circle, can_write, mem = _circle(token)
    return _purse_page(token, circle, can_write, mem, _settlement_form(mem))


@bp.route("/purse/settlements", methods=["POST"])
def settle(token: str) -> Response | tuple[str, int]:
    circle, can_write, mem = _circle(token, write=True)
    form = _settlement_form(mem, request.form)
    if not form.validate():
        for errors in form.errors.values():
            for e in errors:
                flash(str(e), "error")
        return _purse_page(token, circle, can_write, mem, form), 422
    assert form.amount.data is not None and form.paid_on.data is not None
    kind = PaymentKind.CORRECTION if form.supersedes.data else PaymentKind.PAYMENT
    payment = Payment(
        kind,
        supersedes=form.supersedes.data or None,
        payer_id=int(form.payer.data),
        payee_id=int(form.payee.data),
        rappen=int(form.amount.data * 100),
        paid_at=words.paid_at(form.paid_on.data),
    )
    return _append(token, circle, can_write, mem, payment, form.request_id.data or "", form.author.data, form)


@bp.route("/purse/void", methods=["POST"])
def void(token: str) -> Response | tuple[str, int]:
    circle, can_write, mem = _circle(token, write=True)
    form = VoidForm()
    if not form.validate() or form.supersedes.data is None:
        flash(_("The form was too old or not sent by this app. Nothing was written."), "error")
        return redirect(url_for("memory.purse_page", token=token) + "#payments")
    payment = Payment(PaymentKind.VOID, supersedes=form.supersedes.data)
    return _append(token, circle, can_write, mem, payment, form.request_id.data or "", form.author.data, None)


def _append(
    token: str,
    circle: Circle,
    can_write: bool,
    mem: Memory,
    payment: Payment,
    request_id: str,
    author: str | None,
    form: SettlementForm | None,
) -> Response | tuple[str, int]:
    try:
        row = purse_service.append(circle, payment, request_id=request_id, entered_by=author or None)
    except RuleError as err:
        flash_error(err)
        if form is None:
            return redirect(url_for("memory.purse_page", token=token) + "#payments")
        return _purse_page(token, circle, can_write, mem, form), 422
    fresh = memory_service.memory_of(circle)
    flash(_done(row, fresh), "success")
    return redirect(url_for("memory.purse_page", token=token) + "#balances")


def _done(row: Settlement, mem: Memory) -> str:
    if row.kind is PaymentKind.VOID:
        return _("Payment %(seq)s taken back.", seq=row.supersedes)
    text = words.payment_text(row, mem.view.player_name)
    if row.kind is PaymentKind.CORRECTION:
        return _("Payment %(seq)s corrected: %(text)s.", seq=row.supersedes, text=text)
    return _("Recorded: %(text)s.", text=text)


# --- charts ---------------------------------------------------------------------------------------
Chart = charts.LineChart | charts.BarChart


@dataclass(frozen=True, slots=True)
class ChartKind:
    """One kind of chart of the circle's memory. ``subject`` reads what it is drawn for from the
    rest of its file name (``rating-three``: ``three``) and the query (``?player=``), or answers
    404; ``build`` draws it for that subject under the asked filter. A chart is kept in the memory
    under (kind, subject, filter), whatever its kind: a new chart is one entry in ``CHART_KINDS``."""

    subject: Callable[[Memory, Asked, str], Hashable]
    build: Callable[[Memory, Asked, Any], Chart]


@dataclass(frozen=True, slots=True)
class Drawn:
    chart: Chart
    key: Hashable  # what the memory keeps it (and its table, its pictures) under


def _whole_circle(_mem: Memory, _a: Asked, rest: str) -> None:
    if rest:
        abort(404)


def _ladder(_mem: Memory, _a: Asked, rest: str) -> Ladder:
    try:
        return Ladder(rest)
    except ValueError:
        abort(404)


def _player(mem: Memory, a: Asked, rest: str) -> str:
    raw = request.args.get("player", "")
    if rest or not raw.isdigit():
        abort(404)
    key = player_key(int(raw))
    try:
        mem.stats(a.flt, of=key).player(key)
    except KeyError:
        abort(404)
    return key


def _contracts(mem: Memory, a: Asked, key: str) -> charts.BarChart:
    st = mem.stats(a.flt, of=key)
    return words.contracts_chart(contract_points(st, [key]), st.player(key).name)


CHART_KINDS: dict[str, ChartKind] = {
    "money": ChartKind(_whole_circle, lambda mem, a, _s: words.money_chart(money_over_time(mem.view, a.flt))),
    "rating": ChartKind(
        _ladder, lambda mem, a, ladder: words.rating_chart(rating_over_time(mem.ratings(a.flt)[ladder]), ladder)
    ),
    "contracts": ChartKind(_player, _contracts),
}


def _drawn(mem: Memory, kind: str, a: Asked, subject: Hashable) -> Drawn:
    key = ("chart", kind, subject, a.key)
    return Drawn(mem.derive(key, lambda: CHART_KINDS[kind].build(mem, a, subject)), key)


def _chart(mem: Memory, name: str, a: Asked) -> Drawn:
    """The chart a file name asks for (``money``, ``rating-<ladder>``, ``contracts?player=``)."""
    kind, _dash, rest = name.partition("-")
    if kind not in CHART_KINDS:
        abort(404)
    return _drawn(mem, kind, a, CHART_KINDS[kind].subject(mem, a, rest))


def _picture(token: str, name: str, paint: Callable[[charts.Scene], T], kind: str) -> Response:
    _c, _w, mem = _circle(token)
    a = asked()
    drawn = _chart(mem, name, a)
    body = mem.derive(("paint", kind, drawn.key), lambda: paint(_scene(drawn.chart)))
    resp = make_response(body)
    resp.headers["Content-Type"] = kind
    resp.headers["Cache-Control"] = "private, no-store"
    resp.headers["Content-Disposition"] = content_disposition(f"{name}.{kind.split('/')[1].split('+')[0]}", inline=True)
    return resp


def _scene(chart: Chart) -> charts.Scene:
    return charts.line_scene(chart) if isinstance(chart, charts.LineChart) else charts.bar_scene(chart)


@bp.route("/charts/<name>.svg")
def chart_svg(token: str, name: str) -> Response:
    return _picture(token, name, lambda scene: chart_paint.svg(scene, id_prefix=name), "image/svg+xml")


@bp.route("/charts/<name>.png")
def chart_png(token: str, name: str) -> Response:
    return _picture(token, name, chart_paint.png, "image/png")
