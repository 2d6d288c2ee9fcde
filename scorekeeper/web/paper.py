"""Type a past evening from a paper slate: the players, the day, and the final cells of
each row (with their match marks, and what a joker row was played as), written in one go
and marked as imported. Ties of the three-player game are cut by the app, or, if the
person typing says so, as the table cut them: the page then names the ties the typed
cells make (``history.paper.paper_ties``) and asks for each cut before writing; a tie left
unanswered is cut by the app, as in the API."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, time
from decimal import Decimal, InvalidOperation
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import get_timezone
from werkzeug.wrappers import Response

from ..forms import ButtonForm, new_request_id
from ..game.contracts import Contract
from ..game.errors import N_, RuleError
from ..game.rulesets import RuleSet, Shape, Variant, default_ruleset
from ..history.paper import PaperCell, paper_ties
from ..i18n import _
from ..present.labels import row_label
from ..present.slate import contract_choices, mark_choice
from ..scoring.entries import tricks_of_marks
from ..scoring.final import Cut, Tie
from ..services import paper as paper_service
from ..services.read import who_is_who
from . import rules_form
from .common import flash_error, open_or_404, require_write

bp = Blueprint("paper", __name__, url_prefix="/c/<token>/paper")

MARKS = ("", "match", "countermatch")
EVENING_HOUR = time(20, 0)  # a paper evening is dated at 20:00 of its day, local time


def _variant() -> Variant:
    try:
        return Variant(request.values.get("variant", "three"))
    except ValueError:
        abort(404)


def _choice(circ: Any) -> tuple[str, RuleSet]:
    """The preset the page is for (``house``, ``last`` or a variant, as on the start page:
    ``rules_form.presets``) and the rule set it shows. A POST of the circle's own rules is read
    from the snapshot the page carried, so the evening is written with the rules that were
    shown (the house rules or the last evening may have changed since)."""
    preset = request.values.get("preset", "")
    if preset not in rules_form.PRESETS:
        variant = _variant()
        return variant.value, default_ruleset(variant)
    if request.method == "POST" and "rules" in request.form:
        return preset, RuleSet.from_dict(rules_form.read_snapshot(request.form.get("rules")))
    rs = rules_form.preset_rules(circ, preset)
    if rs is None:  # the circle has no such rules (yet)
        abort(404)
    return preset, rs


def _column_labels(rs: RuleSet) -> list[str]:
    if rs.teams:
        return [
            _("Team %(t)s (seats %(a)s + %(b)s)", t="AB"[side], a=rs.seats_of(side)[0] + 1, b=rs.seats_of(side)[1] + 1)
            for side in range(rs.n_sides)
        ]
    return [_("Seat %(n)s", n=side + 1) for side in range(rs.n_sides)]


def _played_as(row_key: str, side: int) -> Contract | None:
    """What a joker (12-fach, Misère/Zwüschedüre) cell was played as, if the slate says."""
    code = request.form.get(f"as_{row_key}_{side}", "").strip()
    if not code:
        return None
    try:
        return Contract.parse(code)
    except ValueError:
        raise RuleError(
            N_("Row “%(row)s”: choose what it was played as from the list."), "paper_played_as", row=row_key
        ) from None


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
            contract = _played_as(row.key, side) if row.is_choice else None
            # the marks as the slate draws them (★ good, ✗ bad for the side): in a Misère the
            # ★ match is the hand in which the side took no trick
            every, none = tricks_of_marks(rs, row.key, contract, good=mark == "match", bad=mark == "countermatch")
            out.append(PaperCell(row.key, side, int(typed), contract=contract, match=every, countermatch=none))
    return out


def _played_as_choices(rs: RuleSet) -> dict[str, list[tuple[str, str]]]:
    """Per choice row, what it may be played as: (code, label), as the hand form offers them."""
    out: dict[str, list[tuple[str, str]]] = {row.key: [] for row in rs.rows if row.is_choice}
    for code, label, row_keys in contract_choices(rs):
        for key in row_keys:
            out[key].append((code, label))
    return out


# --- ties of the three-player game, cut at the table ------------------------------------
def _tie_field(tie: Tie, lowest: bool = False) -> str:
    return f"{'cutlow' if lowest else 'cut'}_{tie.row_key}_{tie.end}"


def _signature(ties: list[Tie]) -> str:
    """Which ties the page showed: asked again when the typed cells make others."""
    return " ".join(f"{t.row_key}:{t.end}:{'-'.join(map(str, t.sides))}" for t in ties)


def _side(name: str) -> int | None:
    typed = request.form.get(name, "")
    return int(typed) if typed.isdigit() and len(typed) < 3 else None


def _table_cuts(ties: list[Tie]) -> list[Cut]:
    """The cuts as the table told them (the highest card; of three tied, the lowest too, as on
    the slate page); a tie without an answer is left to the app."""
    out = []
    for tie in ties:
        winner = _side(_tie_field(tie))
        if winner is None:
            continue
        lowest = _side(_tie_field(tie, lowest=True)) if len(tie.sides) == 3 else None
        out.append(Cut(tie.row_key, tie.end, winner, False, tie.order_of(winner, lowest)))
    return out


def _stake(rs: RuleSet) -> RuleSet:
    """The rule set with the stake typed (a preset's defaults, or the circle's own stake, where
    none or a wrong one was typed)."""
    typed = request.form.get("stake_chf", "").strip().replace(",", ".")
    try:
        rappen = int((Decimal(typed) * 100).to_integral_value()) if typed else None
    except InvalidOperation:
        rappen = None
    rappen = rappen if rappen is None or 0 < rappen <= 100_000 else None
    return rs if rappen is None else replace(rs, stake=replace(rs.stake, rappen=rappen))


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
    status = 200
    ties: list[Tie] = []
    try:
        preset, shown = _choice(circ)
    except RuleError as err:  # the rules the page carried cannot be read: start again
        flash_error(err)
        return redirect(url_for("paper.page", token=token, preset=request.values.get("preset")))
    table_cut = shown.shape is Shape.THREE and request.form.get("cut_by") == "table"
    if request.method == "POST":
        status = 422
        counts = request.form.get("counts_in_money")
        if not ButtonForm().validate():
            flash(_("The form was too old or not sent by this app. Nothing was written."), "error")
        elif counts not in ("0", "1"):
            flash(_("Say whether this evening counts in the money totals. Nothing was written."), "error")
        else:
            rs = _stake(shown)
            names = [request.form.get(f"seat_{i}", "") for i in range(rs.n_players)]
            try:
                cells = _cells(rs)
                cuts: list[Cut] = []
                if table_cut:
                    ties = paper_ties(rs, cells)
                    if ties and request.form.get("ties_shown") != _signature(ties):
                        # the ties these cells make were not shown yet: ask how the table cut them
                        flash(_("Say how the table cut each tie below, then write the evening."), "warning")
                        return _render(circ, token, preset, shown, ties, status=200)
                    cuts = _table_cuts(ties)
                evening = paper_service.import_evening(
                    circ,
                    ruleset=rs,
                    player_names=names,
                    first_dealer=0,
                    cells=cells,
                    cuts=cuts,
                    played_at=_played_at(),
                    counts_in_money=counts == "1",
                    request_id=request.form.get("request_id", ""),
                )
            except RuleError as err:
                flash_error(err, rs, names)  # as the API names rows, contracts and seats
            else:
                flash(_("The paper slate is written; its cells are marked as typed from paper."), "success")
                return redirect(url_for("slate.evening", token=token, evening_id=evening.public_id))
    return _render(circ, token, preset, shown, ties, status=status)


def _render(circ: Any, token: str, preset: str, rs: RuleSet, ties: list[Tie], *, status: int) -> tuple[str, int]:
    three = rs.shape is Shape.THREE
    values = request.form if request.method == "POST" else {}
    names = [values.get(f"seat_{i}", "").strip() or _("Seat %(n)s", n=i + 1) for i in range(rs.n_players)]
    html = render_template(
        "paper/page.html",
        circle=circ,
        token=token,
        preset=preset,
        presets=rules_form.presets(circ),
        own=preset in rules_form.PRESETS,
        rules=rules_form.write_snapshot(rs.to_dict()) if preset in rules_form.PRESETS else "",
        three=three,
        ruleset=rs,
        rows=[(r, row_label(r, rs.deck)) for r in rs.rows],
        row_names={r.key: row_label(r, rs.deck) for r in rs.rows},
        columns=_column_labels(rs),
        played_as=_played_as_choices(rs),
        misere=not mark_choice(rs).fixed,
        players=who_is_who.players_now(who_is_who.folded(circ)),
        values=values,
        cut_by="table" if three and values.get("cut_by") == "table" else "app",
        ties=[(t, _tie_field(t), _tie_field(t, lowest=True)) for t in ties],
        ties_shown=_signature(ties),
        side_names=names,
        request_id=values.get("request_id") or new_request_id(),
        stake_chf=f"{rs.stake.rappen / 100:.2f}",
        today=date.today().isoformat(),
        button=ButtonForm(formdata=None),
    )
    return html, status
