"""Housekeeping a group needs (issue 9, point 12), as a pure fold.

Renaming a player, merging two players who are the same person, and deleting a test
evening are appended events (``Housekeeping``), each one undoable by a later ``undo``
event; nothing is erased. ``fold`` applies the events in force on top of the stored
players and evenings, so every statistic, the purse and an export honour them without
the database:

- a rename changes the name shown for that player everywhere (also in past evenings);
- a merge makes ``player`` an alias of ``into``: every evening, hand, settlement and
  rating of ``player`` becomes ``into``'s, under ``into``'s name (chains are followed);
- a deleted evening counts nowhere (statistics, ratings, money, purse, export of
  results); undoing the delete brings it back.

``verify`` is the gate (pokerkit style): the state after the event must still hold
(``check_state``): every player in force has a name of 1 to 40 characters, unique
without regard to case; no evening in force seats one person twice (two players who
sat at the same table cannot be merged, and a delete cannot be undone if that would
break a merge made since). An undo takes back any event in force, not only the last.
Every failure is a ``RuleError`` with an ``N_()`` template; nothing is applied.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final

from ..game.errors import N_, RuleError
from .records import (
    CircleRecord,
    EveningId,
    EveningRecord,
    Housekeeping,
    HousekeepingKind,
    Player,
    PlayerId,
    Settlement,
)

NAME_MAX: Final = 40

ERROR_CODES: Final[dict[str, str]] = {
    "player_unknown": N_("There is no such player in this circle."),
    "evening_unknown": N_("There is no such evening in this circle."),
    "player_merged": N_("%(name)s has been merged into %(into)s; change %(into)s instead."),
    "merge_self": N_("A player cannot be merged with herself."),
    "merge_same_evening": N_("%(name)s and %(into)s played at the same table: they cannot be one person."),
    "player_name": N_("A name has 1 to %(limit)s characters."),
    "name_taken": N_("%(name)s is already a player of this circle."),
    "evening_deleted": N_("This evening is already deleted."),
    "change_unknown": N_("There is no change %(seq)s to take back."),
    "change_undone": N_("Change %(seq)s has already been taken back."),
    "housekeeping_order": N_("The changes of this circle are out of order (change %(seq)s)."),
}


def _fail(code: str, **params: object) -> RuleError:
    return RuleError(ERROR_CODES[code], code, **params)


def clean_name(name: object) -> str:
    """Trim and collapse whitespace; 1 to 40 characters, no control characters."""
    text = " ".join(str(name or "").split())
    if not text or len(text) > NAME_MAX or any(ord(ch) < 32 for ch in text):
        raise _fail("player_name", limit=NAME_MAX)
    return text


@dataclass(frozen=True, slots=True)
class Folded:
    """Who is who now: the result of the housekeeping events in force."""

    names: Mapping[PlayerId, str]  # every stored player id -> the name it goes by now (its own, renamed)
    alias: Mapping[PlayerId, PlayerId]  # merged-away id -> the id it was merged into (one step)
    deleted: frozenset[EveningId]
    in_force: tuple[Housekeeping, ...]  # rename/merge/delete events not taken back, in order

    def canonical(self, player: PlayerId) -> PlayerId:
        """The player an id stands for now (itself unless merged; chains followed)."""
        seen = {player}
        while player in self.alias:
            player = self.alias[player]
            if player in seen:  # pragma: no cover - refused by verify
                raise AssertionError("merge cycle")
            seen.add(player)
        return player

    def name(self, player: PlayerId) -> str:
        return self.names[self.canonical(player)]

    def members(self, player: PlayerId) -> tuple[PlayerId, ...]:
        """Every stored id that stands for ``player`` now (itself first)."""
        target = self.canonical(player)
        return (target,) + tuple(sorted(p for p in self.names if p != target and self.canonical(p) == target))

    @property
    def active(self) -> tuple[PlayerId, ...]:
        """The players in force (not merged away), in stored order."""
        return tuple(p for p in self.names if p not in self.alias)


def _apply(
    names: dict[PlayerId, str], alias: dict[PlayerId, PlayerId], deleted: set[EveningId], e: Housekeeping
) -> None:
    if e.kind is HousekeepingKind.RENAME:
        assert e.player is not None and e.name is not None
        names[e.player] = e.name
    elif e.kind is HousekeepingKind.MERGE:
        assert e.player is not None and e.into is not None
        alias[e.player] = e.into
    elif e.kind is HousekeepingKind.DELETE_EVENING:
        assert e.evening is not None
        deleted.add(e.evening)


def _state(players: Sequence[Player], in_force: Iterable[Housekeeping]) -> Folded:
    names = {p.id: p.name for p in players}
    alias: dict[PlayerId, PlayerId] = {}
    deleted: set[EveningId] = set()
    kept = tuple(in_force)
    for e in kept:
        _apply(names, alias, deleted, e)
    return Folded(names, alias, frozenset(deleted), kept)


def check_state(state: Folded, seats: Mapping[EveningId, Sequence[PlayerId]]) -> None:
    """The invariants every state must keep (RuleError otherwise)."""
    taken: dict[str, PlayerId] = {}
    for p in state.active:
        key = state.names[p].casefold()
        if key in taken:
            raise _fail("name_taken", name=state.names[p])
        taken[key] = p
    for evening, players in seats.items():
        if evening in state.deleted:
            continue
        now = [state.canonical(p) for p in players]
        if len(set(now)) != len(now):
            twice = sorted(p for p in players if now.count(state.canonical(p)) > 1)
            raise _fail("merge_same_evening", name=state.names[twice[0]], into=state.names[twice[1]])


def _check_player(state: Folded, player: PlayerId | None) -> PlayerId:
    if player is None or player not in state.names:
        raise _fail("player_unknown")
    if player in state.alias:
        raise _fail("player_merged", name=state.names[player], into=state.name(player))
    return player


def verify(
    players: Sequence[Player],
    seats: Mapping[EveningId, Sequence[PlayerId]],
    events: Sequence[Housekeeping],
    event: Housekeeping,
) -> Housekeeping:
    """Check ``event`` as the next one after ``events`` (already valid). Returns the event
    as it will be stored (a rename's name cleaned). Raises RuleError; nothing applied."""
    state = fold_events(players, seats, events)
    if events and event.seq <= max(e.seq for e in events):
        raise _fail("housekeeping_order", seq=event.seq)
    return _verify_one(players, seats, state, event, events)


def fold_events(
    players: Sequence[Player], seats: Mapping[EveningId, Sequence[PlayerId]], events: Sequence[Housekeeping]
) -> Folded:
    """The state after ``events`` (in seq order), each checked as ``verify`` would:
    a log that breaks a rule raises that RuleError with the event's ``seq`` added."""
    kept: list[Housekeeping] = []
    last = 0
    for e in sorted(events, key=lambda e: e.seq):
        if e.seq <= last:
            raise _fail("housekeeping_order", seq=e.seq)
        last = e.seq
        state = _state(players, kept)
        try:
            checked = _verify_one(players, seats, state, e, events)
        except RuleError as err:
            err.params.setdefault("seq", e.seq)
            raise
        if checked.kind is HousekeepingKind.UNDO:
            kept = [k for k in kept if k.seq != checked.undoes]
        else:
            kept.append(checked)
    return _state(players, kept)


def fold_stored(players: Sequence[Player], events: Sequence[Housekeeping]) -> Folded:
    """The state after a log that was checked when each event was written (the database's):
    undos applied, nothing checked again, so ``players`` need hold only the players asked
    about and those merged into (a page naming one evening's seats)."""
    kept: list[Housekeeping] = []
    for e in sorted(events, key=lambda e: e.seq):
        if e.kind is HousekeepingKind.UNDO:
            kept = [k for k in kept if k.seq != e.undoes]
        else:
            kept.append(e)
    return _state(players, kept)


def _verify_one(
    players: Sequence[Player],
    seats: Mapping[EveningId, Sequence[PlayerId]],
    state: Folded,
    event: Housekeeping,
    history: Sequence[Housekeeping],
) -> Housekeeping:
    """``verify`` against the already folded ``state`` of the events ``history``."""
    kind = HousekeepingKind(event.kind)
    event = replace(event, kind=kind)  # a kind given as text (a database row) is stored as the enum
    kept = list(state.in_force)
    if kind is HousekeepingKind.UNDO:
        target = [e for e in kept if e.seq == event.undoes]
        if not target:
            earlier = [e for e in history if e.seq == event.undoes and e.seq < event.seq]
            if earlier and earlier[0].kind is not HousekeepingKind.UNDO:
                raise _fail("change_undone", seq=event.undoes)
            raise _fail("change_unknown", seq=event.undoes)
        kept.remove(target[0])
        check_state(_state(players, kept), seats)
        return event
    if kind is HousekeepingKind.RENAME:
        _check_player(state, event.player)
        event = replace(event, name=clean_name(event.name))
    elif kind is HousekeepingKind.MERGE:
        if _check_player(state, event.player) == _check_player(state, event.into):
            raise _fail("merge_self")
    elif event.evening not in seats:
        raise _fail("evening_unknown")
    elif event.evening in state.deleted:
        raise _fail("evening_deleted")
    check_state(_state(players, [*kept, event]), seats)
    return event


@dataclass(frozen=True, slots=True)
class CircleView:
    """A circle as every statistic sees it: housekeeping applied.

    ``players``: the players in force under their current names (stored order);
    ``evenings``: the evenings not deleted, seats given as the players they are now;
    ``settlements``: payer and payee given as the players they are now.
    """

    name: str
    players: tuple[Player, ...]
    evenings: tuple[EveningRecord, ...]
    settlements: tuple[Settlement, ...]
    folded: Folded

    def player_name(self, player: PlayerId) -> str:
        return self.folded.name(player)


def seats_of(circle: CircleRecord) -> dict[EveningId, tuple[PlayerId, ...]]:
    return {ev.id: ev.seats for ev in circle.evenings}


def view(circle: CircleRecord) -> CircleView:
    """Apply the circle's housekeeping events (checked) to its stored records."""
    folded = fold_events(circle.players, seats_of(circle), circle.housekeeping)
    canon = folded.canonical
    players = tuple(Player(p.id, folded.names[p.id], p.created_at) for p in circle.players if p.id not in folded.alias)
    evenings = tuple(
        ev if all(canon(p) == p for p in ev.seats) else replace(ev, seats=tuple(canon(p) for p in ev.seats))
        for ev in circle.evenings
        if ev.id not in folded.deleted
    )
    settlements = tuple(
        replace(
            s,
            payer=None if s.payer is None else canon(s.payer),
            payee=None if s.payee is None else canon(s.payee),
        )
        for s in circle.settlements
    )
    return CircleView(circle.name, players, evenings, settlements, folded)
