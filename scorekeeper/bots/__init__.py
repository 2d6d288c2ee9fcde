"""PURE: see DESIGN.md. No Flask, SQLAlchemy or WTForms imports.

Computer players that see only a seat's view (``engine.view.SeatView``).

Entry point (``player``)::

    choose_action(view, ruleset, level="easy", rng=None, budget_ms=None, scores=None) -> int

returns one of ``view.legal_actions`` (an engine action id: card 0..35, PASS,
SEICH, a Komisch block, or an announcement carrying row and contract). Levels:
``easy`` (rule-based, microseconds), ``normal`` (search, 300 ms), ``strong``
(search, 900 ms); budgets are capped at 1 s.

Modules: ``knowledge`` (what a seat knows: voids, unseen cards, objective),
``sampler`` (consistent random deals of the unseen cards, weighted by the
declarer's choice), ``policy`` (the rule-based card choice on bitmasks),
``playout`` (the policy as a player of the engine's fast path), ``inference``
(how likely a deal makes the cards the other seats played), ``search``
(card play by determinized playouts), ``handeval`` (what a hand is worth as
declarer), ``adviser`` (the row adviser: every open row's expected slate value,
match chance and the pick, for people and bots alike) and ``contract_choice``
(the bidding action from the adviser's pick),
``player`` (levels, the entry point). A bot that raises raises: nothing here
falls back silently.

Decisions where the rules are silent:
- Objective: a team game's seat plays for its team's pile (+100 for a match);
  in the solo games the defenders play together against the declarer (only
  the declarer writes); Misère: every side dodges points (the declaring team
  writes the opponents' pile, +100 when it took no trick).
- One chooser: a row is chosen by the row adviser, the open row with the
  highest expected slate value (three players: plus the sticks a cell may earn
  against the scores already in the row). Passing and Seich only below
  calibrated thresholds.
- The default level is ``easy`` so callers that do not choose stay fast; a
  table passes ``normal`` or ``strong``.
"""

from .player import DEFAULT_BUDGET_MS, LEVELS, choose_action, rule_based_card

__all__ = ["DEFAULT_BUDGET_MS", "LEVELS", "choose_action", "rule_based_card"]
