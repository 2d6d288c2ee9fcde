"""Action ids of the state API (stable ints, OpenSpiel style).

====================  =====================================================
0 .. 35               play card ``c`` (``Card`` int: suit * 9 + rank)
36                    pass
37                    Seich (club variant: throw the hand in from the barrel)
38 .. 41              Komisch: the next block is trump in suit 0..3
42                    Komisch: the next block is Obenabe
43                    Komisch: the next block is Undenufe
64 + 32 * r + k       announce row ``r`` (index in ``ruleset.rows``) played
                      as ``CONTRACTS[k]`` (every choice included)
====================  =====================================================

``legal_actions()`` lists them in ascending order.
"""

from __future__ import annotations

from scorekeeper.game.cards import Card, Suit
from scorekeeper.game.contracts import OBE, UNE, Contract, Kind, Mode, TrickMode, all_contracts
from scorekeeper.game.rulesets import RuleSet

N_CARD_ACTIONS = 36
PASS = 36
SEICH = 37
KOMISCH_TRUMP = 38  # + suit
KOMISCH_OBENABE = 42
KOMISCH_UNDENUFE = 43
ANNOUNCE = 64
ROW_STRIDE = 32

# Every concrete contract, in a fixed order (Kind order, then all_contracts order).
CONTRACTS: tuple[Contract, ...] = tuple(c for k in Kind for c in all_contracts(k))
CONTRACT_INDEX: dict[Contract, int] = {c: i for i, c in enumerate(CONTRACTS)}
assert len(CONTRACTS) <= ROW_STRIDE


def announce_action(ruleset: RuleSet, row_key: str, contract: Contract) -> int:
    keys = [r.key for r in ruleset.rows]
    return ANNOUNCE + ROW_STRIDE * keys.index(row_key) + CONTRACT_INDEX[contract]


def decode_announce(ruleset: RuleSet, action: int) -> tuple[str, Contract] | None:
    """(row key, contract) of an announce action, or None if it is none."""
    if action < ANNOUNCE:
        return None
    r, k = divmod(action - ANNOUNCE, ROW_STRIDE)
    if r >= len(ruleset.rows) or k >= len(CONTRACTS):
        return None
    return ruleset.rows[r].key, CONTRACTS[k]


def komisch_action(block: TrickMode) -> int:
    if block.mode is Mode.TRUMP:
        assert block.suit is not None
        return KOMISCH_TRUMP + int(block.suit)
    return KOMISCH_OBENABE if block.mode is Mode.OBENABE else KOMISCH_UNDENUFE


def komisch_block(action: int) -> TrickMode | None:
    if KOMISCH_TRUMP <= action < KOMISCH_TRUMP + 4:
        return TrickMode(Mode.TRUMP, Suit(action - KOMISCH_TRUMP))
    if action == KOMISCH_OBENABE:
        return OBE
    if action == KOMISCH_UNDENUFE:
        return UNE
    return None


def format_action(action: int, ruleset: RuleSet | None = None) -> str:
    """Compact notation: ``H9``, ``pass``, ``seich``, ``block:obenabe``,
    ``block:trump:S``, ``joker1=suit:H`` (``#64`` style without a rule set)."""
    if 0 <= action < N_CARD_ACTIONS:
        return Card(action).name
    if action == PASS:
        return "pass"
    if action == SEICH:
        return "seich"
    block = komisch_block(action)
    if block is not None:
        return f"block:trump:{block.suit.letter}" if block.suit is not None else f"block:{block.mode.value}"
    if ruleset is not None:
        decoded = decode_announce(ruleset, action)
        if decoded is not None:
            return f"{decoded[0]}={decoded[1].code}"
    return f"#{action}"


def parse_action(text: str, ruleset: RuleSet | None = None) -> int:
    """The inverse of ``format_action``."""
    t = text.strip()
    low = t.lower()
    if low == "pass":
        return PASS
    if low == "seich":
        return SEICH
    if low.startswith("block:"):
        rest = low[6:]
        if rest == "obenabe":
            return KOMISCH_OBENABE
        if rest == "undenufe":
            return KOMISCH_UNDENUFE
        if rest.startswith("trump:"):
            return KOMISCH_TRUMP + int(Suit.parse(rest[6:]))
        raise ValueError(f"not an action: {text!r}")
    if "=" in t:
        if ruleset is None:
            raise ValueError("an announcement needs the rule set")
        key, code = t.split("=", 1)
        try:
            return announce_action(ruleset, key, Contract.parse(code))
        except (ValueError, KeyError):
            raise ValueError(f"not an action: {text!r}") from None
    if t.startswith("#"):
        return int(t[1:])
    return int(Card.parse(t))
