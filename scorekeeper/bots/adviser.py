"""PURE: see DESIGN.md. No Flask, SQLAlchemy or WTForms imports.

The row adviser: which open row (or pass) for this hand. One chooser: a person
asking "Which row?" on the slate and the computer players at a digital table get
their answer from ``advise`` (``contract_choice`` calls it).

    advice = advise(hand_mask, Situation(ruleset, open_rows, may_pass=True), rng)
    advice.pick          # a row key, or PASS_PICK
    advice.rows          # per open row: its contract, card points, slate value, match chance

How a row is valued: the hidden cards are dealt at random (``samples`` deals, at
most ``budget_ms`` of CPU), and for every candidate contract the deal is played
out by the computer players' cheap policy (``playout.policy_playout``, without
exploration, as the benchmark's hindsight plays it), this hand declaring and
leading; every contract on the same deals (common random numbers: rows are
compared on the same cards). A row's candidates are its contracts the rules of
thumb (``handeval``) like best (``PER_ROW``); the row takes the one
whose expected slate value is highest, among all the contracts played out for
any open row that it allows (so a joker row is never valued below a row whose
every contract it allows, at a lower factor). A sample's outcome is the declaring side's
pile (Misère: the pile the opponents are left with) and whether it is a match;
``slate_value`` writes it as the row's cell would (``game.rulesets.Cells.written``,
restated here since bots do not import scoring; tests keep the two equal).

The pick (``choose``): the row with the highest expected slate value (what the
benchmark ``bench/adviser.py`` measures). With three players a cell earns sticks
by beating the others' cells in the row: where both others have written, the
chance of beating them both, less that of losing to both, times the row's factor
and 157, is added. Passing is offered only when the barrel allows it, and picked
when even the best row's card points are below what an ordinary hand makes
(``PASS_BELOW``): a partner or the next player probably does better. In the
club variant a seat in the barrel throws in (Seich) below ``SEICH_BELOW``.

A hand is checked by ``parse_hand``: the cards of the 36 (a code the deck does
not have, such as a five or a joker, is of the wrong deck), each once, nine
cards (twelve with three players); ``HandError.code`` says what is wrong.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from scorekeeper.engine.actions import CONTRACTS
from scorekeeper.engine.fast import points_table, schedule_ids
from scorekeeper.game.cards import Card, Suit
from scorekeeper.game.contracts import Contract, Kind, Mode, TrickMode
from scorekeeper.game.hand_entry import TOTAL_POINTS
from scorekeeper.game.rulesets import Cells, Row, RuleSet, Scoring

from .handeval import contract_points, komisch_block_points, shape_of
from .knowledge import teams_of
from .playout import policy_playout

PASS_PICK = "pass"
SEICH_PICK = "seich"
SAMPLES = 256  # deals of the hidden cards per answer (fewer if the budget runs out)
BUDGET_MS = 1000.0  # CPU for every open row together (the page's target: 1.5 s at p95)
PER_ROW = 2  # contracts played out per row that offers a choice (jokers, 12-fach, Slalom starts)
# The playout policy's exploration rate: none. A row is valued by how the hand is played,
# as the card search plays it (``search.EPSILON``) and the benchmark's hindsight; random
# cards blur the estimate (fewer matches) without telling rows apart better.
EPSILON = 0.0
# What an ordinary hand makes (card points of its best contract); a weaker best row
# passes (when it may) or, club variant in the barrel, throws in.
PASS_BELOW = {"three": 55.0, "teams": 85.0, "solo4": 40.0}
SEICH_BELOW = {"three": 40.0, "teams": 72.0, "solo4": 25.0}
SPREAD = 14.0  # three players: how uncertain a score comparison is (logistic scale)

Scores = Mapping[tuple[str, int], int]  # (row key, side) -> the value in that cell


class HandError(ValueError):
    """The cards given are not a legal hand. ``code``: ``wrong_deck`` (a card the
    36-card deck does not have), ``duplicate`` (a card twice) or ``count`` (not
    nine cards, twelve with three players); ``cards``: the offending codes."""

    def __init__(self, code: str, cards: Sequence[str] = (), expected: int = 0) -> None:
        super().__init__(f"{code}: {' '.join(cards)}".strip())
        self.code = code
        self.cards = tuple(cards)
        self.expected = expected


def parse_hand(ruleset: RuleSet, codes: Sequence[str]) -> int:
    """The hand as a mask, from card codes (``HA``, ``C6``, ``DT``); HandError if illegal."""
    wrong: list[str] = []
    seen: set[int] = set()
    dups: list[str] = []
    for raw in codes:
        t = raw.strip().upper()
        if t not in Card.__members__:
            wrong.append(raw.strip()[:8])
            continue
        c = int(Card[t])
        if c in seen:
            dups.append(t)
        seen.add(c)
    if wrong:
        raise HandError("wrong_deck", wrong, ruleset.n_tricks)
    if dups:
        raise HandError("duplicate", sorted(set(dups)), ruleset.n_tricks)
    if len(seen) != ruleset.n_tricks:
        raise HandError("count", (), ruleset.n_tricks)
    return sum(1 << c for c in seen)


def slate_value(cells: Cells, factor: int, points: float, match: bool) -> float:
    """What the row's cell holds for a hand that wrote ``points`` (a match: ``match``), by the
    rule set's ``cells`` (the same rule as ``Cells.written``)."""
    if match:
        return float(cells.match(factor))
    return float(cells.scaled(factor, max(points, 0.0)))


