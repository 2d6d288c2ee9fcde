"""PURE: see DESIGN.md. No Flask, SQLAlchemy or WTForms imports.

The card engine: deal, choosing the contract, legal cards, tricks, results,
per-seat views, and a bitmask fast path for bots and benchmarks.

Modules: ``state`` (``HandState``, the OpenSpiel-shaped hand, and
``build_view``, the one function that fills a seat's view), ``view``
(``SeatView``, the only thing a front end or bot sees, and ``TrickRecord``),
``hand_setup`` (``HandSetup``: dealer, open rows, Seich used, who may announce
what), ``actions`` (action ids and their notation), ``bitmasks`` (card masks,
trick-mode and valuation ids, the lookups, ``legal_mask``), ``rules`` (why a
card is illegal; a trick given by its cards), ``fast`` (``Playout``: a hand
played to its end by a ``choose(seat, legal)`` player, ``Uniform`` the random
one), ``deal``, ``result`` (``HandResult.to_entry()``, the game vocabulary's
``HandEntry``), ``notation`` (transcripts). The engine never imports
``scoring``: play and slate meet only in the services.

Decisions where RULES.md is silent:
- One announce action carries the row and every choice of the contract
  (joker contract, Slalom start, split and order, TUO trump, Misère mode).
- Komisch: the declarer (leader of trick 1) picks the first block, the leader
  of trick 4 the second; the third follows by itself unless it is the trump
  block, whose suit the leader of trick 7 picks then. The hand is valued by the
  first block. With three players the blocks are 4 tricks long.
- Seich is offered to a seat in the barrel (it may not pass) whose team has not
  used it; the hand ends with no points (0/0) and no row.
- ``returns()`` (bots' objective): a seat gets its side's pile plus 100 for its
  side taking every trick; in Misère the declaring side gets the defenders' pile
  (+100 if it took no trick) and the defenders the declaring side's pile.
- A hand in which every side is full cannot be dealt (``RuleError``
  ``evening_complete`` from ``game.turns``).
"""

from .actions import (
    ANNOUNCE,
    CONTRACTS,
    KOMISCH_OBENABE,
    KOMISCH_TRUMP,
    KOMISCH_UNDENUFE,
    PASS,
    SEICH,
    announce_action,
    decode_announce,
    format_action,
    komisch_action,
    parse_action,
)
from .deal import deal_hands, seeded_deck, shuffle_deck
from .errors import IllegalAction, IllegalCard
from .hand_setup import HandSetup
from .phase import TERMINAL, Phase
from .result import HandResult
from .state import HandState, build_view
from .view import SeatView, TrickRecord

__all__ = [
    "ANNOUNCE",
    "CONTRACTS",
    "KOMISCH_OBENABE",
    "KOMISCH_TRUMP",
    "KOMISCH_UNDENUFE",
    "PASS",
    "SEICH",
    "TERMINAL",
    "HandResult",
    "HandSetup",
    "HandState",
    "IllegalAction",
    "IllegalCard",
    "Phase",
    "SeatView",
    "TrickRecord",
    "announce_action",
    "build_view",
    "deal_hands",
    "decode_announce",
    "format_action",
    "komisch_action",
    "parse_action",
    "seeded_deck",
    "shuffle_deck",
]
