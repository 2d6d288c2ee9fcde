"""One evening's derived outcome, computed by the scoring core and nothing else.

``outcome(record)`` replays the log (``records.replay``), builds the ``Slate`` (which
checks every hand again), keeps the cuts that decide a current tie
(``scoring.standing.decide``), and, once the evening is decided, the ``Result`` and the
``Payout``. It depends only on the rule set, the first dealer, the hands, the cuts and
the status, not on who sat where, so it is cached by those (a merge or a rename costs
nothing) and shared by statistics, ratings, the purse, charts and the export checks.

What the memory's pages read of it is its ``summary`` (``summary.Summary``);
``summary_of(record)`` gives it, from the record's stored copy when the service found
one current, else from the replay.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..game.contracts import Kind
from ..game.hand_entry import MATCH_BONUS, HandEntry
from ..game.rulesets import RuleSet
from ..scoring.entries import is_misere, outcome_of
from ..scoring.final import Cut, Result, Tie
from ..scoring.forecast import history_key
from ..scoring.payouts import Payout
from ..scoring.slate import Cell, Slate
from ..scoring.standing import decide
from .records import EveningRecord
from .summary import Decided, HandFact, Hands, Summary

__all__ = ["HandFact", "Outcome", "Summary", "outcome", "summary_of", "summarize", "clear_cache"]

CACHE_SIZE = 2048  # evenings kept per worker (~14 KB each: about 28 MB at most)


def contract_kind(ruleset: RuleSet, entry: HandEntry) -> Kind | None:
    """What the hand was played as: its contract's kind, or the fixed row's one kind; None for
    a house row (a contract the app does not know: in no contract's statistics)."""
    if entry.contract is not None:
        return entry.contract.kind
    assert entry.row_key is not None
    kinds = ruleset.row(entry.row_key).kinds
    return kinds[0] if kinds else None


def contract_code(ruleset: RuleSet, entry: HandEntry) -> str:
    """``Contract.code`` of what was played; a fixed row recorded without its contract
    gives its suit (``suit:H``) or its kind (``slalom``: the start was not recorded)."""
    if entry.contract is not None:
        return entry.contract.code
    assert entry.row_key is not None
    row = ruleset.row(entry.row_key)
    if not row.kinds:
        return ""  # a house row
    if row.suit is not None:
        return f"{row.kinds[0].value}:{row.suit.letter}"
    return row.kinds[0].value


def scored_points(ruleset: RuleSet, entry: HandEntry) -> int:
    """What the cell was written from: the declaring side's pile (the opponents' for a
    Misère) plus the match bonus when the cell carries it."""
    if is_misere(ruleset, entry):
        return entry.defender_points + (MATCH_BONUS if entry.countermatch else 0)
    return entry.declarer_points + (MATCH_BONUS if entry.match else 0)


@dataclass(frozen=True, slots=True)
class Outcome:
    slate: Slate  # treat as read-only
    cuts: tuple[Cut, ...]  # the cuts that decide the current ties
    pending: tuple[Tie, ...]  # ties still without a cut
    result: Result | None  # None while an open evening is undecided
    payout: Payout | None
    summary: Summary  # what the circle's memory reads of it (summary.Summary)

    @property
    def hands(self) -> tuple[HandFact, ...]:
        """Every cell in hand order (Seich hands write none)."""
        return self.summary.hands.facts

    @property
    def complete(self) -> bool:
        return self.slate.complete


def _outcome(
    ruleset: RuleSet, first_dealer: int, entries: tuple[HandEntry, ...], cuts: tuple[Cut, ...], ended: bool
) -> Outcome:
    slate = Slate.build(ruleset, first_dealer, entries)
    hands = tuple(_fact(ruleset, c) for c in sorted(slate.cells.values(), key=lambda c: c.index))
    d = decide(slate, cuts, is_open=not ended)  # the slate's own rule of when an evening is decided
    return Outcome(slate, d.cuts, d.pending, d.result, d.payout, summarize(slate, d.result, d.payout, hands))


def _fact(ruleset: RuleSet, c: Cell) -> HandFact:
    e = c.entry
    key = history_key(ruleset, e)
    return HandFact(
        e.declarer_seat,
        c.index + 1,
        c.row_key,
        contract_kind(ruleset, e),
        contract_code(ruleset, e),
        None if e.contract is None else e.contract.code,
        e.declarer_points,
        scored_points(ruleset, e),
        c.value,
        e.match,
        e.countermatch,
        c.imported,
        key,
        0 if key is None else outcome_of(ruleset, e),
    )


def summarize(slate: Slate, res: Result | None, pay: Payout | None, hands: tuple[HandFact, ...]) -> Summary:
    """What the circle's memory reads of an outcome (``summary.Summary``)."""
    decided = None
    if res is not None and pay is not None:
        sides = range(slate.ruleset.n_sides)
        decided = Decided(
            tuple(res.score),
            tuple(res.winners),
            None if res.net is None else tuple(res.net),
            tuple(res.sticks(side) for side in sides),
            tuple(res.potatoes(side) for side in sides),
            tuple(pay.net),
        )
    declared, paper = [0] * slate.ruleset.n_players, [0] * slate.ruleset.n_players
    for h in hands:
        (paper if h.imported else declared)[h.seat] += 1
    return Summary(
        slate.complete, slate.hands_dealt, tuple(slate.totals), decided, tuple(declared), tuple(paper), Hands(hands)
    )


_by_content = lru_cache(maxsize=CACHE_SIZE)(_outcome)


class _Unhashed:
    """Wraps the record so that the version key alone is hashed and compared."""

    __slots__ = ("record",)

    def __init__(self, record: EveningRecord) -> None:
        self.record = record

    def __hash__(self) -> int:
        return 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Unhashed)


def outcome(record: EveningRecord) -> Outcome:
    """The slate, cuts, result and money of an evening (RuleError if a hand breaks a rule).

    Cached by (id, version) when the record carries its version, else by its content.
    """
    if record.version is not None:
        return _by_version_key(record.id, record.version, record.ended, _Unhashed(record))
    return _by_content(record.ruleset, record.first_dealer, record.entries, record.recorded_cuts, record.ended)


@lru_cache(maxsize=CACHE_SIZE)
def _by_version_key(evening: str, version: int, ended: bool, wrapped: _Unhashed) -> Outcome:
    r = wrapped.record
    return _outcome(r.ruleset, r.first_dealer, r.entries, r.recorded_cuts, ended)


def summary_of(record: EveningRecord) -> Summary:
    """What the circle's memory reads of the evening's outcome: the stored summary a service
    found current for this version (``EveningRecord.stored``), else the replay's."""
    if record.stored is not None:
        return record.stored
    return outcome(record).summary


def clear_cache() -> None:
    """Forget every cached outcome (benchmarks measure the cold path with it)."""
    _by_content.cache_clear()
    _by_version_key.cache_clear()
