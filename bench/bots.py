"""Computer players' benchmark: prints figures, is not a test.

    python bench/bots.py [--pairs N] [--level normal] [--budget-ms 300] [--seed S]
                         [--level-pairs M] [--contracts]

Card play, duplicate deals: every deal is played twice with the seats swapped
(the bot team on seats 0+2, then on 1+3), four players in two teams, the
contract drawn at random among the four suits, Obenabe and Undenufe, the
declarer at random, so only card play differs. Points are the bot team's card
points per hand (out of 157, the last trick's 5 included, no match bonus),
against a random team and against the rule-based team (the ``easy`` level:
``bots.policy``, the rules of the strongest open rule-based Jass players,
written here). A hand is won when the bot team took more card points than the
other side (79 or more of 157; a tie cannot happen). The standard error of the
points is over deal pairs (each pair's mean), which duplicate play makes
independent; that of the share of hands won is the binomial one over hands.

Levels: every level (easy, normal, strong) also plays ``--level-pairs`` deal
pairs against the random team on the same deals (default: a fifth of
``--pairs``, at least 2), so their strengths are printed side by side (with
``--budget-ms B``: normal thinks B, strong 3 B); the level under test is
measured on all ``--pairs``.

Decision time: the bot's card decisions with more than one legal card (single
legal cards are answered at once and not counted), wall clock (what a player
at the table waits); the CPU time of the thread is shown too, since on the
shared machine the wall clock includes the time other processes hold the
cores. Playouts per second: of the search, over all its decisions.

``--contracts``: also the contract choice (own choice against a random open
row, single deals and whole evenings), as before issue 25; off by default, the
row adviser has its own benchmark.

The last line is exactly:
``bots vs_random_points=<x> vs_random_hands_won=<x> vs_rulebased_points=<x> p95_ms=<x> hands=<n>``
where ``vs_random_hands_won`` is a percentage (of the hands against the random
team), ``p95_ms`` the wall-clock p95 of the level's card decisions, and
``hands`` the hands played per opponent type (twice ``--pairs``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorekeeper.bots import LEVELS, choose_action
from scorekeeper.bots.search import STATS
from scorekeeper.engine import HandSetup, HandState, SeatView, announce_action, decode_announce
from scorekeeper.engine.deal import shuffle_deck
from scorekeeper.game.cards import Suit
from scorekeeper.game.contracts import OBENABE, UNDENUFE, Contract, suit_contract
from scorekeeper.game.rulesets import RuleSet, default_ruleset

TOTAL = 157
CONTRACTS: list[Contract] = [suit_contract(s) for s in Suit] + [OBENABE, UNDENUFE]
Agent = Callable[[SeatView], int]


def row_for(contract: Contract) -> str:
    return f"suit_{contract.suit.letter}" if contract.suit is not None else contract.kind.value


def play_hand(rs: RuleSet, deck: tuple[int, ...], declarer: int, contract: Contract, agents: list[Agent]) -> list[int]:
    """Card points per seat; ``declarer`` announces ``contract`` as forehand."""
    state = HandState(HandSetup(rs, (declarer - 1) % 4), deck)
    state.apply(announce_action(rs, row_for(contract), contract))
    while not state.is_terminal():
        seat = state.current_player()
        state.apply(agents[seat](state.observation(seat)))
    return state.points


def card_play(rs: RuleSet, pairs: int, seed: int, bot: Agent, other: Agent) -> tuple[list[float], list[int]]:
    """Per deal pair, the bot team's mean card points over the two seatings; and per
    hand, the bot team's card points."""
    rng = random.Random(seed)
    out = []
    hands = []
    for _ in range(pairs):
        deck = shuffle_deck(rng)
        contract = rng.choice(CONTRACTS)
        declarer = rng.randrange(4)
        got = []
        for bot_side in (0, 1):
            agents = [bot if s % 2 == bot_side else other for s in range(4)]
            pts = play_hand(rs, deck, declarer, contract, agents)
            got.append(pts[bot_side] + pts[bot_side + 2])
        out.append(sum(got) / 2)
        hands += got
    return out, hands


def won_share(hands: list[int]) -> tuple[float, float]:
    """Share of hands won (more card points than the other side: 79 or more of 157), in
    percent, and its binomial standard error."""
    n = len(hands)
    p = sum(1 for x in hands if x > TOTAL - x) / n
    return 100 * p, 100 * (p * (1 - p) / n) ** 0.5


