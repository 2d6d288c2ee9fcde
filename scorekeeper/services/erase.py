"""Deleting a whole circle for good (data-protection law gives people that right).

The one path past the append-only guard (``tx.erasing``): every row of the circle goes,
the digital tables' actions, hands and seats, the evenings' entries, cuts, applied
requests, stored outlooks, stored outcomes and seats, the purse's settlements, the
housekeeping, the stored rating runs, the evenings, the players and the circle itself,
in one transaction (answered once every worker and host refuses its links). Its links' hashes
stay (``retired``, nothing else of the circle): a phone still holding one is told the circle was
deleted, and is not counted as a guess. The pages ask
twice (and offer an export first); the service asks for the circle's name as typed on the
second page.

Deleted rows must not stay readable in the database's files either (``_scrub``, after the
commit; docs/DEPLOY.md says what is gone when):

- SQLite: the erasing transaction runs with ``PRAGMA secure_delete = ON`` (the deleted rows'
  bytes, in tables and indexes, are overwritten with zeros), and a ``wal_checkpoint(TRUNCATE)``
  then copies the pages into the database file and empties the WAL file, which held every
  earlier version of them. A checkpoint that a reader holds up is noted in the log.
- PostgreSQL: ``VACUUM`` of the tables touched, on a connection of its own outside any
  transaction: the deleted rows are removed from their pages and indexes and can no longer be
  read by any query. Their bytes may stay in the pages' free space until overwritten, and in
  the WAL until it is recycled: ``VACUUM FULL`` (docs/DEPLOY.md) rewrites the tables without them.
"""

from __future__ import annotations

import logging

from sqlalchemy import Engine, delete, select, text

from ..game.errors import N_, RuleError
from ..models import (
    AppliedRequest,
    Circle,
    CutRow,
    DigitalTable,
    EntryRow,
    Evening,
    EveningOutcome,
    HousekeepingRow,
    OutlookForecast,
    Player,
    RatingRun,
    RetiredLink,
    Seat,
    SettlementRow,
    TableAction,
    TableHand,
    TableSeat,
)
from . import retired
from .errors import NotFound
from .read import memory, stamp_watch
from .store import tx

log = logging.getLogger(__name__)

# Every table the erasure touches (``_scrub`` vacuums them): those it deletes from, in the order
# it deletes, and the retired links, whose rows of the circle lose their circle.
TABLES = (
    TableAction,
    TableHand,
    TableSeat,
    DigitalTable,
    AppliedRequest,
    OutlookForecast,
    EveningOutcome,
    EntryRow,
    CutRow,
    Seat,
    HousekeepingRow,
    SettlementRow,
    RatingRun,
    Evening,
    Player,
    Circle,
    RetiredLink,
)


def same_name(circle: Circle, typed: str) -> bool:
    """The second question: the circle's name typed again (spaces and case do not matter)."""
    return " ".join(str(typed or "").split()).casefold() == " ".join(circle.name.split()).casefold()


def delete_circle(circle: Circle, *, typed_name: str) -> None:
    """Erase the circle and everything in it. ``typed_name`` must be the circle's name
    (RuleError ``circle_name_mismatch`` otherwise: nothing is deleted)."""
    if not same_name(circle, typed_name):
        raise RuleError(N_("Type the circle's name exactly as it is shown to delete it."), "circle_name_mismatch")
    circle_id = circle.id
    memory.forget(circle)  # this worker's copy of its history (the others' no longer match its id)
    evenings = select(Evening.id).where(Evening.circle_id == circle_id).scalar_subquery()
    tables = select(DigitalTable.id).where(DigitalTable.evening_id.in_(evenings)).scalar_subquery()
    hands = select(TableHand.id).where(TableHand.table_id.in_(tables)).scalar_subquery()
    with tx.write() as s, tx.erasing():
        row = s.execute(select(Circle).where(Circle.id == circle_id).with_for_update()).scalar_one_or_none()
        if row is None:
            raise NotFound(N_("This link does not open any circle."), "circle_not_found")
        retired.erase(s, row)
        if s.get_bind().dialect.name == "sqlite":
            s.execute(text("PRAGMA secure_delete = ON"))  # this connection overwrites what it deletes
        for statement in (
            delete(TableAction).where(TableAction.hand_id.in_(hands)),
            delete(TableHand).where(TableHand.table_id.in_(tables)),
            delete(TableSeat).where(TableSeat.table_id.in_(tables)),
            delete(DigitalTable).where(DigitalTable.evening_id.in_(evenings)),
            delete(AppliedRequest).where(AppliedRequest.evening_id.in_(evenings)),
            delete(OutlookForecast).where(OutlookForecast.evening_id.in_(evenings)),
            delete(EveningOutcome).where(EveningOutcome.evening_id.in_(evenings)),
            delete(EntryRow).where(EntryRow.evening_id.in_(evenings)),
            delete(CutRow).where(CutRow.evening_id.in_(evenings)),
            delete(Seat).where(Seat.evening_id.in_(evenings)),
            delete(HousekeepingRow).where(HousekeepingRow.circle_id == circle_id),
            delete(SettlementRow).where(SettlementRow.circle_id == circle_id),
            delete(RatingRun).where(RatingRun.circle_id == circle_id),
            delete(Evening).where(Evening.circle_id == circle_id),
            delete(Player).where(Player.circle_id == circle_id),
            delete(Circle).where(Circle.id == circle_id),
        ):
            s.execute(statement.execution_options(synchronize_session=False))
    stamp_watch.honour_everywhere(tx.engine())  # its links are refused everywhere before the answer
    _scrub(tx.engine())


def _scrub(engine: Engine) -> None:
    """After the erasing commit: the deleted rows' bytes out of the database's files, as far as
    the database lets an app do it (see the module's docstring). Never raises: the circle is
    erased already; a failure is logged."""
    try:
        if engine.dialect.name == "sqlite":
            raw = engine.raw_connection()  # autocommit (pysqlite's own transactions are off): no BEGIN
            try:
                cur = raw.cursor()
                busy, _frames, _done = cur.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
                cur.close()
            finally:
                raw.close()
            if busy:
                log.warning("erased circle: the WAL checkpoint was held up by a reader; run it again later")
        elif engine.dialect.name == "postgresql":
            names = ", ".join(engine.dialect.identifier_preparer.quote(t.__tablename__) for t in TABLES)
            with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
                conn.exec_driver_sql(f"VACUUM {names}")
    except Exception:  # the erasure itself is committed; say so, do not fail it
        log.exception("erased circle: scrubbing the database files failed")
