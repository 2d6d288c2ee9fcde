"""PURE: see DESIGN.md. No Flask, SQLAlchemy or WTForms imports.

The chalk slate of an evening: hand entries and their checks, cells and totals,
sticks and potatoes, and the money at the end.
"""

from .entries import ERROR_CODES, HandEntry, cell_value, possible_cells, verify_entry
from .final import Cut, Result, RowResult, Tie, cancel_marks, draw_cut, effective_cuts, final_result, ties
from .payouts import Payout, Transfer, payout, settle
from .slate import Cell, Slate

__all__ = [
    "ERROR_CODES",
    "Cell",
    "Cut",
    "HandEntry",
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
    "final_result",
    "payout",
    "possible_cells",
    "settle",
    "ties",
    "verify_entry",
]
