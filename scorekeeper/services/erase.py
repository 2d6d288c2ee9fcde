"""Deleting a whole circle for good (data-protection law gives people that right).

The one path past the append-only guard (``tx.erasing``): every row of the circle goes,
the digital tables' actions, hands and seats, the evenings' entries, cuts, applied
requests, stored outlooks, stored outcomes and seats, the purse's settlements, the
housekeeping, the stored rating runs, the evenings, the players and the circle itself,
in one transaction (answered once every worker and host refuses its links). The pages ask
twice (and offer an export first); the service asks for the circle's name as typed on the
second page.
"""

from __future__ import annotations

from sqlalchemy import delete, select

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
    Seat,
    SettlementRow,
    TableAction,
    TableHand,
    TableSeat,
)
from . import memory, stamp_watch, tx
from .errors import NotFound


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
        if s.execute(select(Circle.id).where(Circle.id == circle_id).with_for_update()).scalar_one_or_none() is None:
            raise NotFound(N_("This link does not open any circle."), "circle_not_found")
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
