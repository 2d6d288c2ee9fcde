"""Compact text transcripts of hands (golden files, logs, bug reports).

A transcript shows the deal, every bid, every trick (mode, leader, cards,
winner, points) and the result, all in compact card notation (``H9``, ``SA``).
"""

from __future__ import annotations

from scorekeeper.game.cards import format_cards

from .actions import format_action
from .bitmasks import card_ints
from .state import HandState


def transcript(state: HandState) -> str:
    rs = state.ruleset
    initial = HandState(state.setup, state.deck)
    lines = [
        f"variant {rs.variant.value} players {rs.n_players} dealer {state.setup.dealer}",
        f"rows {' '.join(r.key for r in rs.rows)}",
        f"deck {format_cards(state.deck)}",
    ]
    lines += [f"hand {s} {format_cards(card_ints(initial.hands[s]))}" for s in range(rs.n_players)]
    lines += [f"bid {seat} {format_action(a, rs)}" for seat, a in state.bids]
    if state.komisch_blocks:
        lines.append(f"blocks {' '.join(b.code for b in state.komisch_blocks)}")
    for t in state.tricks:
        cards = " ".join(f"{t.seat_of(i, rs.n_players)}:{c.name}" for i, c in enumerate(t.cards))
        lines.append(f"trick {t.index + 1:>2} {t.mode.code:<10} {cards} -> {t.winner} +{t.points}")
    if state.trick:
        lines.append(f"current {format_cards(state.trick)}")
    if state.is_terminal():
        r = state.result()
        lines.append(
            f"result declarer {r.declarer_seat} row {r.row_key} as {None if r.contract is None else r.contract.code}"
            f" points {r.declarer_points}/{r.defender_points} match {int(r.match)} countermatch {int(r.countermatch)}"
            f" seich {int(r.seich)} tricks {','.join(map(str, r.tricks))}"
        )
        lines.append(f"returns {' '.join(f'{x:g}' for x in state.returns())}")
    lines.append(f"history {' '.join(format_action(a, rs) for a in state.history)}")
    return "\n".join(lines) + "\n"
