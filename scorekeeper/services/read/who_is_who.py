"""Who is who now in a circle: its housekeeping log folded (renames, merges, evenings deleted as
tests, undos; the rules are ``history.housekeeping``'s), read in three statements, for the pages,
the records, the money, the statistics and the export. The changes themselves are written by the
use case ``services.housekeeping``.

- ``folded(circle)`` / ``state_in(session, circle_id)``: the ``State`` (the fold, the log, the
  stored players and seats); ``events_of``: the log alone (one statement);
- ``players_now``, ``changes``, ``names_before``: what the pages list;
- ``resolve``: the player a typed name stands for now; ``refuse_twice``: two names for one person.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session, aliased

from ...game.table import verify_seated_once
from ...history import housekeeping as hk
from ...history.records import Housekeeping, HousekeepingKind
from ...history.records import Player as HistoryPlayer
from ...models import Circle, Evening, HousekeepingRow, Player, Seat
from ..store import tx


@dataclass(frozen=True, slots=True)
class State:
    """The circle's housekeeping as it stands: the fold, the log, the stored players."""

    folded: hk.Folded
    events: tuple[Housekeeping, ...]
    players: tuple[HistoryPlayer, ...]
    seats: dict[str, tuple[str, ...]]  # evening public id -> player ids (text) in seat order


@dataclass(frozen=True, slots=True)
class Change:
    """One event of the log, for the pages: what it did and whether it is still in force."""

    event: Housekeeping
    in_force: bool  # may be taken back now (an undo itself never is)
    undone_by: int | None  # seq of the undo that took it back


def _players(s: Session, circle_id: int) -> tuple[HistoryPlayer, ...]:
    rows = s.execute(
        select(Player.id, Player.name, Player.created_at).where(Player.circle_id == circle_id).order_by(Player.id)
    )
    return tuple(HistoryPlayer(str(pid), name, created) for pid, name, created in rows)


def _seats(s: Session, circle_id: int) -> dict[str, tuple[str, ...]]:
    rows = s.execute(
        select(Evening.public_id, Seat.player_id)
        .join(Seat, Seat.evening_id == Evening.id)
        .where(Evening.circle_id == circle_id)
        .order_by(Evening.id, Seat.seat)
    )
    out: dict[str, list[str]] = {}
    for public_id, player_id in rows:
        out.setdefault(public_id, []).append(str(player_id))
    return {k: tuple(v) for k, v in out.items()}


def events_of(s: Session, circle_id: int) -> tuple[Housekeeping, ...]:
    """The circle's housekeeping log as history records (one statement)."""
    ev = aliased(Evening)
    rows = s.execute(
        select(HousekeepingRow, ev.public_id)
        .outerjoin(ev, ev.id == HousekeepingRow.evening_id)
        .where(HousekeepingRow.circle_id == circle_id)
        .order_by(HousekeepingRow.seq)
    )
    return tuple(event_of_row(row, public_id) for row, public_id in rows)


def event_of_row(row: HousekeepingRow, evening: str | None) -> Housekeeping:
    return Housekeeping(
        seq=row.seq,
        kind=HousekeepingKind(row.kind),
        player=None if row.player_id is None else str(row.player_id),
        into=None if row.into_id is None else str(row.into_id),
        name=row.name,
        evening=evening,
        undoes=row.undoes,
        author=row.author,
        created_at=row.created_at,
    )


def state_in(s: Session, circle_id: int) -> State:
    players = _players(s, circle_id)
    seats = _seats(s, circle_id)
    events = events_of(s, circle_id)
    return State(hk.fold_events(players, seats, events), events, players, seats)


def folded(circle: Circle) -> State:
    """Who is who now in the circle (three statements)."""
    return state_in(tx.session(), circle.id)


@dataclass(frozen=True, slots=True)
class PlayerNow:
    id: int
    name: str  # the name the player goes by now


def players_now(state: State) -> list[PlayerNow]:
    """The players in force (merged ones left out) under their names now, by name."""
    found = [PlayerNow(int(p), state.folded.names[p]) for p in state.folded.active]
    return sorted(found, key=lambda p: p.name.casefold())


def names_before(state: State) -> dict[int, str]:
    """For each rename of the log (its seq), the name its player went by just before it."""
    out: dict[int, str] = {}
    ordered = sorted(state.events, key=lambda e: e.seq)
    for i, e in enumerate(ordered):
        if e.kind is HousekeepingKind.RENAME and e.player is not None:
            names = hk.fold_stored(state.players, ordered[:i]).names
            if e.player in names:
                out[e.seq] = names[e.player]
    return out


def changes(state: State) -> list[Change]:
    """The log, newest first, each with whether it is still in force."""
    undone = {e.undoes: e.seq for e in state.events if e.kind is HousekeepingKind.UNDO and e.undoes is not None}
    live = {e.seq for e in state.folded.in_force}
    return [Change(e, e.seq in live, undone.get(e.seq)) for e in reversed(state.events)]


def resolve(state: State, names: Sequence[str]) -> list[str | None]:
    """For each typed name, the player id (text) it stands for now, or None for a new player:
    the current name of a player in force first, then a stored name (a renamed or merged
    player's old name), followed to the player it stands for now."""
    current = {state.folded.names[p].casefold(): p for p in state.folded.active}
    stored = {p.name.casefold(): p.id for p in state.players}
    out: list[str | None] = []
    for name in names:
        key = name.casefold()
        if key in current:
            out.append(current[key])
        elif key in stored:
            out.append(state.folded.canonical(stored[key]))
        else:
            out.append(None)
    return out


def refuse_twice(ids: Sequence[str | None]) -> None:
    """Two names typed for one table that stand for one person (after a merge) are refused."""
    verify_seated_once([i for i in ids if i is not None])
