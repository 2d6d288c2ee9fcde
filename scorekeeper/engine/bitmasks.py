"""Bitmask lookups shared by the full engine and the fast path (``fast``).

Cards are ints 0..35 (``suit * 9 + rank``, rank 0 = six .. 8 = ace) and a set of
cards is a 36-bit mask. Everything a trick needs is looked up here, never
recomputed per card.

Two id spaces, and no value belongs to both (a mode id where a valuation id is
due fails loudly instead of counting the wrong points):

Trick modes (``mode id``; ``STRENGTH``, ``UNDER``, ``LEGAL_PARAMS`` are indexed
by ``mode id * 4 + led suit``):

====  ==========================================
0..3  trump in suit 0..3 (clubs, diamonds, spades, hearts)
4     Obenabe
5     Undenufe
6     Zwüschedüre
7     Tutti (the led suit is trump for the trick)
====  ==========================================

Valuations (``valuation id``: how every card of the hand is counted; ``POINTS``
is keyed by them):

======  ==========================================
8..11   trump in suit 0..3
12      Obenabe (also Tutti and Zwüschedüre)
13      Undenufe
14      Undenufe with the "ace 0 / six 11" option
======  ==========================================
"""

from __future__ import annotations

from collections.abc import Mapping

from scorekeeper.game.cards import Card, Suit
from scorekeeper.game.contracts import Mode, TrickMode

OBENABE_ID = 4
UNDENUFE_ID = 5
ZWUE_ID = 6
TUTTI_ID = 7
N_MODES = 8
VAL_TRUMP = 8  # + suit
VAL_OBENABE = 12
VAL_UNDENUFE = 13
VAL_UNDENUFE_SIX11 = 14
VALUATIONS = tuple(range(VAL_TRUMP, VAL_UNDENUFE_SIX11 + 1))
LAST_TRICK_BONUS = 5

