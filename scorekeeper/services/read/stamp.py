"""What a slate page shows of its evening, as one small value: the page's stamp (issue 15).

A phone polls the live fragment and asks again for the slate page it has (its ETag); both are
answered "unchanged" from one statement, so the stamp must change whenever anything the page
shows changes. Besides the evening's version (every change of the slate bumps it) that is:

- the outlook setting (a setting, not a change of the slate: it bumps no version);
- the evening's open digital table and the number of its latest hand: opening or closing a table
  and dealing a hand change what the slate page offers ("Deal digitally", the digital table's
  button, "A hand is being dealt digitally" with "Open the table" instead of the record form),
  and bump no version either;
- the circle's housekeeping that names players (renames, merges and their undos change the names
  on every slate of the circle): the rows are append-only, so their number says whether one came.

The circle's name never changes; ending, reopening, cuts, corrections and undos bump the version.
The kind of link (write or onlookers) comes with the link, the language and the release with the
request and the process (``web/poll.py`` adds them to the ETag).

``stamp_of(snapshot)`` is made of the very rows the snapshot read (``load_snapshot`` keeps them),
``by_link`` reads the same in one statement without a session (the fast path before the request
cycle), ``poll_state`` in one statement through the session (the Flask views). A test holds the
three equal after every kind of change.
"""

from __future__ import annotations

import hashlib
import weakref
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, Select, bindparam, func, or_, select

from ...game.errors import N_
from ...models import Circle, DigitalTable, Evening, HousekeepingRow, TableHand, is_public_id
from ..errors import NotFound
from ..store import tx
from ..store.tokens import hash_token
from .snapshot import EveningSnapshot


@dataclass(frozen=True, slots=True)
class Stamp:
    """Everything of an evening its slate page shows, but the slate itself, beside its version."""

    version: int
    hidden: bool  # the outlook is hidden
    table: str  # "" or "<open table's public id>:<its latest hand's number, 0 before the first>"
    names: int  # the circle's housekeeping events that name players

    def digest(self) -> str:
        """A short digest of the whole stamp (the table's id is not given out in an ETag)."""
        text = f"{self.version}|{int(self.hidden)}|{self.table}|{self.names}"
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def stamp_of(snap: EveningSnapshot) -> Stamp:
    """The stamp of what the snapshot shows (from the rows it read)."""
    return Stamp(snap.version, snap.outlook_hidden, snap.table_key, snap.name_events)


# The open table (the first by id, as the snapshot takes it), its latest hand, the naming events.
_OPEN_TABLE = (
    select(DigitalTable.id)
    .where(DigitalTable.evening_id == Evening.id, DigitalTable.status == "open")
    .order_by(DigitalTable.id)
    .limit(1)
    .correlate(Evening)
    .scalar_subquery()
)
_TABLE_ID = select(DigitalTable.public_id).where(DigitalTable.id == _OPEN_TABLE).correlate(Evening).scalar_subquery()
_TABLE_HAND = select(func.max(TableHand.number)).where(TableHand.table_id == _OPEN_TABLE).correlate(Evening)
_NAMES = (
    select(func.count())
    .select_from(HousekeepingRow)
    .where(HousekeepingRow.circle_id == Evening.circle_id, HousekeepingRow.kind != "delete_evening")
    .correlate(Evening)
    .scalar_subquery()
)
_COLUMNS = (Evening.version, Evening.outlook_hidden, _TABLE_ID, _TABLE_HAND.scalar_subquery(), _NAMES)

# Built once (SQLAlchemy caches the compiled form): link -> circle -> evening and its stamp.
_BY_LINK = (
    select(*_COLUMNS, Circle.write_token_hash == bindparam("digest"), Evening.circle_id)
    .join(Circle, Circle.id == Evening.circle_id)
    .where(
        Evening.public_id == bindparam("public_id"),
        or_(Circle.write_token_hash == bindparam("digest"), Circle.view_token_hash == bindparam("digest")),
    )
)
_OF_CIRCLE = select(*_COLUMNS).where(
    Evening.public_id == bindparam("public_id"), Evening.circle_id == bindparam("circle_id")
)


