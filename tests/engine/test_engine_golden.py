"""Golden transcripts: one complete hand per contract, compared exactly.

Regenerate on purpose only: ``SCOREKEEPER_REGEN_GOLDEN=1 pytest tests/engine``.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest
from engine_helpers import random_finish
from shared_helpers import any_ruleset

from scorekeeper.engine import PASS, SEICH, HandSetup, HandState, announce_action
from scorekeeper.engine.actions import CONTRACTS
from scorekeeper.engine.notation import transcript
from scorekeeper.game.contracts import Contract, Kind
from scorekeeper.game.rulesets import default_ruleset

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "engine"
REGEN = os.environ.get("SCOREKEEPER_REGEN_GOLDEN") == "1"


def contract_hand(i: int, contract: Contract) -> HandState:
    n = 3 if contract.kind is Kind.GUSTAV else 4
    rs = any_ruleset(n, teams=n == 4)
    state = HandState.new(HandSetup(rs, i % n), random.Random(1000 + i))
    state.apply(PASS)  # forehand passes, the next seat declares
    state.apply(announce_action(rs, "any", contract))
    return random_finish(state, random.Random(2000 + i))


def club_seich_hand() -> HandState:
    rs = default_ruleset("club")
    state = HandState.new(HandSetup(rs, 3), random.Random(7))
    for _ in range(4):
        state.apply(PASS)
    state.apply(SEICH)
    return state


def three_book_barrel_hand() -> HandState:
    rs = default_ruleset("three")
    keys = tuple(r.key for r in rs.rows)
    state = HandState.new(HandSetup.build(rs, 2, [keys, keys[:3], ("gustav",)]), random.Random(8))
    for _ in range(3):
        state.apply(PASS)
    state.apply(state.legal_actions()[-1])  # back to forehand, who must choose
    return random_finish(state, random.Random(9))


CASES: dict[str, Callable[[], HandState]] = {
    c.code.replace(":", "_"): partial(contract_hand, i, c) for i, c in enumerate(CONTRACTS)
}
CASES["club_seich"] = club_seich_hand
CASES["three_book_barrel"] = three_book_barrel_hand


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_transcript(name: str) -> None:
    state = CASES[name]()
    text = transcript(state)
    path = GOLDEN / f"{name}.txt"
    if REGEN:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing golden file {path}; regenerate with SCOREKEEPER_REGEN_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8")
    again = HandState.replay(state.setup, state.deck, state.history)
    assert transcript(again) == text
