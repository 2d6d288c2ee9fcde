"""Every level plays only legal actions, sees nothing but its seat's view, and keeps
to its time budget."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import pytest
from bots_helpers import new_state, play_out
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shared_helpers import SOAK, any_ruleset, contracts_for

from scorekeeper.bots import LEVELS, choose_action
from scorekeeper.bots.contract_choice import announcements, decide, estimate_by_playouts
from scorekeeper.bots.search import STATS, clamp_budget, search_card
from scorekeeper.engine import PASS, HandSetup, HandState, SeatView, announce_action, build_view
from scorekeeper.engine.bitmasks import card_ints
from scorekeeper.game.contracts import Contract
from scorekeeper.game.rulesets import RuleSet, default_ruleset
from scorekeeper.game.turns import turn_to_choose

EXAMPLES = 30 if SOAK else 3
CASES = [(n, teams, c) for n, teams in ((3, False), (4, True), (4, False)) for c in contracts_for(n)]
IDS = [f"{n}p{'-teams' if t else ''}-{c.code}" for n, t, c in CASES]
seeds = st.integers(0, 2**32 - 1)
TINY_MS = 2.0


def bot(rs: RuleSet, rng: random.Random, level_of: Callable[[int], str]) -> Callable[[SeatView], int]:
    def choose(view: SeatView) -> int:
        return choose_action(view, rs, level_of(view.seat), rng, TINY_MS)

    return choose


@pytest.mark.parametrize(("n", "teams", "contract"), CASES, ids=IDS)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds)
def test_every_contract_every_level_only_legal_cards(n: int, teams: bool, contract: Contract, seed: int) -> None:
    rs = any_ruleset(n, teams)
    rng = random.Random(seed)
    state = new_state(rs, seed, dealer=seed % n)
    state.apply(announce_action(rs, "any", contract))
    levels = ["easy", "normal", "strong"]
    play_out(state, bot(rs, rng, lambda s: levels[(s + seed) % 3]))
    assert sum(state.points) == 157


@pytest.mark.parametrize("variant", ["three", "teams", "solo4", "club", "teams+extras", "solo4+extras"])
@settings(max_examples=EXAMPLES * 2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, data=st.data())
def test_whole_hands_with_bidding_on_random_slates(variant: str, seed: int, data: st.DataObject) -> None:
    name, _, extras = variant.partition("+")
    rs = default_ruleset(name, extra_rows=("slalom", "gustav", "tuo") if extras else ())
    rng = random.Random(seed)
    keys = [r.key for r in rs.rows]
    open_rows = []
    for _ in range(rs.n_sides):
        chosen = data.draw(st.lists(st.sampled_from(keys), unique=True, max_size=len(keys)))
        open_rows.append(tuple(k for k in keys if k in chosen))
    if not any(open_rows):
        open_rows[0] = (keys[-1],)
    seich = frozenset(data.draw(st.sets(st.integers(0, rs.n_sides - 1))))
    state = HandState.new(HandSetup(rs, seed % rs.n_players, tuple(open_rows), seich), rng)

    def check(s: HandState, view: SeatView, action: int) -> None:
        if view.phase == "bidding" and not view.may_pass:
            assert action != PASS

    play_out(state, bot(rs, rng, lambda s: "easy" if s % 2 else "normal"), check)
    assert state.is_terminal()


def test_never_passes_in_the_barrel() -> None:
    rs = default_ruleset("teams")
    rng = random.Random(3)
    for seed in range(20):
        state = new_state(rs, seed)
        for _ in range(4):  # everybody passes once: forehand is in the barrel
            state.apply(PASS)
        view = state.observation(state.current_player())
        assert not view.may_pass and turn_to_choose(rs, 0, frozenset(), 4).may_pass is False
        for level in LEVELS:
            assert choose_action(view, rs, level, rng, TINY_MS) != PASS


def search_bid_fixed(view: SeatView, rs: RuleSet, seed: int) -> int:
    """The search's contract estimates on a fixed number of deals, then its decision."""
    rng = random.Random(seed)
    contracts = [c for _, _, c in announcements(view, rs)]
    estimates = estimate_by_playouts(view, rs, contracts[:3], rng, 1000, max_samples=3)
    estimates.update(dict.fromkeys(contracts[3:], 0.0))
    return decide(view, rs, estimates, {})


