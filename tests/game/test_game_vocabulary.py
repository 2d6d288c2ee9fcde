"""Contracts and rule sets: notation round-trips, shapes, options (RULES.md 4 and 6)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from scorekeeper.game.cards import ALL_CARDS, Card, DeckStyle, Rank, Suit, card_name, cards_of, mask_of, parse_cards
from scorekeeper.game.contracts import OBE, UNE, Contract, Kind, Mode, TrickMode, all_contracts
from scorekeeper.game.errors import RuleError
from scorekeeper.game.rulesets import (
    PER_POINTS_MAX,
    ROUND_TO_MAX,
    STAKE_RAPPEN_MAX,
    SUIT_ORDERS,
    BarrelRule,
    RuleSet,
    Scoring,
    Stake,
    Variant,
    default_ruleset,
    stake_of,
    typed_factors,
)

ALL = [c for k in Kind for c in all_contracts(k)]


# --- cards -------------------------------------------------------------------------
def test_card_numbering_and_notation() -> None:
    assert len(ALL_CARDS) == 36 and Card.of(Suit.HEARTS, Rank.NINE) == 3 * 9 + 3
    assert parse_cards("H9 SA DT") == [
        Card.of(Suit.HEARTS, Rank.NINE),
        Card.of(Suit.SPADES, Rank.ACE),
        Card.of(Suit.DIAMONDS, Rank.TEN),
    ]
    assert cards_of(mask_of(ALL_CARDS)) == list(ALL_CARDS)
    assert card_name(Card.of(Suit.HEARTS, Rank.ACE), DeckStyle.SWISS, "de") == "Rose Ass"
    assert card_name(Card.of(Suit.HEARTS, Rank.ACE), DeckStyle.FRENCH, "en") == "ace of hearts"
    # French names the suit in the singular (d' before a vowel), Italian in the plural (docs/GLOSSARY.md)
    assert card_name(Card.of(Suit.HEARTS, Rank.ACE), DeckStyle.FRENCH, "fr_CH") == "as de cœur"
    assert card_name(Card.of(Suit.SPADES, Rank.JACK), DeckStyle.SWISS, "fr-CH") == "Under d'écusson"
    assert card_name(Card.of(Suit.CLUBS, Rank.TEN), DeckStyle.SWISS, "fr") == "bannière de gland"
    assert card_name(Card.of(Suit.HEARTS, Rank.ACE), DeckStyle.FRENCH, "it_CH") == "asso di cuori"
    assert card_name(Card.of(Suit.DIAMONDS, Rank.QUEEN), DeckStyle.SWISS, "it") == "Ober di campanelli"
    assert card_name(Card.of(Suit.HEARTS, Rank.ACE), DeckStyle.FRENCH, "es") == "ace of hearts"  # else English


# --- contracts ---------------------------------------------------------------------
def test_every_contract_code_round_trips() -> None:
    codes = [c.code for c in ALL]
    assert len(set(codes)) == len(codes)
    assert all(Contract.parse(c.code) == c for c in ALL)
    assert Contract.parse("  SUIT:h ") == Contract(Kind.SUIT, suit=Suit.HEARTS)


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "suit",
        "suit:X",
        "obenabe:H",
        "slalom",
        "riesenslalom:obenabe:6",
        "misere",
        "misere:tutti",
        "misere:slalom",
        "komisch:1",
        "zwack",
    ],
)
def test_bad_contract_codes(bad: str) -> None:
    with pytest.raises(ValueError):
        Contract.parse(bad)


def test_contract_choices_are_checked() -> None:
    with pytest.raises(ValueError):
        Contract(Kind.SUIT)
    with pytest.raises(ValueError):
        Contract(Kind.OBENABE, suit=Suit.HEARTS)
    with pytest.raises(ValueError):
        Contract(Kind.SLALOM, start=Mode.TRUMP)
    with pytest.raises(ValueError):
        Contract(Kind.MISERE, misere_as=Kind.TUTTI)


@pytest.mark.parametrize("n_tricks", [9, 12])
def test_schedules_cover_every_trick(n_tricks: int) -> None:
    for c in ALL:
        sched = c.schedule(n_tricks)
        if c.kind is Kind.KOMISCH:
            assert sched is None
        else:
            assert sched is not None and len(sched) == n_tricks


def test_schedule_shapes() -> None:
    slalom = Contract(Kind.SLALOM, start=Mode.UNDENUFE).schedule(9)
    assert slalom is not None and slalom[:3] == (UNE, OBE, UNE)
    gustav = Contract(Kind.GUSTAV, start=Mode.OBENABE).schedule(12)
    assert gustav == (OBE,) * 6 + (UNE,) * 6
    riesen = Contract(Kind.RIESENSLALOM, start=Mode.UNDENUFE, first=4).schedule(9)
    assert riesen == (UNE,) * 4 + (OBE,) * 5
    tuo = Contract(Kind.TUO, suit=Suit.SPADES).schedule(12)
    assert tuo == (TrickMode(Mode.TRUMP, Suit.SPADES),) * 4 + (UNE,) * 4 + (OBE,) * 4


def test_valuation_is_that_of_the_first_trick() -> None:
    assert Contract(Kind.SLALOM, start=Mode.UNDENUFE).valuation() == UNE
    assert Contract(Kind.TUTTI).valuation() == OBE
    assert Contract(Kind.ZWUESCHEDUERE).valuation() == OBE
    assert Contract(Kind.KOMISCH).valuation() is None
    assert Contract(Kind.TUO, suit=Suit.CLUBS).valuation() == TrickMode(Mode.TRUMP, Suit.CLUBS)
    assert Contract(Kind.MISERE, misere_as=Kind.UNDENUFE).valuation() == UNE


# --- rule sets -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("variant", "players", "rows", "hands", "scoring", "factors"),
    [
        (Variant.THREE, 3, 10, 30, Scoring.RAW, [1, 1, 1, 1, 2, 2, 2, 3, 3, 3]),
        (Variant.TEAMS, 4, 8, 16, Scoring.TENTHS, [1, 2, 3, 4, 5, 6, 7, 8]),
        (Variant.SOLO4, 4, 8, 32, Scoring.TENTHS, [1, 2, 3, 4, 5, 6, 7, 8]),
        (Variant.CLUB, 4, 12, 24, Scoring.FULL, list(range(1, 13))),
    ],
)
def test_variant_shapes(
    variant: Variant, players: int, rows: int, hands: int, scoring: Scoring, factors: list[int]
) -> None:
    rs = default_ruleset(variant)
    assert rs.n_players == players and len(rs.rows) == rows and rs.n_hands == hands
    assert rs.scoring is scoring and [r.factor for r in rs.rows] == factors
    assert rs.seich is (variant is Variant.CLUB)
    assert len({r.key for r in rs.rows}) == rows


def test_teams_are_seats_0_2_and_1_3() -> None:
    rs = default_ruleset(Variant.TEAMS)
    assert [rs.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert rs.seats_of(1) == (1, 3)
    solo = default_ruleset(Variant.SOLO4)
    assert [solo.side_of(s) for s in range(4)] == [0, 1, 2, 3]


def test_jokers_and_choice_rows() -> None:
    three = default_ruleset(Variant.THREE)
    joker = three.row("joker1")
    assert joker.is_choice and joker.is_joker
    assert joker.allows(Contract(Kind.GUSTAV, start=Mode.OBENABE))
    assert not three.row("suit_C").is_choice
    assert not three.row("suit_C").allows(Contract(Kind.SUIT, suit=Suit.HEARTS))
    teams = default_ruleset(Variant.TEAMS)
    assert set(teams.row("joker2").kinds) == {Kind.SUIT, Kind.OBENABE, Kind.UNDENUFE}
    club = default_ruleset(Variant.CLUB)
    assert set(club.row("misere_zwueschi").kinds) == {Kind.MISERE, Kind.ZWUESCHEDUERE}
    assert club.row("twelve").allows(Contract(Kind.KOMISCH))


def test_factors_left_as_shown_follow_the_defaults() -> None:
    shown = default_ruleset(Variant.TEAMS)  # the start form showed jokers at 7 and 8
    typed = {"suit_S": 1, "obenabe": 10, "joker1": 7, "joker2": 8, "slalom": None, "nothing": 3}
    assert typed_factors(shown, typed) == {"obenabe": 10}
    rs = default_ruleset(Variant.TEAMS, extra_rows=["slalom"], factors=typed_factors(shown, typed))
    assert [(r.key, r.factor) for r in rs.rows[4:]] == [
        ("obenabe", 10),
        ("undenufe", 6),
        ("slalom", 7),
        ("joker1", 8),
        ("joker2", 9),
    ]


def test_suit_orders() -> None:
    assert [r.key for r in default_ruleset(Variant.TEAMS).rows[:4]] == ["suit_S", "suit_C", "suit_D", "suit_H"]
    swiss = default_ruleset(Variant.TEAMS, suit_order="swiss")
    assert [r.key for r in swiss.rows[:4]] == ["suit_C", "suit_H", "suit_S", "suit_D"]
    assert [r.key for r in default_ruleset(Variant.CLUB).rows[:4]] == ["suit_D", "suit_C", "suit_S", "suit_H"]


def test_extra_rows_move_the_jokers() -> None:
    rs = default_ruleset(Variant.TEAMS, extra_rows=["gustav", "slalom"])
    assert [(r.key, r.factor) for r in rs.rows[6:]] == [("slalom", 7), ("gustav", 8), ("joker1", 9), ("joker2", 10)]
    # RULES 6.2: a joker is a suit, Obenabe or Undenufe; an optional row only as an evening option
    assert set(rs.row("joker1").kinds) == {Kind.SUIT, Kind.OBENABE, Kind.UNDENUFE}
    wide = default_ruleset(Variant.SOLO4, extra_rows=["slalom", "tuo"], jokers_play_extras=True)
    assert set(wide.row("joker2").kinds) == {Kind.SUIT, Kind.OBENABE, Kind.UNDENUFE, Kind.SLALOM, Kind.TUO}
    assert [(r.key, r.factor) for r in wide.rows[6:]] == [("slalom", 7), ("tuo", 8), ("joker1", 9), ("joker2", 10)]
    with pytest.raises(ValueError):
        default_ruleset(Variant.CLUB, extra_rows=["slalom"])
    with pytest.raises(ValueError):
        default_ruleset(Variant.TEAMS, extra_rows=["zwack"])


def test_factors_are_editable_per_evening() -> None:
    rs = default_ruleset(Variant.TEAMS).with_factors({"joker2": 10})
    assert rs.row("joker2").factor == 10 and rs.row("joker1").factor == 7
    with pytest.raises(RuleError) as unknown:
        rs.with_factors({"nope": 3})
    assert unknown.value.code == "factor_row_unknown" and unknown.value.params == {"rows": "nope"}
    with pytest.raises(RuleError) as zero:
        rs.with_factors({"joker1": 0})
    assert zero.value.code == "factor_range"


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"variant": Variant.THREE, "extra_rows": ["tuo"]}, "extra_rows_variant"),
        ({"variant": Variant.TEAMS, "extra_rows": ["nope"]}, "extra_row_unknown"),
        ({"variant": Variant.TEAMS, "suit_order": "nope"}, "suit_order_unknown"),
        ({"variant": Variant.TEAMS, "barrel": "nope"}, "barrel_unknown"),
        ({"variant": Variant.TEAMS, "deck": "tarot"}, "deck_unknown"),
        ({"variant": Variant.TEAMS, "factors": {"obenabe": 1001}}, "factor_range"),
    ],
)
def test_options_that_do_not_fit_are_rule_errors(options: dict[str, Any], code: str) -> None:
    """Every refusal of the rule-set builder is a RuleError with a marked template (shown translated)."""
    with pytest.raises(RuleError) as err:
        default_ruleset(**options)
    assert err.value.code == code


@pytest.mark.parametrize("variant", list(Variant))
def test_every_rule_set_an_evening_can_start_with_passes_the_check(variant: Variant) -> None:
    """``RuleSet.check`` is what a written rule set must be: every option of the variant (suit
    order, optional rows, what a joker stands for, factors 1..1000, the stake's bounds) passes."""
    extras = [[]] if variant not in (Variant.TEAMS, Variant.SOLO4) else [[], ["tuo"], ["slalom", "gustav", "tuo"]]
    for order in SUIT_ORDERS:
        for extra in extras:
            for jokers in (False, True):
                rs = default_ruleset(
                    variant,
                    suit_order=order,
                    extra_rows=extra,
                    jokers_play_extras=jokers,
                    factors={r.key: 1000 for r in default_ruleset(variant, extra_rows=extra).rows},
                    stake=Stake(rappen=STAKE_RAPPEN_MAX, per_points=PER_POINTS_MAX, round_to=ROUND_TO_MAX),
                )
                rs.check()
                RuleSet.from_dict(rs.to_dict()).check()


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        (
            lambda rs: replace(rs, rows=(replace(rs.rows[0], factor=10**15), *rs.rows[1:])),
            "factor_range",
            "rows[0].factor",
        ),
        (
            lambda rs: replace(rs, rows=(*rs.rows[:-1], replace(rs.rows[-1], factor=100_000))),
            "factor_range",
            "rows[9].factor",
        ),
        (lambda rs: replace(rs, stake=Stake(rappen=STAKE_RAPPEN_MAX + 1)), "stake_range", "stake.rappen"),
        (lambda rs: replace(rs, stake=Stake(per_points=PER_POINTS_MAX + 1)), "stake_range", "stake.per_points"),
        (lambda rs: replace(rs, stake=Stake(round_to=ROUND_TO_MAX + 1)), "stake_range", "stake.round_to"),
        # House rules (docs/DECISIONS.md): other rows than the variant's are a circle's own, held
        # to their own bounds (tests/game/test_house_rules.py).
        (lambda rs: replace(rs, rows=rs.rows * 2), "rows_count", "rows"),
        (lambda rs: replace(rs, rows=rs.rows[:3]), "rows_count", "rows"),
        (lambda rs: replace(rs, seich=True, seich_times=0), "option_range", "seich_times"),
        (
            lambda rs: replace(rs, rows=(replace(rs.rows[0], kinds=tuple(Kind)), *rs.rows[1:])),
            "row_shape",
            "rows[0].kinds",
        ),
    ],
)
def test_a_rule_set_no_evening_could_start_with_is_refused(change: Any, code: str, field: str) -> None:
    bad = change(default_ruleset(Variant.THREE))
    with pytest.raises(RuleError) as err:
        bad.check()
    assert err.value.code == code and err.value.params["field"] == field
    with pytest.raises(RuleError):  # and the builder refuses the same stake
        default_ruleset(Variant.THREE, stake=bad.stake) if code == "stake_range" else bad.check()


