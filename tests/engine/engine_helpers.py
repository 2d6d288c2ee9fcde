"""Helpers for the engine tests: rule sets that allow any contract, rigged deals,
random playouts, and an independent reference for legal cards (written from
RULES.md 3 card by card, sharing nothing with the engine's tables)."""

from __future__ import annotations

import os
import random
from collections.abc import Iterable, Sequence

from scorekeeper.engine import HandSetup, HandState, announce_action
from scorekeeper.engine.actions import CONTRACTS
from scorekeeper.game.cards import parse_cards
from scorekeeper.game.contracts import Contract, Kind, Mode, TrickMode
from scorekeeper.game.rulesets import BarrelRule, Row, RuleSet, Variant

SOAK = os.environ.get("SCOREKEEPER_SOAK") == "1"

ANY_ROW = Row("any", tuple(Kind), 1)


def any_ruleset(n_players: int, teams: bool = False, six11: bool = False) -> RuleSet:
    """One row that may be played as any contract: every contract with 3 or 4 players."""
    if n_players == 3:
        variant = Variant.THREE
    else:
        variant = Variant.TEAMS if teams else Variant.SOLO4
    return RuleSet(variant=variant, rows=(ANY_ROW,), barrel=BarrelRule.BOOK, undenufe_six11=six11)


def contracts_for(n_players: int) -> list[Contract]:
    """Every concrete contract a table of that size plays (Gustav is the three-player split)."""
    return [c for c in CONTRACTS if not (c.kind is Kind.GUSTAV and n_players == 4)]


def deck_for(hands: dict[int, str], n_players: int, dealer: int = 0, seed: int = 0) -> list[int]:
    """A deck order that deals the given (possibly partial) hands; other cards at random."""
    per = 36 // n_players
    wanted = {seat: [int(c) for c in parse_cards(text)] for seat, text in hands.items()}
    used = {c for cs in wanted.values() for c in cs}
    assert len(used) == sum(len(cs) for cs in wanted.values()), "a card is given twice"
    rest = [c for c in range(36) if c not in used]
    random.Random(seed).shuffle(rest)
    full: dict[int, list[int]] = {}
    for seat in range(n_players):
        cs = list(wanted.get(seat, []))
        assert len(cs) <= per
        while len(cs) < per:
            cs.append(rest.pop())
        full[seat] = cs
    first = (dealer + 1) % n_players
    deck = []
    taken = dict.fromkeys(range(n_players), 0)
    for i in range(36):
        seat = (first + i // 3) % n_players
        deck.append(full[seat][taken[seat]])
        taken[seat] += 1
    return deck


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


def random_finish(state: HandState, rng: random.Random, check: bool = False) -> None:
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[int(rng.random() * len(legal))])


def play_codes(state: HandState, codes: Iterable[str]) -> None:
    for c in parse_cards(" ".join(codes)):
        state.play(c)


# --- an independent reference for RULES.md 3 ------------------------------------
_PLAIN = "6789TJQKA"  # ascending, Obenabe
_TRUMP_ORDER = ["6", "7", "8", "T", "Q", "K", "A", "9", "J"]  # ascending as trump
_ZWUE = {"T": 5, "9": 4, "J": 4, "8": 3, "Q": 3, "7": 2, "K": 2, "6": 1, "A": 1}


def ref_is_trump(code: str, tm: TrickMode, led: str | None) -> bool:
    if tm.mode is Mode.TRUMP:
        return code[0] == "CDSH"[tm.suit]  # type: ignore[index]
    if tm.mode is Mode.TUTTI:
        return led is not None and code[0] == led
    return False


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
    trump = "CDSH"[tm.suit]  # type: ignore[index]
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


def ref_winner(tm: TrickMode, trick: list[str]) -> int:
    """Index in ``trick`` of the winning card, by RULES.md 2."""
    led = trick[0][0]

    def key(i: int) -> tuple[int, int]:
        c = trick[i]
        if tm.mode is Mode.TRUMP and c[0] == "CDSH"[tm.suit]:  # type: ignore[index]
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