def contract_choice(
    rs: RuleSet, deals: int, seed: int, choose: Agent, easy: Agent
) -> tuple[list[int], list[int], list[int], list[int]]:
    """(bot card points, random card points, bot slate score, random slate score) per deal.
    Only the bot's team has open rows: its two seats bid (forehand may pass to
    the partner, who then must choose)."""
    rng = random.Random(seed)
    keys = tuple(r.key for r in rs.rows)
    setup = HandSetup(rs, 3, (keys, ()))  # only seat 0's team has open rows: it must choose
    bot_pts: list[int] = []
    rnd_pts: list[int] = []
    bot_val: list[int] = []
    rnd_val: list[int] = []
    for _ in range(deals):
        deck = shuffle_deck(rng)
        state = HandState(setup, deck)
        options = [a for a in state.legal_actions() if decode_announce(rs, a) is not None]
        mine = bidding(state, choose)
        row_key = row_of(rs, rng.choice(options))
        theirs = rng.choice([a for a in options if row_of(rs, a) == row_key])
        for bids, pts_list, val_list in ((mine, bot_pts, bot_val), ([theirs], rnd_pts, rnd_val)):
            pts, value = play_choice(rs, setup, deck, bids, easy)
            pts_list.append(pts)
            val_list.append(value)
    return bot_pts, rnd_pts, bot_val, rnd_val


def row_of(rs: RuleSet, announce: int) -> str:
    """The row key of an announce action."""
    decoded = decode_announce(rs, announce)
    assert decoded is not None
    return decoded[0]


def bidding(state: HandState, choose: Agent) -> list[int]:
    """Bid with ``choose`` on every seat until a contract is announced; the actions."""
    out = []
    while state.phase.value == "bidding":
        out.append(choose(state.observation(state.current_player())))
        state.apply(out[-1])
    return out


def play_choice(rs: RuleSet, setup: HandSetup, deck: tuple[int, ...], bids: list[int], easy: Agent) -> tuple[int, int]:
    """(declaring team's card points, 257 for a match; slate score) of a hand bid with ``bids``."""
    st = HandState(setup, deck)
    for a in bids:
        st.apply(a)
    while not st.is_terminal():
        st.apply(easy(st.observation(st.current_player())))
    r = st.result()
    pts = 257 if r.match else r.declarer_points
    return pts, pts // 10 * rs.row(row_of(rs, bids[-1])).factor


def evenings(rs: RuleSet, n: int, seed: int, choose: Agent, easy: Agent) -> tuple[list[int], list[int]]:
    """Slate totals of whole evenings (one team fills all its rows, one hand per row,
    the same deals): the bot's choices, and random open rows."""
    rng = random.Random(seed)
    keys = tuple(r.key for r in rs.rows)
    totals: tuple[list[int], list[int]] = ([], [])
    for _ in range(n):
        decks = [shuffle_deck(rng) for _ in keys]
        for who, out in enumerate(totals):
            open_rows = list(keys)
            total = 0
            for deck in decks:
                setup = HandSetup(rs, 3, (tuple(open_rows), ()))
                state = HandState(setup, deck)
                if who == 0:
                    bids = bidding(state, choose)
                else:
                    bids = [rng.choice([a for a in state.legal_actions() if decode_announce(rs, a) is not None])]
                _, value = play_choice(rs, setup, deck, bids, easy)
                total += value
                open_rows.remove(row_of(rs, bids[-1]))
            out.append(total)
    return totals


