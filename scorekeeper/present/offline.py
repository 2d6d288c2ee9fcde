"""What an offline phone needs from the slate page (issue 11).

``rule_snapshot``: the checks of RULES.md 7 a phone can make without the server,
as data (a JSON island read by static/js/checks.js): the points range and sum, the
match and countermatch piles, each row's contracts, the rows still open per side and
the sides that are full, with every message in the user's language. The rules stay
in the core: the numbers come from ``game.hand_entry`` and the evening's slate, the
texts from ``scoring.entries.ERROR_CODES``; tests/e2e/test_e2e_offline_checks.py holds
the script's answers against the server's.

``rule_snapshot``'s ``turns``: the turn guide for the hands still queued on the phone (issue 20
point 14). Who deals and who chooses depend only on how many hands were dealt and which sides
are full; the server sends, from ``game.turns`` (the one truth), the next dealers and for every
dealer and every set of full sides still reachable the forehand, the speaking order and the
barrel, with the guide's words: offline.js only looks them up and fills them in.

``offline_texts``: the words of the offline state, the queue and the share buttons
(every page carries them: the state line shows on any page).
"""

from __future__ import annotations

from typing import Any

from ..game.hand_entry import TOTAL_POINTS
from ..i18n import _, gettext
from ..scoring.entries import ERROR_CODES
from ..services.read.snapshot import EveningSnapshot
from .labels import EveningWords
from .slate import seich_marks_in, words_of

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
    """The evening's rules and open cells as the phone checks a new hand against them: what
    stays the same all evening (``fixed_rules``) and what a write changes (``live_rules``)."""
    words = words_of(snap)
    return {**fixed_rules(snap, words), **live_rules(snap, words)}


def fixed_rules(snap: EveningSnapshot, words: EveningWords) -> dict[str, Any]:
    """The part of ``rule_snapshot`` that no write changes (the rows, the contracts, the
    messages, in the page's language): sent once with the slate page, outside its live
    fragment, so neither the poll nor the answer to a write carries it again."""
    facts = snap.facts
    rows = {
        r.row.key: {"label": words.rows[r.row.key], "choice": r.row.is_choice, "allows": list(r.allows)}
        for r in facts.rows
    }
    return {
        "total": TOTAL_POINTS,
        "seat_side": list(facts.seat_side),
        "rows": rows,
        # every contract by its name: the messages and the queued hands' descriptions
        "contracts": dict(words.contracts),
        "messages": {code: gettext(ERROR_CODES[code]) for code in CLIENT_CODES},
    }


def live_rules(snap: EveningSnapshot, words: EveningWords) -> dict[str, Any]:
    """The part of ``rule_snapshot`` a write changes (the version, the names, the open rows,
    the turn guide): in the slate's live fragment."""
    slate = snap.slate
    return {
        "version": snap.version,
        "names": list(snap.names),
        "open": [slate.open_rows(side) for side in range(len(snap.facts.side_seats))],
        "full": sorted(slate.full_sides()),
        "complete": slate.complete,
        "turns": turns_in(snap, words),
    }


def turns_in(snap: EveningSnapshot, words: EveningWords) -> dict[str, Any] | None:
    """What the phone needs to show the turn guide after its queued hands (None once no guide
    is shown). ``dealers[k]``: the dealer after ``k`` more hands (a Seich is a deal too);
    ``orders["<dealer>:<full sides as a bit mask>"]``: ``[forehand, barrel or -1, speaking...]``
    for every set of full sides that contains tonight's (a side never empties again); the words
    of templates/slate/_guide.html with their placeholders. The seats come from
    ``game.rule_facts`` (``game.turns``' answers, worked out once per rule set)."""
    turn = snap.turn
    if turn is None:
        return None
    rs, slate, facts = snap.ruleset, snap.slate, snap.facts
    now = sum(1 << side for side in turn.full_sides)
    orders = {
        f"{dealer}:{mask}": [forehand, barrel, *speaking]
        for (dealer, mask), (forehand, barrel, speaking) in facts.orders.items()
        if mask & now == now
    }
    n_sides = len(facts.side_seats)
    return {
        "dealers": list(turn.dealers),
        "orders": orders,
        "hands": slate.hands_dealt,
        "filled": len(slate.cells),
        "cells": n_sides * len(facts.rows),
        "sides": list(words.sides),
        "seich": None if turn.seich_available is None else list(turn.seich_available),
        # per side, the Seich it may still call (``RuleSet.seich_times``: a queued one uses one of them)
        "seich_left": [max(0, rs.seich_times - slate.seich_calls.get(side, 0)) for side in range(n_sides)],
        # where each team's Seich went: [side, hand, caller] (the guide's "Used: ..." line)
        "seich_used": [
            [side, m.hand, m.name] for side, marks in enumerate(seich_marks_in(snap, words) or []) for m in marks
        ],
        "words": {
            "count": _("Hand %(n)s", n="%(n)s")
            + " · "
            + _("%(filled)s of %(total)s cells filled", filled="%(filled)s", total="%(total)s"),
            "deals": _("deals."),
            "forehand": _("is forehand and chooses first."),
            "forehand_full": _(
                "%(forehand)s (forehand) is full; %(first)s chooses first.", forehand="%(forehand)s", first="%(first)s"
            ),
            "speaking": _("Speaking order: %(names)s", names="%(names)s"),
            "full": _("Full, must pass (skipped): %(names)s", names="%(names)s"),
            "barrel": _("In the barrel: if everybody passes, %(name)s must choose.", name="%(name)s"),
            "seich": words.seich[0],
            "seich_none": words.seich[1],
            "seich_where": _("%(team)s in hand %(n)s (%(name)s)", team="%(team)s", n="%(n)s", name="%(name)s"),
            "seich_used": _("Used: %(where)s.", where="%(where)s"),
            "barrel_rule": words.barrel_rule,
            "queued": _("Counting the hands saved on this phone that are not sent yet."),
        },
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
        "moved": _("kept on this phone: sent once you open the new link"),
        "moved_note": _("Kept on this phone: it is sent once you open the circle's new link."),
        "gone_queue": _("The hands typed on this phone are kept, and sent once you open the new link."),
        "moved_here": _("Hands typed under the old link are being sent with this link."),
        "notice_conflict": _(
            "A hand saved on this phone was not written: another phone changed the slate first. "
            "Check it under “Not yet sent”: record it anyway, or drop it."
        ),
        "notice_refused": _("A hand saved on this phone was refused: correct it or drop it under “Not yet sent”."),
        "to_queue": _("Show the hands not yet sent"),
        "disabled": _(
            "Offline: only new hands can be recorded. Corrections, undo, cuts and ending wait for the network."
        ),
        "table_offline": _(
            "Offline: the digital table needs the network. It carries on when the phone is back online."
        ),
        "no_copy": _(
            "This phone keeps no offline copy of this slate (the browser may have cleared it): "
            "keep this page open; the copy is kept again once the network is back."
        ),
        "lost": _(
            "The browser cleared this phone's storage: these hands saved here were not sent. "
            "Enter them again: %(hands)s"
        ),
        "copied": _("Link copied."),
        "declarer_required": _("Who declared?"),
        "points_required": _("Enter the declarer's points (0 to 157)."),
    }
