"""PURE: see DESIGN.md. No Flask, SQLAlchemy or WTForms imports.

The card engine: deal, choosing the contract, legal cards, tricks, results,
per-seat views (``state``, ``view``), and a bitmask fast path for bots
(``fast``).
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
from .bidding import HandSetup
from .deal import deal_hands, seeded_deck, shuffle_deck
from .errors import IllegalAction, IllegalCard
from .result import HandResult
from .phase import TERMINAL, Phase
from .state import HandState, TrickRecord
from .view import SeatView, build_view

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