@dataclass(frozen=True, slots=True)
class Situation:
    """Where the evening stands for the side that speaks: its open rows, whether the
    barrel lets her pass, whether she may throw in (club variant), the slate's cells."""

    ruleset: RuleSet
    open_rows: tuple[str, ...]
    may_pass: bool = True
    may_seich: bool = False
    side: int = 0
    scores: Scores = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.open_rows:
            raise ValueError("no open row: nothing to advise")
        known = {r.key for r in self.ruleset.rows}
        if set(self.open_rows) - known:
            raise ValueError(f"unknown rows: {sorted(set(self.open_rows) - known)}")


@dataclass(frozen=True, slots=True)
class RowAdvice:
    row: str
    contract: Contract  # the best way to play the row with this hand
    points: float  # expected card points written (Misère: the opponents' pile)
    value: float  # expected slate value of the cell
    match: float  # chance of a match (Misère: of taking no trick)
    score: float  # what the pick ranks by (``choose``)


@dataclass(frozen=True, slots=True)
class Advice:
    rows: tuple[RowAdvice, ...]  # in the slate's row order
    pick: str  # a row key, PASS_PICK or SEICH_PICK
    may_pass: bool
    samples: int  # deals played out (0: the rules of thumb alone)

    def row(self, key: str) -> RowAdvice:
        for r in self.rows:
            if r.row == key:
                return r
        raise KeyError(key)

    @property
    def best(self) -> RowAdvice:
        """The best row (the pick, unless it is to pass or throw in)."""
        return max(self.rows, key=lambda r: r.score)


Outcomes = Mapping[Contract, Sequence[tuple[float, bool]]]  # per contract: (points, match) per sample


def row_contracts(row: Row, hand: int, shape: str, per_row: int = PER_ROW) -> list[Contract]:
    """The contracts of ``row`` worth playing out: the rules of thumb's best ``per_row``."""
    allowed = [c for c in CONTRACTS if row.allows(c)]
    allowed.sort(key=lambda c: -contract_points(c, hand, shape))
    return allowed[:per_row]


def best_block(hand: int, open_modes: Sequence[Mode], shape: str) -> TrickMode:
    """The Komisch block the hand likes best among the open ones."""
    best = TrickMode(Mode.OBENABE)
    best_v = -math.inf
    for m in open_modes:
        for suit in range(4) if m is Mode.TRUMP else (None,):
            v = komisch_block_points(hand, m, suit, shape)
            if v > best_v:
                best_v = v
                best = TrickMode(m, None if suit is None else Suit(suit))
    return best