def permuted_other_hands(state: HandState, seat: int, rng: random.Random) -> HandState:
    """The same public history and own hand, the other seats' cards shuffled among them."""
    other = state.clone()
    seats = [s for s in range(state.n_players) if s != seat]
    pool = [c for s in seats for c in card_ints(state.hands[s])]
    rng.shuffle(pool)
    for s in seats:
        size = state.hands[s].bit_count()
        other.hands[s] = sum(1 << c for c in pool[:size])
        pool = pool[size:]
    return other


@settings(max_examples=EXAMPLES * 4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, stop=st.integers(0, 30), n=st.sampled_from([3, 4]))
def test_only_the_seat_view_reaches_the_bot(seed: int, stop: int, n: int) -> None:
    rs = any_ruleset(n, teams=n == 4)
    rng = random.Random(seed)
    state = new_state(rs, seed)
    if stop:  # stop 0: the bidding itself
        state.apply(announce_action(rs, "any", rng.choice(contracts_for(n))))
    while len(state.history) < stop and not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    if state.is_terminal():
        return
    seat = state.current_player()
    twin = permuted_other_hands(state, seat, rng)
    view, twin_view = build_view(state, seat), build_view(twin, seat)
    assert view == twin_view  # the bot's whole input is the same
    for level in LEVELS:
        if level == "easy" or state.phase.value == "komisch":
            a = choose_action(view, rs, level, random.Random(seed), TINY_MS)
            b = choose_action(twin_view, rs, level, random.Random(seed), TINY_MS)
        elif state.phase.value == "bidding":  # a fixed number of samples: the answer depends on the seed alone
            a = search_bid_fixed(view, rs, seed)
            b = search_bid_fixed(twin_view, rs, seed)
        else:
            a = search_card(view, rs, random.Random(seed), 1000, max_samples=4)
            b = search_card(twin_view, rs, random.Random(seed), 1000, max_samples=4)
        assert a == b


def test_single_legal_card_is_played_without_thinking() -> None:
    rs = any_ruleset(4, teams=True)
    rng = random.Random(7)
    for seed in range(200):
        state = new_state(rs, seed)
        state.apply(announce_action(rs, "any", contracts_for(4)[seed % 8]))
        while not state.is_terminal():
            view = state.observation(state.current_player())
            if len(view.legal_actions) == 1 and view.phase == "playing":
                before = STATS.playouts
                t0 = time.perf_counter()
                assert choose_action(view, rs, "strong", rng) == view.legal_actions[0]
                assert time.perf_counter() - t0 < 0.05 and STATS.playouts == before
                return
            state.apply(rng.choice(view.legal_actions))
    pytest.fail("no single legal card met")


@pytest.mark.parametrize("phase", ["bidding", "playing"])
def test_a_decision_keeps_to_its_budget(phase: str) -> None:
    rs = default_ruleset("club")
    rng = random.Random(11)
    state = new_state(rs, 5)
    if phase == "playing":
        state.apply(choose_action(state.observation(state.current_player()), rs, "easy", rng))
        while state.phase.value != "playing" or len(state.legal_actions()) < 2:
            state.apply(choose_action(state.observation(state.current_player()), rs, "easy", rng))
    view = state.observation(state.current_player())
    t0, c0 = time.perf_counter(), time.thread_time()
    choose_action(view, rs, "normal", rng, budget_ms=50)
    # CPU time: a busy machine may stall the whole process, which is no fault of the bot
    assert time.thread_time() - c0 < 0.15
    assert time.perf_counter() - t0 < 1.0


def test_budget_is_capped_and_level_checked() -> None:
    assert clamp_budget(5000) == 1000 and clamp_budget(-3) == 0
    rs = default_ruleset("teams")
    view = new_state(rs, 1).observation(1)
    with pytest.raises(ValueError):
        choose_action(view, rs, "grandmaster")
    with pytest.raises(ValueError):
        choose_action(new_state(rs, 1).observation(0), rs)  # not its turn
