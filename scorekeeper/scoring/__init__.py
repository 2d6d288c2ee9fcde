"""PURE: see DESIGN.md. No Flask, SQLAlchemy or WTForms imports.

The chalk slate of an evening: hand entries and their checks, cells and totals,
sticks and potatoes, and the money at the end; and the outlook: what each side
still needs, and who is likely to win (modules ``outlook`` and ``forecast``;
``evening_outlook`` does both). The recorded hand itself (``HandEntry``) is game
vocabulary: ``scorekeeper.game.hand_entry``.
"""

from .entries import ERROR_CODES, cell_value, possible_cells
from .final import Cut, Result, RowResult, Tie, cancel_marks, draw_cut, effective_cuts, final_result, ties
from .outlook import Outlook, evening_outlook
from .payouts import Payout, Transfer, payout, settle
from .slate import Cell, Slate, verify_entry

__all__ = [
    "ERROR_CODES",
    "Cell",
    "Cut",
    "Outlook",
    "Payout",
    "Result",
    "RowResult",
    "Slate",
    "Tie",
    "Transfer",
    "cancel_marks",
    "cell_value",
    "draw_cut",
    "effective_cuts",
    "evening_outlook",
    "final_result",
    "payout",
    "possible_cells",
    "settle",
    "ties",
    "verify_entry",
]
