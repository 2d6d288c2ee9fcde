"""The purse's settlements: record a payment, correct it, void it (append-only rows).

One call = one transaction with the circle row locked (PostgreSQL ``FOR UPDATE``;
SQLite's ``BEGIN IMMEDIATE`` already serializes writers). A repeated request id is a
no-op that answers the row it wrote the first time (a double tap records once); the same
id asking for something else is refused (``RequestIdReused``) and writes nothing. The
new row is checked by the history's gate (``history.purse.verify_settlement``)
against the players in force (housekeeping applied) and the log so far; a refused row
raises its ``RuleError`` and writes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from sqlalchemy import select

from ..game.errors import N_
from ..history.purse import verify_settlement
from ..history.records import PaymentKind, Settlement
from ..models import Circle, SettlementRow
from .circles import PLAYER_NAME_MAX, clean_name
from .errors import NotFound, RequestIdReused
from .read.circle_record import player_key, settlements
from .read.memory import memory_of
from .store import tx


@dataclass(frozen=True, slots=True)
class Payment:
    """What a phone asks to write: a payment, a correction of ``supersedes``, or a void of it."""

    kind: PaymentKind
    supersedes: int | None = None
    payer_id: int | None = None
    payee_id: int | None = None
    rappen: int | None = None
    paid_at: datetime | None = None


def _player_id(key: str | None) -> int | None:
    return None if key is None else int(key)


def _asked(row: Settlement) -> tuple[object, ...]:
    """What a request asked for (its seq and time of writing aside)."""
    return (row.kind, row.supersedes, row.payer, row.payee, row.rappen, row.paid_at, row.entered_by)


def append(circle: Circle, payment: Payment, *, request_id: str, entered_by: str | None = None) -> Settlement:
    """Append one row to the circle's purse; returns it as the history reads it."""
    author = clean_name(entered_by, limit=PLAYER_NAME_MAX, code="player_name") if entered_by else None
    circle_id = circle.id
    # Who is a player now, and who a merged id stands for: the circle's memory (cached; read
    # before the lock, so a write never holds it while a large circle is loaded).
    folded = memory_of(circle).view.folded
    players = folded.active
    with tx.write() as s:
        locked = s.execute(select(Circle).where(Circle.id == circle_id).with_for_update()).scalar_one_or_none()
        if locked is None:
            raise NotFound(N_("This link does not open any circle."), "circle_not_found")
        mine = SettlementRow.circle_id == circle_id
        done = s.execute(
            select(SettlementRow.seq).where(mine, SettlementRow.request_id == request_id)
        ).scalar_one_or_none()
        log = settlements(s, circle_id)
        seq = done if done is not None else max((row.seq for row in log), default=0) + 1
        void = payment.kind is PaymentKind.VOID
        new = Settlement(
            seq=seq,
            kind=payment.kind,
            supersedes=payment.supersedes,
            payer=None if void or payment.payer_id is None else player_key(payment.payer_id),
            payee=None if void or payment.payee_id is None else player_key(payment.payee_id),
            rappen=None if void else payment.rappen,
            paid_at=None if void else payment.paid_at,
            entered_by=author,
        )
        if done is not None:  # a double tap: the first one wrote it; the same id asking otherwise is refused
            first = next(row for row in log if row.seq == done)
            if _asked(first) != _asked(new):
                raise RequestIdReused()
            return first
        canon = [
            replace(
                r,
                payer=None if r.payer is None else folded.canonical(r.payer),
                payee=None if r.payee is None else folded.canonical(r.payee),
            )
            for r in log
        ]
        verify_settlement(players, canon, new)
        row = SettlementRow(
            circle_id=circle_id,
            seq=seq,
            kind=new.kind.value,
            supersedes=new.supersedes,
            payer_id=_player_id(new.payer),
            payee_id=_player_id(new.payee),
            rappen=new.rappen,
            paid_at=new.paid_at,
            entered_by=author,
            request_id=request_id,
        )
        s.add(row)
        s.flush()
        return Settlement(
            seq=seq,
            kind=new.kind,
            supersedes=new.supersedes,
            payer=new.payer,
            payee=new.payee,
            rappen=new.rappen,
            paid_at=new.paid_at,
            entered_by=author,
            created_at=row.created_at,
        )
