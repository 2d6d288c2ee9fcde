"""Links that opened something once and no longer do (issue 21, ``models.RetiredLink``).

A phone left on an old page polls every few seconds. Were its link answered "not found", every
poll would count against the wrong-token limit, and after some twenty of them every phone behind
the same address (a pub's Wi-Fi) would be refused, the new link too. So a link that stops working
leaves its hash here, with what it was (``write``, ``view``, ``seat``) and why it stopped:

- ``replaced``: a new link took its place (``circles.new_write_link`` / ``new_view_link``, a seat
  handed to another phone or to a computer);
- ``deleted``: its circle was erased (``erase.delete_circle``): the circle's rows go, these hashes
  stay, without the circle (no name, no id);
- ``restored``: ``flask restore`` put back a backup that does not hold it (``after_restore``).

Such a link is answered 410 with that reason (``errors.LinkGone``: the page, the poll, the API)
and never counted as a guess. Only links that were never valid count. Looked up only when a link
opens nothing (one statement by primary key), so the fast poll and every valid link pay nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, bindparam, insert, inspect, select, update
from sqlalchemy.orm import Session

from ..models import Circle, DigitalTable, Evening, RetiredLink, TableSeat, utcnow
from .errors import LinkGone
from .store import tx

WRITE, VIEW, SEAT = "write", "view", "seat"
REPLACED, DELETED, RESTORED = "replaced", "deleted", "restored"

_BY_HASH = select(RetiredLink.kind, RetiredLink.reason, RetiredLink.circle_id).where(
    RetiredLink.token_hash == bindparam("digest")
)  # built once


@dataclass(frozen=True, slots=True)
class Retired:
    kind: str
    reason: str
    circle_id: int | None


def find(digest: str) -> Retired | None:
    """What became of the link with this hash, or None (it never opened anything)."""
    row = tx.session().execute(_BY_HASH, {"digest": digest}).first()
    return None if row is None else Retired(str(row[0]), str(row[1]), row[2])


def gone(digest: str) -> LinkGone | None:
    """The error a circle link with this hash is answered with, or None (never valid: a guess)."""
    found = find(digest)
    if found is None or found.kind == SEAT:
        return None
    return LinkGone(found.reason, found.kind)


def evening_of(digest: str, public_id: str) -> Evening | None:
    """The evening ``public_id`` of the circle whose write link (with this hash) was replaced: to
    repeat, in words, the hand a phone sent to the old link. None for anything else."""
    found = find(digest)
    if found is None or found.kind != WRITE or found.reason != REPLACED or found.circle_id is None:
        return None
    statement = select(Evening).where(Evening.public_id == public_id, Evening.circle_id == found.circle_id)
    return tx.session().execute(statement).scalar_one_or_none()


def retire(s: Session, digest: str, *, kind: str, reason: str, circle_id: int | None) -> None:
    """Inside a write: the link with this hash stops working now (``reason``)."""
    if s.get(RetiredLink, digest) is None:
        s.add(RetiredLink(token_hash=digest, kind=kind, reason=reason, circle_id=circle_id))


def circle_of(s: Session, table_id: int) -> int:
    """The circle a digital table belongs to."""
    found = s.execute(
        select(Evening.circle_id)
        .join(DigitalTable, DigitalTable.evening_id == Evening.id)
        .where(DigitalTable.id == table_id)
    ).scalar_one()
    return int(found)


def erase(s: Session, circle: Circle) -> None:
    """Inside the transaction that erases ``circle``: its links (the current ones, its seats' and
    those replaced before) are kept as ``deleted``, without the circle: hashes, nothing else."""
    circle_id = circle.id
    s.execute(
        update(RetiredLink)
        .where(RetiredLink.circle_id == circle_id)
        .values(reason=DELETED, circle_id=None, retired_at=utcnow())
        .execution_options(synchronize_session=False)
    )
    evenings = select(Evening.id).where(Evening.circle_id == circle_id).scalar_subquery()
    tables = select(DigitalTable.id).where(DigitalTable.evening_id.in_(evenings)).scalar_subquery()
    seats = s.execute(
        select(TableSeat.token_hash).where(TableSeat.table_id.in_(tables), TableSeat.token_hash.is_not(None))
    ).scalars()
    links = [(circle.write_token_hash, WRITE), (circle.view_token_hash, VIEW), *((str(d), SEAT) for d in seats)]
    for digest, kind in links:
        retire(s, digest, kind=kind, reason=DELETED, circle_id=None)
    s.flush()


# --- flask restore ------------------------------------------------------------------------
Known = dict[str, tuple[str, str | None]]  # hash -> (kind, reason: None while it opens something)


def _has_table(conn: Connection) -> bool:
    return bool(inspect(conn).has_table(RetiredLink.__tablename__))


def known_links(conn: Connection) -> Known:
    """Every link hash the database knows now: the valid ones (reason None) and the retired ones."""
    found: Known = {}
    for write, view in conn.execute(select(Circle.write_token_hash, Circle.view_token_hash)):
        found[str(write)] = (WRITE, None)
        found[str(view)] = (VIEW, None)
    for (digest,) in conn.execute(select(TableSeat.token_hash).where(TableSeat.token_hash.is_not(None))):
        found[str(digest)] = (SEAT, None)
    if _has_table(conn):
        for digest, kind, reason in conn.execute(select(RetiredLink.token_hash, RetiredLink.kind, RetiredLink.reason)):
            found.setdefault(str(digest), (str(kind), str(reason)))
    return found


def after_restore(conn: Connection, before: Known) -> int | None:
    """After ``flask restore``: every link known before that the restored data does not know is
    kept as retired (a valid one as ``restored``, a retired one with its reason), so the phones
    holding one are told instead of counted. The number kept; None when the restored database
    has no such table yet (a backup from an older version: ``flask db upgrade`` first)."""
    if not _has_table(conn):
        return None
    now = known_links(conn)
    rows = [
        {"token_hash": digest, "kind": kind, "reason": reason or RESTORED, "circle_id": None, "retired_at": utcnow()}
        for digest, (kind, reason) in before.items()
        if digest not in now
    ]
    if rows:
        conn.execute(insert(RetiredLink), rows)
    return len(rows)
