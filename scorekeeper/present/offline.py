"""What an offline phone needs from the slate page (issue 11).

``rule_snapshot``: the checks of RULES.md 7 a phone can make without the server,
as data (a JSON island read by static/js/checks.js): the points range and sum, the
match and countermatch piles, each row's contracts, the rows still open per side and
the sides that are full, with every message in the user's language. The rules stay
in the core: the numbers come from ``game.hand_entry`` and the evening's slate, the
texts from ``scoring.entries.ERROR_CODES``; tests/e2e/test_e2e_offline_checks.py holds
the script's answers against the server's.

``offline_texts``: the words of the offline state, the queue and the share buttons
(every page carries them: the state line shows on any page).
"""

from __future__ import annotations

from typing import Any

from ..game.contracts import Kind, all_contracts
from ..game.hand_entry import TOTAL_POINTS
from ..i18n import _, gettext
from ..scoring.entries import ERROR_CODES
from ..services.snapshot import EveningSnapshot
from .labels import contract_label, row_label

# The codes checks.js knows, in the order the core checks them (scoring.slate.check_entry).
CLIENT_CODES = (
    "evening_complete",
    "declarer_unknown",
    "row_required",
    "row_unknown",
    "side_full",
    "row_closed",
    "contract_required",
    "contract_not_allowed",
    "points_not_whole",
    "points_range",
    "points_sum",
    "match_and_countermatch",
    "match_needs_all",
    "countermatch_needs_none",
)


def rule_snapshot(snap: EveningSnapshot) -> dict[str, Any]:
    """The evening's rules and open cells as the phone checks a new hand against them."""
    rs, slate = snap.ruleset, snap.slate
    rows: dict[str, Any] = {}
    for row in rs.rows:
        allowed = [c.code for kind in row.kinds for c in all_contracts(kind) if row.allows(c)] if row.is_choice else []
        rows[row.key] = {"label": row_label(row, rs.deck), "choice": row.is_choice, "allows": allowed}
    # every contract by its name: the messages and the queued hands' descriptions
    contracts = {c.code: contract_label(c, rs.deck) for kind in Kind for c in all_contracts(kind)}
    return {
        "version": snap.version,
        "total": TOTAL_POINTS,
        "seat_side": [rs.side_of(seat) for seat in range(rs.n_players)],
        "names": list(snap.names),
        "rows": rows,
        "contracts": contracts,
        "open": [slate.open_rows(side) for side in range(rs.n_sides)],
        "full": sorted(slate.full_sides()),
        "complete": slate.complete,
        "messages": {code: gettext(ERROR_CODES[code]) for code in CLIENT_CODES},
    }


def offline_texts() -> dict[str, str]:
    """The words the offline script shows (marked here, so they are translated once)."""
    return {
        "offline": _("Offline: the slate as it was last in step at %(time)s."),
        "offline_never": _("Offline: the slate as this phone last saw it."),
        "offline_page": _("Offline: this page needs the network."),
        "insecure": _(
            "Offline use needs the HTTPS address of this app; over this address the slate works online only."
        ),
        "queued": _("not yet sent"),
        "sending": _("sending…"),
        "refused": _("refused: %(reason)s"),
        "conflict": _(
            "Another phone changed the slate first. Check whether this hand is already on it: "
            "record it anyway, or drop it."
        ),
        "record_anyway": _("Record anyway"),
        "drop": _("Drop"),
        "correct": _("Correct"),
        "queued_note": _("Saved on this phone; it is sent as soon as the network is back."),
        "disabled": _(
            "Offline: only new hands can be recorded. Corrections, undo, cuts and ending wait for the network."
        ),
        "table_offline": _(
            "Offline: the digital table needs the network. It carries on when the phone is back online."
        ),
        "copied": _("Link copied."),
        "declarer_required": _("Who declared?"),
        "points_required": _("Enter the declarer's points (0 to 157)."),
    }
