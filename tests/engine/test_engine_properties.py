"""Hypothesis over random deals and random legal playouts, every contract, 3 and 4 players."""

from __future__ import annotations

import json
import random

import pytest
from engine_helpers import ref_legal, ref_winning_index
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shared_helpers import SOAK, any_ruleset, contracts_for

from scorekeeper.engine import HandSetup, HandState, IllegalAction, IllegalCard, Phase, announce_action
from scorekeeper.engine.bitmasks import card_ints, trick_mode
from scorekeeper.engine.fast import Choose, Playout, Uniform, points_table, schedule_ids
from scorekeeper.game.cards import Card
from scorekeeper.game.contracts import Contract, Kind

EXAMPLES = 60 if SOAK else 6
CASES = [(n, c) for n in (3, 4) for c in contracts_for(n)]
IDS = [f"{n}p-{c.code}" for n, c in CASES]
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def snapshot(s: HandState) -> tuple[object, ...]:
    return (list(s.hands), list(s.history), list(s.trick), s.trick_no, list(s.points), s.phase, len(s.tricks))


def check_views(s: HandState) -> None:
    for seat in range(s.n_players):
        v = s.observation(seat)
        others = {int(c) for o in range(s.n_players) if o != seat for c in card_ints(s.hands[o])}
        shown = {int(c) for c in v.hand} | {int(c) for c in v.trick} | {int(c) for t in v.tricks for c in t.cards}
        assert not shown & others
        assert {int(c) for c in v.hand} == set(card_ints(s.hands[seat]))
        assert all(a >= 36 or a in card_ints(s.hands[seat]) for a in v.legal_actions)
        words = set(
            json.dumps(v.to_dict()).replace('"', " ").replace(",", " ").replace("[", " ").replace("]", " ").split()
        )
        assert not words & {Card(c).name for c in others}


@pytest.mark.parametrize("n,contract", CASES, ids=IDS)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal_seed=seeds, play_seed=seeds, dealer=st.integers(0, 3))
def test_random_playout_invariants(n: int, contract: Contract, deal_seed: int, play_seed: int, dealer: int) -> None:
    rs = any_ruleset(n)
    s = HandState.new(HandSetup(rs, dealer % n), random.Random(deal_seed))
    rng = random.Random(play_seed)
    assert s.current_player() == (dealer % n + 1) % n
    s.apply(announce_action(rs, "any", contract))
    while not s.is_terminal():
        legal = s.legal_actions()
        assert legal, "the legal set is never empty"
        check_views(s)
        if s.phase is Phase.PLAYING:
            seat = s.current_player()
            hand = [Card(c).name for c in card_ints(s.hands[seat])]
            tm = s.trick_mode()
            assert tm is not None
            assert {Card(c).name for c in legal} == ref_legal(hand, tm, [Card(c).name for c in s.trick])
            illegal = [c for c in range(36) if c not in legal]
            if illegal:
                before = snapshot(s)
                bad = rng.choice(illegal)
                with pytest.raises(IllegalCard):
                    s.apply(bad)
                assert snapshot(s) == before
        else:
            before = snapshot(s)
            with pytest.raises(IllegalAction):
                s.apply(1000)
            assert snapshot(s) == before
        s.apply(legal[int(rng.random() * len(legal))])
    check_views(s)
    r = s.result()
    n_tricks = 36 // n
    assert len(s.tricks) == n_tricks
    played = [int(c) for t in s.tricks for c in t.cards]
    assert sorted(played) == list(range(36))
    assert sum(t.points for t in s.tricks) == 157 == r.declarer_points + r.defender_points
    for t in s.tricks:
        assert t.winner == t.seat_of(ref_winning_index(t.mode, [c.name for c in t.cards]), n)
    assert sum(r.tricks) == n_tricks
    assert r.match == (r.tricks[r.declarer_seat] == n_tricks)
    assert r.countermatch == (r.tricks[r.declarer_seat] == 0)
    if r.match and not contract.is_misere:
        assert s.returns()[r.declarer_seat] == 257
    if contract.kind is Kind.KOMISCH:
        assert len(s.komisch_blocks) == 3
        assert {b.mode for b in s.komisch_blocks} == {t.mode.mode for t in s.tricks}
    replayed = HandState.replay(s.setup, s.deck, s.history)
    assert replayed.tricks == s.tricks and replayed.result() == r


