"""The slate as a picture to share: ``GET /c/<token>/e/<evening_id>/slate.png``.

``slate_picture`` turns what the slate page shows (``present.build_slate_view``,
``results.result_view``: the same labels, groups and texts, in the user's language)
into a plain ``render.SlatePicture``; ``render.render_slate`` draws it with Pillow.
A read-only link is enough.
"""

from __future__ import annotations

from collections.abc import Sequence

from flask import Blueprint, Response
from flask_babel import format_date
from flask_babel import gettext as _

from ..game.rulesets import RuleSet, Variant
from ..render import Marks, PictureRow, SlatePicture, render_slate
from ..scoring.final import Cut, Result
from ..scoring.payouts import Payout
from ..scoring.slate import Slate
from ..services import evenings as svc
from .common import evening_or_404, open_or_404, ruleset_of, seat_names
from .labels import SHY, VARIANT_SHORT, chf, signed
from .present import build_slate_view
from .results import cut_text, result_view

bp = Blueprint("images", __name__, url_prefix="/c/<token>/e/<evening_id>")


def _status(ruleset: RuleSet, slate: Slate, decided: bool, ended_early: bool) -> str:
    if ended_early:
        return _("ended early")
    if decided:
        return ""
    if slate.complete:
        return _("waiting for the cut")
    return _("%(filled)s of %(total)s hands", filled=len(slate.cells), total=ruleset.n_hands)


def _match_marks(slate: Slate, result: Result | None) -> tuple[Marks, ...]:
    """The match row as chalked: a stick and a potato in the same cell drawn as one crossed pair."""
    out: list[Marks] = []
    for side, (sticks, potatoes) in enumerate(slate.match_marks):
        if result is not None:
            left_s, left_p = result.match_row[side]
        else:  # before the end: the same cancelling, one for one
            k = min(sticks, potatoes)
            left_s, left_p = sticks - k, potatoes - k
        out.append(Marks(left_s, left_p, sticks - left_s))
    return tuple(out)


def _money(
    res: tuple[Result, Payout], names: Sequence[str], ruleset: RuleSet, cuts: Sequence[Cut]
) -> tuple[str, tuple[str, ...]]:
    view = result_view(ruleset, names, res, cuts)
    if len(view.winners) > 1:
        winner = _("Shared win: %(names)s", names=", ".join(view.winners))
    else:
        winner = _("Winner: %(names)s", names=", ".join(view.winners))
    lines = [f"{name}  {chf(net, True)}" for name, net in view.money]
    lines += [
        f"{_('%(payer)s pays %(payee)s', payer=payer, payee=payee)}  {chf(rappen)}"
        for payer, payee, rappen in view.transfers
    ]
    if not view.transfers:
        lines.append(_("Nobody pays anything."))
    return winner, tuple(lines)


def slate_picture(
    *,
    title: str,
    date: str,
    ruleset: RuleSet,
    names: Sequence[str],
    slate: Slate,
    res: tuple[Result, Payout] | None,
    cuts: Sequence[Cut] = (),
    ended_early: bool = False,
) -> SlatePicture:
    """What the picture shows, every text in the user's language (call inside a request or app context)."""
    three = ruleset.variant is Variant.THREE
    result = res[0] if res is not None else None
    view = build_slate_view(ruleset, names, slate, ended=res is not None)
    cut_texts: dict[str, str] = {}
    if result is not None:  # the same words as the result page
        cut_texts = {r.row_key: cut_text(r.cut, view.sides) for r in result.rows if r.cut is not None}
    rows: list[PictureRow] = []
    for i, rv in enumerate(view.rows):
        notes = tuple((c.played_as or "").replace(SHY, "") for c in rv.cells)  # a picture has no soft hyphens
        marks: tuple[Marks, ...] = ()
        if three and result is not None:
            marks = tuple(Marks(s, p) for s, p in result.rows[i].marks)
        rows.append(
            PictureRow(
                label=rv.label.replace(SHY, ""),
                factor="" if three else f"×{rv.factor}",
                cells=tuple("" if c.value is None else str(c.value) for c in rv.cells),
                notes=notes if any(notes) else (),
                marks=marks,
                group_end=rv.group_end,
                cut=cut_texts.get(rv.key, ""),
            )
        )
    winner, money = _money(res, names, ruleset, cuts) if res is not None else ("", ())
    return SlatePicture(
        title=title,
        date=date,
        variant=str(VARIANT_SHORT[ruleset.variant]),
        columns=tuple(view.sides),
        rows=tuple(rows),
        totals_label=_("Points") if three else _("Total"),
        totals=tuple(str(t) for t in view.totals),
        status=_status(ruleset, slate, res is not None, ended_early),
        match_label=_("Match") if three else "",
        match=_match_marks(slate, result) if three else (),
        net_label=_("Net sticks") if result is not None and result.net is not None else "",
        net=tuple(signed(n) for n in result.net) if result is not None and result.net is not None else (),
        winner=winner,
        money=money,
        highlight=tuple(result.winners) if result is not None else (),
    )


@bp.route("/slate.png")
def slate_png(token: str, evening_id: str) -> Response:
    circle, _can_write = open_or_404(token)
    evening = evening_or_404(circle, evening_id)
    slate = svc.load_slate(evening)
    cuts, _pending = svc.cuts_and_pending(evening, slate)
    picture = slate_picture(
        title=circle.name,
        date=format_date(evening.created_at, "medium"),
        ruleset=ruleset_of(evening),
        names=seat_names(evening),
        slate=slate,
        res=svc.result(evening),
        cuts=cuts,
        ended_early=evening.ended_early,
    )
    response = Response(render_slate(picture), mimetype="image/png")
    response.headers["Cache-Control"] = "private, max-age=0"
    response.headers["Content-Disposition"] = f'inline; filename="coiffeur-{evening.created_at.date().isoformat()}.png"'
    return response
