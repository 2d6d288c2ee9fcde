"""The row adviser on an evening (issue 25): "Which row with this hand?" for a player of the
slate, from the evening's snapshot and the cards she tapped.

The hand is private: it is read from the request, used for this answer and dropped; it is
never stored, logged or put in a URL (the page posts it; the answer goes to her phone only).
Nothing here writes: a read of the snapshot, the adviser (``bots.adviser``), and, unless the
table hid the outlook, the evening's win odds (``scoring.forecast``) with and without her cell.

How the choice moves the win odds: the outlook's simulation (``SIMULATIONS`` evenings, one
seed for every row, so the rows differ by the cell alone) is run on the slate as it is and on
the slate with her side's cell in each open row written as the adviser expects it (a match
when that is likelier than not, else the expected card points); the move is the side's
chance of winning (alone or shared) then, minus now.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ...bots.adviser import PASS_PICK, SEICH_PICK, Advice, Situation, advise, parse_hand
from ...bots.contract_choice import situation_of
from ...engine.view import SeatView
from ...game.cards import mask_of
from ...game.contracts import Contract
from ...game.errors import RuleError
from ...game.hand_entry import MATCH_POINTS, HandEntry
from ...game.rulesets import RuleSet
from ...scoring.forecast import forecast
from ...scoring.slate import Slate
from .snapshot import EveningSnapshot

SIMULATIONS: Final = 1000  # evenings per forecast: a row's move in win odds, common seed
BUDGET_MS: Final = 900.0  # the adviser's share of the 1.5 s (the forecasts take the rest)

__all__ = ["AdviserAnswer", "NotAsking", "RowAnswer", "answer", "asking_seats", "seat_answer"]


class NotAsking(ValueError):
    """The seat cannot choose now (its side has no open row, or the evening is over)."""


@dataclass(frozen=True, slots=True)
class RowAnswer:
    row_key: str
    contract: Contract
    points: float  # expected card points written
    value: float  # expected slate value
    match: float  # chance of a match
    odds_move: float | None  # change in the side's chance to win, None when the outlook is hidden


@dataclass(frozen=True, slots=True)
class AdviserAnswer:
    seat: int
    side: int
    rows: tuple[RowAnswer, ...]
    pick: str  # a row key, "pass" or "seich"
    may_pass: bool
    may_seich: bool
    samples: int
    odds_now: float | None


def asking_seats(snap: EveningSnapshot) -> tuple[int, ...]:
    """The seats that may ask: those whose side still has open rows (in speaking order)."""
    if not snap.is_open or snap.turn is None:
        return ()
    return snap.turn.speaking


def _win(slate: Slate, side: int, seed: int) -> float:
    fc = forecast(slate, seed=seed, simulations=SIMULATIONS)
    return fc.win[side] + fc.shared[side]


def _odds(rs: RuleSet, slate: Slate, seat: int, side: int, advice: Advice) -> tuple[float, dict[str, float | None]]:
    seed = secrets.randbits(32)
    now = _win(slate, side, seed)
    moves: dict[str, float | None] = {}
    for r in advice.rows:
        match = r.match > 0.5
        outcome = MATCH_POINTS if match else round(r.points)
        cell = rs.writes[r.row][outcome]
        entry = HandEntry.paper(r.row, seat, cell, contract=r.contract, match=match)
        try:
            after = Slate.build(rs, slate.first_dealer, (*slate.entries, entry))
        except RuleError:  # a cell the slate cannot take (should not happen): no figure
            moves[r.row] = None
            continue
        moves[r.row] = _win(after, side, seed) - now
    return now, moves


def answer(
    snap: EveningSnapshot, seat: int, cards: Sequence[str], must_choose: bool, rng: random.Random | None = None
) -> AdviserAnswer:
    """The adviser's answer for ``seat`` holding ``cards`` (codes); ``must_choose``: everybody
    else passed (the barrel). HandError for an illegal hand, NotAsking for a seat that cannot choose."""
    rs = snap.ruleset
    if seat not in asking_seats(snap):
        raise NotAsking(seat)
    hand = parse_hand(rs, cards)
    side = rs.side_of(seat)
    slate = snap.slate
    open_rows = tuple(slate.open_rows(side))
    alone = len(asking_seats(snap)) == 1  # a single side left must choose at once
    may_pass = not must_choose and not alone
    may_seich = rs.seich and not may_pass and side not in slate.seich_used
    situation = Situation(rs, open_rows, may_pass, may_seich, side, slate_scores(slate))
    return _answer(rs, slate, seat, hand, situation, snap.outlook_hidden, rng)


def slate_scores(slate: Slate) -> dict[tuple[str, int], int]:
    """Every written cell, {(row key, side): value} (the adviser weighs sticks with three players)."""
    rs = slate.ruleset
    return {
        (row.key, s): cell.value
        for row in rs.rows
        for s in range(rs.n_sides)
        if (cell := slate.cell(row.key, s)) is not None
    }


def seat_answer(
    ruleset: RuleSet, slate: Slate, view: SeatView, outlook_hidden: bool, rng: random.Random | None = None
) -> AdviserAnswer | None:
    """The hint for a digital seat that must choose the contract now (None when it need not):
    the hand is the seat's own, from its view; pass and Seich as the engine offers them."""
    if view.phase != "bidding" or not view.legal_actions:
        return None
    situation = situation_of(view, ruleset, slate_scores(slate))
    return _answer(ruleset, slate, view.seat, mask_of(view.hand), situation, outlook_hidden, rng)


def _answer(
    rs: RuleSet,
    slate: Slate,
    seat: int,
    hand: int,
    situation: Situation,
    outlook_hidden: bool,
    rng: random.Random | None,
) -> AdviserAnswer:
    advice = advise(hand, situation, rng or random.Random(secrets.randbits(64)), BUDGET_MS)
    odds_now: float | None = None
    moves: dict[str, float | None] = {}
    if not outlook_hidden:
        odds_now, moves = _odds(rs, slate, seat, situation.side, advice)
    rows = tuple(RowAnswer(r.row, r.contract, r.points, r.value, r.match, moves.get(r.row)) for r in advice.rows)
    assert advice.pick in {*situation.open_rows, PASS_PICK, SEICH_PICK}
    return AdviserAnswer(
        seat, situation.side, rows, advice.pick, situation.may_pass, situation.may_seich, advice.samples, odds_now
    )
