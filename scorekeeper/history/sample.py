"""A synthetic circle for benchmarks, tests and demonstrations: random but valid
evenings of every variant (seeded, so the same seed gives the same circle).

Each side fills its rows in a random order, interleaved with the other sides; some
hands are matches or countermatches, a few cells are typed from a paper slate, some
evenings end early (half of those count in money), ties are cut. The result passes
every check of the scoring core (it is built with ``Slate.build``).
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from ..game.hand_entry import TOTAL_POINTS, HandEntry
from ..game.rulesets import Row, RuleSet, Variant, default_ruleset
from ..scoring.entries import cell_value
from ..scoring.final import draw_cut, ties
from ..scoring.slate import Slate
from .records import CircleRecord, CutEntry, EveningRecord, LogEntry, LogKind, Player, Status

START = datetime(2026, 1, 9, 19, 30, tzinfo=UTC)
NAMES = (
    "Anne-Marie Zurbriggen",
    "Vreni Schmid-Kalbermatten",
    "Sepp Imboden",
    "Hanspeter Brunner",
    "Ruedi Ammann",
    "Lisbeth Gerber",
    "Köbi Nussbaumer",
    "Marie-Claire Rochat",
    "Beat Zwahlen",
    "Trudi Egli",
    "Fritz Moser",
    "Heidi Bachmann",
)


def random_hand(rs: RuleSet, row: Row, seat: int, rng: random.Random, paper_rate: float = 0.0) -> HandEntry:
    """A valid hand (or paper cell) for ``seat`` in ``row``."""
    contract = rng.choice(row.contracts) if row.is_choice or rng.random() < 0.3 else None
    roll = rng.random()
    if roll < 0.05:
        hand = HandEntry(row.key, seat, contract, TOTAL_POINTS, 0, match=True)
    elif roll < 0.08:
        hand = HandEntry(row.key, seat, contract, 0, TOTAL_POINTS, countermatch=True)
    else:
        points = min(TOTAL_POINTS, max(0, int(rng.gauss(80, 30))))
        hand = HandEntry(row.key, seat, contract, points, TOTAL_POINTS - points)
    if rng.random() < paper_rate:
        return HandEntry.paper(
            row.key, seat, cell_value(rs, hand), contract=contract, match=hand.match, countermatch=hand.countermatch
        )
    return hand


def random_entries(
    rs: RuleSet, rng: random.Random, *, stop: int | None = None, paper_rate: float = 0.0
) -> list[HandEntry]:
    """The hands of a whole evening (or its first ``stop``), sides interleaved at random."""
    todo = {side: list(rs.rows) for side in range(rs.n_sides)}
    for rows in todo.values():
        rng.shuffle(rows)
    out: list[HandEntry] = []
    while any(todo.values()) and (stop is None or len(out) < stop):
        side = rng.choice([s for s, rows in todo.items() if rows])
        seat = rng.choice(rs.seats_of(side))
        out.append(random_hand(rs, todo[side].pop(), seat, rng, paper_rate))
    return out


def sample_circle(
    seed: int = 0,
    *,
    evenings: int = 500,
    players: int = 8,
    variants: tuple[Variant, ...] = tuple(Variant),
    early_rate: float = 0.05,
    paper_rate: float = 0.02,
) -> CircleRecord:
    rng = random.Random(seed)
    roster = tuple(
        Player(f"p{i + 1}", NAMES[i % len(NAMES)] + ("" if i < len(NAMES) else f" {i}")) for i in range(players)
    )
    records: list[EveningRecord] = []
    when = START
    for n in range(evenings):
        rs = default_ruleset(rng.choice(variants))
        seats = tuple(p.id for p in rng.sample(roster, rs.n_players))
        early = rng.random() < early_rate
        entries = random_entries(rs, rng, stop=rng.randrange(1, rs.n_hands) if early else None, paper_rate=paper_rate)
        first_dealer = rng.randrange(rs.n_players)
        slate = Slate.build(rs, first_dealer, entries)
        cuts = tuple(CutEntry(draw_cut(t, rng), when) for t in ties(slate))
        log = tuple(LogEntry(i + 1, LogKind.HAND, None, e, created_at=when) for i, e in enumerate(entries))
        ended = when + timedelta(hours=3)
        records.append(
            EveningRecord(
                id=f"e{n + 1}",
                ruleset=rs,
                first_dealer=first_dealer,
                seats=seats,
                log=log,
                cuts=cuts,
                status=Status.ENDED,
                created_at=when,
                ended_at=ended,
                counts_in_money=not early or rng.random() < 0.5,
            )
        )
        when += timedelta(days=rng.choice((1, 2, 3, 7)))
    return CircleRecord("Jassrunde Sternen", roster, tuple(records), created_at=START)
