"""What a seat knows about the hidden cards, derived from its ``SeatView`` alone.

Everything here is computed from the view (and the public rule set): the seat's
own cards, the cards played, the hand sizes, and the voids that failed follows
prove. The Jass rules make the inference subtle (RULES.md 3):

- No-trump trick (Obenabe, Undenufe, Zwüschedüre): a card of another suit than
  the one led proves a void in the led suit.
- Trump trick, a plain suit led: trumping in is allowed even when able to
  follow, so a trump proves nothing; only a non-trump of another suit proves a
  void in the led suit.
- Trump trick, trumps led (and Tutti, where the led suit is trump): a player who
  did not follow may still hold the jack (the Puur exception); she holds no
  other card of the led suit.
- Undertrumping (a trump below the highest trump of a trick led in a plain
  suit) is only legal with a hand of nothing but trumps: it proves a void in
  every other suit.

Sides ("friends"): in the team variants partners are friends. In the solo
variants (three players, all against all) the defenders form a coalition
against the declarer, since only the declarer writes a score; before the
contract is known every seat is on its own.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from scorekeeper.engine.bitmasks import FULL, JACK, OBENABE_ID, SUIT_MASK, TUTTI_ID, UNDENUFE_ID, mode_id
from scorekeeper.engine.fast import points_table, schedule_ids
from scorekeeper.engine.rules import trick_status
from scorekeeper.engine.view import SeatView
from scorekeeper.game.cards import mask_of
from scorekeeper.game.contracts import Contract, Kind, Mode, TrickMode
from scorekeeper.game.rulesets import RuleSet

TOTAL_POINTS = 157
MATCH_BONUS = 100


def teams_of(ruleset: RuleSet, declarer: int | None) -> tuple[int, ...]:
    """A team id per seat: partners (team variants) or the defenders' coalition
    (solo variants, once the declarer is known) share an id."""
    n = ruleset.n_players
    if ruleset.teams:
        return tuple(s % 2 for s in range(n))
    if declarer is None:
        return tuple(range(n))
    return tuple(0 if s == declarer else 1 for s in range(n))


def infer_voids(mid: int, cards: tuple[int, ...], leader: int, n: int, allowed: list[int]) -> None:
    """Narrow ``allowed`` (per seat: cards it may still hold) by one trick's cards."""
    if not cards:
        return
    led = cards[0] // 9
    for i in range(1, len(cards)):
        c = cards[i]
        seat = (leader + i) % n
        suit = c // 9
        if suit == led:
            continue
        _, _, under = trick_status(mid, cards[:i])
        if mid < 4:
            if led == mid:  # trumps led: no trump but perhaps the Puur
                allowed[seat] &= ~(SUIT_MASK[led] & ~(1 << (led * 9 + JACK)))
            elif suit == mid:  # trumped in: proves nothing, unless it undertrumps
                if under >> c & 1:
                    allowed[seat] &= SUIT_MASK[mid]
            else:
                allowed[seat] &= ~SUIT_MASK[led]
        elif mid == TUTTI_ID:
            allowed[seat] &= ~(SUIT_MASK[led] & ~(1 << (led * 9 + JACK)))
        else:
            allowed[seat] &= ~SUIT_MASK[led]


