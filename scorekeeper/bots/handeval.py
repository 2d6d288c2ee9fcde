"""What a hand is worth as declarer: quick rule-of-thumb estimates of the card
points (out of 157, the declaring side's pile) for every contract.

The weights follow the sources' advice (trumps with the jack or nine, five
trumps or four with the jack; aces for Obenabe, sixes for Undenufe) and were
checked against policy playouts of random deals (``bench/bots.py`` prints the
contract-choice figures). ``n_players`` scales them: with three players the
declarer is alone against two.
"""

from __future__ import annotations

from scorekeeper.engine.tables import SUIT_MASK
from scorekeeper.game.contracts import Contract, Kind, Mode

# Trump suit, by rank 6 7 8 9 T J Q K A.
_TRUMP_W = (3.0, 3.0, 3.0, 15.0, 6.0, 24.0, 5.0, 5.0, 10.0)
# A side suit in a trump contract, by rank, and extra for the cards under an ace.
_SIDE_ACE = 9.0
_SIDE_KING_WITH_ACE = 5.0
_SIDE_KING_GUARDED = 2.0
_SIDE_TEN_WITH_ACE = 3.0


def _ranks(hand: int, suit: int) -> list[int]:
    m = (hand >> (9 * suit)) & 511
    return [r for r in range(9) if m >> r & 1]


def trump_points(hand: int, trump: int, n_players: int = 4) -> float:
    base = 22.0 if n_players == 4 else 18.0
    ranks = _ranks(hand, trump)
    v = base + sum(_TRUMP_W[r] for r in ranks)
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
    return v


_MASTER_W = (13.0, 9.0, 7.0, 6.0)


def _topdown_points(hand: int, top_first: tuple[int, ...], n_players: int) -> float:
    """Obenabe (ranks from the ace down) or Undenufe (from the six up)."""
    v = 18.0 if n_players == 4 else 14.0
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
    return v


def obenabe_points(hand: int, n_players: int = 4) -> float:
    return _topdown_points(hand, (8, 7, 6, 5, 4, 3, 2, 1, 0), n_players)


def undenufe_points(hand: int, n_players: int = 4) -> float:
    return _topdown_points(hand, (0, 1, 2, 3, 4, 5, 6, 7, 8), n_players)


def _zwue_points(hand: int, n_players: int) -> float:
    v = 18.0 if n_players == 4 else 14.0
    for s in range(4):
        rs = _ranks(hand, s)
        v += 12.0 * (4 in rs) + 4.0 * (3 in rs) + 4.0 * (5 in rs) + 1.5 * max(0, len(rs) - 3)
    return v


def _tutti_points(hand: int, n_players: int) -> float:
    v = 16.0 if n_players == 4 else 12.0
    for s in range(4):
        rs = _ranks(hand, s)
        v += 12.0 * (5 in rs) + 8.0 * (3 in rs) + 5.0 * (8 in rs) + 2.0 * max(0, len(rs) - 3)
    return v


def _mix(parts: list[tuple[float, float]]) -> float:
    total = sum(w for w, _ in parts)
    return sum(w * v for w, v in parts) / total


def contract_points(contract: Contract, hand: int, n_players: int = 4) -> float:
    """Estimated card points of the declaring side (Misère: the points it writes,
    the opponents' pile)."""
    n_tricks = 36 // n_players
    k = contract.kind
    obe = obenabe_points(hand, n_players)
    une = undenufe_points(hand, n_players)
    if k is Kind.SUIT:
        return trump_points(hand, int(contract.suit), n_players)  # type: ignore[arg-type]
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
    if k is Kind.TUO:
        return _mix([(1, trump_points(hand, int(contract.suit), n_players)), (1, une), (1, obe)])  # type: ignore[arg-type]
    if k is Kind.KOMISCH:
        best_trump = max(trump_points(hand, s, n_players) for s in range(4))
        return _mix([(1, best_trump), (1, obe), (1, une)])
    if k is Kind.TUTTI:
        return _tutti_points(hand, n_players)
    if k is Kind.ZWUESCHEDUERE:
        return _zwue_points(hand, n_players)
    if k is Kind.MISERE:
        inner = Contract(contract.misere_as, start=contract.start)  # type: ignore[arg-type]
        return 157.0 - contract_points(inner, hand, n_players)
    raise AssertionError(k)


def komisch_block_points(hand: int, block_mode: Mode, suit: int | None, n_players: int = 4) -> float:
    """How well the rest of a hand suits a Komisch block."""
    if block_mode is Mode.TRUMP:
        assert suit is not None
        return trump_points(hand, suit, n_players)
    return obenabe_points(hand, n_players) if block_mode is Mode.OBENABE else undenufe_points(hand, n_players)


def suit_length(hand: int, suit: int) -> int:
    return (hand & SUIT_MASK[suit]).bit_count()
