"""Reading the play: the other seats' past cards as decisions, the likelihood of a
deal under the policy-or-random mixture, the resampling of candidate deals, and
the search that uses them."""

from __future__ import annotations

import random

import pytest
from bots_helpers import new_state
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shared_helpers import SOAK, any_ruleset, contracts_for

from scorekeeper.bots import rule_based_card
from scorekeeper.bots.inference import likelihood, past_decisions, resample
from scorekeeper.bots.knowledge import Knowledge
from scorekeeper.bots.sampler import sample_hands
from scorekeeper.bots.search import search_card
from scorekeeper.engine import HandState, announce_action
from scorekeeper.game.contracts import Contract
from scorekeeper.game.rulesets import RuleSet

EXAMPLES = 40 if SOAK else 6
CASES = [(n, teams, c) for n, teams in ((3, False), (4, True), (4, False)) for c in contracts_for(n)]
IDS = [f"{n}p{'-teams' if t else ''}-{c.code}" for n, t, c in CASES]
seeds = st.integers(0, 2**32 - 1)


def started(rs: RuleSet, contract: Contract, seed: int) -> HandState:
    state = new_state(rs, seed, dealer=seed % rs.n_players)
    state.apply(announce_action(rs, "any", contract))
    while state.phase.value == "komisch":
        state.apply(state.legal_actions()[seed % len(state.legal_actions())])
    return state


@pytest.mark.parametrize(("n", "teams", "contract"), CASES, ids=IDS)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, eps=st.sampled_from([0.02, 0.3]))
def test_the_true_deal_under_the_policy_and_at_random(
    n: int, teams: bool, contract: Contract, seed: int, eps: float
) -> None:
    """Every seat plays the policy (a seat of ``seed``'s choice at random). At every
    decision, the true deal's likelihood for a pure policy player is (1 - eps) per
    decision of a policy seat with a choice (eps / (choices - 1) for the random
    seat's cards the policy would not play), and for a pure random player the
    product of 1 / choices: the legal cards the engine offered then."""
    rs = any_ruleset(n, teams)
    rng = random.Random(seed)
    state = started(rs, contract, seed)
    wild = seed % n
    # (seat, number of legal cards, the policy's card, the card played) of every card so far
    played: list[tuple[int, int, int, int]] = []
    while not state.is_terminal():
        if state.phase.value == "komisch":  # a block chosen in play
            state.apply(state.legal_actions()[0])
            continue
        seat = state.current_player()
        view = state.observation(seat)
        k = Knowledge.from_view(view, rs)
        decisions = past_decisions(view, k)
        others = [p for p in played if p[0] != seat]
        assert [(d.seat, d.card) for d in decisions] == [(p[0], p[3]) for p in others]
        hands = list(state.hands)
        want_policy = 1.0
        want_random = 1.0
        for _, m, pol, card in others:
            if m > 1:
                want_random /= m
                want_policy *= (1 - eps) if card == pol else eps / (m - 1)
        assert likelihood(hands, decisions, k, eps, prior=1.0) == pytest.approx(want_policy, rel=1e-9)
        assert likelihood(hands, decisions, k, eps, prior=0.0) == pytest.approx(want_random, rel=1e-9)
        legal = [a for a in view.legal_actions if a < 36]
        pol = rule_based_card(view, rs)
        card = rng.choice(legal) if seat == wild else pol
        played.append((seat, len(legal), pol, card))
        state.apply(card, seat=seat)


def test_a_deal_that_contradicts_the_policy_is_less_likely() -> None:
    """With every seat playing the policy, the true deal contradicts none of its cards
    (a factor 1 - eps each), while a sampled deal that makes one of them a card the
    policy would not play is at most eps as likely; some sampled deals do."""
    rs = any_ruleset(4, teams=True)
    eps = 0.02
    contradicting = 0
    for seed in range(12):
        state = started(rs, contracts_for(4)[seed % 6], seed)
        for _ in range(4 * 4 + 1):  # four tricks and a card
            if state.phase.value == "komisch":
                state.apply(state.legal_actions()[0])
            state.apply(rule_based_card(state.observation(state.current_player()), rs))
        view = state.observation(state.current_player())
        k = Knowledge.from_view(view, rs)
        decisions = past_decisions(view, k)
        floor = (1 - eps) ** len(decisions) * (1 - 1e-9)  # no contradiction (one legal card: a factor 1)
        assert likelihood(list(state.hands), decisions, k, eps, prior=1.0) >= floor
        rng = random.Random(seed)
        for _ in range(30):
            w = likelihood(sample_hands(k, rng), decisions, k, eps, prior=1.0)
            assert w >= floor or w <= eps
            contradicting += w <= eps
    assert contradicting > 0


@given(
    weights=st.lists(st.sampled_from([0.0, 0.0, 0.5, 1.0, 3.0, 1e-9]), min_size=1, max_size=30), n=st.integers(1, 60)
)
def test_resample_draws_in_proportion(weights: list[float], n: int) -> None:
    pool = [([i], w) for i, w in enumerate(weights)]
    out = resample(pool, n, random.Random(n))
    total = sum(weights)
    if total == 0:
        assert [h for h, _ in out] == [[i] for i in range(min(n, len(weights)))]
        return
    assert sum(c for _, c in out) == n
    assert len({h[0] for h, _ in out}) == len(out)
    for h, c in out:
        w = weights[h[0]]
        assert w > 0
        # systematic resampling: a deal is drawn its expected number of times, rounded up or down
        assert abs(c - n * w / total) < 1 + 1e-6


@pytest.mark.parametrize(("n", "teams", "contract"), CASES, ids=IDS)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, stop=st.integers(0, 30))
def test_search_reading_the_play_plays_a_legal_card(
    n: int, teams: bool, contract: Contract, seed: int, stop: int
) -> None:
    rs = any_ruleset(n, teams)
    rng = random.Random(seed)
    state = started(rs, contract, seed)
    while len(state.history) < stop + 1 and not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    while state.phase.value == "komisch":  # a Komisch block to choose: no card yet
        state.apply(state.legal_actions()[0])
    if state.is_terminal():
        return
    view = state.observation(state.current_player())
    a = search_card(view, rs, random.Random(seed), 1000, min_samples=6, max_samples=6, pool=20)
    assert a in view.legal_actions
    # the same seed, the same card (a fixed number of deals)
    assert a == search_card(view, rs, random.Random(seed), 1000, min_samples=6, max_samples=6, pool=20)
