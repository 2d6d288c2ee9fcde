"""Helpers of the engine tests: hands started at once, random finishes, and an
independent reference for legal cards and trick winners (written from RULES.md 2-3
card by card, sharing nothing with the engine's lookups). (Rule sets and rigged deals:
``shared_helpers``.)"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from shared_helpers import any_ruleset

from scorekeeper.engine import HandSetup, HandState, announce_action
from scorekeeper.game.cards import parse_cards
from scorekeeper.game.contracts import Contract, Mode, TrickMode


def start(
    contract: Contract,
    n_players: int = 4,
    deck: Sequence[int] | None = None,
    dealer: int = 0,
    seed: int = 0,
    teams: bool = False,
) -> HandState:
    """A hand where forehand (seat dealer+1) announces ``contract`` at once."""
    rs = any_ruleset(n_players, teams)
    setup = HandSetup(rs, dealer)
    state = HandState(setup, deck) if deck is not None else HandState.new(setup, random.Random(seed))
    state.apply(announce_action(rs, "any", contract))
    return state


def random_finish(state: HandState, rng: random.Random) -> HandState:
    """Play every remaining action at random (``legal[int(rng.random() * len(legal))]``)."""
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[int(rng.random() * len(legal))])
    return state


def play_codes(state: HandState, codes: Iterable[str]) -> None:
    for c in parse_cards(" ".join(codes)):
        state.play(c)


# --- an independent reference for RULES.md 3 ------------------------------------
_PLAIN = "6789TJQKA"  # ascending, Obenabe
_TRUMP_ORDER = ["6", "7", "8", "T", "Q", "K", "A", "9", "J"]  # ascending as trump
_ZWUE = {"T": 5, "9": 4, "J": 4, "8": 3, "Q": 3, "7": 2, "K": 2, "6": 1, "A": 1}


def _trump_letter(tm: TrickMode) -> str:
    assert tm.suit is not None
    return "CDSH"[tm.suit]


def ref_legal(hand: list[str], tm: TrickMode, trick: list[str]) -> set[str]:
    """Legal cards by the words of RULES.md 3, card by card."""
    if not trick:
        return set(hand)
    led = trick[0][0]
    follow = [c for c in hand if c[0] == led]
    if tm.mode in (Mode.OBENABE, Mode.UNDENUFE, Mode.ZWUESCHEDUERE):
        return set(follow) if follow else set(hand)
    if tm.mode is Mode.TUTTI:
        if not follow or follow == [led + "J"]:
            return set(hand)
        return set(follow)
    trump = _trump_letter(tm)
    trumps = [c for c in hand if c[0] == trump]
    if led == trump:
        if not trumps or trumps == [trump + "J"]:
            return set(hand)
        return set(trumps)
    allowed = set(follow) | set(trumps) if follow else set(hand)
    lying = [c for c in trick if c[0] == trump]
    if lying and len(trumps) != len(hand):
        top = max(_TRUMP_ORDER.index(c[1]) for c in lying)
        allowed -= {c for c in trumps if _TRUMP_ORDER.index(c[1]) < top}
    return allowed


def ref_winning_index(tm: TrickMode, trick: list[str]) -> int:
    """Index in ``trick`` of the winning card, by RULES.md 2 (not a seat)."""
    led = trick[0][0]

    def key(i: int) -> tuple[int, int]:
        c = trick[i]
        if tm.mode is Mode.TRUMP and c[0] == _trump_letter(tm):
            return (2, _TRUMP_ORDER.index(c[1]))
        if c[0] != led:
            return (0, 0)
        if tm.mode is Mode.TUTTI:
            return (1, _TRUMP_ORDER.index(c[1]))
        if tm.mode is Mode.UNDENUFE:
            return (1, -_PLAIN.index(c[1]))
        if tm.mode is Mode.ZWUESCHEDUERE:
            return (1, _ZWUE[c[1]])
        return (1, _PLAIN.index(c[1]))

    best = 0
    for i in range(1, len(trick)):
        if key(i) > key(best):  # equal standing: the card played first keeps the trick
            best = i
    return best
