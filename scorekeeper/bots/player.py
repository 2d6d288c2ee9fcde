"""The computer players' single entry point: ``choose_action``.

    action = choose_action(view, ruleset, "normal", rng=random.Random(), budget_ms=300)
    state.apply(action, seat=view.seat)

The level defaults to ``easy`` (answers in microseconds, so callers that do not
choose, tests of whole evenings say, stay fast); a table offers ``normal`` and
``strong`` by passing the level.

``view`` is the seat's ``SeatView`` (``HandState.observation(seat)``, the one
function that builds what a seat may see); ``ruleset`` is the evening's rule
set (public: rows, factors, options). Nothing else about the hand reaches a
bot. The answer is one of ``view.legal_actions``: an engine action id (a card
0..35, ``PASS`` 36, ``SEICH`` 37, a Komisch block 38..43, or an announcement
``64 + 32 * row + contract``; see ``engine.actions``).

Levels:
- ``easy``: the rule-based player (microseconds).
- ``normal``: determinized search with policy playouts and the last three
  tricks solved exactly on every sampled deal, ``budget_ms`` per decision (300
  by default).
- ``strong``: the same search with 900 ms, a stricter stopping rule, three
  times the samples and twice the contracts played out when choosing.
Budgets are capped at 1000 ms; a single legal card is played without thinking.
``scores`` (optional): the slate's cells, ``{(row_key, side): value}``, read
when choosing a row in the three-player game.
"""

from __future__ import annotations

import random

from scorekeeper.engine.actions import KOMISCH_OBENABE, KOMISCH_UNDENUFE, komisch_action
from scorekeeper.engine.view import SeatView
from scorekeeper.game.cards import mask_of
from scorekeeper.game.contracts import Mode
from scorekeeper.game.rulesets import RuleSet

from .contract_choice import MAX_CANDIDATES, Scores, best_block, choose_bid, search_bid
from .handeval import shape_of
from .knowledge import Knowledge
from .search import MAX_SAMPLES, clamp_budget, policy_card, search_card

LEVELS = ("easy", "normal", "strong")
DEFAULT_BUDGET_MS = {"easy": 0.0, "normal": 300.0, "strong": 900.0}
# Search settings per level: stopping rule (z), most samples per card decision,
# and how many contracts the bidding plays out.
_Z = {"normal": 2.5, "strong": 3.0}
_MAX_SAMPLES = {"normal": MAX_SAMPLES, "strong": 3 * MAX_SAMPLES}
_CANDIDATES = {"normal": MAX_CANDIDATES, "strong": 2 * MAX_CANDIDATES}


def rule_based_card(view: SeatView, ruleset: RuleSet) -> int:
    """The easy bot's card (``policy.choose_card`` on the seat's knowledge)."""
    legal = [a for a in view.legal_actions if a < 36]
    if len(legal) == 1:
        return legal[0]
    return policy_card(Knowledge.from_view(view, ruleset), view, legal)


def komisch_choice(view: SeatView, ruleset: RuleSet) -> int:
    """The Komisch block the seat's remaining cards like best."""
    legal = view.legal_actions
    open_modes = []
    if any(a < KOMISCH_OBENABE for a in legal):
        open_modes.append(Mode.TRUMP)
    if KOMISCH_OBENABE in legal:
        open_modes.append(Mode.OBENABE)
    if KOMISCH_UNDENUFE in legal:
        open_modes.append(Mode.UNDENUFE)
    action = komisch_action(best_block(mask_of(view.hand), open_modes, shape_of(ruleset.n_players, ruleset.teams)))
    assert action in legal
    return action


def choose_action(
    view: SeatView,
    ruleset: RuleSet,
    level: str = "easy",
    rng: random.Random | None = None,
    budget_ms: float | None = None,
    scores: Scores | None = None,
) -> int:
    """The bot's action for the seat of ``view`` (which must be to move)."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
    if not view.legal_actions:
        raise ValueError("it is not this seat's turn")
    if len(view.legal_actions) == 1:
        return view.legal_actions[0]  # nothing to think about
    rng = rng or random.Random()
    budget = clamp_budget(DEFAULT_BUDGET_MS[level] if budget_ms is None else budget_ms)
    phase = view.phase
    if phase == "bidding":
        if level == "easy":
            return choose_bid(view, ruleset, scores)
        return search_bid(view, ruleset, rng, budget, scores, candidates=_CANDIDATES[level])
    if phase == "komisch":
        return komisch_choice(view, ruleset)
    if level == "easy":
        return rule_based_card(view, ruleset)
    return search_card(view, ruleset, rng, budget, z=_Z[level], max_samples=_MAX_SAMPLES[level])