def mean_se(xs: list[float]) -> tuple[float, float]:
    m = statistics.fmean(xs)
    se = statistics.stdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else 0.0
    return m, se


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else 0.0


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=300, help="deal pairs per match (default 300)")
    ap.add_argument("--level", default="normal", choices=("easy", "normal", "strong"))
    ap.add_argument("--budget-ms", type=float, default=None, help="time budget per decision (level default)")
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--level-pairs", type=int, default=None, help="deal pairs of every level against random")
    ap.add_argument("--contracts", action="store_true", help="also measure the contract choice")
    args = ap.parse_args(argv)
    rs = default_ruleset("teams")
    rng = random.Random(args.seed)

    def timed(level: str, budget: float | None, times: list[float], cpu: list[float]) -> Agent:
        def bot(view: SeatView) -> int:
            multi = sum(1 for a in view.legal_actions if a < 36) > 1
            t0 = time.perf_counter()
            c0 = time.thread_time()
            a = choose_action(view, rs, level, rng, budget)
            if multi:
                times.append((time.perf_counter() - t0) * 1000)
                cpu.append((time.thread_time() - c0) * 1000)
            return a

        return bot

    def randomly(view: SeatView) -> int:
        return rng.choice(view.legal_actions)

    def easy(view: SeatView) -> int:
        return choose_action(view, rs, "easy", rng)

    times: list[float] = []  # wall clock per decision
    cpu: list[float] = []  # CPU time of this thread per decision
    bot = timed(args.level, args.budget_ms, times, cpu)
    t_start = time.perf_counter()
    vs_random, hands_r = card_play(rs, args.pairs, args.seed, bot, randomly)
    vs_easy, hands_e = card_play(rs, args.pairs, args.seed + 1, bot, easy)
    played = time.perf_counter() - t_start
    m_r, se_r = mean_se(vs_random)
    m_e, se_e = mean_se(vs_easy)
    w_r, sw_r = won_share(hands_r)
    w_e, sw_e = won_share(hands_e)
    print(
        f"level {args.level}, budget {args.budget_ms or 'default'} ms, "
        f"{args.pairs} deal pairs = {2 * args.pairs} hands per opponent ({played:.0f} s)"
    )
    print(f"vs random team:      {m_r:6.1f} +- {se_r:.1f} card points per hand (of 157), won {w_r:.1f} +- {sw_r:.1f} %")
    print(f"vs rule-based team:  {m_e:6.1f} +- {se_e:.1f} card points per hand (of 157), won {w_e:.1f} +- {sw_e:.1f} %")
    p95 = percentile(times, 0.95)
    print(
        f"decision time (ms, {len(times)} decisions with a choice): wall median {percentile(times, 0.5):.0f}"
        f"  p95 {p95:.0f}  max {max(times, default=0.0):.0f}; CPU median {percentile(cpu, 0.5):.0f}"
        f"  p95 {percentile(cpu, 0.95):.0f}  max {max(cpu, default=0.0):.0f}"
    )
    pps = STATS.playouts / STATS.seconds if STATS.seconds else 0.0
    print(f"search: {STATS.playouts} playouts or exact solves in {STATS.seconds:.1f} s = {pps:,.0f} per s")

    level_pairs = args.level_pairs if args.level_pairs is not None else max(2, args.pairs // 5)
    scale = {"easy": 0.0, "normal": 1.0, "strong": 3.0}  # strong thinks three times as long
    budgets = "default budgets" if args.budget_ms is None else f"budgets from {args.budget_ms:g} ms"
    print(f"levels against the random team ({level_pairs} deal pairs, the same deals, {budgets}):")
    for level in LEVELS:
        budget = None if args.budget_ms is None else scale[level] * args.budget_ms
        lt: list[float] = []
        lc: list[float] = []
        pts, hs = card_play(rs, level_pairs, args.seed + 10, timed(level, budget, lt, lc), randomly)
        m, se = mean_se(pts)
        w, sw = won_share(hs)
        print(
            f"  {level:7s} {m:6.1f} +- {se:.1f} points, won {w:.1f} +- {sw:.1f} %,"
            f" decision wall p95 {percentile(lt, 0.95):.0f} ms, CPU p95 {percentile(lc, 0.95):.0f} ms"
        )

    if args.contracts:
        contracts(rs, args, rng, easy)
    print(
        f"bots vs_random_points={m_r:.1f} vs_random_hands_won={w_r:.1f} vs_rulebased_points={m_e:.1f}"
        f" p95_ms={round(p95)} hands={2 * args.pairs}"
    )


def contracts(rs: RuleSet, args: argparse.Namespace, rng: random.Random, easy: Agent) -> None:
    """The contract choice's figures (``--contracts``)."""

    def bidder(view: SeatView) -> int:
        return choose_action(view, rs, args.level, rng, args.budget_ms)

    bp, rp, bv, rv = contract_choice(rs, args.pairs, args.seed + 2, bidder, easy)
    mb, sb = mean_se([float(x) for x in bp])
    mr, sr = mean_se([float(x) for x in rp])
    vb, svb = mean_se([float(x) for x in bv])
    vr, svr = mean_se([float(x) for x in rv])
    print(
        f"contract choice ({len(bp)} deals, rule-based play): own choice {mb:.1f} +- {sb:.1f} card points,"
        f" slate {vb:.1f} +- {svb:.1f}; random open row {mr:.1f} +- {sr:.1f} card points, slate {vr:.1f} +- {svr:.1f}"
    )
    n_even = max(1, args.pairs // 10)
    own, rnd = evenings(rs, n_even, args.seed + 3, bidder, easy)
    mo, so = mean_se([float(x) for x in own])
    mr2, sr2 = mean_se([float(x) for x in rnd])
    print(
        f"whole evenings ({n_even}, all 8 rows, same deals): own choices {mo:.0f} +- {so:.0f} slate points,"
        f" random open rows {mr2:.0f} +- {sr2:.0f}"
    )


if __name__ == "__main__":
    main()