def _stamp(row: tuple[object, ...]) -> Stamp:
    version, hidden, table, hand, names = row[:5]
    return Stamp(
        int(version),  # type: ignore[call-overload]  # a DBAPI row's value, untyped: an integer column
        bool(hidden),
        "" if table is None else f"{table}:{hand or 0}",
        int(names or 0),  # type: ignore[call-overload]  # a DBAPI row's value, untyped: a count or NULL
    )


class Prepared:
    """A statement compiled once for an engine and run on one of its pooled DBAPI connections,
    past SQLAlchemy's execution layer (events, result processing): the fast poll's one statement
    costs a fifth of what it did. Its values are plain (text, numbers); rows come back as tuples.
    SQLite's connections run it in autocommit (the app begins its own transactions), so no BEGIN."""

    def __init__(self, engine: Engine, statement: Select[Any]) -> None:
        self.engine = engine
        self.compiled = statement.compile(dialect=engine.dialect)
        self.sql = str(self.compiled)
        self.order = tuple(self.compiled.positiontup or ()) if engine.dialect.positional else None

    def first(self, values: dict[str, Any]) -> tuple[Any, ...] | None:
        params = self.compiled.construct_params(values)
        args: Any = tuple(params[name] for name in self.order) if self.order is not None else params
        conn = self.engine.raw_connection()
        try:
            cursor = conn.cursor()
            try:
                cursor.execute(self.sql, args)
                row = cursor.fetchone()
            finally:
                cursor.close()
        except BaseException:
            conn.invalidate()  # a connection the server dropped never goes back to the pool
            raise
        finally:
            conn.close()  # back to the pool
        return None if row is None else tuple(row)


def valid_link(token: str, public_id: str) -> bool:
    """Whether ``token`` and ``public_id`` could name a link and an evening at all."""
    return bool(token) and len(token) <= 128 and is_public_id(public_id)


def link_row(engine: Engine, token: str, public_id: str) -> tuple[Any, ...] | None:
    """The row of ``_BY_LINK`` for the link ``token`` and the evening ``public_id``, or None.
    One statement on a pooled connection, no session; the hashed token is looked up every time."""
    if not valid_link(token, public_id):
        return None
    prepared = _PREPARED.get(engine)
    if prepared is None:
        prepared = _PREPARED[engine] = Prepared(engine, _BY_LINK)
    return prepared.first(_link_values(token, public_id))


def _link_values(token: str, public_id: str) -> dict[str, str]:
    return {"public_id": public_id, "digest": hash_token(token)}


def stamp_of_row(row: tuple[Any, ...]) -> tuple[Stamp, bool, int]:
    """(the stamp, whether the link may write, the circle's id) of a ``_BY_LINK`` row."""
    return _stamp(row), bool(row[5]), int(row[6])


def by_link(engine: Engine, token: str, public_id: str) -> tuple[Stamp, bool] | None:
    """(the stamp, whether the link may write) of the evening ``public_id`` of the circle the link
    ``token`` opens, or None (no such link or evening: the caller takes the full path, which
    refuses and counts it). Nothing cached: a rotated link stops here at once, on every worker
    and host (``stamp_watch`` keeps these answers on PostgreSQL, dropped on the database's word)."""
    row = link_row(engine, token, public_id)
    return None if row is None else stamp_of_row(row)[:2]


_PREPARED: weakref.WeakKeyDictionary[Engine, Prepared] = weakref.WeakKeyDictionary()


def of_link(token: str, public_id: str) -> tuple[Stamp, bool] | None:
    """``by_link`` through the request's session (the same one statement)."""
    if not valid_link(token, public_id):
        return None
    row = tx.session().execute(_BY_LINK, _link_values(token, public_id)).first()
    return None if row is None else stamp_of_row(tuple(row))[:2]


def poll_state(circle: Circle, public_id: str) -> Stamp:
    """The stamp of the circle's evening: one small statement; raises NotFound."""
    row = (
        tx.session().execute(_OF_CIRCLE, {"public_id": public_id, "circle_id": circle.id}).first()
        if is_public_id(public_id)
        else None
    )
    if row is None:
        raise NotFound(N_("There is no such evening in this circle."), "evening_not_found")
    return _stamp(tuple(row))
