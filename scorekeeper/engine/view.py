"""What one seat may know (``SeatView``), the only shape in which front ends and
bots see a hand, and a completed trick (``TrickRecord``), which is public.

``state.build_view(state, seat)``, the one function that fills a ``SeatView``,
copies the public part of the state (bidding, contract, tricks, points) and that
seat's own cards, never anyone else's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from scorekeeper.game.cards import Card
from scorekeeper.game.contracts import Contract, TrickMode

from .actions import format_action
from .result import HandResult


@dataclass(frozen=True, slots=True)
class TrickRecord:
    """A completed trick. ``leader`` and ``winner`` are seats (as in ``rules.trick_winner``)."""

    index: int  # 0-based
    leader: int  # the seat that led
    cards: tuple[Card, ...]  # in playing order, the leader's first
    winner: int  # the seat that took the trick
    points: int  # card points, the last trick's +5 included
    mode: TrickMode

    def seat_of(self, i: int, n_players: int) -> int:
        """The seat that played ``cards[i]``."""
        return (self.leader + i) % n_players


class SeatView(NamedTuple):
    """Immutable (a NamedTuple: cheap to build once per move)."""

    seat: int
    n_players: int
    dealer: int
    phase: str  # "bidding", "komisch", "playing", "done"
    to_move: int | None  # the seat to act, None when the hand is over
    hand: tuple[Card, ...]  # this seat's cards, ascending
    hand_sizes: tuple[int, ...]  # cards left, per seat (public)
    legal_actions: tuple[int, ...]  # empty unless it is this seat's turn
    may_pass: bool  # bidding: the seat to speak may pass
    bids: tuple[tuple[int, int], ...]  # (seat, action) in order
    declarer: int | None
    row_key: str | None
    contract: Contract | None
    komisch_blocks: tuple[TrickMode, ...]
    trick_no: int  # 0-based index of the current trick
    trick_mode: TrickMode | None  # mode of the current trick
    leader: int  # leader of the current trick
    trick: tuple[Card, ...]  # current trick so far, leader first
    tricks: tuple[TrickRecord, ...]  # completed tricks
    points: tuple[int, ...]  # card points won so far, per seat
    tricks_won: tuple[int, ...]
    open_rows: tuple[tuple[str, ...], ...]  # per side, before this hand
    seich_used: frozenset[int]
    result: HandResult | None

    @property
    def my_turn(self) -> bool:
        return self.to_move == self.seat

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (cards in compact notation)."""
        return {
            "seat": self.seat,
            "n_players": self.n_players,
            "dealer": self.dealer,
            "phase": self.phase,
            "to_move": self.to_move,
            "hand": [c.name for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "legal_actions": list(self.legal_actions),
            "legal": [format_action(a) for a in self.legal_actions if a < 36],
            "may_pass": self.may_pass,
            "bids": [[s, a] for s, a in self.bids],
            "declarer": self.declarer,
            "row_key": self.row_key,
            "contract": None if self.contract is None else self.contract.code,
            "komisch_blocks": [b.code for b in self.komisch_blocks],
            "trick_no": self.trick_no,
            "trick_mode": None if self.trick_mode is None else self.trick_mode.code,
            "leader": self.leader,
            "trick": [c.name for c in self.trick],
            "tricks": [
                {"leader": t.leader, "cards": [c.name for c in t.cards], "winner": t.winner, "points": t.points}
                for t in self.tricks
            ],
            "points": list(self.points),
            "tricks_won": list(self.tricks_won),
            "open_rows": [list(r) for r in self.open_rows],
            "seich_used": sorted(self.seich_used),
            "result": None if self.result is None else self.result.to_dict(),
        }
