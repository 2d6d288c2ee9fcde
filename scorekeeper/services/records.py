"""A circle's history and per-player records, recomputed from the stored entries."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from ..models import Circle, Evening, Player, Seat
from . import tx
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


def summarize(evening: Evening) -> EveningSummary:
    """One evening for the history list (its entry and cut rows: two queries)."""
    s = tx.session()
    rs = ruleset_of(evening)
    slate = build_slate(rs, evening.first_dealer, entry_rows(s, evening.id))
    names = tuple(seat.player.name for seat in evening.seats)
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
    )


def history(circle: Circle) -> list[EveningSummary]:
    """The circle's evenings, newest first (open ones too, without a result yet)."""
    return [summarize(ev) for ev in _evenings(circle)]


def player_records(circle: Circle) -> list[PlayerRecord]:
    """Per player of the circle: ended evenings, wins and net money; by name."""
    players = list(
        tx.session().execute(select(Player).where(Player.circle_id == circle.id).order_by(Player.name)).scalars()
    )
    played = {p.id: 0 for p in players}
    wins = {p.id: 0 for p in players}
    money = {p.id: 0 for p in players}
    for summary, ev in ((summarize(ev), ev) for ev in _evenings(circle) if not ev.is_open):
        if summary.money is None:  # pragma: no cover - an ended evening always has a result
            continue
        winners = set(summary.winners)
        for seat in ev.seats:
            pid = seat.player_id
            played[pid] += 1
            money[pid] += summary.money[seat.seat]
            if seat.player.name in winners:
                wins[pid] += 1
    return [PlayerRecord(p.id, p.name, played[p.id], wins[p.id], money[p.id]) for p in players]
