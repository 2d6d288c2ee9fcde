"""How one change of an evening is applied (every use case of ``evenings`` goes through ``apply``).

One transaction: lock the evening row (an evening deleted as a test is refused there,
``EveningDeleted``: its row says so), replay a repeated request id as a no-op (the same id with
another body: ``RequestIdReused``), check ``expected_version`` (``StaleVersion``, nothing written;
the refusal notes the moment, ``write_queue.hold_off``), run the change (it checks the rules and
appends rows), bump ``version``, commit; then hand the committed version's rows to the answer's
snapshot. Writes to one evening take turns per worker (``write_queue``).

A hand queued on an offline phone (issue 11) carries the version it was made on and the request
ids of that phone's earlier queued hands (``queued_after``): it is accepted on a newer version
only if every change since is one of those hands (``_only_these_since``), so the same real hand
on two offline phones never lands twice.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection
from typing import cast

from sqlalchemy import Table, bindparam, insert, select, update
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from ..game.errors import N_, RuleError
from ..models import QUEUED_AFTER_MAX, AppliedRequest, Evening, utcnow
from .errors import EveningDeleted, NotFound, StaleVersion
from .read import snapshot
from .store import tx, write_queue
from .store.requests import check_same, digest

# Built once (building a statement costs more than running it).
_SEEN = select(AppliedRequest.digest, AppliedRequest.action).where(
    AppliedRequest.evening_id == bindparam("evening_id"), AppliedRequest.request_id == bindparam("request_id")
)
_APPLIED = insert(cast(Table, AppliedRequest.__table__))  # Core: no unit of work for an append
_BUMP = (
    update(cast(Table, Evening.__table__))
    .where(cast(Table, Evening.__table__).c.id == bindparam("evening_id"))
    .values(version=bindparam("version"))
)
_CONTENDED = (
    update(cast(Table, Evening.__table__))
    .where(cast(Table, Evening.__table__).c.id == bindparam("evening_id"))
    .values(contended_at=bindparam("at"))
)
_LOCK = (
    select(Evening)
    .where(Evening.id == bindparam("evening_id"))
    .with_for_update()
    .execution_options(populate_existing=True)
)


Change = Callable[[Session, Evening], bool]  # appends rows; returns whether anything changed


def check_queued_after(queued_after: Collection[str] | None) -> frozenset[str] | None:
    if queued_after is None:
        return None
    if isinstance(queued_after, str) or len(queued_after) > QUEUED_AFTER_MAX:
        raise RuleError(N_("This form is out of date. Please try again."), "request_id")
    return frozenset(tx.check_request_id(rid) for rid in queued_after)


def _only_these_since(s: Session, evening_id: int, since: int, now: int, mine: frozenset[str]) -> bool:
    """Whether every change from version ``since`` to ``now`` was one of the hands ``mine``.

    Every change bumps the version by one and its AppliedRequest row records the version
    it made; a hand always changes the slate, so each of ``mine`` that landed owns one
    version. The rule holds when those versions are exactly ``since+1 .. now``.
    """
    if not 0 <= since < now or not mine:
        return False
    made = s.execute(
        select(AppliedRequest.version).where(
            AppliedRequest.evening_id == evening_id,
            AppliedRequest.action == "hand",
            AppliedRequest.version > since,
            AppliedRequest.version <= now,
            AppliedRequest.request_id.in_(sorted(mine)),
        )
    ).scalars()
    return set(made) == set(range(since + 1, now + 1))


def _lock(s: Session, evening_id: int) -> Evening:
    ev = s.execute(_LOCK, {"evening_id": evening_id}).scalar_one_or_none()
    if ev is None:
        raise NotFound(N_("There is no such evening in this circle."), "evening_not_found")
    if ev.deleted:  # deleted as a test evening (housekeeping): known from the row just locked
        raise EveningDeleted()
    return ev


def apply(
    evening: Evening,
    *,
    expected_version: int,
    request_id: str,
    action: str,
    asked: dict[str, object],
    change: Change,
    ended_ok: bool = False,
    queued_after: frozenset[str] | None = None,
) -> Evening:
    """Run ``change`` once per request id. ``asked``: the request's parameters (their digest
    is kept; the same id with other parameters raises ``RequestIdReused``).

    Writes to one evening take turns in this worker (``write_queue``): one that waits while another
    commits a newer version is answered ``StaleVersion`` at once, unless it is the repeat of a
    request already applied (then it is answered as that) or an offline phone's queued hand."""
    tx.check_request_id(request_id)
    evening_id = evening.id
    fingerprint = digest(action, **asked)
    may_leave = queued_after is None

    def locked(seen: Callable[[int], None], may_yield: bool) -> Evening:
        refused: int | None = None
        with tx.write(keep=True) as s:
            s.info.pop(APPENDED, None)
            s.info.pop(CUTS_ADDED, None)
            ev = _lock(s, evening_id)
            public_id, before = ev.public_id, ev.version
            seen(before)
            applied = s.execute(_SEEN, {"evening_id": evening_id, "request_id": request_id}).first()
            if applied is not None:
                check_same(applied.digest, fingerprint, same_action=applied.action == action)
                return ev  # a double tap or a replayed request: recorded once already
            if ev.version != expected_version and not (
                queued_after is not None
                and _only_these_since(s, evening_id, expected_version, ev.version, queued_after)
            ):
                # lost the race: noted (and committed), so the next write on the fresh version
                # yields once to the phones that lost (write_queue.hold_off)
                refused = ev.version
                s.execute(_CONTENDED, {"evening_id": evening_id, "at": utcnow()})
            else:
                wait = write_queue.hold_off(ev.contended_at, utcnow(), evening_id) if may_yield else 0.0
                if wait > 0:
                    raise _Yield(wait)  # rolled back: nothing written, the lock let go
                if not ev.is_open and not ended_ok:
                    raise RuleError(N_("This evening has ended; its slate can no longer change."), "evening_ended")
                made = before
                if change(s, ev):
                    made = before + 1  # one UPDATE, no unit of work (the object keeps it as committed)
                    s.execute(_BUMP, {"evening_id": evening_id, "version": made})
                    set_committed_value(ev, "version", made)
                    snapshot.hand_over_now(s, ev, made)  # the answer reads nothing more
                s.execute(
                    _APPLIED,
                    {
                        "evening_id": evening_id,
                        "request_id": request_id,
                        "action": action,
                        "version": made,
                        "digest": fingerprint,
                        "created_at": utcnow(),
                    },
                )
        if refused is not None:
            raise StaleVersion(refused)
        seen(made)  # committed
        if made != before:
            _hand_over_rows(s, (evening_id, public_id), before, made)
        return ev

    def run(may_yield: bool) -> Evening:
        try:
            with write_queue.turn(evening_id, expected_version, may_leave=may_leave) as seen:
                return locked(seen, may_yield)
        except write_queue.Superseded as gone:
            if not _was_applied(evening_id, request_id):
                raise StaleVersion(gone.version) from None
        with write_queue.turn(evening_id, expected_version, may_leave=False) as seen:  # a repeat: answered as one
            return locked(seen, False)

    try:
        return run(may_yield=may_leave)  # a queued offline hand never yields
    except _Yield as waiting:
        time.sleep(waiting.seconds)  # outside the lock and the turn: the others may go first
    return run(may_yield=False)


class _Yield(Exception):  # a state, not a failure
    """A write on the fresh version waits before trying again (``write_queue.hold_off``)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
        self.seconds = seconds


APPENDED = "scorekeeper.appended_entries"  # this write's new entry rows (session.info)
CUTS_ADDED = "scorekeeper.cuts_added"


def _hand_over_rows(s: Session, evening: tuple[int, str], before: int, made: int) -> None:
    """The rows of the version just committed (``made``), for the snapshot the answer reads: those
    of the version before (as the write read them under the lock) and the ones it appended."""
    previous = snapshot.kept_entries(evening, before)
    appended = s.info.pop(APPENDED, [])
    cuts = None if s.info.pop(CUTS_ADDED, False) else snapshot.kept_cuts(evening, before)
    snapshot.keep_rows(evening, made, None if previous is None else (*previous, *appended), cuts)


def _was_applied(evening_id: int, request_id: str) -> bool:
    """Whether the request id was applied to the evening (read outside any lock, afresh)."""
    s = tx.session()
    if s.in_transaction():
        s.rollback()  # a fresh look: the request's earlier reads may predate the repeat's original
    return s.execute(_SEEN, {"evening_id": evening_id, "request_id": request_id}).first() is not None
