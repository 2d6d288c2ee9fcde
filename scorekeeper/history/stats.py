"""Statistics of a circle: per player and contract, per player, per team pairing, and
head to head, over the ended evenings a ``Filter`` admits (a season, a variant or the circle's
own rules).

Every figure comes from ``outcome`` (the scoring core's slate, result and payout), as
its ``Summary`` (``outcome.summary_of``: the replay's, or the copy the service stored for
the evening's version); nothing here knows a rule. Definitions (docs/DECISIONS.md, "History"):

- Only ended evenings that are not deleted count (the ``CircleView`` has dropped the
  deleted ones); a season is a range of end times, start included, end excluded.
- A hand belongs to the player who declared it (in the team game the partner who
  chose); its card points are the declaring side's pile (0..157; a match is 157 with
  the match mark), for a Misère too (where fewer is better).
- "Best" and "worst" rows rank a player's hands by what the cell was written from:
  the declaring side's pile (the opponents' for a Misère) plus 100 for the match bonus;
  the earlier hand wins a tie.
- Cells typed from a paper slate count in wins, money, sticks and potatoes and
  ratings, never in the hand statistics (a team cell of floor(p/10) x factor cannot
  give the points back): they are counted apart as ``paper_cells``.
- A win is a place among ``Result.winners`` (a shared win counts for each): the most
  net sticks (three players), the higher team total (teams, club), the highest total
  (all against all).
- Money: ``Payout.net`` of the seat, for evenings that count in money (an evening
  ended early counts only if the table said so).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from ..game.contracts import Kind
from ..game.rulesets import RuleSet, Variant
from .housekeeping import CircleView
from .outcome import summary_of
from .records import EveningId, EveningRecord, PlayerId, when_key
from .summary import HandFact, Summary


@dataclass(frozen=True, slots=True)
class Season:
    """A range of end times: ``start`` included, ``end`` excluded; None is open."""

    start: datetime | None = None
    end: datetime | None = None

    def contains(self, when: datetime | None) -> bool:
        if when is None:
            return self.start is None and self.end is None
        return (self.start is None or when >= self.start) and (self.end is None or when < self.end)


@dataclass(frozen=True, slots=True)
class Filter:
    """Which ended evenings count: a season, and the rules. ``variant``: the evenings of that
    preset of RULES 6 (any of its options and factors: ``RuleSet.is_preset``), never those of a
    circle's own rules of the same shape, whose rows, factors, match and bonus make other totals
    (docs/DECISIONS.md, House rules); ``own``: every evening of a circle's own rules, any shape."""

    season: Season = field(default_factory=Season)
    variant: Variant | None = None
    own: bool = False

    def admits(self, evening: EveningRecord) -> bool:
        if not (evening.ended and self.season.contains(evening.ended_at)):
            return False
        if self.variant is None and not self.own:
            return True
        rs = evening.ruleset
        if self.own:
            return not rs.is_preset and (self.variant is None or rs.variant is self.variant)
        return rs.variant is self.variant and rs.is_preset


ALL = Filter()


def admitted(view: CircleView, flt: Filter = ALL) -> list[tuple[EveningRecord, Summary]]:
    """The evenings ``flt`` admits with their outcomes' summaries, in order of end time (then id)."""
    chosen = [ev for ev in view.evenings if flt.admits(ev)]
    chosen.sort(key=lambda ev: (when_key(ev.ended_at), ev.id))
    return [(ev, summary_of(ev)) for ev in chosen]


@dataclass(frozen=True, slots=True)
class HandRef:
    """One hand, to show as a best or worst row."""

    evening: EveningId
    ended_at: datetime | None
    hand: int  # 1-based hand number on the slate
    row_key: str
    contract: str | None  # Contract.code when recorded
    points: int  # the declaring side's card points
    scored: int  # what the cell was written from (see scored_points)
    value: int  # the cell
    match: bool
    countermatch: bool


@dataclass(frozen=True, slots=True)
class ContractStats:
    player: PlayerId
    kind: Kind
    hands: int
    points: int  # sum of the declaring side's card points
    matches: int
    countermatches: int
    best: HandRef
    worst: HandRef

    @property
    def average(self) -> float:
        return self.points / self.hands

    @property
    def match_rate(self) -> float:
        return self.matches / self.hands

    @property
    def countermatch_rate(self) -> float:
        return self.countermatches / self.hands


