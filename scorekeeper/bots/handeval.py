"""What a hand is worth as declarer: quick rule-of-thumb estimates of the card
points (out of 157, the declaring side's pile) for every contract.

The weights follow the sources' advice (trumps with the jack or nine, five
trumps or four with the jack; aces for Obenabe, sixes for Undenufe) and were
checked against policy playouts of random deals (``bench/bots.py`` prints the
contract-choice figures). ``shape`` (``shape_of``) scales them: a team's
declarer has a partner, a solo declarer is alone against two or three.
"""

from __future__ import annotations

from scorekeeper.engine.bitmasks import SUIT_MASK
from scorekeeper.game.contracts import Contract, Kind, Mode
from scorekeeper.game.hand_entry import TOTAL_POINTS

# Trump suit, by rank 6 7 8 9 T J Q K A.
_TRUMP_W = (3.0, 3.0, 3.0, 15.0, 6.0, 24.0, 5.0, 5.0, 10.0)
# A side suit in a trump contract, by rank, and extra for the cards under an ace.
_SIDE_ACE = 9.0
_SIDE_KING_WITH_ACE = 5.0
_SIDE_KING_GUARDED = 2.0
_SIDE_TEN_WITH_ACE = 3.0


# Linear maps from the rule-of-thumb sums to card points, fitted (least squares)
# to policy playouts of random deals: {players: (intercept, slope)}.
# The table's shape: "three" players, two "teams" of two, or "solo4" (one against three).
_TRUMP_FIT = {"teams": (48.0, 1.1), "three": (-3.0, 1.24), "solo4": (-9.5, 1.46)}
_NOTRUMP_FIT = {"teams": (62.0, 0.88), "three": (22.0, 0.8), "solo4": (9.0, 1.07)}


def shape_of(n_players: int, teams: bool) -> str:
    return "three" if n_players == 3 else ("teams" if teams else "solo4")


def _scale(v: float, fit: dict[str, tuple[float, float]], shape: str) -> float:
    a, b = fit[shape]
    return a + b * v


def _ranks(hand: int, suit: int) -> list[int]:
    m = (hand >> (9 * suit)) & 511
    return [r for r in range(9) if m >> r & 1]


def trump_points(hand: int, trump: int, shape: str = "teams") -> float:
    ranks = _ranks(hand, trump)
    v = sum(_TRUMP_W[r] for r in ranks)
    if 3 in ranks and 5 not in ranks and len(ranks) <= 2:
        v -= 6.0  # a bare nine is easily caught by the jack
    v += 7.0 * max(0, len(ranks) - 3)
    for s in range(4):
        if s == trump:
            continue
        rs = _ranks(hand, s)
        if 8 in rs:
            v += _SIDE_ACE
            if 7 in rs:
                v += _SIDE_KING_WITH_ACE
            if 4 in rs:
                v += _SIDE_TEN_WITH_ACE
        elif 7 in rs and len(rs) >= 2:
            v += _SIDE_KING_GUARDED
    return _scale(v, _TRUMP_FIT, shape)


_MASTER_W = (13.0, 9.0, 7.0, 6.0)


def _topdown_points(hand: int, top_first: tuple[int, ...], shape: str) -> float:
    """Obenabe (ranks from the ace down) or Undenufe (from the six up)."""
    v = 0.0
    for s in range(4):
        rs = set(_ranks(hand, s))
        run = 0
        for r in top_first:
            if r in rs:
                run += 1
            else:
                break
        # masters from the top, then length behind them
        if run:
            v += sum(_MASTER_W[:run]) + 6.0 * max(0, run - len(_MASTER_W)) + 2.5 * max(0, len(rs) - run)
        elif len(rs) >= 3 and top_first[1] in rs:
            v += 3.0  # a guarded second card
    return _scale(v, _NOTRUMP_FIT, shape)


def obenabe_points(hand: int, shape: str = "teams") -> float:
    return _topdown_points(hand, (8, 7, 6, 5, 4, 3, 2, 1, 0), shape)


def undenufe_points(hand: int, shape: str = "teams") -> float:
    return _topdown_points(hand, (0, 1, 2, 3, 4, 5, 6, 7, 8), shape)


# Zwüschedüre: the ten, then nine and jack; Tutti: jack and nine (trump in the led suit), ace.
# (rank, weight) per card held, and a weight per card of a suit beyond three.
_ZWUE_W = ((4, 12.0), (3, 4.0), (5, 4.0)), 1.5
_TUTTI_W = ((5, 12.0), (3, 8.0), (8, 5.0)), 2.0


def _suit_by_suit(hand: int, weights: tuple[tuple[tuple[int, float], ...], float], shape: str) -> float:
    """The no-trump estimate of a hand whose every suit counts on its own (Zwüschedüre, Tutti)."""
    cards, long = weights
    v = 0.0
    for s in range(4):
        rs = _ranks(hand, s)
        v += sum(w for r, w in cards if r in rs) + long * max(0, len(rs) - 3)
    return _scale(v, _NOTRUMP_FIT, shape)


def _mix(parts: list[tuple[float, float]]) -> float:
    total = sum(w for w, _ in parts)
    return sum(w * v for w, v in parts) / total


def contract_points(contract: Contract, hand: int, shape: str = "teams") -> float:
    """Estimated card points of the declaring side (Misère: the points it writes,
    the opponents' pile)."""
    n_tricks = 12 if shape == "three" else 9
    k = contract.kind
    obe = obenabe_points(hand, shape)
    une = undenufe_points(hand, shape)
    suit = contract.suit
    if k is Kind.SUIT and suit is not None:
        return trump_points(hand, int(suit), shape)
    if k is Kind.OBENABE:
        return obe
    if k is Kind.UNDENUFE:
        return une
    if k in (Kind.SLALOM, Kind.GUSTAV, Kind.RIESENSLALOM):
        sched = contract.schedule(n_tricks)
        assert sched is not None
        n_obe = sum(1 for tm in sched if tm.mode is Mode.OBENABE)
        first = obe if contract.start is Mode.OBENABE else une
        # the first trick's mode values every card: a small edge for starting strong
        return _mix([(n_obe, obe), (n_tricks - n_obe, une)]) + 0.05 * (first - (obe + une) / 2)
    if k is Kind.TUO and suit is not None:
        return _mix([(1, trump_points(hand, int(suit), shape)), (1, une), (1, obe)])
    if k is Kind.KOMISCH:
        best_trump = max(trump_points(hand, s, shape) for s in range(4))
        return _mix([(1, best_trump), (1, obe), (1, une)])
    if k is Kind.TUTTI:
        return _suit_by_suit(hand, _TUTTI_W, shape)
    if k is Kind.ZWUESCHEDUERE:
        return _suit_by_suit(hand, _ZWUE_W, shape)
    if contract.misere_as is not None:
        inner = Contract(contract.misere_as, start=contract.start)
        return TOTAL_POINTS - contract_points(inner, hand, shape)
    raise AssertionError(k)


def komisch_block_points(hand: int, block_mode: Mode, suit: int | None, shape: str = "teams") -> float:
    """How well the rest of a hand suits a Komisch block."""
    if block_mode is Mode.TRUMP:
        assert suit is not None
        return trump_points(hand, suit, shape)
    return obenabe_points(hand, shape) if block_mode is Mode.OBENABE else undenufe_points(hand, shape)


def suit_length(hand: int, suit: int) -> int:
    return (hand & SUIT_MASK[suit]).bit_count()
