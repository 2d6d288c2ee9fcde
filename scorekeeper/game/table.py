"""Who sits at a table: the checks every evening's table passes (RULES.md 6), the same for an
evening started on the phone, from the API or from a paper slate."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from .errors import N_, RuleError
from .rulesets import RuleSet


def verify_seated_once(players: Sequence[Hashable]) -> None:
    """Every player sits at the table once (``players``: names compared without case, or ids)."""
    if len(set(players)) != len(players):
        raise RuleError(N_("Every player sits at the table once."), "players_distinct")


def verify_table(rs: RuleSet, names: Sequence[str], first_dealer: object) -> None:
    """The table an evening is written for: as many players as the game has, each once (names
    compared without case), and a first dealer who is one of them. RuleError otherwise."""
    n = rs.n_players
    if len(names) != n:
        raise RuleError(N_("This game needs %(n)s players."), "players_count", n=n)
    verify_seated_once([name.casefold() for name in names])
    if type(first_dealer) is not int or not 0 <= first_dealer < n:
        raise RuleError(N_("The first dealer must be one of the players."), "first_dealer")