@dataclass(frozen=True, slots=True)
class PlayerStats:
    player: PlayerId
    name: str
    evenings: int
    wins: int
    net_rappen: int  # over the evenings that count in money
    money_evenings: int  # evenings that count in money
    sticks: int  # three players: sticks after cancelling, summed
    potatoes: int
    hands: int  # hands declared (played, not typed from paper)
    paper_cells: int  # cells typed from a paper slate, not in the hand statistics


@dataclass(frozen=True, slots=True)
class PairingStats:
    """Two partners in the team game (teams and club variant)."""

    players: tuple[PlayerId, PlayerId]  # sorted by id
    evenings: int
    wins: int
    net_rappen: int  # what each of the two won or lost together (both get the same)
    points: int  # their team totals, summed


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """Two players on different sides of the same evenings."""

    players: tuple[PlayerId, PlayerId]  # sorted by id
    evenings: int
    ahead: tuple[int, int]  # evenings each finished ahead of the other
    level: int  # evenings they finished level


@dataclass(frozen=True, slots=True)
class CircleStats:
    filter: Filter
    evenings: int
    hands: int  # hands on the slates (Seich hands and paper cells not counted)
    players: tuple[PlayerStats, ...]  # by name
    contracts: tuple[ContractStats, ...]  # by player name, then contract kind
    pairings: tuple[PairingStats, ...]  # most evenings first
    head_to_head: tuple[HeadToHead, ...]  # most evenings first

    def contracts_of(self, player: PlayerId) -> tuple[ContractStats, ...]:
        return tuple(c for c in self.contracts if c.player == player)

    def player(self, player: PlayerId) -> PlayerStats:
        for p in self.players:
            if p.player == player:
                return p
        raise KeyError(player)


class _Contract:
    """A player's running figures in one contract kind (HandRefs made only for a new best or worst)."""

    __slots__ = ("hands", "points", "matches", "countermatches", "best", "worst", "best_ref", "worst_ref")

    def __init__(self, ev: EveningRecord, first: HandFact) -> None:
        self.hands = self.points = self.matches = self.countermatches = 0
        self.best = self.worst = first.scored
        self.best_ref = self.worst_ref = _hand_ref(ev, first)

    def add(self, ev: EveningRecord, h: HandFact) -> None:
        self.hands += 1
        self.points += h.points
        self.matches += h.match
        self.countermatches += h.countermatch
        if h.scored > self.best:
            self.best, self.best_ref = h.scored, _hand_ref(ev, h)
        if h.scored < self.worst:
            self.worst, self.worst_ref = h.scored, _hand_ref(ev, h)


def _hand_ref(ev: EveningRecord, h: HandFact) -> HandRef:
    return HandRef(
        ev.id, ev.ended_at, h.hand, h.row_key, h.contract, h.points, h.scored, h.value, h.match, h.countermatch
    )


def _pairs(ids: Iterable[PlayerId]) -> tuple[PlayerId, PlayerId]:
    a, b = sorted(ids)
    return a, b


@dataclass(frozen=True, slots=True)
class _Layout:
    """Where a rule set's seats sit: each seat's side, the sides' seats, pairs of opponents."""

    sides: tuple[int, ...]  # per seat
    seats_of: tuple[tuple[int, ...], ...]  # per side
    teams: bool
    opponents: tuple[tuple[int, int, int, int], ...]  # (seat a, seat b, side a, side b), a < b

    @staticmethod
    def of(rs: RuleSet) -> _Layout:
        sides = tuple(rs.side_of(seat) for seat in range(rs.n_players))
        pairs = tuple(
            (a, b, sides[a], sides[b])
            for a in range(rs.n_players)
            for b in range(a + 1, rs.n_players)
            if sides[a] != sides[b]
        )
        return _Layout(sides, tuple(rs.seats_of(side) for side in range(rs.n_sides)), rs.teams, pairs)


