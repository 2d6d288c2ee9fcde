"""Whose turn it is to write an evening, within one worker (issue 15).

Phones that write the same evening at the same moment take turns, one at a time per worker, the
next turn drawn among those waiting (they retried at the same moment, in an order that says nothing
about them), before the database's lock (SQLite's writers' queue, PostgreSQL's row lock). The
worker notes the evening's version each write read under the lock and each write committed; a
write still waiting for its turn that asked for an older version could never pass the version
check, so it leaves the queue at once with that version (``Superseded``), as early as the phone
that won learns that it won: every phone then tries again on the fresh slate on an equal footing
(and the winner's next hand yields once, as below: it may come before the others' retries).
Without it, the losers found out one by one, each through a turn at the database's lock, while
the winner's next hand was already queued ahead of them: one phone of a table won nearly every race.

Across workers (and hosts) a worker cannot see the others' queues: the phone that won answers first,
and its next hand, on the version it just made, would reach the database's lock before the phones
that lost there have their refusal and the fresh slate back. So a write refused at the lock notes
the moment on the evening (``evenings.contended_at``, committed with the refusal), and for a short
while after it (``HOLD_OFF_S``) a write on the fresh version yields once (``hold_off``): it lets
the lock go, waits until that while is over plus a random part of ``JITTER_S``, and tries again.
The phones that just lost retry in the same while and wait the same way, so the next hand goes to
whichever of them the draw favours. A phone alone at an evening never meets a refusal and never
waits; a repeat is answered before this; a queued offline hand does not yield.

Only a hint for leaving early: the database's own check under the lock decides every write. The
caller makes sure a superseded write is not the repeat of one already applied (that one is answered
as the repeat it is) and lets a queued offline hand (``queued_after``) wait for its turn.
"""

from __future__ import annotations

import random
import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from time import monotonic
from typing import Final

HOLD_OFF_S: Final = 0.02  # after a refusal, writes on the fresh version wait this long ...
JITTER_S: Final = 0.02  # ... plus up to this, drawn: the order in which they then try says nothing


def hold_off(contended_at: datetime | None, now: datetime, evening_id: int | None = None) -> float:
    """Seconds a write on the evening's current version waits before trying again, once: 0 unless a
    write lost a race within ``HOLD_OFF_S`` (then until that has passed, plus a drawn jitter): at the
    database's lock (``contended_at``, any worker) or in this worker's queue (``evening_id``'s)."""
    ago = [] if contended_at is None else [(now - contended_at).total_seconds()]
    lost = _LOST.get(evening_id) if evening_id is not None else None
    if lost is not None:
        ago.append(monotonic() - lost)
    fresh = [a for a in ago if 0 <= a < HOLD_OFF_S]  # not long ago, nor from a clock that went back
    if not fresh:
        return 0.0
    return HOLD_OFF_S - min(fresh) + _RANDOM.uniform(0.0, JITTER_S)


# When a write of this worker last left an evening's queue superseded (monotonic): the phone that
# won may already be sending its next hand, before the refusal of a phone that lost at another
# worker is noted at the lock; that hand yields too.
_LOST: dict[int, float] = {}
_LOST_KEPT = 1024  # evenings; past it the old notes go


def _note_lost(evening_id: int) -> None:
    now = monotonic()
    if len(_LOST) >= _LOST_KEPT:
        for old in [k for k, t in list(_LOST.items()) if now - t >= HOLD_OFF_S]:
            _LOST.pop(old, None)
    _LOST[evening_id] = now


class Superseded(Exception):  # a state, not a failure of this module
    """The evening has moved past the version the write asked for (``version``)."""

    def __init__(self, version: int) -> None:
        super().__init__(version)
        self.version = version


@dataclass(eq=False)
class _Evening:
    cond: threading.Condition = field(default_factory=threading.Condition)
    queue: deque[object] = field(default_factory=deque)
    held: bool = False
    chosen: object | None = None  # the waiter whose turn is next (drawn when the last one ended)
    version: int | None = None  # the latest this worker saw (read under the lock or committed)
    users: int = 0


_EVENINGS: dict[int, _Evening] = {}
_GUARD = threading.Lock()


def _enter(evening_id: int) -> _Evening:
    with _GUARD:
        found = _EVENINGS.get(evening_id)
        if found is None:
            found = _EVENINGS[evening_id] = _Evening()
        found.users += 1
        return found


def _leave(evening_id: int, ev: _Evening) -> None:
    with _GUARD:
        ev.users -= 1
        if ev.users == 0:
            del _EVENINGS[evening_id]


def _wait(evening_id: int, ev: _Evening, expected_version: int, may_leave: bool) -> None:
    me = object()
    with ev.cond:
        ev.queue.append(me)
        while True:
            if may_leave and ev.version is not None and ev.version > expected_version:
                _note_lost(evening_id)
                ev.queue.remove(me)
                if ev.chosen is me:
                    ev.chosen = _draw(ev)
                ev.cond.notify_all()  # another may be next now
                raise Superseded(ev.version)
            if not ev.held and ev.chosen in (None, me):
                break
            ev.cond.wait()
        ev.queue.remove(me)
        ev.chosen = None
        ev.held = True


def _draw(ev: _Evening) -> object | None:
    """The next turn among those waiting, drawn: phones that retried on the fresh slate at the same
    moment come in an order that says nothing about them (first come would let the same one win
    every time)."""
    return _RANDOM.choice(ev.queue) if ev.queue else None


_RANDOM = random.Random()


def _seen(ev: _Evening, version: int) -> None:
    with ev.cond:
        if ev.version is None or version > ev.version:
            ev.version = version


@contextmanager
def turn(evening_id: int, expected_version: int, *, may_leave: bool = True) -> Iterator[Callable[[int], None]]:
    """Wait for the evening's turn in this worker; yields ``seen(version)``, to note the version the
    write read under the lock and the one it committed. Raises ``Superseded`` (``may_leave``), also
    while waiting, once the evening is known to be past ``expected_version``."""
    ev = _enter(evening_id)
    try:
        _wait(evening_id, ev, expected_version, may_leave)
        try:
            yield partial(_seen, ev)
        finally:
            with ev.cond:
                ev.held = False
                ev.chosen = _draw(ev)
                ev.cond.notify_all()
    finally:
        _leave(evening_id, ev)
