"""The slate as a picture to share: what ``render.render_slate`` draws, from a snapshot.

Its columns are headed by the evening's short names (``labels.short_names``, the one rule of
the pages and the API: whole words, unique tonight), a team's two on two lines where needed,
and the full names are written under the slate when they differ.

``slate_picture`` turns what the slate page shows (``slate.slate_view``,
``result.result_in``: the same labels, groups and texts, in the user's language)
into a plain ``render.SlatePicture``; Pillow never sees a translation or a request.
"""

from __future__ import annotations

from ..game.rulesets import Variant
from ..i18n import _
from ..render import Marks, PictureRow, SlatePicture
from ..scoring.final import cancel_marks
from ..services.read.snapshot import EveningSnapshot
from .labels import SHY, VARIANT_SHORT, chf, names_key, signed
from .result import ResultView, cut_text, result_in
from .slate import slate_view, words_of


def _status(snap: EveningSnapshot) -> str:
    if snap.ended_early:
        return _("ended early")
    if snap.result is not None:
        return ""
    if snap.slate.complete:
        return _("waiting for the cut")
    return _("%(filled)s of %(total)s hands", filled=len(snap.slate.cells), total=snap.ruleset.n_hands)


def _match_marks(snap: EveningSnapshot) -> tuple[Marks, ...]:
    """The match row as chalked: a stick and a potato in the same cell drawn as one crossed pair."""
    marks = snap.slate.match_marks
    return tuple(
        Marks(left_s, left_p, sticks - left_s)
        for (sticks, _potatoes), (left_s, left_p) in zip(marks, cancel_marks(marks), strict=True)
    )


def _money(view: ResultView) -> tuple[str, tuple[str, ...]]:
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


def slate_picture(snap: EveningSnapshot, *, title: str, date: str) -> SlatePicture:
    """What the picture shows, every text in the user's language (call inside a request or app context)."""
    three = snap.ruleset.variant is Variant.THREE
    result = snap.result
    words = words_of(snap)  # the evening's words, once for the slate and the result
    view = slate_view(snap, words)
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
    outcome = result_in(snap, words)
    winner, money = _money(outcome) if outcome is not None else ("", ())
    members = tuple(tuple(m) for m in view.members)  # the evening's short names (labels.short_names)
    key = ""
    if names_key(snap.names):  # the full names, where the columns show short forms
        key = _("Players: %(names)s", names=", ".join(snap.names))
    return SlatePicture(
        title=title,
        date=date,
        variant=str(VARIANT_SHORT[snap.ruleset.variant]),
        columns=tuple(" & ".join(m) for m in members),
        rows=tuple(rows),
        totals_label=_("Points") if three else _("Total"),
        totals=tuple(str(t) for t in view.totals),
        status=_status(snap),
        match_label=_("Match") if three else "",
        match=_match_marks(snap) if three else (),
        seich_label=_("Seich") if view.seich_called else "",
        seich=tuple("; ".join(m.text for m in marks) for marks in view.seich or ()) if view.seich_called else (),
        net_label=_("Net sticks") if result is not None and result.net is not None else "",
        net=tuple(signed(n) for n in result.net) if result is not None and result.net is not None else (),
        winner=winner,
        money=money,
        highlight=tuple(result.winners) if result is not None else (),
        column_names=members,
        key=key,
    )
