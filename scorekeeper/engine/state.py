"""One hand from deal to result, as a state machine in OpenSpiel's shape.

    state = HandState.new(setup, rng)          # deals (rng: secrets.SystemRandom() in production)
    while not state.is_terminal():
        seat = state.current_player()
        view = state.observation(seat)         # all a front end or bot may know
        state.apply(choose(view.legal_actions))
    state.result()                             # HandResult -> .to_entry() for the slate

A hand replays exactly from ``(setup, state.deck, state.history)``. Any refused
action raises an ``IllegalAction`` (``IllegalCard`` for cards) and changes nothing.
``build_view`` (below) is the one function that builds what a seat may see.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from typing import Any

from scorekeeper.game.cards import Card
from scorekeeper.game.contracts import Contract, Kind, Mode, TrickMode
from scorekeeper.game.errors import N_
from scorekeeper.game.hand_entry import MATCH_BONUS
from scorekeeper.game.turns import Turn

from .actions import (
    KOMISCH_OBENABE,
    KOMISCH_TRUMP,
    KOMISCH_UNDENUFE,
    N_CARD_ACTIONS,
    PASS,
    SEICH,
    decode_announce,
    komisch_block,
)
from .bitmasks import (
    BIT,
    CARD,
    LAST_TRICK_BONUS,
    OBENABE_ID,
    POINTS,
    STRENGTH,
    SUIT_OF,
    TRICK_MODES,
    UNDENUFE_ID,
    UNDER,
    card_ints,
    card_tuple,
    legal_mask,
    mode_id,
    trick_mode,
    valuation_id,
)
from .deal import RandomSource, deal_hands, shuffle_deck, validate_deck
from .errors import IllegalAction
from .hand_setup import HandSetup
from .phase import TERMINAL, Phase
from .result import HandResult
from .rules import explain_illegal
from .view import SeatView, TrickRecord


class HandState:
    def __init__(self, setup: HandSetup, deck: Sequence[int]) -> None:
        rs = setup.ruleset
        self.setup = setup
        self.ruleset = rs
        self.n_players = rs.n_players
        self.n_tricks = rs.n_tricks
        self.deck = validate_deck(deck)
        self.hands: list[int] = deal_hands(self.deck, self.n_players, setup.dealer)
        self.history: list[int] = []
        self.phase = Phase.BIDDING
        self.bids: list[tuple[int, int]] = []  # (seat, action) in order
        self.passes = 0
        self.declarer: int | None = None
        self.row_key: str | None = None
        self.contract: Contract | None = None
        self.seich = False
        self.modes: list[int] = []  # mode id of every trick scheduled so far
        self.komisch_blocks: list[TrickMode] = []
        self.points_table: tuple[int, ...] = ()
        self.trick_no = 0
        self.leader = 0
        self.trick: list[int] = []  # cards of the current trick, leader first
        self.tricks: list[TrickRecord] = []
        self.points = [0] * self.n_players  # card points won, per seat
        self.won = [0] * self.n_players  # tricks won, per seat
        self._turn: Turn = setup.turn(0)
        self._k = 0  # mode * 4 + led suit of the current trick
        self._best = 0
        self._win = 0
        self._win_card = 0
        self._under = 0

    # --- construction -------------------------------------------------------
    @classmethod
    def new(cls, setup: HandSetup, rng: RandomSource | None = None) -> HandState:
        """Shuffle with ``rng`` (default: the operating system's secure source) and deal."""
        return cls(setup, shuffle_deck(rng if rng is not None else secrets.SystemRandom()))

    @classmethod
    def replay(cls, setup: HandSetup, deck: Sequence[int], actions: Iterable[int]) -> HandState:
        state = cls(setup, deck)
        for a in actions:
            state.apply(a)
        return state

    def to_dict(self) -> dict[str, Any]:
        """All a hand is: its setup, its deck order and its actions (replayed by ``from_dict``)."""
        return {"setup": self.setup.to_dict(), "deck": list(self.deck), "history": list(self.history)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> HandState:
        return cls.replay(HandSetup.from_dict(d["setup"]), d["deck"], d["history"])

    def clone(self) -> HandState:
        return HandState.replay(self.setup, self.deck, self.history)

    # --- queries --------------------------------------------------------------
    def current_player(self) -> int:
        ph = self.phase
        if ph is Phase.PLAYING:
            return (self.leader + len(self.trick)) % self.n_players
        if ph is Phase.BIDDING:
            return self._turn.seat
        if ph is Phase.KOMISCH:
            return self.leader
        return TERMINAL

    def is_terminal(self) -> bool:
        return self.phase is Phase.DONE

    @property
    def may_pass(self) -> bool:
        return self.phase is Phase.BIDDING and self._turn.may_pass

    def legal_cards(self) -> int:
        """Mask of the cards the player to move may play (0 outside play)."""
        if self.phase is not Phase.PLAYING:
            return 0
        seat = (self.leader + len(self.trick)) % self.n_players
        if not self.trick:
            return self.hands[seat]
        k = self._k
        return legal_mask(self.hands[seat], k >> 2, k & 3, self._under)

    def legal_actions(self) -> list[int]:
        ph = self.phase
        if ph is Phase.PLAYING:
            return list(card_ints(self.legal_cards()))
        if ph is Phase.BIDDING:
            return list(self.setup.bidding_actions(self.passes))
        if ph is Phase.KOMISCH:
            return self._komisch_actions()
        return []

    def _komisch_actions(self) -> list[int]:
        used = {b.mode for b in self.komisch_blocks}
        out: list[int] = []
        if Mode.TRUMP not in used:
            out += [KOMISCH_TRUMP + s for s in range(4)]
        out += [a for m, a in ((Mode.OBENABE, KOMISCH_OBENABE), (Mode.UNDENUFE, KOMISCH_UNDENUFE)) if m not in used]
        return out

    def trick_mode(self) -> TrickMode | None:
        """The mode of the current trick (None before it is known)."""
        return TRICK_MODES[self.modes[self.trick_no]] if self.trick_no < len(self.modes) else None

    def declaring_seats(self) -> tuple[int, ...]:
        if self.declarer is None:
            return ()
        rs = self.ruleset
        side = rs.side_of(self.declarer)
        return tuple(s for s in range(self.n_players) if rs.side_of(s) == side)

    # --- acting ---------------------------------------------------------------
    def verify(self, action: int, seat: int | None = None) -> None:
        """Raise the error ``apply`` would raise; change nothing."""
        ph = self.phase
        if ph is Phase.DONE:
            raise IllegalAction(N_("The hand is over."), "hand_over")
        mover = self.current_player()
        if seat is not None and seat != mover:
            raise IllegalAction(N_("It is not your turn."), "not_your_turn", seat=mover)
        if ph is Phase.PLAYING:
            if not 0 <= action < N_CARD_ACTIONS:
                raise IllegalAction(N_("Play a card now."), "play_a_card")
            if not self.legal_cards() & BIT[action]:
                k = self._k
                led = (k & 3) if self.trick else -1
                err = explain_illegal(self.hands[mover], action, k >> 2, led, self._under, self._win_card)
                assert err is not None
                raise err
            return
        if action not in self.legal_actions():
            if 0 <= action < N_CARD_ACTIONS:
                raise IllegalAction(N_("No card yet: the contract is not chosen."), "not_playing")
            if ph is Phase.KOMISCH:
                raise IllegalAction(N_("Choose one of the Komisch blocks still open."), "komisch_block")
            if action == PASS:
                raise IllegalAction(N_("You are in the barrel: you may not pass, choose a contract."), "must_choose")
            if action == SEICH:
                raise IllegalAction(N_("Seich is not possible now."), "seich_not_allowed")
            raise IllegalAction(N_("That contract is not open for you."), "contract_not_open")

    def can_apply(self, action: int, seat: int | None = None) -> bool:
        try:
            self.verify(action, seat)
        except IllegalAction:
            return False
        return True

    def apply(self, action: int, seat: int | None = None) -> None:
        """Apply a legal action (``seat``, if given, must be the one to move)."""
        if self.phase is Phase.PLAYING and 0 <= action < N_CARD_ACTIONS:
            trick = self.trick
            mover = (self.leader + len(trick)) % self.n_players
            if seat is None or seat == mover:
                hand = self.hands[mover]
                if trick:
                    k = self._k
                    legal = legal_mask(hand, k >> 2, k & 3, self._under)
                else:
                    legal = hand
                if legal & BIT[action]:
                    self._play(action, mover)
                    self.history.append(action)
                    return
        self.verify(action, seat)
        if self.phase is Phase.BIDDING:
            self._bid(action)
        else:
            self._komisch(action)
        self.history.append(action)

    def play(self, card: Card | int, seat: int | None = None) -> None:
        self.apply(int(card), seat)

    def _bid(self, action: int) -> None:
        seat = self._turn.seat
        self.bids.append((seat, action))
        if action == PASS:
            self.passes += 1
            self._turn = self.setup.turn(self.passes)
            return
        self.declarer = seat
        self.leader = seat
        if action == SEICH:
            self.seich = True
            self.phase = Phase.DONE
            return
        decoded = decode_announce(self.ruleset, action)
        assert decoded is not None
        self.row_key, self.contract = decoded
        if self.contract.kind is Kind.KOMISCH:
            self.phase = Phase.KOMISCH
            return
        sched = self.contract.schedule(self.n_tricks)
        valuation = self.contract.valuation()
        assert sched is not None and valuation is not None
        self.modes = [mode_id(tm) for tm in sched]
        self.points_table = POINTS[valuation_id(valuation, self.ruleset.undenufe_six11)]
        self.phase = Phase.PLAYING

    def _komisch(self, action: int) -> None:
        block = komisch_block(action)
        assert block is not None
        if not self.komisch_blocks:
            self.points_table = POINTS[valuation_id(block, self.ruleset.undenufe_six11)]
        self._add_block(block)
        if len(self.komisch_blocks) == 2:
            rest = {OBENABE_ID, UNDENUFE_ID} - {mode_id(b) for b in self.komisch_blocks}
            if rest:  # the last block is Obenabe or Undenufe: nothing to choose
                self._add_block(trick_mode(rest.pop()))
            # else trump is left: the leader of its first trick picks the suit then
        self.phase = Phase.PLAYING

    def _add_block(self, block: TrickMode) -> None:
        self.komisch_blocks.append(block)
        self.modes.extend([mode_id(block)] * (self.n_tricks // 3))

    def _play(self, c: int, seat: int) -> None:
        trick = self.trick
        self.hands[seat] ^= BIT[c]
        if not trick:
            k = self._k = self.modes[self.trick_no] * 4 + SUIT_OF[c]
            self._best = STRENGTH[k][c]
            self._win = seat
            self._win_card = c
            self._under = UNDER[k][c]
        else:
            k = self._k
            s = STRENGTH[k][c]
            if s > self._best:
                self._best = s
                self._win = seat
                self._win_card = c
                self._under = UNDER[k][c]
        trick.append(c)
        if len(trick) == self.n_players:
            self._close_trick()

    def _close_trick(self) -> None:
        pt = self.points_table
        pts = sum(pt[c] for c in self.trick)
        last = self.trick_no == self.n_tricks - 1
        if last:
            pts += LAST_TRICK_BONUS
        win = self._win
        self.tricks.append(
            TrickRecord(
                self.trick_no,
                self.leader,
                tuple(CARD[c] for c in self.trick),
                win,
                pts,
                trick_mode(self.modes[self.trick_no]),
            )
        )
        self.points[win] += pts
        self.won[win] += 1
        self.trick_no += 1
        self.leader = win
        self.trick = []
        self._under = 0
        if last:
            self.phase = Phase.DONE
        elif self.trick_no == len(self.modes):  # Komisch: the next block is chosen now
            self.phase = Phase.KOMISCH

    # --- results ----------------------------------------------------------------
    def result(self) -> HandResult:
        if not self.is_terminal():
            raise IllegalAction(N_("The hand is not over yet."), "hand_not_over")
        assert self.declarer is not None
        if self.seich:
            return HandResult(self.declarer, None, None, 0, 0, False, False, True, tuple(self.won))
        mine = self.declaring_seats()
        decl = sum(self.points[s] for s in mine)
        tricks = sum(self.won[s] for s in mine)
        return HandResult(
            declarer_seat=self.declarer,
            row_key=self.row_key,
            contract=self.contract,
            declarer_points=decl,
            defender_points=sum(self.points) - decl,
            match=tricks == self.n_tricks,
            countermatch=tricks == 0,
            seich=False,
            tricks=tuple(self.won),
            komisch_blocks=tuple(self.komisch_blocks),
        )

    def returns(self) -> list[float]:
        """Per seat, what its side gains: its pile (+100 for a match). In Misère the
        declaring side gains the defenders' pile (+100 if it took no trick) and
        the defenders gain the declaring side's pile. Seich: zeros."""
        if not self.is_terminal():
            return [0.0] * self.n_players
        r = self.result()
        if r.seich:
            return [0.0] * self.n_players
        mine = set(self.declaring_seats())
        misere = self.contract is not None and self.contract.is_misere
        if misere:
            d, o = r.defender_points + (MATCH_BONUS if r.countermatch else 0), r.declarer_points
        else:
            d = r.declarer_points + (MATCH_BONUS if r.match else 0)
            o = r.defender_points + (MATCH_BONUS if r.countermatch else 0)
        return [float(d if s in mine else o) for s in range(self.n_players)]

    def observation(self, seat: int) -> SeatView:
        """What ``seat`` may know now (``build_view``)."""
        return build_view(self, seat)


def build_view(state: HandState, seat: int) -> SeatView:
    """What ``seat`` may know now: the ONLY way front ends and bots see a hand (the
    public part of the state and that seat's own cards, never anyone else's)."""
    n = state.n_players
    if not 0 <= seat < n:
        raise ValueError("no such seat")
    phase = state.phase
    done = phase is Phase.DONE
    mover = None if done else state.current_player()
    hands = state.hands
    setup = state.setup
    trick_no = state.trick_no
    modes = state.modes
    return SeatView(
        seat,
        n,
        setup.dealer,
        phase.value,
        mover,
        card_tuple(hands[seat]),
        tuple(map(_bit_count, hands)),
        tuple(state.legal_actions()) if mover == seat else (),
        phase is Phase.BIDDING and state.may_pass,
        tuple(state.bids),
        state.declarer,
        state.row_key,
        state.contract,
        tuple(state.komisch_blocks),
        trick_no,
        TRICK_MODES[modes[trick_no]] if trick_no < len(modes) else None,
        state.leader,
        tuple(map(CARD.__getitem__, state.trick)),
        tuple(state.tricks),
        tuple(state.points),
        tuple(state.won),
        setup.open_rows,
        setup.seich_used,
        state.result() if done else None,
    )


_bit_count = int.bit_count