@pytest.mark.parametrize("n,contract", CASES, ids=IDS)
@settings(max_examples=EXAMPLES * 3, deadline=None)
@given(deal_seed=seeds, play_seed=seeds)
def test_fast_path_agrees_with_the_engine(n: int, contract: Contract, deal_seed: int, play_seed: int) -> None:
    rs = any_ruleset(n)
    s = HandState.new(HandSetup(rs, 0), random.Random(deal_seed))
    s.apply(announce_action(rs, "any", contract))
    hands = list(s.hands)
    leader = s.current_player()
    rng = random.Random(play_seed)
    blocks = random.Random(play_seed ^ 1)
    while not s.is_terminal():
        legal = s.legal_actions()
        if s.phase is Phase.KOMISCH:
            s.apply(blocks.choice(legal))
        else:
            s.apply(legal[int(rng.random() * len(legal))])
    modes = schedule_ids(contract, s.n_tricks, s.komisch_blocks)
    game = Playout(hands, leader, modes, points_table(contract, rs.undenufe_six11, s.komisch_blocks))
    pts, winners = game.run(Uniform(random.Random(play_seed).random))
    assert winners == [t.winner for t in s.tricks]
    assert pts == s.points


@settings(max_examples=EXAMPLES * 10, deadline=None)
@given(deal_seed=seeds, play_seed=seeds, cut=st.integers(0, 35), contract=st.sampled_from(contracts_for(4)))
def test_fast_path_from_the_middle_of_a_hand(deal_seed: int, play_seed: int, cut: int, contract: Contract) -> None:
    """A bot's playout from a position: the engine played ``cut`` cards, the fast path the rest."""
    rs = any_ruleset(4)
    s = HandState.new(HandSetup(rs, 0), random.Random(deal_seed))
    s.apply(announce_action(rs, "any", contract))
    rng = random.Random(play_seed)
    blocks = random.Random(play_seed ^ 1)
    history_cards = 0
    while not s.is_terminal():
        if s.phase is Phase.KOMISCH:
            s.apply(blocks.choice(s.legal_actions()))
            continue
        if history_cards == cut:
            break
        legal = s.legal_actions()
        s.apply(legal[int(rng.random() * len(legal))])
        history_cards += 1
    if s.is_terminal():
        return
    hands = list(s.hands)
    leader, trick, done = s.leader, list(s.trick), list(s.points)
    start_trick = s.trick_no
    fast_rng = random.Random(play_seed + 7)
    clone = s.clone()
    while not clone.is_terminal():
        legal = clone.legal_actions()
        if clone.phase is Phase.KOMISCH:
            clone.apply(blocks.choice(legal))
        else:
            clone.apply(legal[int(fast_rng.random() * len(legal))])
    modes = schedule_ids(contract, 9, clone.komisch_blocks)[start_trick:]
    points = points_table(contract, False, clone.komisch_blocks)
    if len(s.modes) == 9:
        of = Playout.of(s)
        assert (of.hands, of.leader, of.modes, of.points, of.trick) == (hands, leader, modes, points, trick)
    else:
        with pytest.raises(ValueError):
            Playout.of(s)
    pts, winners = Playout(hands, leader, modes, points, trick).run(Uniform(random.Random(play_seed + 7).random))
    assert winners == [t.winner for t in clone.tricks[start_trick:]]
    assert [a + b for a, b in zip(done, pts, strict=False)] == clone.points
    # The hook: the same player behind a chooser that checks every promise made to it.
    game = Playout(hands, leader, modes, points, trick)
    seen: list[tuple[int, int]] = []
    assert game.run(checking(game, Uniform(random.Random(play_seed + 7).random), seen)) == (pts, winners)
    plays = [(t.seat_of(i, 4), int(c)) for t in clone.tricks[start_trick:] for i, c in enumerate(t.cards)]
    assert seen == plays[len(trick) :]


def checking(game: Playout, player: Choose, seen: list[tuple[int, int]]) -> Choose:
    """``player``, asserting on every card what a chooser is promised: the mover's legal
    cards by RULES.md 3 (the reference), and the live hands, trick and mode."""

    def choose(seat: int, legal: int) -> int:
        hand = game.hands[seat]
        assert legal and not legal & ~hand
        names = [Card(c).name for c in card_ints(hand)]
        expected = ref_legal(names, trick_mode(game.mode), [Card(c).name for c in game.trick])
        assert {Card(c).name for c in card_ints(legal)} == expected
        card = player(seat, legal)
        seen.append((seat, card))
        return card

    return choose
