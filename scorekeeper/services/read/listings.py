"""A circle's lists, derived from its memory (``memory.memory_of``: a constant number of
statements, whatever the number of evenings): its evenings (``history``), each player's
record of evenings, wins and money (``player_records``), and its evenings as the housekeeping
pages name them (``evening_labels``; was ``services.records`` with ``EveningLabel`` from
``services.housekeeping``).

Housekeeping is honoured (``read.who_is_who``): names as the players are called
now, a merged player's evenings counted for the player kept, a deleted evening listed
as deleted and counted nowhere; an evening ended early counts in money only if the
table said so when ending it (``counts_in_money``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select

from ...history.housekeeping import CircleView
from ...history.outcome import summary_of
from ...history.records import EveningRecord, when_key
from ...models import Circle, EntryRow, Evening
from ..store import tx
from .memory import memory_of


@dataclass(frozen=True, slots=True)
class EveningSummary:
    public_id: str
    created_at: datetime  # the date of the evening
    ended_at: datetime | None
    status: str  # open | ended
    ended_early: bool
    variant: str  # Variant value: three | teams | solo4 | club
    players: tuple[str, ...]  # names in seat order
    hands: int  # hands on the slate (Seich hands included)
    score: tuple[int, ...] | None  # per side: net sticks (three players) or totals; None while undecided
    totals: tuple[int, ...]  # per side, from the slate as it stands
    winners: tuple[str, ...]  # names of the winning players (several on a shared win); () while undecided
    money: tuple[int, ...] | None  # net Rappen per seat (positive receives); None while undecided
    stake_rappen: int
    counts_in_money: bool = True  # False: ended early, and the table said it does not count in money
    deleted: bool = False  # deleted as a test evening (housekeeping): it counts nowhere


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    player_id: int
    name: str
    evenings: int  # ended evenings played
    wins: int  # ended evenings won (a shared win counts)
    net_rappen: int  # money won minus lost over those evenings


@dataclass(frozen=True, slots=True)
class EveningLabel:
    """An evening as the housekeeping pages name it: when, who (names now), deleted or not, and
    what tells two evenings of the same players apart (``evening_labels`` makes them):
    its hands on the slate, the totals, and when its first and last hand were written."""

    public_id: str
    created_at: datetime
    names: tuple[str, ...]
    deleted: bool
    open: bool = False  # still in progress
    hands: int = 0
    totals: tuple[int, ...] = ()
    first_hand: datetime | None = None
    last_hand: datetime | None = None


def hand_times(circle: Circle) -> dict[str, tuple[datetime, datetime]]:
    """Per evening of the circle (public id): when its first and its last hand were written
    (one statement; an evening without a hand is left out)."""
    rows = tx.session().execute(
        select(Evening.public_id, func.min(EntryRow.created_at), func.max(EntryRow.created_at))
        .join(EntryRow, EntryRow.evening_id == Evening.id)
        .where(Evening.circle_id == circle.id, EntryRow.kind == "hand")
        .group_by(Evening.public_id)
    )
    return {public_id: (first, last) for public_id, first, last in rows}


def _summary(ev: EveningRecord, view: CircleView) -> EveningSummary:
    rs = ev.ruleset
    out = summary_of(ev)
    names = tuple(view.player_name(p) for p in ev.seats)
    score: tuple[int, ...] | None = None
    winners: tuple[str, ...] = ()
    money: tuple[int, ...] | None = None
    if ev.ended and out.decided is not None:  # an open evening shows its totals
        score = out.decided.score
        winners = tuple(names[seat] for side in out.decided.winners for seat in rs.seats_of(side))
        money = out.decided.payout
    assert ev.created_at is not None  # stored evenings always have it
    return EveningSummary(
        public_id=ev.id,
        created_at=ev.created_at,
        ended_at=ev.ended_at,
        status=ev.status.value,
        ended_early=ev.ended and not out.complete,
        variant=rs.variant.value,
        players=names,
        hands=out.hands_dealt,
        score=score,
        totals=out.totals,
        winners=winners,
        money=money,
        stake_rappen=rs.stake.rappen,
        counts_in_money=ev.counts_in_money,
        deleted=ev.id in view.folded.deleted,
    )


def history(circle: Circle, *, deleted: bool = False) -> list[EveningSummary]:
    """The circle's evenings, newest first (open ones too, without a result yet); names as they
    are now. An evening deleted as a test is left out (it is gone from every page and answer),
    unless ``deleted`` (the housekeeping pages: then marked). Read from the circle's memory: a
    constant number of statements."""
    mem = memory_of(circle)

    def make() -> list[EveningSummary]:
        stored = list(enumerate(mem.record.evenings))  # in the order they were stored; deleted too
        stored.sort(key=lambda pair: (when_key(pair[1].created_at), pair[0]), reverse=True)
        return [_summary(ev, mem.view) for _i, ev in stored]

    every = mem.derive("history", make, open_too=True)
    return every if deleted else [ev for ev in every if not ev.deleted]


def player_records(circle: Circle) -> list[PlayerRecord]:
    """Per player of the circle (in force: merged players count for the one kept, under the
    name used now): ended evenings not deleted, wins and net money; by name."""
    mem = memory_of(circle)
    stats = mem.stats(contracts=False)
    return [PlayerRecord(int(p.player), p.name, p.evenings, p.wins, p.net_rappen) for p in stats.players]


def evening_labels(circle: Circle) -> list[EveningLabel]:
    """Every evening of the circle as the housekeeping pages name it (deleted ones too), newest
    first: when, who, and what tells two evenings of the same players apart (hands, totals, the
    first and last hand's time). The circle's memory and one statement."""
    times = hand_times(circle)
    out = []
    for ev in history(circle, deleted=True):
        first, last = times.get(ev.public_id, (None, None))
        out.append(
            EveningLabel(
                public_id=ev.public_id,
                created_at=ev.created_at,
                names=ev.players,
                deleted=ev.deleted,
                open=ev.status == "open",
                hands=ev.hands,
                totals=ev.totals,
                first_hand=first,
                last_hand=last,
            )
        )
    return out
