"""Every contract, 3 and 4 players: the mode of each trick and the valuation, as RULES.md 4 says."""

from __future__ import annotations

import random

import pytest
from engine_helpers import random_finish
from shared_helpers import any_ruleset, contracts_for

from scorekeeper.engine import HandSetup, HandState, announce_action, decode_announce
from scorekeeper.engine.bitmasks import POINTS, VAL_OBENABE, VAL_TRUMP, VAL_UNDENUFE, VAL_UNDENUFE_SIX11
from scorekeeper.game.cards import Suit
from scorekeeper.game.contracts import Contract, Kind
from scorekeeper.game.rulesets import RuleSet, default_ruleset

CASES = [(n, c) for n in (3, 4) for c in contracts_for(n) if c.kind is not Kind.KOMISCH]


def expected_modes(c: Contract, n_tricks: int) -> list[str]:
    """Written out from RULES.md 4, independently of Contract.schedule."""

    def trump(s: Suit | None) -> str:
        assert s is not None  # asked for suit contracts only
        return f"trump:{s.letter}"

    if c.misere_as is not None:
        return expected_modes(Contract(c.misere_as, start=c.start), n_tricks)
    if c.kind is Kind.SUIT:
        return [trump(c.suit)] * n_tricks
    if c.kind in (Kind.OBENABE, Kind.UNDENUFE, Kind.TUTTI, Kind.ZWUESCHEDUERE):
        return [c.kind.value] * n_tricks
    first = c.start.value if c.start else ""
    other = "undenufe" if first == "obenabe" else "obenabe"
    if c.kind is Kind.SLALOM:
        return [first if i % 2 == 0 else other for i in range(n_tricks)]
    if c.kind is Kind.GUSTAV:
        return [first] * 6 + [other] * 6
    if c.first is not None:  # Riesenslalom
        k = c.first if n_tricks == 9 else {4: 5, 5: 7}[c.first]
        return [first] * k + [other] * (n_tricks - k)
    if c.kind is Kind.TUO:
        third = n_tricks // 3
        return [trump(c.suit)] * third + ["undenufe"] * third + ["obenabe"] * third
    raise AssertionError(c)


def expected_valuation(c: Contract, six11: bool) -> int:
    modes = expected_modes(c, 9)
    if c.kind in (Kind.TUTTI, Kind.ZWUESCHEDUERE):
        return VAL_OBENABE
    m = modes[0]
    if m.startswith("trump:"):
        return VAL_TRUMP + "CDSH".index(m[-1])
    if m == "obenabe":
        return VAL_OBENABE
    return VAL_UNDENUFE_SIX11 if six11 else VAL_UNDENUFE


@pytest.mark.parametrize("six11", [False, True])
@pytest.mark.parametrize("n,contract", CASES, ids=[f"{n}p-{c.code}" for n, c in CASES])
def test_trick_modes_and_valuation(n: int, contract: Contract, six11: bool) -> None:
    rs = any_ruleset(n, six11=six11)
    s = HandState.new(HandSetup(rs, 0), random.Random(f"{n}{contract.code}"))
    s.apply(announce_action(rs, "any", contract))
    assert s.points_table == POINTS[expected_valuation(contract, six11)]
    random_finish(s, random.Random(1))
    played = [t.mode.mode.value + (f":{t.mode.suit.letter}" if t.mode.suit is not None else "") for t in s.tricks]
    assert played == expected_modes(contract, 36 // n)
    r = s.result()
    assert r.declarer_points + r.defender_points == 157
    assert r.contract == contract


def test_misere_zwueschedueree_row_offers_exactly_both() -> None:
    rs = default_ruleset("club")
    s = HandState.new(HandSetup.build(rs, 0, [("misere_zwueschi",), ("misere_zwueschi",)]), random.Random(0))
    kinds = sorted({c.kind.value for c in (rs_decode(rs, a) for a in s.legal_actions()) if c is not None})
    assert kinds == ["misere", "zwuescheduere"]


def test_twelve_row_offers_every_club_contract() -> None:
    rs = default_ruleset("club")
    s = HandState.new(HandSetup.build(rs, 0, [("twelve",), ("twelve",)]), random.Random(0))
    kinds = {c.kind for c in (rs_decode(rs, a) for a in s.legal_actions()) if c is not None}
    assert kinds == {k for r in rs.rows if r.key != "twelve" for k in r.kinds}
    assert Kind.KOMISCH in kinds and Kind.MISERE in kinds and Kind.ZWUESCHEDUERE in kinds


def rs_decode(rs: RuleSet, action: int) -> Contract | None:
    d = decode_announce(rs, action)
    return None if d is None else d[1]
