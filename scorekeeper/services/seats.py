"""Seats of a digital table: secret seat tokens, handing a seat over, computer seats.

A seat token is ``secrets.token_urlsafe(32)``; only its sha256 is stored (as the
circle links, ``tokens.hash_token``). A token is checked by hashing it, looking the
hash up among the table's seats and comparing in constant time. A new token for a
seat replaces the old hash: the phone that held the seat is shut out. The old hash is kept
(``retired``), so that phone's page, still polling, is refused (403) without counting as a guess.

A computer seat plays at one of the bots' levels (``bots.LEVELS``). The level is
always given by the caller: the pages and the API pass what the organiser chose, or
the app's configured default. A computer that failed (``failed_at``) waits until the
seat is given to the computer again (a retry, at any level) or to a phone.
"""

from __future__ import annotations

import hmac

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..bots import LEVELS
from ..game.errors import N_, RuleError
from ..models import DigitalTable, TableSeat, utcnow
from . import retired
from .errors import EveningDeleted, Forbidden, NotFound
from .store import tx
from .store.signals import token_refused
from .store.tokens import hash_token, new_token

TOKEN_MAX = 128


def check_level(level: str) -> str:
    """A computer level of ``bots.LEVELS``; anything else raises RuleError ``level_unknown``."""
    if level not in LEVELS:
        raise RuleError(
            N_("There is no computer level “%(level)s”: choose easy, normal or strong."),
            "level_unknown",
            level=str(level)[:20],
        )
    return level


def lock_table(s: Session, table_id: int) -> DigitalTable:
    """The table row, locked for this write transaction (``FOR UPDATE``; SQLite: IMMEDIATE)."""
    t = s.execute(
        select(DigitalTable)
        .where(DigitalTable.id == table_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    ).scalar_one_or_none()
    if t is None:
        raise NotFound(N_("There is no such table."), "table_not_found")
    return t


def seat_rows(s: Session, table_id: int) -> list[TableSeat]:
    return list(s.execute(select(TableSeat).where(TableSeat.table_id == table_id).order_by(TableSeat.seat)).scalars())


def _seat_row(s: Session, table_id: int, seat: int) -> TableSeat:
    row = s.get(TableSeat, (table_id, seat))
    if row is None:
        raise RuleError(N_("There is no seat %(seat)s at this table."), "seat_unknown", seat=seat)
    return row


def _open(t: DigitalTable) -> None:
    if not t.is_open:
        raise RuleError(N_("This table is closed."), "table_closed")


def seats(table: DigitalTable) -> list[TableSeat]:
    """The table's seats in seat order."""
    return seat_rows(tx.session(), table.id)


def issue_seat_token(table: DigitalTable, seat: int) -> str:
    """A new secret link token for ``seat`` (shown once). Whoever held the seat is shut
    out; a computer seat (a failed one too) becomes a human seat again."""
    token = new_token()
    with tx.write() as s:
        t = lock_table(s, table.id)
        _open(t)
        row = _seat_row(s, t.id, seat)
        _retire(s, row)
        row.token_hash = hash_token(token)
        row.computer = False
        row.failed_at = None
        row.joined_at = None
        t.version += 1
    return token


def _retire(s: Session, row: TableSeat) -> None:
    """The seat's token (if a phone held it) stops working: its hash is kept as replaced."""
    if row.token_hash is not None:
        circle_id = retired.circle_of(s, row.table_id)
        retired.retire(s, row.token_hash, kind=retired.SEAT, reason=retired.REPLACED, circle_id=circle_id)


def _no_seat() -> Forbidden:
    return Forbidden(N_("This seat link is not valid (any more). Ask for a new one."), "seat_token")


def _seat_of_digest(row: TableSeat | None, digest: str) -> TableSeat:
    if row is None or row.token_hash is None or not hmac.compare_digest(row.token_hash, digest):
        if retired.find(digest) is None:  # a seat link handed on, or of a deleted circle: no guess
            token_refused.send("seat")
        raise _no_seat()
    return row


def seat_of_token(table: DigitalTable, token: str | None) -> int:
    """The seat a token holds at this table; raises Forbidden for an unknown or replaced token."""
    if not token or len(token) > TOKEN_MAX:
        raise _no_seat()
    digest = hash_token(token)
    row = (
        tx.session()
        .execute(select(TableSeat).where(TableSeat.table_id == table.id, TableSeat.token_hash == digest))
        .scalar_one_or_none()
    )
    return _seat_of_digest(row, digest).seat


def table_of_token(token: str | None) -> tuple[DigitalTable, int]:
    """(table, seat) of a seat token, whatever the table; raises Forbidden, and ``EveningDeleted``
    when the table's evening was deleted as a test (nothing is noted for the seat then)."""
    if not token or len(token) > TOKEN_MAX:
        raise _no_seat()
    digest = hash_token(token)
    row = _seat_of_digest(
        tx.session().execute(select(TableSeat).where(TableSeat.token_hash == digest)).scalar_one_or_none(), digest
    )
    table = tx.session().get(DigitalTable, row.table_id)
    assert table is not None
    if table.evening.deleted:
        raise EveningDeleted()
    return table, row.seat


def mark_joined(table: DigitalTable, seat: int) -> None:
    """Note that a phone opened the seat (the table page shows who is there)."""
    with tx.write() as s:
        t = lock_table(s, table.id)
        row = _seat_row(s, t.id, seat)
        if row.joined_at is None:
            row.joined_at = utcnow()
            t.version += 1


def set_computer(table: DigitalTable, seat: int, level: str) -> None:
    """Give the seat to a computer player playing at ``level`` (``easy``, ``normal``, ``strong``);
    any phone holding it is shut out. A computer seat given again changes its level, and
    a failed one tries again. RuleError ``level_unknown``: nothing changed."""
    check_level(level)
    with tx.write() as s:
        t = lock_table(s, table.id)
        _open(t)
        row = _seat_row(s, t.id, seat)
        if not row.computer or row.level != level or row.failed_at is not None:
            row.computer = True
            row.level = level
            row.failed_at = None
            _retire(s, row)
            row.token_hash = None
            row.joined_at = None
            t.version += 1


def mark_failed(table: DigitalTable, seat: int) -> None:
    """The computer in ``seat`` could not move: it waits (the pages say so) until retried or handed over."""
    with tx.write() as s:
        t = lock_table(s, table.id)
        row = _seat_row(s, t.id, seat)
        if row.computer and row.failed_at is None:
            row.failed_at = utcnow()
            t.version += 1


def computer_seats(table: DigitalTable) -> frozenset[int]:
    return frozenset(r.seat for r in seats(table) if r.computer)