def contract_modes(contract: Contract, first: TrickMode, n_tricks: int, rng: random.Random) -> tuple[int, ...]:
    """The trick modes of a contract; Komisch: the hand's best block first, the
    others in a random order (chosen later, perhaps by others)."""
    if contract.kind is not Kind.KOMISCH:
        return schedule_ids(contract, n_tricks)
    rest = [TrickMode(m) for m in (Mode.TRUMP, Mode.OBENABE, Mode.UNDENUFE) if m is not first.mode]
    rng.shuffle(rest)
    blocks = [first] + [TrickMode(b.mode, Suit(rng.randrange(4))) if b.mode is Mode.TRUMP else b for b in rest]
    return schedule_ids(contract, n_tricks, blocks)


def play_out(
    hands: Sequence[int],
    ruleset: RuleSet,
    contract: Contract,
    first: TrickMode,
    rng: random.Random,
    eps: float = EPSILON,
) -> tuple[int, bool]:
    """Seat 0 declares ``contract`` and leads; every seat plays the policy. Returns
    (the points written: the declaring side's pile, Misère the opponents'; a match)."""
    nt = ruleset.n_tricks
    teams = teams_of(ruleset, 0)
    modes = contract_modes(contract, first, nt, rng)
    table = points_table(contract, ruleset.undenufe_six11, (first,))
    pts, won = policy_playout(hands, 0, modes, table, (), teams, rng.random, eps, contract.is_misere, teams[0])
    mine = sum(p for s, p in enumerate(pts) if teams[s] == teams[0])
    tricks = sum(t for s, t in enumerate(won) if teams[s] == teams[0])
    if contract.is_misere:
        return TOTAL_POINTS - mine, tricks == 0
    return mine, tricks == nt


def deal_rest(hand: int, n_players: int, rng: random.Random) -> list[int]:
    """A random deal of the other cards; seat 0 holds ``hand``."""
    unseen = [c for c in range(36) if not hand >> c & 1]
    rng.shuffle(unseen)
    per = len(unseen) // (n_players - 1)
    hands = [hand]
    for i in range(n_players - 1):
        hands.append(sum(1 << c for c in unseen[i * per : (i + 1) * per]))
    return hands


def playout_outcomes(
    hand: int,
    ruleset: RuleSet,
    contracts: Sequence[Contract],
    rng: random.Random,
    budget_ms: float = BUDGET_MS,
    samples: int = SAMPLES,
) -> tuple[dict[Contract, list[tuple[float, bool]]], int]:
    """Every contract played out on the same random deals (at least one, at most
    ``samples``, stopping before ``budget_ms`` would be passed)."""
    t0 = time.perf_counter()
    deadline = t0 + budget_ms / 1000.0
    shape = shape_of(ruleset.n_players, ruleset.teams)
    first = best_block(hand, (Mode.TRUMP, Mode.OBENABE, Mode.UNDENUFE), shape)
    out: dict[Contract, list[tuple[float, bool]]] = {c: [] for c in contracts}
    done = 0
    last = t0
    while done < samples:
        hands = deal_rest(hand, ruleset.n_players, rng)
        for c in contracts:
            p, m = play_out(hands, ruleset, c, first, rng)
            out[c].append((float(p), m))
        done += 1
        now = time.perf_counter()
        if now + (now - last) >= deadline:  # the next deal would end past the deadline
            break
        last = now
    return out, done


def rule_of_thumb_outcomes(
    hand: int, ruleset: RuleSet, contracts: Sequence[Contract]
) -> dict[Contract, list[tuple[float, bool]]]:
    """One pseudo-sample per contract: the rules of thumb's card points, no match."""
    shape = shape_of(ruleset.n_players, ruleset.teams)
    return {c: [(contract_points(c, hand, shape), False)] for c in contracts}


