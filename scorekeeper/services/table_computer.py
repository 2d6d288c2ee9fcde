"""The computer player of the digital table: ONE function, ``computer_action(view, ruleset)``.

It sees only its seat's view (``engine.build_view``). ``scorekeeper.bots``'s entry
point ``choose_action(view, ruleset, level, scores=...)`` plays; should it be
missing or fail, this module's simple rule-based player answers with a sensible,
always legal choice.

Imports nothing of Flask or SQLAlchemy, so it may move into ``bots`` as it is.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Mapping

from scorekeeper.engine import PASS, SEICH, SeatView, decode_announce
from scorekeeper.engine.actions import KOMISCH_OBENABE, KOMISCH_TRUMP, KOMISCH_UNDENUFE
from scorekeeper.engine.bitmasks import POINTS, STRENGTH, VAL_OBENABE, mode_id, valuation_id
from scorekeeper.engine.rules import trick_status
from scorekeeper.game.cards import Suit
from scorekeeper.game.contracts import Contract, Kind, Mode, TrickMode
from scorekeeper.game.rulesets import RuleSet

Chooser = Callable[..., int]
COMPUTER_LEVELS = ("easy", "normal", "strong")  # the bots' levels (``scorekeeper.bots.LEVELS``)
Scores = Mapping[tuple[str, int], int]
log = logging.getLogger(__name__)

# Rank indexes: 0 six, 1 seven, 2 eight, 3 nine, 4 ten, 5 jack, 6 queen, 7 king, 8 ace.
_TRUMP_VALUE = (1, 1, 1, 6, 2, 9, 2, 3, 4)  # jack and nine first
_OBEN_VALUE = (0, 0, 0, 0, 1, 0, 1, 2, 4)  # aces and kings
_UNDE_VALUE = (4, 2, 1, 0, 1, 0, 0, 0, 0)  # sixes and sevens
PASS_BELOW = 14  # a hand whose best contract scores less passes when it may


def _bots_chooser() -> Chooser | None:
    """``scorekeeper.bots.choose_action`` when the bots package provides it."""
    try:
        bots = importlib.import_module("scorekeeper.bots")
    except ImportError:  # pragma: no cover - the package exists in the repository
        return None
    chooser = getattr(bots, "choose_action", None)
    return chooser if callable(chooser) else None


def computer_action(view: SeatView, ruleset: RuleSet, level: str = "easy", scores: Scores | None = None) -> int:
    """The action the computer in ``view.seat`` takes now (one of ``view.legal_actions``).

    ``level``: the bots' level (``easy``, ``normal``, ``strong``); ``scores``: the
    slate's cells ``{(row_key, side): value}`` (public), for the row choice.
    """
    if not view.legal_actions:
        raise ValueError("it is not this seat's turn")
    chooser = _bots_chooser()
    if chooser is not None:
        try:
            action = chooser(view, ruleset, level, scores=dict(scores) if scores is not None else None)
        except Exception as exc:  # a bot bug must not stop the table; the simple player answers
            log.warning("bots.choose_action failed (%s); the simple player answers", type(exc).__name__)
        else:
            if action in view.legal_actions:
                return action
    return simple_action(view, ruleset)


def simple_action(view: SeatView, ruleset: RuleSet) -> int:
    legal = view.legal_actions
    if view.phase == "bidding":
        return _bid(view, ruleset)
    if view.phase == "komisch":
        return max(legal, key=lambda a: (_block_strength(view, a), -a))
    return _card(view, ruleset.teams)


# --- choosing -------------------------------------------------------------------------
def _hand_cards(view: SeatView) -> list[int]:
    return [int(c) for c in view.hand]


def _mode_strength(cards: list[int], tm: TrickMode) -> int:
    if tm.mode is Mode.TRUMP:
        assert tm.suit is not None
        trumps = [c % 9 for c in cards if c // 9 == int(tm.suit)]
        side_aces = sum(1 for c in cards if c % 9 == 8 and c // 9 != int(tm.suit))
        return sum(_TRUMP_VALUE[r] for r in trumps) + 2 * len(trumps) + 2 * side_aces
    if tm.mode is Mode.UNDENUFE:
        return sum(_UNDE_VALUE[c % 9] for c in cards) * 2
    return sum(_OBEN_VALUE[c % 9] for c in cards) * 2  # Obenabe, Tutti, Zwüschedüre


def _contract_strength(cards: list[int], contract: Contract, n_tricks: int) -> int:
    if contract.kind is Kind.KOMISCH:
        best = max(_mode_strength(cards, TrickMode(Mode.TRUMP, s)) for s in Suit)
        return (
            best + _mode_strength(cards, TrickMode(Mode.OBENABE)) + _mode_strength(cards, TrickMode(Mode.UNDENUFE))
        ) // 3
    schedule = contract.schedule(n_tricks) or ()
    if not schedule:
        return 0
    value = sum(_mode_strength(cards, tm) for tm in schedule) // len(schedule)
    if contract.is_misere:
        return 2 * PASS_BELOW - value  # a weak hand wants Misère
    return value


def _bid(view: SeatView, ruleset: RuleSet) -> int:
    cards = _hand_cards(view)
    scored: list[tuple[int, int]] = []
    for a in view.legal_actions:
        decoded = decode_announce(ruleset, a)
        if decoded is None:
            continue
        row = ruleset.row(decoded[0])
        strength = _contract_strength(cards, decoded[1], ruleset.n_tricks)
        # strong hands go to the high rows, weaker ones to the low rows
        scored.append((strength * 10 + (row.factor if strength >= PASS_BELOW else -row.factor), a))
    best = max(scored) if scored else None
    if PASS in view.legal_actions and (best is None or best[0] < PASS_BELOW * 10):
        return PASS
    if best is None:
        return SEICH if SEICH in view.legal_actions else view.legal_actions[0]
    return best[1]


def _block_strength(view: SeatView, action: int) -> int:
    cards = _hand_cards(view)
    if KOMISCH_TRUMP <= action < KOMISCH_TRUMP + 4:
        return _mode_strength(cards, TrickMode(Mode.TRUMP, Suit(action - KOMISCH_TRUMP)))
    if action == KOMISCH_OBENABE:
        return _mode_strength(cards, TrickMode(Mode.OBENABE))
    if action == KOMISCH_UNDENUFE:
        return _mode_strength(cards, TrickMode(Mode.UNDENUFE))
    return -1


# --- playing ----------------------------------------------------------------------------
def _points_table(view: SeatView) -> tuple[int, ...]:
    first: TrickMode | None = None
    if view.contract is not None and view.contract.valuation() is not None:
        first = view.contract.valuation()
    elif view.komisch_blocks:
        first = view.komisch_blocks[0]
    if first is None:
        return POINTS[VAL_OBENABE]
    return POINTS[valuation_id(first)]


def _card(view: SeatView, teams: bool) -> int:
    legal = [a for a in view.legal_actions if a < 36]
    tm = view.trick_mode
    if tm is None:
        return legal[0]
    mid = mode_id(tm)
    pts = _points_table(view)
    n = view.n_players
    trick = [int(c) for c in view.trick]
    partner = {s for s in range(n) if teams and s % 2 == view.seat % 2 and s != view.seat}
    if not trick:  # leading: the strongest card of the longest suit, trumps first if strong

        def lead_key(c: int) -> tuple[int, int, int]:
            strength = STRENGTH[mid * 4 + c // 9][c]
            suit_len = sum(1 for x in legal if x // 9 == c // 9)
            return (strength >= 100 and suit_len >= 3, strength, suit_len)

        return max(legal, key=lead_key)
    led, win_idx, _under = trick_status(mid, trick)
    winner_seat = (view.leader + win_idx) % n
    table_points = sum(pts[c] for c in trick)
    k = mid * 4 + led
    best = STRENGTH[k][trick[win_idx]]
    last = len(trick) == n - 1
    if winner_seat in partner and (last or best >= 100):
        return max(legal, key=lambda c: (STRENGTH[k][c] <= best, pts[c], -STRENGTH[k][c]))  # feed the partner
    winners = [c for c in legal if STRENGTH[k][c] > best]
    if winners and (table_points >= 10 or last):
        return min(winners, key=lambda c: (STRENGTH[k][c], pts[c]))  # take it as cheaply as possible
    losers = [c for c in legal if c not in winners] or legal
    return min(losers, key=lambda c: (pts[c], STRENGTH[k][c]))
