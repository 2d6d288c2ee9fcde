"""A circle's history and per-player records, recomputed from the stored entries.

Housekeeping is honoured (``services.housekeeping``): names as the players are called
now, a merged player's evenings counted for the player kept, a deleted evening listed
as deleted and counted nowhere; an evening ended early counts in money only if the
table said so when ending it (``counts_in_money``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from ..models import Circle, Evening, Seat
from . import housekeeping, tx
from .replay import build_slate, ruleset_of
from .snapshot import cut_rows, decide, entry_rows


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


def _evenings(circle: Circle) -> list[Evening]:
    stmt = (
        select(Evening)
        .where(Evening.circle_id == circle.id)
        .options(selectinload(Evening.seats).joinedload(Seat.player))
        .order_by(Evening.created_at.desc(), Evening.id.desc())
    )
    return list(tx.session().execute(stmt).scalars())


def summarize(evening: Evening, state: housekeeping.State | None = None) -> EveningSummary:
    """One evening for the history list (its entry and cut rows: two queries).
    ``state``: the circle's housekeeping (names as now, deleted evenings)."""
    s = tx.session()
    rs = ruleset_of(evening)
    slate = build_slate(rs, evening.first_dealer, entry_rows(s, evening.id))
    if state is None:
        names = tuple(seat.player.name for seat in evening.seats)
    else:
        names = tuple(state.folded.name(str(seat.player_id)) for seat in evening.seats)
    score: tuple[int, ...] | None = None
    winners: tuple[str, ...] = ()
    money: tuple[int, ...] | None = None
    if not evening.is_open:  # an open evening shows its totals, not a result
        outcome = decide(rs, slate, cut_rows(s, evening.id), is_open=False)
        if outcome.result is not None and outcome.payout is not None:
            score = tuple(outcome.result.score)
            winners = tuple(names[seat] for side in outcome.result.winners for seat in rs.seats_of(side))
            money = tuple(outcome.payout.net)
    return EveningSummary(
        public_id=evening.public_id,
        created_at=evening.created_at,
        ended_at=evening.ended_at,
        status=evening.status,
        ended_early=evening.ended_early,
        variant=rs.variant.value,
        players=names,
        hands=slate.hands_dealt,
        score=score,
        totals=tuple(slate.totals),
        winners=winners,
        money=money,
        stake_rappen=rs.stake.rappen,
        counts_in_money=evening.counts_in_money,
        deleted=state is not None and evening.public_id in state.folded.deleted,
    )


def history(circle: Circle) -> list[EveningSummary]:
    """The circle's evenings, newest first (open ones too, without a result yet; deleted
    ones marked)."""
    state = housekeeping.folded(circle)
    return [summarize(ev, state) for ev in _evenings(circle)]


def player_records(circle: Circle) -> list[PlayerRecord]:
    """Per player of the circle (in force: merged players count for the one kept, under the
    name used now): ended evenings not deleted, wins and net money; by name."""
    state = housekeeping.folded(circle)
    folded = state.folded
    active = [int(p) for p in folded.active]
    played = dict.fromkeys(active, 0)
    wins = dict.fromkeys(active, 0)
    money = dict.fromkeys(active, 0)
    for ev in _evenings(circle):
        if ev.is_open or ev.public_id in folded.deleted:
            continue
        summary = summarize(ev, state)
        if summary.money is None:  # pragma: no cover - an ended evening always has a result
            continue
        winners = set(summary.winners)
        for seat in ev.seats:
            pid = int(folded.canonical(str(seat.player_id)))
            played[pid] += 1
            if ev.counts_in_money:
                money[pid] += summary.money[seat.seat]
            if summary.players[seat.seat] in winners:
                wins[pid] += 1
    records = [PlayerRecord(p, folded.names[str(p)], played[p], wins[p], money[p]) for p in active]
    return sorted(records, key=lambda r: r.name.casefold())
