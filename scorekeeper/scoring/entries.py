"""The checks of RULES.md section 7 on a recorded hand, and what a cell holds.

``verify_entry`` is the single gate: ``Slate.build`` runs the same checks on every
entry it is given, so the slate can never hold an entry the gate would refuse.

Every failure is a ``RuleError`` with an English template marked by ``N_()``, a
stable ``code`` and its params (see ``ERROR_CODES``). Nothing is written on failure.

Cell values (``cell_value``), by the rule set's scoring mode:

- RAW (three players): the declarer's card points; 257 for a match.
- TENTHS (teams, solo): floor(points / 10) x factor, dividing and flooring FIRST;
  a match is 25 x factor; a countermatch 0.
- FULL (club): points x factor; a match adds 100 after the multiplication.

Misère (any mode): the declaring side writes the OPPONENTS' pile, as if the roles
were swapped: the opponents' points, and "match" when the declaring side took no
trick (countermatch). A Misère in which the declaring side took every trick writes 0.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..game.contracts import Contract, Kind
from ..game.errors import N_, RuleError
from ..game.hand_entry import MATCH_BONUS, MATCH_POINTS, TOTAL_POINTS, HandEntry
from ..game.rulesets import Row, RuleSet, Scoring

if TYPE_CHECKING:  # pragma: no cover
    from .slate import Slate

# Every code verify_entry (and Slate.build) can raise, with its English template.
ERROR_CODES: Final[dict[str, str]] = {
    "evening_complete": N_("Every row is filled: the evening is complete."),
    "declarer_unknown": N_("There is no seat %(seat)s at this table."),
    "row_required": N_("Choose the row this hand was played in."),
    "row_unknown": N_("There is no row “%(row)s” tonight."),
    "side_full": N_("All rows of this player or team are filled: they cannot declare."),
    "row_closed": N_("The row “%(row)s” is already filled for this player or team."),
    "contract_required": N_("Say what the row “%(row)s” was played as."),
    "contract_not_allowed": N_("The row “%(row)s” cannot be played as %(contract)s."),
    "points_not_whole": N_("Points are whole numbers."),
    "points_range": N_("Points are whole numbers from 0 to 157 (got %(points)s)."),
    "points_sum": N_("Declarer's and defenders' points must add up to 157 (%(declarer)s + %(defenders)s = %(sum)s)."),
    "match_and_countermatch": N_("A hand cannot be both a match and a countermatch."),
    "match_needs_all": N_("A match needs all 157 points to the declarer and 0 to the defenders."),
    "countermatch_needs_none": N_("A countermatch needs 0 points to the declarer and all 157 to the defenders."),
    "seich_not_allowed": N_("Seich is only played in the club variant."),
    "seich_with_result": N_("A Seich hand is thrown in: no row, no contract, no points, no match."),
    "seich_used": N_("This team has already used its Seich tonight."),
    "not_in_barrel": N_("Only %(seat)s, who is in the barrel, may call Seich."),
    "entry_unknown": N_("There is no hand %(hand)s to correct."),
    "correction_conflict": N_("This correction would make hand %(hand)s invalid (%(reason)s)."),
}


def _fail(code: str, **params: object) -> RuleError:
    return RuleError(ERROR_CODES[code], code, **params)


def is_misere(ruleset: RuleSet, entry: HandEntry) -> bool:
    """True when the hand was played as Misère (the cell is written from the opponents' pile)."""
    if entry.contract is not None:
        return entry.contract.kind is Kind.MISERE
    if entry.row_key is None:
        return False
    return ruleset.row(entry.row_key).kinds == (Kind.MISERE,)


def cell_value(ruleset: RuleSet, entry: HandEntry) -> int:
    """What is written in the cell for a (verified) hand entry."""
    if entry.seich or entry.row_key is None:
        raise ValueError("a Seich hand writes no cell")
    factor = ruleset.row(entry.row_key).factor
    points, match, countermatch = entry.declarer_points, entry.match, entry.countermatch
    if is_misere(ruleset, entry):
        points, match, countermatch = entry.defender_points, entry.countermatch, entry.match
    mode = ruleset.scoring
    if mode is Scoring.RAW:
        return MATCH_POINTS if match else points
    if mode is Scoring.TENTHS:
        if countermatch:
            return 0
        return (MATCH_POINTS // 10 if match else points // 10) * factor
    return points * factor + (MATCH_BONUS if match else 0)


def _check_seich(ruleset: RuleSet, slate: Slate, entry: HandEntry) -> None:
    if not ruleset.seich:
        raise _fail("seich_not_allowed")
    if (
        entry.row_key is not None
        or entry.contract is not None
        or entry.declarer_points != 0
        or entry.defender_points != 0
        or entry.match
        or entry.countermatch
    ):
        raise _fail("seich_with_result")
    if ruleset.side_of(entry.declarer_seat) in slate.seich_used:
        raise _fail("seich_used")
    barrel = slate.barrel_seat
    if entry.declarer_seat != barrel:
        raise _fail("not_in_barrel", seat=barrel)


def _check_row(ruleset: RuleSet, slate: Slate, entry: HandEntry) -> Row:
    if not isinstance(entry.row_key, str) or not entry.row_key:
        raise _fail("row_required")
    try:
        row = ruleset.row(entry.row_key)
    except KeyError:
        raise _fail("row_unknown", row=entry.row_key) from None
    side = ruleset.side_of(entry.declarer_seat)
    if side in slate.full_sides():
        raise _fail("side_full")
    if slate.cell(row.key, side) is not None:
        raise _fail("row_closed", row=row.key)
    contract = entry.contract
    if contract is None:
        if row.is_choice:
            raise _fail("contract_required", row=row.key)
    elif not isinstance(contract, Contract) or not row.allows(contract):
        raise _fail("contract_not_allowed", row=row.key, contract=getattr(contract, "code", contract))
    return row


def check_points(entry: HandEntry) -> None:
    """The point checks of RULES.md 7 alone (no slate needed)."""
    d, o = entry.declarer_points, entry.defender_points
    for p in (d, o):
        if type(p) is not int:
            raise _fail("points_not_whole")
    for p in (d, o):
        if not 0 <= p <= TOTAL_POINTS:
            raise _fail("points_range", points=p)
    if d + o != TOTAL_POINTS:
        raise _fail("points_sum", declarer=d, defenders=o, sum=d + o)
    if entry.match and entry.countermatch:
        raise _fail("match_and_countermatch")
    if entry.match and (d, o) != (TOTAL_POINTS, 0):
        raise _fail("match_needs_all")
    if entry.countermatch and (d, o) != (0, TOTAL_POINTS):
        raise _fail("countermatch_needs_none")


def check_entry(ruleset: RuleSet, slate: Slate, entry: HandEntry) -> None:
    """Check ``entry`` as the next hand on ``slate``. Raises RuleError; returns None when fine."""
    if slate.complete:
        raise _fail("evening_complete")
    seat = entry.declarer_seat
    if type(seat) is not int or not 0 <= seat < ruleset.n_players:
        raise _fail("declarer_unknown", seat=seat)
    if entry.seich:
        _check_seich(ruleset, slate, entry)
        return
    _check_row(ruleset, slate, entry)
    check_points(entry)


def verify_entry(ruleset: RuleSet, slate: Slate, entry: HandEntry, *, replacing: int | None = None) -> None:
    """Check a new hand (appended to ``slate``) or a correction of hand ``replacing``.

    ``replacing`` is the index in ``slate.entries`` of the entry being corrected: the
    entry is checked against the slate as it stood before that hand, and every later
    hand must still be valid after the change (else ``correction_conflict``).
    """
    if replacing is None:
        check_entry(ruleset, slate, entry)
        return
    from .slate import Slate  # local: slate imports this module

    entries = list(slate.entries)
    if type(replacing) is not int or not 0 <= replacing < len(entries):
        raise _fail("entry_unknown", hand=replacing + 1 if isinstance(replacing, int) else replacing)
    state = Slate.build(ruleset, slate.first_dealer, entries[:replacing])
    # The slate "before that hand" must not count the hand itself as complete-blocking.
    check_entry(ruleset, state, entry)
    state._append(entry)
    for j in range(replacing + 1, len(entries)):
        later = entries[j]
        try:
            check_entry(ruleset, state, later)
        except RuleError as err:
            if err.code == "row_closed" and later.row_key == entry.row_key:
                raise _fail("row_closed", row=entry.row_key) from None
            if err.code == "seich_used" and entry.seich:
                raise _fail("seich_used") from None
            raise _fail("correction_conflict", hand=j + 1, reason=err.code) from None
        state._append(later)
