"""What a recorded hand writes in its cell, the checks of RULES.md section 7 that need
no slate (``check_points``, ``check_cell``), and every error code of the checks
(``ERROR_CODES``; the checks against the slate are ``slate.check_entry`` and
``slate.verify_entry``).

Every failure is a ``RuleError`` with an English template marked by ``N_()``, a
stable ``code`` and its params (see ``ERROR_CODES``). Nothing is written on failure.

Cell values (``cell_value``), by the rule set's scoring mode:

- RAW (three players): the declarer's card points; 257 for a match.
- TENTHS (teams, solo): floor(points / 10) x factor, dividing and flooring FIRST;
  a match is 25 x factor; a countermatch 0.
- FULL (club): points x factor; a match adds 100 after the multiplication.

House rules (``RuleSet.cells``) may set the scoring of any rule set of four players, what a
match counts as before the factor and adds after it, and what a countermatch costs.

Misère (any mode): the declaring side writes the OPPONENTS' pile, as if the roles
were swapped: the opponents' points, and "match" when the declaring side took no
trick (countermatch). A Misère in which the declaring side took every trick writes 0.

Imported cells (a past evening typed from a paper slate, ``HandEntry.paper``): the
entry carries the value written in the cell (``cell``) instead of card points, which
are unknown (both piles are 0). It passes the same row checks as a hand (the row
exists, is open for that side, a given contract fits it; what a choice row was
played as may be unknown), and its value must be one that a hand in that row could
write: ``cell_value`` of some hand with the same match/countermatch marks
(``possible_cells``). ``cell_value`` returns it as it is, so the slate, the result and
the money are computed by the same code as for played hands.

``outcome_of`` reduces a hand to the one number a cell is written from (the
*outcome*: 0..157 points, ``MATCH_POINTS`` for a match, ``COUNTERMATCH`` for a
countermatch, Misère already swapped) and ``game.rulesets.Cells.written`` turns an
outcome into the cell's value (a rule set keeps every row's, ``RuleSet.writes``);
``cell_value`` is the two together, and the outlook (``outlook.py``) uses the same
arithmetic for rows not played yet.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from ..game.contracts import Contract, Kind
from ..game.errors import N_, RuleError
from ..game.hand_entry import COUNTERMATCH, MATCH_POINTS, TOTAL_POINTS, HandEntry
from ..game.rulesets import RuleSet

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
    "match_and_countermatch": N_("A side cannot take every trick and no trick: tick one of the two at most."),
    "match_needs_all": N_(
        "“Every trick taken” needs the points 157 : 0, but they are %(declarer)s : %(defenders)s. "
        "Correct the points, or untick “every trick taken”."
    ),
    "countermatch_needs_none": N_(
        "“No trick taken” needs the points 0 : 157, but they are %(declarer)s : %(defenders)s. "
        "Correct the points, or untick “no trick taken”."
    ),
    "seich_not_allowed": N_("Seich is not played with these rules."),
    "seich_with_result": N_("A Seich hand is thrown in: no row, no contract, no points, no match."),
    "seich_used": N_("This team has already used its Seich tonight."),
    "not_in_barrel": N_("Only %(seat)s, who is in the barrel, may call Seich."),
    "entry_unknown": N_("There is no hand %(hand)s to correct."),
    "correction_conflict": N_("This correction would make hand %(hand)s invalid (%(reason)s)."),
    "cell_not_whole": N_("A cell holds a whole number."),
    "cell_with_points": N_("An imported cell carries its value only, no card points."),
    "cell_impossible": N_("The row “%(row)s” cannot hold %(value)s."),
    "cell_needs_match": N_("%(value)s in the row “%(row)s” is a ★ match: mark it as one."),
    "cell_match_value": N_("A ★ match in the row “%(row)s” writes %(expected)s."),
    "cell_countermatch_value": N_("A ✗ countermatch in the row “%(row)s” writes %(expected)s."),
}


def rule_error(code: str, **params: object) -> RuleError:
    """The ``RuleError`` of ``code`` (one of ``ERROR_CODES``) with its English template."""
    return RuleError(ERROR_CODES[code], code, **params)


def plays_misere(ruleset: RuleSet, row_key: str | None, contract: Contract | None) -> bool:
    """True when a hand in ``row_key`` played as ``contract`` is a Misère (the cell is written
    from the opponents' pile, and taking no trick is its match)."""
    if contract is not None:
        return contract.kind is Kind.MISERE
    if row_key is None:
        return False
    return ruleset.row_of[row_key].always_misere


def is_misere(ruleset: RuleSet, entry: HandEntry) -> bool:
    """True when the hand was played as Misère (the cell is written from the opponents' pile)."""
    return plays_misere(ruleset, entry.row_key, entry.contract)


def slate_marks(ruleset: RuleSet, entry: HandEntry) -> tuple[bool, bool]:
    """(★ match, ✗ countermatch) as the slate marks the hand: good or bad for the declaring
    side. ``HandEntry.match`` says the declaring side took every trick; in a Misère that is
    the countermatch, and taking no trick (``HandEntry.countermatch``) its match."""
    if is_misere(ruleset, entry):
        return entry.countermatch, entry.match
    return entry.match, entry.countermatch


def tricks_of_marks(
    ruleset: RuleSet, row_key: str | None, contract: Contract | None, *, good: bool, bad: bool
) -> tuple[bool, bool]:
    """(every trick, no trick), the ``HandEntry`` flags, of a cell marked ★ (``good``) or ✗
    (``bad``) on a slate: ``slate_marks`` the other way round."""
    if plays_misere(ruleset, row_key, contract):
        return bad, good
    return good, bad


def outcome_of(ruleset: RuleSet, entry: HandEntry) -> int:
    """The outcome a (verified) hand writes its cell from: the written pile's points
    0..157, ``MATCH_POINTS`` for a match, ``COUNTERMATCH`` for a countermatch; in
    Misère the opponents' pile, a "match" when the declaring side took no trick."""
    if entry.seich or entry.row_key is None:
        raise ValueError("a Seich hand writes no cell")
    if entry.cell is not None:
        raise ValueError("an imported cell has no card points")
    points, match, countermatch = entry.declarer_points, entry.match, entry.countermatch
    if is_misere(ruleset, entry):
        points, match, countermatch = entry.defender_points, entry.countermatch, entry.match
    if match:
        return MATCH_POINTS
    return COUNTERMATCH if countermatch else points


def cell_value(ruleset: RuleSet, entry: HandEntry) -> int:
    """What is written in the cell for a (verified) hand entry."""
    if entry.seich or entry.row_key is None:
        raise ValueError("a Seich hand writes no cell")
    if entry.cell is not None:
        return entry.cell
    return ruleset.writes[entry.row_key][outcome_of(ruleset, entry)]


def check_points(entry: HandEntry) -> None:
    """The point checks of RULES.md 7 alone (no slate needed)."""
    d, o = entry.declarer_points, entry.defender_points
    for p in (d, o):
        if type(p) is not int:
            raise rule_error("points_not_whole")
    for p in (d, o):
        if not 0 <= p <= TOTAL_POINTS:
            raise rule_error("points_range", points=p)
    if d + o != TOTAL_POINTS:
        raise rule_error("points_sum", declarer=d, defenders=o, sum=d + o)
    if entry.match and entry.countermatch:
        raise rule_error("match_and_countermatch")
    if entry.match and (d, o) != (TOTAL_POINTS, 0):
        raise rule_error("match_needs_all", declarer=d, defenders=o)
    if entry.countermatch and (d, o) != (0, TOTAL_POINTS):
        raise rule_error("countermatch_needs_none", declarer=d, defenders=o)


def possible_cells(
    ruleset: RuleSet, row_key: str, contract: Contract | None
) -> Mapping[tuple[bool, bool], frozenset[int]]:
    """Every value a hand in that row (played as ``contract``) can write, by its
    (match, countermatch) marks: what the row writes for every pile, and for taking every
    trick or none (in a Misère taking every trick writes the countermatch's cell)."""
    writes = ruleset.writes[row_key]
    every, none = writes[MATCH_POINTS], writes[COUNTERMATCH]
    if plays_misere(ruleset, row_key, contract):
        every, none = none, every
    plain = frozenset(writes[p] for p in range(TOTAL_POINTS + 1))
    return {(False, False): plain, (True, False): frozenset({every}), (False, True): frozenset({none})}


def check_cell(ruleset: RuleSet, entry: HandEntry) -> None:
    """The checks of an imported cell's value (the row checks are ``slate.check_entry``'s)."""
    value = entry.cell
    if type(value) is not int:
        raise rule_error("cell_not_whole")
    if entry.declarer_points != 0 or entry.defender_points != 0:
        raise rule_error("cell_with_points")
    if entry.match and entry.countermatch:
        raise rule_error("match_and_countermatch")
    assert entry.row_key is not None
    cells = possible_cells(ruleset, entry.row_key, entry.contract)
    # the messages speak of the marks as the slate draws them (★ match, ✗ countermatch: in a
    # Misère the ★ match is the hand without a trick), as the person typing the slate sees them
    good, bad = slate_marks(ruleset, entry)
    good_cells, bad_cells = (
        (cells[(False, True)], cells[(True, False)])
        if is_misere(ruleset, entry)
        else (cells[(True, False)], cells[(False, True)])
    )
    if good and value not in good_cells:
        raise rule_error("cell_match_value", row=entry.row_key, expected=min(good_cells))
    if bad and value not in bad_cells:
        raise rule_error("cell_countermatch_value", row=entry.row_key, expected=min(bad_cells))
    if not good and not bad and value not in cells[(False, False)]:
        if value in good_cells:
            raise rule_error("cell_needs_match", row=entry.row_key, value=value)
        raise rule_error("cell_impossible", row=entry.row_key, value=value)
