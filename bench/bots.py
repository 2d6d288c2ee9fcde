"""Computer players' benchmark: prints figures, is not a test.

    python bench/bots.py [--pairs N] [--level normal] [--budget-ms 300] [--seed S]

Card play, duplicate deals: every deal is played twice with the seats swapped
(the bot team on seats 0+2, then on 1+3), four players in two teams, the
contract drawn at random among the four suits, Obenabe and Undenufe, the
declarer at random, so only card play differs. Points are the bot team's card
points per hand (out of 157, no match bonus), against a random team and against
the rule-based player; the standard error is over deal pairs (each pair's mean),
which is what duplicate play makes independent.

Decision time: the bot's card decisions with more than one legal card (single
legal cards are answered at once and not counted), wall clock; the largest CPU
time is shown too, since on a busy machine the wall clock includes stalls of
the whole process. Playouts per second: of the
search, over all its decisions.

Contract choice, separately: on each deal the bot's seat must choose from all
eight open rows of the team game; the hand is then played with the rule-based
player on all four seats, and compared with a random open row (and, for a joker,
a random contract) played the same way on the same deal. Shown as the declaring
team's card points and as the slate score (floor(points / 10) x factor). A
single deal's slate score rewards taking the highest factor whatever the hand,
so whole evenings are measured too (``--pairs / 10`` of them): one team fills
all eight rows on eight deals, by the bot's choices or by random open rows on
the same deals, and the slate totals are compared.

The last line is exactly:
``bots vs_random_points=<x> vs_rulebased_points=<x> p95_ms=<n> pairs=<n>``
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

from scorekeeper.bots import choose_action  # noqa: E402
from scorekeeper.bots.search import STATS  # noqa: E402
from scorekeeper.engine import HandSetup, HandState, SeatView, announce_action, decode_announce  # noqa: E402
from scorekeeper.engine.deal import shuffle_deck  # noqa: E402
from scorekeeper.game.cards import Suit  # noqa: E402
from scorekeeper.game.contracts import OBENABE, UNDENUFE, Contract, suit_contract  # noqa: E402
from scorekeeper.game.rulesets import RuleSet, default_ruleset  # noqa: E402

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


def card_play(rs: RuleSet, pairs: int, seed: int, bot: Agent, other: Agent) -> list[float]:
    """Per deal pair, the bot team's mean card points over the two seatings."""
    rng = random.Random(seed)
    out = []
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
    return out


def contract_choice(
    rs: RuleSet, deals: int, seed: int, choose: Agent, easy: Agent
) -> tuple[list[int], list[int], list[int], list[int]]:
    """(bot card points, random card points, bot slate score, random slate score) per deal.
    Only the bot's team has open rows: its two seats bid (forehand may pass to
    the partner, who then must choose)."""
    rng = random.Random(seed)
    keys = tuple(r.key for r in rs.rows)
    setup = HandSetup(rs, 3, (keys, ()))  # only seat 0's team has open rows: it must choose
    bot_pts, rnd_pts, bot_val, rnd_val = [], [], [], []
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


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=300, help="deal pairs per match (default 300)")
    ap.add_argument("--level", default="normal", choices=("easy", "normal", "strong"))
    ap.add_argument("--budget-ms", type=float, default=None, help="time budget per decision (level default)")
    ap.add_argument("--seed", type=int, default=20261129)
    args = ap.parse_args(argv)
    rs = default_ruleset("teams")
    rng = random.Random(args.seed)
    times: list[float] = []  # wall clock per decision
    cpu: list[float] = []  # CPU time of this thread per decision (a busy machine stalls the wall clock)

    def bot(view: SeatView) -> int:
        multi = sum(1 for a in view.legal_actions if a < 36) > 1
        t0 = time.perf_counter()
        c0 = time.thread_time()
        a = choose_action(view, rs, args.level, rng, args.budget_ms)
        if multi:
            times.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.thread_time() - c0) * 1000)
        return a

    def randomly(view: SeatView) -> int:
        return rng.choice(view.legal_actions)

    def easy(view: SeatView) -> int:
        return choose_action(view, rs, "easy", rng)

    t_start = time.perf_counter()
    vs_random = card_play(rs, args.pairs, args.seed, bot, randomly)
    vs_easy = card_play(rs, args.pairs, args.seed + 1, bot, easy)
    played = time.perf_counter() - t_start
    m_r, se_r = mean_se(vs_random)
    m_e, se_e = mean_se(vs_easy)
    print(
        f"level {args.level}, budget {args.budget_ms or 'default'} ms, "
        f"{args.pairs} deal pairs per match ({played:.0f} s)"
    )
    print(f"vs random team:      {m_r:6.1f} +- {se_r:.1f} card points per hand (of 157)")
    print(f"vs rule-based team:  {m_e:6.1f} +- {se_e:.1f} card points per hand (of 157)")
    times.sort()
    med = statistics.median(times) if times else 0.0
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))] if times else 0.0
    mx = times[-1] if times else 0.0
    avg = statistics.fmean(times) if times else 0.0
    print(
        f"decision time (ms, {len(times)} decisions with a choice): median {med:.0f}  p95 {p95:.0f}  max {mx:.0f}"
        f"  mean {avg:.0f}; CPU time max {max(cpu, default=0.0):.0f}"
    )
    pps = STATS.playouts / STATS.seconds if STATS.seconds else 0.0
    print(f"search: {STATS.playouts} playouts in {STATS.seconds:.1f} s = {pps:,.0f} playouts/s")

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
    print(f"bots vs_random_points={m_r:.1f} vs_rulebased_points={m_e:.1f} p95_ms={round(p95)} pairs={args.pairs}")


if __name__ == "__main__":
    main()