@dataclass(frozen=True, slots=True)
class Knowledge:
    """A seat's knowledge in play, as bitmasks and ints (see module doc)."""

    seat: int
    n: int
    n_tricks: int
    hand: int  # own cards
    unknown: int  # cards held by the other seats
    sizes: tuple[int, ...]  # cards left per seat
    allowed: tuple[int, ...]  # per seat: cards it may hold (own seat: its hand)
    leader: int
    trick: tuple[int, ...]
    known_modes: tuple[int, ...]  # mode ids of the remaining tricks that are known
    open_blocks: tuple[TrickMode, ...]  # Komisch blocks still to be chosen
    points: tuple[int, ...]  # card points by card
    teams: tuple[int, ...]
    won_points: tuple[int, ...]  # card points won so far per seat
    won_tricks: tuple[int, ...]
    declarer: int
    misere: bool
    contract: Contract | None = None
    played_by: tuple[int, ...] = ()  # cards each seat has played in this hand
    chosen: bool = True  # the declarer had a choice (her side's last open row with one contract: no)

    @classmethod
    def from_view(cls, view: SeatView, ruleset: RuleSet) -> Knowledge:
        if view.contract is None or view.declarer is None:
            raise ValueError("no contract yet")
        n = view.n_players
        nt = ruleset.n_tricks
        hand = mask_of(view.hand)
        played = 0
        played_by = [0] * n
        allowed = [FULL] * n
        for t in view.tricks:
            cs = tuple(int(c) for c in t.cards)
            played |= mask_of(cs)
            for i, c in enumerate(cs):
                played_by[(t.leader + i) % n] |= 1 << c
            infer_voids(mode_id(t.mode), cs, t.leader, n, allowed)
        trick = tuple(int(c) for c in view.trick)
        played |= mask_of(trick)
        for i, c in enumerate(trick):
            played_by[(view.leader + i) % n] |= 1 << c
        if trick and view.trick_mode is not None:
            infer_voids(mode_id(view.trick_mode), trick, view.leader, n, allowed)
        unknown = FULL & ~played & ~hand
        allowed = [a & unknown for a in allowed]
        allowed[view.seat] = hand
        contract = view.contract
        blocks = tuple(view.komisch_blocks)
        open_blocks: tuple[TrickMode, ...] = ()
        if contract.kind is Kind.KOMISCH:
            per = nt // 3
            sched = tuple(mode_id(b) for b in blocks for _ in range(per))
            used = {b.mode for b in blocks}
            open_blocks = tuple(TrickMode(m) for m in (Mode.TRUMP, Mode.OBENABE, Mode.UNDENUFE) if m not in used)
            pts = points_table(contract, ruleset.undenufe_six11, blocks)
        else:
            sched = schedule_ids(contract, nt)
            pts = points_table(contract, ruleset.undenufe_six11)
        return cls(
            seat=view.seat,
            n=n,
            n_tricks=nt,
            hand=hand,
            unknown=unknown,
            sizes=tuple(view.hand_sizes),
            allowed=tuple(allowed),
            leader=view.leader,
            trick=trick,
            known_modes=tuple(sched[view.trick_no :]),
            open_blocks=open_blocks,
            points=pts,
            teams=teams_of(ruleset, view.declarer),
            won_points=tuple(view.points),
            won_tricks=tuple(view.tricks_won),
            declarer=view.declarer,
            misere=contract.is_misere,
            contract=contract,
            played_by=tuple(played_by),
            chosen=had_a_choice(view, ruleset),
        )

    @property
    def tricks_left(self) -> int:
        return sum(self.sizes) // self.n + (1 if self.trick else 0)

    def modes(self, rng: random.Random) -> tuple[int, ...]:
        """Mode ids of every remaining trick (the current one first); Komisch blocks
        not chosen yet are drawn at random (order, and the trump suit)."""
        left = self.tricks_left
        known = self.known_modes
        if len(known) >= left:
            return known[:left]
        blocks = list(self.open_blocks)
        rng.shuffle(blocks)
        per = self.n_tricks // 3
        extra: list[int] = []
        for b in blocks:
            mid = rng.randrange(4) if b.mode is Mode.TRUMP else (OBENABE_ID if b.mode is Mode.OBENABE else UNDENUFE_ID)
            extra += [mid] * per
        return (known + tuple(extra))[:left]

    def value(self, pts: list[int], tricks: list[int]) -> float:
        """The seat's objective for a finished hand (``hand_value``)."""
        return hand_value(self.teams, self.seat, self.declarer, self.misere, self.n_tricks, pts, tricks)


def hand_value(
    teams: tuple[int, ...], seat: int, declarer: int, misere: bool, n_tricks: int, pts: list[int], tricks: list[int]
) -> float:
    """A seat's objective for a finished hand: its team's pile (+100 when it took
    every trick); in Misère the pile the other team is left with (the declaring
    team also +100 when it took no trick)."""
    me = teams[seat]
    mine = 0
    my_tricks = 0
    for s in range(len(teams)):
        if teams[s] == me:
            mine += pts[s]
            my_tricks += tricks[s]
    if misere:
        declaring = teams[declarer] == me
        return float(TOTAL_POINTS - mine + (MATCH_BONUS if declaring and my_tricks == 0 else 0))
    return float(mine + (MATCH_BONUS if my_tricks == n_tricks else 0))


def had_a_choice(view: SeatView, ruleset: RuleSet) -> bool:
    """Whether the declarer chose the contract: not when her side had one row left that is played
    one way only (the last row of an evening, say), where the contract says nothing of her hand."""
    if view.declarer is None or not view.open_rows:
        return True
    rows = view.open_rows[ruleset.side_of(view.declarer)]
    return len(rows) != 1 or len(ruleset.row(rows[0]).contracts) > 1
