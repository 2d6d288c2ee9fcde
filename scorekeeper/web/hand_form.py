"""The record/correct form of a hand: choices per evening, form -> HandEntry, HandEntry -> form."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..forms import HandForm, choices, new_request_id
from ..game.contracts import Contract
from ..game.hand_entry import HandEntry
from ..game.rulesets import RuleSet
from ..i18n import _
from ..present.labels import row_label
from ..present.slate import contract_choices


def make_hand_form(
    ruleset: RuleSet,
    names: Sequence[str],
    *,
    version: int,
    formdata: Any = None,
    entry: HandEntry | None = None,
) -> HandForm:
    """A HandForm for this evening: posted data, or the values of ``entry`` (correction), or empty."""
    data: dict[str, Any] = {"expected_version": version, "request_id": new_request_id()}
    if entry is not None:
        data.update(
            declarer=entry.declarer_seat,
            row=entry.row_key or "",
            played_as=entry.contract.code if entry.contract is not None else "",
            declarer_points=None if entry.seich else entry.declarer_points,
            defender_points=None if entry.seich else entry.defender_points,
            match=entry.match,
            countermatch=entry.countermatch,
            seich=entry.seich,
        )
    form = HandForm(formdata=formdata, data=data) if formdata is not None else HandForm(formdata=None, data=data)
    form.declarer.choices = choices((seat, names[seat]) for seat in range(ruleset.n_players))
    form.row.choices = choices([("", _("– choose –"))] + [(r.key, row_label(r, ruleset.deck)) for r in ruleset.rows])
    form.played_as.choices = choices(
        [("", _("– choose –"))] + [(code, label) for code, label, _rows in contract_choices(ruleset)]
    )
    form.author.choices = choices([("", "–")] + [(name, name) for name in names])
    if not ruleset.seich:
        del form.seich
    return form


def refresh_version(form: HandForm, version: int) -> None:
    """Re-render a kept form against the fresh slate: the next submit expects ``version``."""
    form.expected_version.data = version
    form.expected_version.raw_data = None


def entry_from_form(ruleset: RuleSet, form: HandForm) -> HandEntry:
    """The HandEntry the (shape-valid) form describes; the rules are checked by the core."""
    seat = int(form.declarer.data)
    seich = bool(getattr(form, "seich", None) and form.seich.data)
    if seich:
        return HandEntry.seich_hand(seat)
    row_key = form.row.data or None
    contract: Contract | None = None
    if row_key is not None and form.played_as.data:
        try:
            row = ruleset.row(row_key)
        except KeyError:
            row = None
        if row is not None and row.is_choice:
            contract = Contract.parse(form.played_as.data)
    return HandEntry(
        row_key=row_key,
        declarer_seat=seat,
        contract=contract,
        declarer_points=int(form.declarer_points.data),
        defender_points=int(form.defender_points.data),
        match=bool(form.match.data),
        countermatch=bool(form.countermatch.data),
    )