FULL = (1 << 36) - 1
SUIT_MASK: tuple[int, ...] = tuple(0x1FF << (9 * s) for s in range(4))
BIT: tuple[int, ...] = tuple(1 << c for c in range(36))
SUIT_OF: tuple[int, ...] = tuple(c // 9 for c in range(36))
JACK = 5  # rank index of the jack (Under)

# Trump order by rank index: 6 7 8 10 Q K A 9 J (jack highest).
_TRUMP_ORDER = (0, 1, 2, 7, 3, 8, 4, 5, 6)
# Zwüschedüre: ten 5, nine/jack 4, eight/queen 3, seven/king 2, six/ace 1.
_ZWUE_ORDER = (1, 2, 3, 4, 5, 4, 3, 2, 1)


_NO_TRUMP_IDS = {
    Mode.OBENABE: OBENABE_ID,
    Mode.UNDENUFE: UNDENUFE_ID,
    Mode.ZWUESCHEDUERE: ZWUE_ID,
    Mode.TUTTI: TUTTI_ID,
}


def mode_id(tm: TrickMode) -> int:
    """The mode id of a trick mode."""
    if tm.mode is Mode.TRUMP:
        assert tm.suit is not None
        return int(tm.suit)
    return _NO_TRUMP_IDS[tm.mode]


def _trick_mode(mid: int) -> TrickMode:
    if mid < 4:
        return TrickMode(Mode.TRUMP, Suit(mid))
    return TrickMode((Mode.OBENABE, Mode.UNDENUFE, Mode.ZWUESCHEDUERE, Mode.TUTTI)[mid - 4])


TRICK_MODES: tuple[TrickMode, ...] = tuple(_trick_mode(m) for m in range(N_MODES))


def trick_mode(mid: int) -> TrickMode:
    """The ``TrickMode`` of a mode id."""
    return TRICK_MODES[mid]


def valuation_id(tm: TrickMode, undenufe_six11: bool = False) -> int:
    """The valuation id of a hand valued by the trick mode ``tm``."""
    mid = mode_id(tm)
    if mid < 4:
        return VAL_TRUMP + mid
    if mid == UNDENUFE_ID:
        return VAL_UNDENUFE_SIX11 if undenufe_six11 else VAL_UNDENUFE
    return VAL_OBENABE  # Obenabe, Tutti, Zwüschedüre


def _points(val: int, card: int) -> int:
    s, r = divmod(card, 9)
    if val < VAL_OBENABE and s == val - VAL_TRUMP:
        return (0, 0, 0, 14, 10, 20, 3, 4, 11)[r]
    if val < VAL_OBENABE:
        return (0, 0, 0, 0, 10, 2, 3, 4, 11)[r]
    if val == VAL_UNDENUFE_SIX11:
        return (11, 0, 8, 0, 10, 2, 3, 4, 0)[r]
    return (0, 0, 8, 0, 10, 2, 3, 4, 11)[r]


# POINTS[valuation id][card]: card points.
POINTS: Mapping[int, tuple[int, ...]] = {v: tuple(_points(v, c) for c in range(36)) for v in VALUATIONS}


def _strength(mid: int, led: int, card: int) -> int:
    """How strongly ``card`` bids for the trick; 0 never wins. Higher wins, a tie
    goes to the card played first (Zwüschedüre's equal standing)."""
    s, r = divmod(card, 9)
    if mid < 4 and s == mid:
        return 100 + _TRUMP_ORDER[r]
    if s != led:
        return 0
    if mid < 4 or mid == OBENABE_ID:
        return r + 1
    if mid == UNDENUFE_ID:
        return 9 - r
    if mid == ZWUE_ID:
        return _ZWUE_ORDER[r]
    return 100 + _TRUMP_ORDER[r]  # Tutti: the led suit ranks as trump


# STRENGTH[mid * 4 + led][card]
STRENGTH: tuple[tuple[int, ...], ...] = tuple(
    tuple(_strength(m, led, c) for c in range(36)) for m in range(N_MODES) for led in range(4)
)


def _lower_trumps(card: int) -> int:
    s, r = divmod(card, 9)
    m = 0
    for r2 in range(9):
        if _TRUMP_ORDER[r2] < _TRUMP_ORDER[r]:
            m |= 1 << (s * 9 + r2)
    return m


# UNDER[mid * 4 + led][card]: the trumps below ``card`` when it is a trump lying in a
# trick whose led suit is not trump (the cards nobody may undertrump with), else 0.
UNDER: tuple[tuple[int, ...], ...] = tuple(
    tuple(_lower_trumps(c) if (m < 4 and c // 9 == m and led != m) else 0 for c in range(36))
    for m in range(N_MODES)
    for led in range(4)
)


def _legal_params(mid: int, led: int) -> tuple[int, int, int, int]:
    """(follow mask, Puur bit, trump-in mask, non-trump mask) for a mode and led suit."""
    follow = SUIT_MASK[led]
    puur = 0
    trump_in = 0
    non_trump = FULL
    if mid < 4:
        non_trump = FULL & ~SUIT_MASK[mid]
        if led == mid:
            puur = 1 << (led * 9 + JACK)
        else:
            trump_in = SUIT_MASK[mid]
    elif mid == TUTTI_ID:
        puur = 1 << (led * 9 + JACK)
    return follow, puur, trump_in, non_trump


# LEGAL_PARAMS[mid * 4 + led]
LEGAL_PARAMS: tuple[tuple[int, int, int, int], ...] = tuple(
    _legal_params(m, led) for m in range(N_MODES) for led in range(4)
)


def legal_mask(hand: int, mid: int, led: int, under: int) -> int:
    """The cards of ``hand`` that may be played (RULES.md 3).

    ``led`` is the suit led, or -1 when leading; ``under`` is ``UNDER[..][winning
    card]`` of the trick so far (nonzero only when a trump lies in a trick led in
    a plain suit).
    """
    if led < 0:
        return hand
    follow, puur, trump_in, non_trump = LEGAL_PARAMS[mid * 4 + led]
    f = hand & follow
    legal = f | (hand & trump_in) if f and f != puur else hand
    if under and hand & non_trump:
        legal &= ~under
    return legal


# Cards of one suit's 9-bit slice, ascending: CARDS9[suit][bits] -> tuple of card ints.
CARDS9: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(s * 9 + r for r in range(9) if m >> r & 1) for m in range(512)) for s in range(4)
)
_CARD = tuple(Card)
CARDOBJ9: tuple[tuple[tuple[Card, ...], ...], ...] = tuple(
    tuple(tuple(_CARD[c] for c in CARDS9[s][m]) for m in range(512)) for s in range(4)
)
_C0, _C1, _C2, _C3 = CARDS9
_O0, _O1, _O2, _O3 = CARDOBJ9


def card_ints(mask: int) -> tuple[int, ...]:
    """The cards of a mask as ints, ascending."""
    return _C0[mask & 511] + _C1[mask >> 9 & 511] + _C2[mask >> 18 & 511] + _C3[mask >> 27]


def card_tuple(mask: int) -> tuple[Card, ...]:
    """The cards of a mask as ``Card`` values, ascending."""
    return _O0[mask & 511] + _O1[mask >> 9 & 511] + _O2[mask >> 18 & 511] + _O3[mask >> 27]


CARD: tuple[Card, ...] = _CARD