def _beats(x: float, y: float) -> float:
    return 1.0 / (1.0 + math.exp(-(x - y) / SPREAD))


def stick_share(x: float, others: Sequence[float]) -> float:
    """Expected sticks minus potatoes (per unit of row factor) for scoring ``x``."""
    top = 1.0
    bottom = 1.0
    for y in others:
        p = _beats(x, y)
        top *= p
        bottom *= 1.0 - p
    return top - bottom


def row_score(situation: Situation, row: Row, points: float, value: float) -> float:
    """What the pick ranks a row by: its expected slate value; three players, where
    both others have written the row, plus the sticks it may earn there."""
    rs = situation.ruleset
    if rs.scoring is not Scoring.RAW:
        return value
    others = [situation.scores.get((row.key, s)) for s in range(rs.n_sides) if s != situation.side]
    known = [float(v) for v in others if v is not None]
    if len(known) < len(others):
        return value
    return value + TOTAL_POINTS * row.factor * stick_share(points, known)


def rows_advice(situation: Situation, hand: int, outcomes: Outcomes) -> tuple[RowAdvice, ...]:
    """Per open row, the figures of its best contract among those played out
    (``outcomes``: a row with a choice weighs every contract it allows, so a row
    that allows all another allows, at a higher factor, never ranks below it)."""
    rs = situation.ruleset
    out = []
    for row in rs.rows:
        if row.key not in situation.open_rows:
            continue
        best: RowAdvice | None = None
        for c, got in outcomes.items():
            if not row.allows(c):
                continue
            n = len(got)
            points = sum(p for p, _ in got) / n
            value = sum(slate_value(rs.cells, row.factor, p, m) for p, m in got) / n
            match = sum(1 for _, m in got if m) / n
            ra = RowAdvice(row.key, c, points, value, match, row_score(situation, row, points, value))
            if best is None or ra.score > best.score:
                best = ra
        if best is None:
            raise ValueError(f"no contract of row {row.key} was estimated")
        out.append(best)
    return tuple(out)


def choose(situation: Situation, rows: Sequence[RowAdvice]) -> str:
    """The pick: the best row, or pass / Seich for a poor hand where allowed."""
    rs = situation.ruleset
    shape = shape_of(rs.n_players, rs.teams)
    best = max(rows, key=lambda r: r.score)
    top_points = max(r.points for r in rows)
    if situation.may_pass and top_points < PASS_BELOW[shape]:
        return PASS_PICK
    if situation.may_seich and not situation.may_pass and top_points < SEICH_BELOW[shape]:
        return SEICH_PICK
    return best.row


def candidates(situation: Situation, hand: int, per_row: int = PER_ROW) -> list[Contract]:
    """Every contract some open row would play out, once."""
    rs = situation.ruleset
    shape = shape_of(rs.n_players, rs.teams)
    seen: dict[Contract, None] = {}
    for row in rs.rows:
        if row.key in situation.open_rows:
            for c in row_contracts(row, hand, shape, per_row):
                seen.setdefault(c, None)
    return list(seen)


def advise(
    hand: int,
    situation: Situation,
    rng: random.Random | None = None,
    budget_ms: float = BUDGET_MS,
    samples: int = SAMPLES,
    per_row: int = PER_ROW,
) -> Advice:
    """The answer for every open row and the pick. ``samples`` 0: the rules of thumb
    alone (the easy computer player; microseconds)."""
    rs = situation.ruleset
    if hand.bit_count() != rs.n_tricks or hand >> 36:
        raise HandError("count", (), rs.n_tricks)
    contracts = candidates(situation, hand, per_row)
    if samples <= 0:
        outcomes: Outcomes = rule_of_thumb_outcomes(hand, rs, contracts)
        done = 0
    else:
        outcomes, done = playout_outcomes(hand, rs, contracts, rng or random.Random(), budget_ms, samples)
    rows = rows_advice(situation, hand, outcomes)
    return Advice(rows, choose(situation, rows), situation.may_pass, done)
