"""What a hand needs to know of the evening before the deal (``HandSetup``), and
from it the choosing of the contract (RULES.md 5): who speaks, what she may
announce.

The turn order and the barrel come from ``scorekeeper.game.turns`` so the
digital table and the slate's turn guide can never disagree.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from scorekeeper.game.rulesets import RuleSet
from scorekeeper.game.turns import Turn, turn_to_choose

from .actions import ANNOUNCE, CONTRACTS, PASS, ROW_STRIDE, SEICH


@dataclass(frozen=True, slots=True)
class HandSetup:
    """What a hand needs to know of the evening before the deal.

    ``open_rows[side]``: the keys of the rows still open for that side (player
    or team); a side with none is full and is skipped. ``seich_used``: teams
    that have thrown in their Seich already (club variant).
    """

    ruleset: RuleSet
    dealer: int = 0
    open_rows: tuple[tuple[str, ...], ...] = ()
    seich_used: frozenset[int] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        rs = self.ruleset
        if not 0 <= self.dealer < rs.n_players:
            raise ValueError("dealer must be a seat")
        if not self.open_rows:
            all_keys = tuple(r.key for r in rs.rows)
            object.__setattr__(self, "open_rows", (all_keys,) * rs.n_sides)
        if len(self.open_rows) != rs.n_sides:
            raise ValueError("open_rows needs one entry per side")
        known = {r.key for r in rs.rows}
        for keys in self.open_rows:
            if set(keys) - known:
                raise ValueError(f"unknown rows: {sorted(set(keys) - known)}")
        object.__setattr__(self, "open_rows", tuple(tuple(k) for k in self.open_rows))
        object.__setattr__(self, "seich_used", frozenset(self.seich_used))

    @classmethod
    def build(
        cls,
        ruleset: RuleSet,
        dealer: int,
        open_rows: Iterable[Iterable[str]] | None = None,
        seich_used: Collection[int] = (),
    ) -> HandSetup:
        return cls(
            ruleset, dealer, tuple(tuple(r) for r in open_rows) if open_rows is not None else (), frozenset(seich_used)
        )

    @classmethod
    def from_slate(cls, slate: Any) -> HandSetup:
        """From a ``scoring.slate.Slate`` (duck-typed: ruleset, dealer, open_rows(side), seich_used)."""
        rs = slate.ruleset
        return cls(
            rs, slate.dealer, tuple(tuple(slate.open_rows(s)) for s in range(rs.n_sides)), frozenset(slate.seich_used)
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset.to_dict(),
            "dealer": self.dealer,
            "open_rows": [list(r) for r in self.open_rows],
            "seich_used": sorted(self.seich_used),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> HandSetup:
        return cls.build(RuleSet.from_dict(d["ruleset"]), int(d["dealer"]), d["open_rows"], d.get("seich_used", ()))

    @property
    def full_sides(self) -> frozenset[int]:
        return frozenset(s for s, keys in enumerate(self.open_rows) if not keys)

    def turn(self, passes: int) -> Turn:
        return turn_to_choose(self.ruleset, self.dealer, self.full_sides, passes)

    def announce_actions(self, seat: int) -> tuple[int, ...]:
        """Every announcement the seat's side may make (open rows x allowed contracts)."""
        return _announcements(self.ruleset, self.open_rows[self.ruleset.side_of(seat)])

    def may_seich(self, seat: int, turn: Turn) -> bool:
        """Club variant: a seat in the barrel whose team has not used its Seich."""
        rs = self.ruleset
        return rs.seich and not turn.may_pass and rs.side_of(seat) not in self.seich_used

    def bidding_actions(self, passes: int) -> tuple[int, ...]:
        """Legal actions of the seat that speaks after ``passes`` passes, ascending."""
        turn = self.turn(passes)
        head: tuple[int, ...] = ()
        if turn.may_pass:
            head = (PASS,)
        elif self.may_seich(turn.seat, turn):
            head = (SEICH,)
        return head + self.announce_actions(turn.seat)


@lru_cache(maxsize=4096)
def _announcements(ruleset: RuleSet, open_keys: tuple[str, ...]) -> tuple[int, ...]:
    out: list[int] = []
    for r, row in enumerate(ruleset.rows):
        if row.key in open_keys:
            out.extend(ANNOUNCE + ROW_STRIDE * r + k for k, c in enumerate(CONTRACTS) if row.allows(c))
    return tuple(out)
