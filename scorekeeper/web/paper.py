"""Type a past evening from a paper slate: the players, the day, and the final cells of
each row (with their match marks), written in one go and marked as imported."""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from decimal import Decimal, InvalidOperation
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import get_timezone
from werkzeug.wrappers import Response

from ..forms import ButtonForm, new_request_id
from ..game.errors import N_, RuleError
from ..game.rulesets import RuleSet, Variant, default_ruleset, stake_of
from ..history.paper import PaperCell
from ..i18n import _
from ..present.labels import VARIANT_LABELS, row_label
from ..services import housekeeping
from ..services import paper as paper_service
from .common import flash_error, open_or_404, require_write

bp = Blueprint("paper", __name__, url_prefix="/c/<token>/paper")

MARKS = ("", "match", "countermatch")
EVENING_HOUR = time(20, 0)  # a paper evening is dated at 20:00 of its day, local time


def _variant() -> Variant:
    try:
        return Variant(request.values.get("variant", "three"))
    except ValueError:
        abort(404)


def _column_labels(rs: RuleSet) -> list[str]:
    if rs.teams:
        return [
            _("Team %(t)s (seats %(a)s + %(b)s)", t="AB"[side], a=rs.seats_of(side)[0] + 1, b=rs.seats_of(side)[1] + 1)
            for side in range(rs.n_sides)
        ]
    return [_("Seat %(n)s", n=side + 1) for side in range(rs.n_sides)]


def _cells(rs: RuleSet) -> list[PaperCell]:
    out = []
    for row in rs.rows:
        for side in range(rs.n_sides):
            typed = request.form.get(f"cell_{row.key}_{side}", "").strip()
            if not typed:
                continue
            if not typed.isdigit() or len(typed) > 6:
                raise RuleError(
                    N_("Row “%(row)s”: type the cell as a whole number, or leave it empty."),
                    "paper_number",
                    row=row.key,
                )
            mark = request.form.get(f"mark_{row.key}_{side}", "")
            out.append(PaperCell(row.key, side, int(typed), match=mark == "match", countermatch=mark == "countermatch"))
    return out


def _stake(variant: Variant) -> Any:
    typed = request.form.get("stake_chf", "").strip().replace(",", ".")
    try:
        rappen = int((Decimal(typed) * 100).to_integral_value()) if typed else None
    except InvalidOperation:
        rappen = None
    return stake_of(variant, rappen=rappen if rappen is None or 0 < rappen <= 100_000 else None)


def _played_at() -> datetime | None:
    typed = request.form.get("played_on", "")
    try:
        day = date.fromisoformat(typed)
    except ValueError:
        return None
    return datetime.combine(day, EVENING_HOUR, tzinfo=get_timezone()).astimezone(UTC)


@bp.route("", methods=["GET", "POST"])
def page(token: str) -> Response | tuple[str, int]:
    circ, can_write = open_or_404(token)
    require_write(can_write)
    variant = _variant()
    status = 200
    if request.method == "POST":
        status = 422
        counts = request.form.get("counts_in_money")
        if not ButtonForm().validate():
            flash(_("The form was too old or not sent by this app. Nothing was written."), "error")
        elif counts not in ("0", "1"):
            flash(_("Say whether this evening counts in the money totals. Nothing was written."), "error")
        else:
            rs = default_ruleset(variant, stake=_stake(variant))
            try:
                evening = paper_service.import_evening(
                    circ,
                    ruleset=rs,
                    player_names=[request.form.get(f"seat_{i}", "") for i in range(rs.n_players)],
                    first_dealer=0,
                    cells=_cells(rs),
                    played_at=_played_at(),
                    counts_in_money=counts == "1",
                    request_id=request.form.get("request_id", ""),
                )
            except RuleError as err:
                flash_error(err, rs)
            else:
                flash(_("The paper slate is written; its cells are marked as typed from paper."), "success")
                return redirect(url_for("slate.evening", token=token, evening_id=evening.public_id))
    rs = default_ruleset(variant)
    html = render_template(
        "paper/page.html",
        circle=circ,
        token=token,
        variant=variant,
        variants=VARIANT_LABELS,
        ruleset=rs,
        rows=[(r, row_label(r, rs.deck)) for r in rs.rows],
        columns=_column_labels(rs),
        players=housekeeping.players_now(housekeeping.folded(circ)),
        values=request.form if request.method == "POST" else {},
        request_id=request.form.get("request_id") or new_request_id(),
        stake_chf=f"{rs.stake.rappen / 100:.2f}",
        today=date.today().isoformat(),
        button=ButtonForm(formdata=None),
    )
    return html, status
