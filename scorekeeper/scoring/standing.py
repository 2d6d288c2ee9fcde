"""An evening as it stands, in one pure call: ``stand`` turns the hands on the slate and the
cuts made into the slate, what they decide (the cuts that count, the ties still waiting, the
result and the money) and whose turn it is, with the marks every face shows (a cell's ★ and ✗,
also of the hands the audit trail names; the match row as it counts, the sticks known now with
three players), and who deals first at the next evening.

The snapshot (``services.read.snapshot``) reads the rows and calls this once; the pages, the
API, the picture and the offline phone read what it made and compute none of it again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..game import turns
from ..game.hand_entry import HandEntry
from ..game.rulesets import RuleSet, Variant
from .entries import slate_marks
from .final import Cut, Result, Tie, cancel_marks, effective_cuts, final_result
from .outlook_three import current_net, row_ranges
from .payouts import Payout, payout
from .slate import Slate


@dataclass(frozen=True, slots=True)
class TurnGuide:
    """Who deals and who speaks for the next hand (seats and sides; names are the view's)."""

    dealer: int
    forehand: int
    speaking: tuple[int, ...]  # seats that may choose, in speaking order
    full_sides: tuple[int, ...]  # sides whose rows are all filled (they pass)
    barrel_seat: int | None  # who must choose when everybody passed
    seich_available: tuple[int, ...] | None  # club variant: sides that may still call Seich
    choosers: tuple[tuple[int, int], ...] = ()  # (side, its first seat in speaking order)
    dealers: tuple[int, ...] = ()  # the dealer of this hand and of the next ones, one per seat

    @classmethod
    def of(cls, slate: Slate) -> TurnGuide:
        rs = slate.ruleset
        speaking = tuple(slate.eligible_seats())
        first: dict[int, int] = {}
        for seat in speaking:
            first.setdefault(rs.side_of(seat), seat)
        return cls(
            dealer=slate.dealer,
            forehand=slate.forehand,
            speaking=speaking,
            full_sides=tuple(sorted(slate.full_sides())),
            barrel_seat=slate.barrel_seat,
            seich_available=tuple(s for s in range(rs.n_sides) if s not in slate.seich_used) if rs.seich else None,
            choosers=tuple(first.items()),
            dealers=tuple(
                turns.dealer_after(rs, slate.first_dealer, slate.hands_dealt + k) for k in range(rs.n_players)
            ),
        )


@dataclass(frozen=True, slots=True)
class Outcome:
    """What an evening's rows and cuts decide: the cuts that count, the ties still waiting,
    and, once decided, the result and the money."""

    cuts: tuple[Cut, ...]
    pending: tuple[Tie, ...]
    result: Result | None
    payout: Payout | None


@dataclass(frozen=True, slots=True)
class Standing:
    """The slate, what it decides, whose turn it is, and the marks every face shows."""

    slate: Slate = field(compare=False)  # compared by its entries, where that is meant
    outcome: Outcome
    turn: TurnGuide | None  # None once every cell is filled or the evening ended
    marks: tuple[tuple[bool, bool], ...]  # per entry on the slate: (★ good, ✗ bad) for the declaring side
    match_row: tuple[tuple[int, int], ...] | None  # three players: (sticks, potatoes) per player as they count
    sticks_now: tuple[int, ...] | None  # three players: net sticks known now
    trail_marks: Mapping[HandEntry, tuple[bool, bool]]  # (★, ✗) of every hand the trail names
    next_first_dealer: int  # who deals first at the next evening ("same again")


def decide(slate: Slate, cuts: Sequence[Cut], *, is_open: bool) -> Outcome:
    """Result and money once the evening is ended or every cell is filled and every tie cut
    (``cuts``: every cut made, oldest first; the latest cut of a tie counts)."""
    counted, pending = effective_cuts(slate, cuts)
    if (is_open and not slate.complete) or pending:
        return Outcome(tuple(counted), tuple(pending), None, None)
    res = final_result(slate, counted)
    return Outcome(tuple(counted), tuple(pending), res, payout(slate.ruleset, res))


def stand(
    ruleset: RuleSet,
    first_dealer: int,
    hands: Sequence[HandEntry],
    cuts: Sequence[Cut],
    *,
    is_open: bool,
    named: Sequence[HandEntry] = (),
) -> Standing:
    """The evening of ``hands`` (on the slate, in order) and ``cuts`` (every cut made, oldest
    first), open or ended; ``named``: the other hands its audit trail names (corrected, taken back)."""
    slate = Slate.build(ruleset, first_dealer, hands)
    outcome = decide(slate, cuts, is_open=is_open)
    three = ruleset.variant is Variant.THREE
    return Standing(
        slate=slate,
        outcome=outcome,
        turn=TurnGuide.of(slate) if is_open and not slate.complete else None,
        marks=tuple(slate_marks(ruleset, e) for e in slate.entries),
        match_row=cancel_marks(slate.match_marks) if three else None,
        sticks_now=tuple(current_net(slate, row_ranges(slate, outcome.cuts, ended=not is_open))) if three else None,
        trail_marks={hand: slate_marks(ruleset, hand) for hand in (*slate.entries, *named)},
        next_first_dealer=turns.next_first_dealer(ruleset, first_dealer),
    )
