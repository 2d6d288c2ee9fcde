"""Housekeeping a group needs (issue 9, point 12): rename a player, merge two players
who are the same person, delete a test evening, and undo any of these.

Each change is an appended ``HousekeepingRow`` (never updated, never deleted); the
rules are the pure fold's (``history.housekeeping.verify``): a change that would break
them (a name taken, two players of one table merged, ...) is a ``RuleError`` and writes
nothing. Who is who now (the log folded) is a read model: ``read.who_is_who``.

Every change carries a request id (unique per circle): a repeat answers the change
already written; the same id asking for another change is ``RequestIdReused`` (the row
keeps every value it was asked for). The circle row is locked while a change is checked
and written.

A deleted evening's own row says so (``Evening.deleted``, the fold of the log for that
evening), written with the delete and with its undo, and its version moves on: the
evening's reads and writes refuse it (``EveningDeleted``) without a statement more, and
a page left open on it learns at its next poll.
"""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..game.errors import N_, RuleError
from ..history import housekeeping as hk
from ..history.records import Housekeeping, HousekeepingKind
from ..models import Circle, Evening, HousekeepingRow
from .errors import NotFound, RequestIdReused
from .read import memory
from .read.who_is_who import State, event_of_row, folded, state_in
from .store import tx

__all__ = ["delete_evening", "merge_players", "preview", "rename_player", "undo_change"]


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
        if seen is not None:  # a double tap: written once already (the same id asking otherwise: refused)
            done = event_of_row(seen, _public_id(s, seen.evening_id))
            _check_same(done, replace(event, author=who))
            return done
        state = state_in(s, circle_id)
        checked = _verified(state, replace(event, author=who))
        evening_id = None
        if checked.evening is not None:
            evening_id = _evening_id(s, circle_id, checked.evening)
            if checked.kind is HousekeepingKind.DELETE_EVENING:
                _mark_deleted(s, evening_id, True)
        if checked.kind is HousekeepingKind.UNDO:
            target = next(e for e in state.events if e.seq == checked.undoes)
            if target.kind is HousekeepingKind.DELETE_EVENING and target.evening is not None:
                _mark_deleted(s, _evening_id(s, circle_id, target.evening), False)
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
    _store_derived(circle)
    return checked


def _store_derived(circle: Circle) -> None:
    """The outcomes and rating runs this change derives anew, stored by this write."""
    tx.after_write(("circle", circle.id), lambda: memory.store_after_write(circle))


def _public_id(s: Session, evening_id: int | None) -> str | None:
    if evening_id is None:
        return None
    return s.execute(select(Evening.public_id).where(Evening.id == evening_id)).scalar_one_or_none()


def _evening_id(s: Session, circle_id: int, public_id: str) -> int:
    return s.execute(
        select(Evening.id).where(Evening.circle_id == circle_id, Evening.public_id == public_id)
    ).scalar_one()


def _mark_deleted(s: Session, evening_id: int, deleted: bool) -> None:
    """The evening's own row says whether it is deleted (the fold of the log for it, written with the
    event): every read and write knows it from the row. The version moves on, so a page left open on
    it, its poll and every kept copy learn at once that it is gone (or back)."""
    ev = s.execute(select(Evening).where(Evening.id == evening_id).with_for_update()).scalar_one()
    ev.deleted = deleted
    ev.version += 1


def _check_same(done: Housekeeping, asked: Housekeeping) -> None:
    """A repeated request id must ask for the change it wrote (the row keeps every value it was
    asked for, as the purse's settlements do); anything else is ``RequestIdReused``."""
    name = asked.name
    if done.kind is HousekeepingKind.RENAME and asked.kind is HousekeepingKind.RENAME:
        try:
            name = hk.clean_name(asked.name)
        except RuleError:
            raise RequestIdReused() from None
    wrote = (done.kind, done.player, done.into, done.name, done.evening, done.undoes, done.author)
    if wrote != (
        HousekeepingKind(asked.kind),
        asked.player,
        asked.into,
        name,
        asked.evening,
        asked.undoes,
        asked.author,
    ):
        raise RequestIdReused()


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
