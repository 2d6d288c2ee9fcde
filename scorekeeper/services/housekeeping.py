"""Housekeeping a group needs (issue 9, point 12): rename a player, merge two players
who are the same person, delete a test evening, and undo any of these.

Each change is an appended ``HousekeepingRow`` (never updated, never deleted); the
rules are the pure fold's (``history.housekeeping.verify``): a change that would break
them (a name taken, two players of one table merged, ...) is a ``RuleError`` and writes
nothing. ``folded(circle)`` gives who is who now (three statements), which the records,
the money, the statistics and the export honour through ``history.housekeeping``.

Every change carries a request id (unique per circle): a repeat answers the change
already written. The circle row is locked while a change is checked and written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session, aliased

from ..game.errors import N_, RuleError
from ..history import housekeeping as hk
from ..history.records import Housekeeping, HousekeepingKind
from ..history.records import Player as PlayerRecord
from ..models import Circle, Evening, HousekeepingRow, Player, Seat
from . import tx
from .errors import NotFound

__all__ = [
    "Change",
    "EveningLabel",
    "PlayerNow",
    "State",
    "changes",
    "delete_evening",
    "evening_labels",
    "events_of",
    "folded",
    "merge_players",
    "players_now",
    "preview",
    "refuse_twice",
    "rename_player",
    "resolve",
    "state_in",
    "undo_change",
]


@dataclass(frozen=True, slots=True)
class State:
    """The circle's housekeeping as it stands: the fold, the log, the stored players."""

    folded: hk.Folded
    events: tuple[Housekeeping, ...]
    players: tuple[PlayerRecord, ...]
    seats: dict[str, tuple[str, ...]]  # evening public id -> player ids (text) in seat order


@dataclass(frozen=True, slots=True)
class Change:
    """One event of the log, for the pages: what it did and whether it is still in force."""

    event: Housekeeping
    in_force: bool  # may be taken back now (an undo itself never is)
    undone_by: int | None  # seq of the undo that took it back


def _players(s: Session, circle_id: int) -> tuple[PlayerRecord, ...]:
    rows = s.execute(
        select(Player.id, Player.name, Player.created_at).where(Player.circle_id == circle_id).order_by(Player.id)
    )
    return tuple(PlayerRecord(str(pid), name, created) for pid, name, created in rows)


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
    return tuple(_record(row, public_id) for row, public_id in rows)


def _record(row: HousekeepingRow, evening: str | None) -> Housekeeping:
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


@dataclass(frozen=True, slots=True)
class EveningLabel:
    """An evening as the housekeeping pages name it: when, who (names now), deleted or not."""

    public_id: str
    created_at: datetime
    names: tuple[str, ...]
    deleted: bool


def evening_labels(circle: Circle, state: State) -> list[EveningLabel]:
    """The circle's evenings, newest first (one statement)."""
    rows = tx.session().execute(
        select(Evening.public_id, Evening.created_at, Seat.player_id)
        .join(Seat, Seat.evening_id == Evening.id)
        .where(Evening.circle_id == circle.id)
        .order_by(Evening.created_at.desc(), Evening.id.desc(), Seat.seat)
    )
    found: dict[str, tuple[datetime, list[str]]] = {}
    for public_id, created_at, player_id in rows:
        found.setdefault(public_id, (created_at, []))[1].append(state.folded.name(str(player_id)))
    return [EveningLabel(pid, when, tuple(names), pid in state.folded.deleted) for pid, (when, names) in found.items()]


def changes(state: State) -> list[Change]:
    """The log, newest first, each with whether it is still in force."""
    undone = {e.undoes: e.seq for e in state.events if e.kind is HousekeepingKind.UNDO and e.undoes is not None}
    live = {e.seq for e in state.folded.in_force}
    return [Change(e, e.seq in live, undone.get(e.seq)) for e in reversed(state.events)]


# --- the changes ----------------------------------------------------------------------------
def _event(
    kind: HousekeepingKind,
    *,
    player: int | None = None,
    into: int | None = None,
    name: str | None = None,
    evening: str | None = None,
    undoes: int | None = None,
    author: str | None = None,
) -> Housekeeping:
    return Housekeeping(
        seq=0,
        kind=kind,
        player=None if player is None else str(player),
        into=None if into is None else str(into),
        name=name,
        evening=evening,
        undoes=undoes,
        author=author,
    )


def _verified(state: State, event: Housekeeping) -> Housekeeping:
    seq = max((e.seq for e in state.events), default=0) + 1
    return hk.verify(state.players, state.seats, state.events, replace(event, seq=seq))


def preview(circle: Circle, event: Housekeeping) -> Housekeeping:
    """The event as it would be written next (checked; RuleError otherwise). Writes nothing:
    the confirmation page shows it before the table agrees."""
    return _verified(folded(circle), event)


def _author(author: str | None) -> str | None:
    if author is None or not author.strip():
        return None
    return hk.clean_name(author)


def _write(circle: Circle, event: Housekeeping, request_id: str) -> Housekeeping:
    tx.check_request_id(request_id)
    who = _author(event.author)
    circle_id = circle.id
    with tx.write() as s:
        if s.execute(select(Circle.id).where(Circle.id == circle_id).with_for_update()).scalar_one_or_none() is None:
            raise NotFound(N_("This link does not open any circle."), "circle_not_found")
        seen = s.execute(
            select(HousekeepingRow).where(
                HousekeepingRow.circle_id == circle_id, HousekeepingRow.request_id == request_id
            )
        ).scalar_one_or_none()
        if seen is not None:  # a double tap: written once already
            return _record(seen, event.evening)
        state = state_in(s, circle_id)
        checked = _verified(state, replace(event, author=who))
        evening_id = None
        if checked.evening is not None:
            evening_id = s.execute(
                select(Evening.id).where(Evening.circle_id == circle_id, Evening.public_id == checked.evening)
            ).scalar_one()
        s.add(
            HousekeepingRow(
                circle_id=circle_id,
                seq=checked.seq,
                kind=checked.kind.value,
                player_id=None if checked.player is None else int(checked.player),
                into_id=None if checked.into is None else int(checked.into),
                name=checked.name,
                evening_id=evening_id,
                undoes=checked.undoes,
                request_id=request_id,
                author=who,
            )
        )
    return checked


def rename_player(
    circle: Circle, player: int, name: str, *, request_id: str, author: str | None = None
) -> Housekeeping:
    """``player`` is called ``name`` from now on (everywhere, also in past evenings)."""
    return _write(circle, _event(HousekeepingKind.RENAME, player=player, name=name, author=author), request_id)


def merge_players(
    circle: Circle, player: int, into: int, *, request_id: str, author: str | None = None
) -> Housekeeping:
    """``player`` is the same person as ``into``: her evenings, money and ratings become ``into``'s."""
    return _write(circle, _event(HousekeepingKind.MERGE, player=player, into=into, author=author), request_id)


def delete_evening(circle: Circle, evening: str, *, request_id: str, author: str | None = None) -> Housekeeping:
    """The evening was a test: it counts nowhere (it stays stored, and can be brought back)."""
    return _write(circle, _event(HousekeepingKind.DELETE_EVENING, evening=evening, author=author), request_id)


def undo_change(circle: Circle, seq: int, *, request_id: str, author: str | None = None) -> Housekeeping:
    """Take back the change ``seq`` (any change still in force)."""
    return _write(circle, _event(HousekeepingKind.UNDO, undoes=seq, author=author), request_id)


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
    known = [i for i in ids if i is not None]
    if len(set(known)) != len(known):
        raise RuleError(N_("Every player sits at the table once."), "players_distinct")
