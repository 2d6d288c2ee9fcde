"""Errors of the engine: ``RuleError`` subclasses with stable codes."""

from __future__ import annotations

from scorekeeper.game.errors import RuleError


class IllegalAction(RuleError):
    """An action that is not allowed now (wrong turn, wrong phase, closed row...)."""

    code = "illegal_action"


class IllegalCard(IllegalAction):
    """A card the rules do not allow here; ``params`` say which and why."""

    code = "illegal_card"
