"""What a seat may infer: voids from failed follows (with the Jass exceptions), and
consistent sampling of the unseen cards."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from bots_helpers import new_state
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shared_helpers import SOAK, any_ruleset, contracts_for, deck_for

from scorekeeper.bots.knowledge import Knowledge, infer_voids
from scorekeeper.bots.sampler import declarer_judge, match_cards, sample_hands
from scorekeeper.engine import HandSetup, HandState, announce_action
from scorekeeper.engine.bitmasks import FULL, SUIT_MASK, card_ints
from scorekeeper.game.cards import Card, Suit, parse_cards
from scorekeeper.game.cards import mask_of as mask
from scorekeeper.game.contracts import OBENABE, Contract, suit_contract
from scorekeeper.game.rulesets import Variant, default_ruleset

RS4 = any_ruleset(4, teams=True)


def rigged(hands: dict[int, str], contract: Contract, plays: str) -> HandState:
    """Seat 0 declares (dealer 3) and the given cards are played in order."""
    state = HandState(HandSetup(RS4, 3), deck_for(hands, 4, dealer=3))
    state.apply(announce_action(RS4, "any", contract))
    for c in parse_cards(plays):
        state.apply(int(c))
    return state


def knowledge(state: HandState, seat: int) -> Knowledge:
    return Knowledge.from_view(state.observation(seat), RS4)


def test_no_trump_discard_proves_a_void() -> None:
    hands = {
        0: "CA C6 C9 CT D8 D9 S6 S7 H6",
        1: "D6 D7 DT DJ DQ S8 S9 H7 H8",
        2: "C7 CJ CQ DK DA ST SJ H9 HT",
        3: "C8 CK SQ SK SA HJ HQ HK HA",
    }
    s = rigged(hands, OBENABE, "CA D6 C7 C8")
    k = knowledge(s, 0)
    assert k.allowed[1] & SUIT_MASK[Suit.CLUBS] == 0
    assert k.allowed[2] & SUIT_MASK[Suit.CLUBS] != 0


def test_trumping_in_proves_nothing_but_a_plain_discard_does() -> None:
    # hearts trump; clubs led: seat 1 trumps in (may still hold clubs), seat 2 discards a diamond (void in clubs)
    hands = {
        0: "CA C6 C9 D8 D9 S6 S7 S8 H7",
        1: "H6 C7 CT D6 D7 S9 ST H8 HQ",
        2: "DT DJ DQ SJ SQ H9 HT HK HA",
        3: "C8 CJ CQ CK DK DA SK SA HJ",
    }
    s = rigged(hands, suit_contract(Suit.HEARTS), "CA H6 DT C8")
    k = knowledge(s, 0)
    assert k.allowed[1] & SUIT_MASK[Suit.CLUBS] != 0
    assert k.allowed[2] & SUIT_MASK[Suit.CLUBS] == 0


def test_puur_exception_when_trumps_are_led() -> None:
    # hearts trump led; seat 1 plays a spade: no hearts left but perhaps the jack (Puur)
    hands = {
        0: "H6 HA C6 C9 D8 D9 S6 S7 S8",
        1: "HJ S9 ST C7 CT D6 D7 DQ DK",
        2: "H7 H9 HT SJ SQ C8 CJ DT DJ",
        3: "H8 HQ HK SK SA CQ CK CA DA",
    }
    s = rigged(hands, suit_contract(Suit.HEARTS), "H6 S9 H7 H8")
    k = knowledge(s, 0)
    hearts_in_play = k.unknown & SUIT_MASK[Suit.HEARTS]
    assert k.allowed[1] & hearts_in_play == hearts_in_play & (1 << Card.HJ)
    assert k.allowed[1] >> Card.HJ & 1


def test_undertrumping_proves_a_hand_of_trumps() -> None:
    # spades trump; clubs led; the nine of spades trumps in; the next seat plays the six of spades
    allowed = [FULL] * 4
    infer_voids(int(Suit.SPADES), tuple(int(c) for c in parse_cards("CA S9 S6")), 0, 4, allowed)
    assert allowed[2] == SUIT_MASK[Suit.SPADES]
    assert allowed[1] == FULL  # trumping in proves nothing


@settings(max_examples=40 if SOAK else 8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.sampled_from([3, 4]), stop=st.integers(0, 35))
def test_the_real_deal_is_always_consistent_and_samples_respect_knowledge(seed: int, n: int, stop: int) -> None:
    rs = any_ruleset(n, teams=n == 4)
    rng = random.Random(seed)
    contract = rng.choice(contracts_for(n))
    state = new_state(rs, seed)
    state.apply(announce_action(rs, "any", contract))
    while not state.is_terminal() and len(state.history) < stop:
        state.apply(rng.choice(state.legal_actions()))
    if state.phase.value != "playing":
        return
    seat = state.current_player()
    k = Knowledge.from_view(state.observation(seat), rs)
    for s in range(n):
        assert state.hands[s] & ~k.allowed[s] == 0, "the knowledge excludes a card the seat really holds"
    for _ in range(5):
        hands = sample_hands(k, rng)
        assert hands[seat] == state.hands[seat]
        assert [h.bit_count() for h in hands] == [h.bit_count() for h in state.hands]
        union = 0
        for s, h in enumerate(hands):
            assert h & ~k.allowed[s] == 0
            assert union & h == 0
            union |= h
        assert union == k.unknown | k.hand


def test_sampler_finds_the_only_consistent_deal() -> None:
    # seat 1 is void in clubs and diamonds, seat 2 in spades and hearts, seat 3 holds nothing yet unknown
    k = Knowledge(
        seat=0,
        n=3,
        n_tricks=12,
        hand=mask([0]),
        unknown=mask(range(9, 13)) | mask(range(27, 31)),
        sizes=(1, 4, 4),
        allowed=(mask([0]), mask(range(27, 31)), mask(range(9, 13))),
        leader=0,
        trick=(),
        known_modes=(4,),
        open_blocks=(),
        points=(0,) * 36,
        teams=(0, 1, 1),
        won_points=(0, 0, 0),
        won_tricks=(0, 0, 0),
        declarer=0,
        misere=False,
    )
    for seed in range(20):
        hands = sample_hands(k, random.Random(seed))
        assert hands == [mask([0]), mask(range(27, 31)), mask(range(9, 13))]


@pytest.mark.parametrize("contract", [suit_contract(Suit.SPADES), OBENABE])
def test_own_hand_and_played_cards_are_never_unknown(contract: Contract) -> None:
    s = rigged({}, contract, "")
    s.apply(s.legal_actions()[0])
    k = knowledge(s, 1)
    assert k.unknown & k.hand == 0
    assert k.unknown >> int(s.tricks[0].cards[0]) & 1 == 0 if s.tricks else k.unknown >> s.history[-1] & 1 == 0


def test_knowledge_that_admits_no_deal_is_an_error_not_a_guess() -> None:
    k = knowledge(rigged({}, OBENABE, ""), 0)
    nowhere = replace(k, allowed=tuple(k.hand if seat == k.seat else 0 for seat in range(k.n)))
    with pytest.raises(ValueError):
        sample_hands(nowhere, random.Random(0))


def check_deal(k: Knowledge, hands: list[int]) -> None:
    assert [h.bit_count() for h in hands] == list(k.sizes)
    union = 0
    for s, h in enumerate(hands):
        assert h & ~k.allowed[s] == 0
        assert union & h == 0
        union |= h
    assert union == k.unknown | k.hand


@pytest.mark.parametrize("n", [3, 4])
def test_every_position_of_random_hands_samples_consistently(n: int) -> None:
    """Both the greedy deal and the matching fallback (forced here) respect sizes and voids."""
    rs = any_ruleset(n, teams=n == 4)
    rng = random.Random(n)
    for seed in range(40 if SOAK else 8):
        state = new_state(rs, seed)
        state.apply(announce_action(rs, "any", rng.choice(contracts_for(n))))
        while not state.is_terminal():
            if state.phase.value == "playing":
                k = Knowledge.from_view(state.observation(state.current_player()), rs)
                check_deal(k, sample_hands(k, rng))
                others = [s for s in range(n) if s != k.seat]
                cards = list(card_ints(k.unknown))
                owner = match_cards(
                    cards,
                    {c: [s for s in others if k.allowed[s] >> c & 1] for c in cards},
                    {s: k.sizes[s] for s in others},
                    rng,
                )
                assert owner is not None
                hands = [0] * n
                hands[k.seat] = k.hand
                for c, s in owner.items():
                    hands[s] |= 1 << c
                check_deal(k, hands)
            state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("n", [3, 4])
def test_without_voids_every_unseen_card_lands_anywhere_in_proportion_to_room(n: int) -> None:
    # no void shown yet (one card led): the shuffled deal is uniform, each unseen card
    # sits with a seat as often as that seat has room for cards
    rs = any_ruleset(n, teams=n == 4)
    state = new_state(rs, 3)
    state.apply(announce_action(rs, "any", OBENABE))
    state.apply(state.legal_actions()[0])
    seat = state.current_player()
    k = Knowledge.from_view(state.observation(seat), rs)
    others = [s for s in range(n) if s != seat]
    assert all(k.allowed[s] == k.unknown for s in others)
    rng = random.Random(5)
    draws = 3000
    counts = {(c, s): 0 for c in card_ints(k.unknown) for s in others}
    for _ in range(draws):
        hands = sample_hands(k, rng)
        for s in others:
            for c in card_ints(hands[s]):
                counts[(c, s)] += 1
    room = sum(k.sizes[s] for s in others)
    for (_, s), got in counts.items():
        p = k.sizes[s] / room
        sd = (draws * p * (1 - p)) ** 0.5
        assert abs(got - draws * p) < 5 * sd


@pytest.mark.parametrize(
    ("rows", "played", "chosen"), [("one", "one", False), ("two", "one", True), ("joker", "joker", True)]
)
def test_a_contract_forced_on_the_declarer_is_not_read_as_her_choice(rows: str, played: str, chosen: bool) -> None:
    """Her side's last row, played one way only, says nothing of her hand; a second open row, or a
    last row she plays as she likes, does."""
    rs = default_ruleset(Variant.TEAMS)
    one = next(r for r in rs.rows if len(r.contracts) == 1)
    joker = next(r for r in rs.rows if len(r.contracts) > 1)
    open_rows = {"one": (one.key,), "two": (one.key, joker.key), "joker": (joker.key,)}[rows]
    row = one if played == "one" else joker
    state = HandState.new(HandSetup(rs, 3, (open_rows, tuple(r.key for r in rs.rows))), random.Random(5))
    state.apply(announce_action(rs, row.key, row.contracts[0]))  # seat 0, the forehand, declares
    state.apply(state.observation(0).legal_actions[0])
    k = Knowledge.from_view(state.observation(1), rs)
    assert k.chosen is chosen
    assert (declarer_judge(k, rs) is not None) is chosen
