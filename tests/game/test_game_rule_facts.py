"""game.rule_facts: a rule set as the faces need it says what the rule set and game.turns say."""

from __future__ import annotations

import pytest

from scorekeeper.game import turns
from scorekeeper.game.contracts import Contract, Kind, all_contracts
from scorekeeper.game.rule_facts import rule_facts
from scorekeeper.game.rulesets import Variant, default_ruleset


@pytest.mark.parametrize("variant", list(Variant))
def test_the_table_says_what_the_rule_set_and_the_turns_say(variant: Variant) -> None:
    rs = default_ruleset(variant)
    facts = rule_facts(rs)
    assert [r.row for r in facts.rows] == list(rs.rows)
    assert all(rs.row_of[row.key] == rs.row(row.key) == row for row in rs.rows)
    assert facts.seat_side == tuple(rs.side_of(seat) for seat in range(rs.n_players))
    assert facts.side_seats == tuple(rs.seats_of(side) for side in range(rs.n_sides))
    assert facts.contracts == tuple(c for kind in Kind for c in all_contracts(kind))
    for r in facts.rows:
        assert r.misere == (r.row.kinds == (Kind.MISERE,))
        allowed = {c.code for c in facts.contracts if r.row.allows(c)}
        assert set(r.allows) == (allowed if r.row.is_choice else set())
        order = [r.row.kinds.index(Contract.parse(code).kind) for code in r.allows]
        assert order == sorted(order)  # in the order of the row's kinds
    for code, rows in facts.choices:
        contract = Contract.parse(code)
        assert rows == tuple(r.key for r in rs.rows if r.is_choice and r.allows(contract))
    assert facts.misere_codes == {code for code, _rows in facts.choices if code.startswith("misere")}
    every = (1 << rs.n_sides) - 1
    assert len(facts.orders) == rs.n_players * every
    for (dealer, mask), (forehand, barrel, speaking) in facts.orders.items():
        full = [side for side in range(rs.n_sides) if mask >> side & 1]
        assert forehand == turns.forehand(rs, dealer)
        assert barrel == turns.barrel_seat(rs, dealer, full)
        assert list(speaking) == turns.eligible_order(rs, dealer, full)


def test_a_line_is_drawn_where_the_rows_change_kind() -> None:
    rs = default_ruleset(Variant.TEAMS)
    facts = rule_facts(rs)
    ends = [r.group_end for r in facts.rows]
    assert ends[-1] is False  # no line under the last row
    suits = [r.row.suit is not None for r in facts.rows]
    last_suit = max(i for i, is_suit in enumerate(suits) if is_suit)
    assert ends[last_suit] is True  # the suits end with a line
    assert rule_facts(rs) is facts  # kept per worker: the same table for the same rules