def test_a_stake_below_zero_is_a_rule_error() -> None:
    with pytest.raises(RuleError) as err:
        stake_of(Variant.TEAMS, rappen=-5)
    assert err.value.code == "stake_invalid"


@pytest.mark.parametrize("variant", list(Variant))
def test_ruleset_dict_round_trip(variant: Variant) -> None:
    rs = default_ruleset(
        variant,
        barrel=BarrelRule.BOOK,
        undenufe_six11=True,
        deck=DeckStyle.FRENCH,
        stake=Stake(rappen=50, per_points=5, round_to=10),
    )
    again = RuleSet.from_dict(rs.to_dict())
    assert again == rs
    assert again.to_dict() == rs.to_dict()


def test_stake_must_be_sensible() -> None:
    with pytest.raises(ValueError):
        Stake(rappen=-1)
    with pytest.raises(ValueError):
        Stake(round_to=0)


@pytest.mark.parametrize("variant", list(Variant))
def test_a_rows_contracts_are_those_it_allows_in_the_rows_order_of_kinds(variant: Variant) -> None:
    for row in default_ruleset(variant).rows:
        assert sorted(row.contracts, key=ALL.index) == [c for c in ALL if row.allows(c)]
        kinds = [c.kind for c in row.contracts]
        assert kinds == sorted(kinds, key=row.kinds.index)