def circle_stats(
    view: CircleView, flt: Filter = ALL, *, contracts: bool = True, of: PlayerId | None = None
) -> CircleStats:
    """Every statistic of the circle over the evenings ``flt`` admits. ``contracts``: False
    leaves the per-contract figures out (``CircleStats.contracts`` empty; the circle page and
    the statistics page show none), so the evenings' hands are not read at all; ``of``: only
    that player's per-contract figures (a player's page), so only her evenings' hands are read."""
    names = {p.id: p.name for p in view.players}
    zero = dict.fromkeys(names, 0)
    evenings, wins, money, money_evenings = dict(zero), dict(zero), dict(zero), dict(zero)
    sticks, potatoes, hands, paper = dict(zero), dict(zero), dict(zero), dict(zero)
    by_contract: dict[tuple[PlayerId, Kind], _Contract] = {}
    pairings: dict[tuple[PlayerId, PlayerId], list[int]] = {}
    h2h: dict[tuple[PlayerId, PlayerId], list[int]] = {}
    layouts: dict[int, _Layout] = {}  # by the rule set's id: the evenings share a few rule sets
    n_evenings = n_hands = 0
    for ev, out in admitted(view, flt):
        res = out.decided
        assert res is not None  # an ended evening is decided
        rs = ev.ruleset
        lay = layouts.get(id(rs))
        if lay is None:
            lay = layouts[id(rs)] = _Layout.of(rs)
        seats = ev.seats
        n_evenings += 1
        counts = out.complete or ev.counts_in_money
        three = res.net is not None
        for seat, pid in enumerate(seats):
            side = lay.sides[seat]
            evenings[pid] += 1
            wins[pid] += side in res.winners
            if counts:
                money[pid] += res.payout[seat]
                money_evenings[pid] += 1
            if three:
                sticks[pid] += res.sticks[side]
                potatoes[pid] += res.potatoes[side]
            hands[pid] += out.declared[seat]
            paper[pid] += out.paper[seat]
            n_hands += out.declared[seat]
        if contracts and (of is None or of in seats):
            for h in out.hands:
                if h.imported or h.kind is None or (of is not None and seats[h.seat] != of):
                    continue  # paper cells have no points, house rows no contract
                key = (seats[h.seat], h.kind)
                acc_c = by_contract.get(key)
                if acc_c is None:
                    acc_c = by_contract[key] = _Contract(ev, h)
                acc_c.add(ev, h)
        score = res.score
        if lay.teams:
            for side, of_side in enumerate(lay.seats_of):
                pair = _pairs(seats[s] for s in of_side)
                acc = pairings.setdefault(pair, [0, 0, 0, 0])
                acc[0] += 1
                acc[1] += side in res.winners
                acc[2] += res.payout[of_side[0]] if counts else 0
                acc[3] += out.totals[side]
        for a, b, sa, sb in lay.opponents:
            (pa, xa), (pb, xb) = sorted([(seats[a], score[sa]), (seats[b], score[sb])])
            acc = h2h.setdefault((pa, pb), [0, 0, 0, 0])
            acc[0] += 1
            acc[1] += xa > xb
            acc[2] += xb > xa
            acc[3] += xa == xb
    by_name = sorted(names, key=lambda p: (names[p].casefold(), p))
    order = {p: i for i, p in enumerate(by_name)}
    kinds = list(Kind)
    return CircleStats(
        filter=flt,
        evenings=n_evenings,
        hands=n_hands,
        players=tuple(
            PlayerStats(
                p,
                names[p],
                evenings[p],
                wins[p],
                money[p],
                money_evenings[p],
                sticks[p],
                potatoes[p],
                hands[p],
                paper[p],
            )
            for p in by_name
        ),
        contracts=tuple(
            ContractStats(pid, kind, c.hands, c.points, c.matches, c.countermatches, c.best_ref, c.worst_ref)
            for (pid, kind), c in sorted(by_contract.items(), key=lambda kv: (order[kv[0][0]], kinds.index(kv[0][1])))
        ),
        pairings=tuple(
            PairingStats(pair, acc[0], acc[1], acc[2], acc[3])
            for pair, acc in sorted(pairings.items(), key=lambda kv: (-kv[1][0], order[kv[0][0]], order[kv[0][1]]))
        ),
        head_to_head=tuple(
            HeadToHead(pair, acc[0], (acc[1], acc[2]), acc[3])
            for pair, acc in sorted(h2h.items(), key=lambda kv: (-kv[1][0], order[kv[0][0]], order[kv[0][1]]))
        ),
    )


def card_points(view: CircleView, flt: Filter = ALL) -> dict[tuple[PlayerId, str], list[int]]:
    """Each player's recorded card points per contract code (played hands, fixed rows
    by their row's one kind), oldest first: the history a forecast can blend in."""
    out: dict[tuple[PlayerId, str], list[int]] = {}
    for ev, res in admitted(view, flt):
        for h in res.hands:
            if not h.imported and h.code:  # a house row has no contract code
                out.setdefault((ev.seats[h.seat], h.code), []).append(h.points)
    return out
