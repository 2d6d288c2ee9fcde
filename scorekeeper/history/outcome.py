"""One evening's derived outcome, computed by the scoring core and nothing else.

``outcome(record)`` replays the log (``records.replay``), builds the ``Slate`` (which
checks every hand again), keeps the cuts that decide a current tie
(``scoring.effective_cuts``), and, once the evening is decided, the ``Result`` and the
``Payout``. It depends only on the rule set, the first dealer, the hands, the cuts and
the status, not on who sat where, so it is cached by those (a merge or a rename costs
nothing) and shared by statistics, ratings, the purse, charts and the export checks.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..game.contracts import Kind
from ..game.hand_entry import MATCH_BONUS, HandEntry
from ..game.rulesets import RuleSet
from ..scoring.entries import is_misere
from ..scoring.final import Cut, Result, Tie, effective_cuts, final_result
from ..scoring.payouts import Payout, payout
from ..scoring.slate import Slate
from .records import EveningRecord

CACHE_SIZE = 2048  # evenings kept per worker (~14 KB each: about 28 MB at most)


def contract_kind(ruleset: RuleSet, entry: HandEntry) -> Kind:
    """What the hand was played as: its contract's kind, or the fixed row's one kind."""
    if entry.contract is not None:
        return entry.contract.kind
    assert entry.row_key is not None
    return ruleset.row(entry.row_key).kinds[0]


def contract_code(ruleset: RuleSet, entry: HandEntry) -> str:
    """``Contract.code`` of what was played; a fixed row recorded without its contract
    gives its suit (``suit:H``) or its kind (``slalom``: the start was not recorded)."""
    if entry.contract is not None:
        return entry.contract.code
    assert entry.row_key is not None
    row = ruleset.row(entry.row_key)
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
class HandFact:
    """One cell of the slate as the statistics read it."""

    seat: int  # the declarer's seat
    hand: int  # 1-based hand number on the slate
    row_key: str
    kind: Kind  # what it was played as (contract_kind)
    code: str  # contract_code
    contract: str | None  # Contract.code as recorded
    points: int  # the declaring side's card points (0 for a paper cell)
    scored: int  # scored_points
    value: int  # the cell
    match: bool
    countermatch: bool
    imported: bool  # typed from a paper slate


@dataclass(frozen=True, slots=True)
class Outcome:
    slate: Slate  # treat as read-only
    cuts: tuple[Cut, ...]  # the cuts that decide the current ties
    pending: tuple[Tie, ...]  # ties still without a cut
    result: Result | None  # None while an open evening is undecided
    payout: Payout | None
    hands: tuple[HandFact, ...]  # every cell in hand order (Seich hands write none)

    @property
    def complete(self) -> bool:
        return self.slate.complete


def _outcome(
    ruleset: RuleSet, first_dealer: int, entries: tuple[HandEntry, ...], cuts: tuple[Cut, ...], ended: bool
) -> Outcome:
    slate = Slate.build(ruleset, first_dealer, entries)
    hands = tuple(
        HandFact(
            c.entry.declarer_seat,
            c.index + 1,
            c.row_key,
            contract_kind(ruleset, c.entry),
            contract_code(ruleset, c.entry),
            None if c.entry.contract is None else c.entry.contract.code,
            c.entry.declarer_points,
            scored_points(ruleset, c.entry),
            c.value,
            c.entry.match,
            c.entry.countermatch,
            c.imported,
        )
        for c in sorted(slate.cells.values(), key=lambda c: c.index)
    )
    decisive, pending = effective_cuts(slate, cuts)
    if (not ended and not slate.complete) or pending:
        return Outcome(slate, tuple(decisive), tuple(pending), None, None, hands)
    res = final_result(slate, decisive)
    return Outcome(slate, tuple(decisive), (), res, payout(ruleset, res), hands)


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


def clear_cache() -> None:
    """Forget every cached outcome (benchmarks measure the cold path with it)."""
    _by_content.cache_clear()
    _by_version_key.cache_clear()
