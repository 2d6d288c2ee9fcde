"""PURE: see DESIGN.md. No Flask, SQLAlchemy or WTForms imports.

Computer players that see only a seat's view (``engine.view.SeatView``).
Entry point: ``choose_action(view, ruleset, level, rng, budget_ms, scores)``
(``player``). Modules: ``knowledge`` (what a seat knows: voids, unseen cards),
``sampler`` (consistent random deals of the unseen cards), ``policy`` (the
rule-based card choice on bitmasks), ``playout`` (policy playouts on the
engine's tables), ``search`` (card play by determinized playouts),
``handeval`` and ``bidding`` (contract choice), ``player`` (levels).
"""

from .player import DEFAULT_BUDGET_MS, LEVELS, choose_action, rule_based_card

__all__ = ["DEFAULT_BUDGET_MS", "LEVELS", "choose_action", "rule_based_card"]
