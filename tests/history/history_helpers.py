"""Helpers for the history tests: small hand-made circles."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from scorekeeper.game.contracts import all_contracts
from scorekeeper.game.rulesets import RuleSet
from scorekeeper.history.records import (
    CircleRecord,
    CutEntry,
    EveningRecord,
    Housekeeping,
    LogEntry,
    LogKind,
    Player,
    Settlement,
    Status,
)
from scorekeeper.scoring import Cut, HandEntry

DAY0 = datetime(2026, 3, 6, 22, 0, tzinfo=UTC)


def at(days: int) -> datetime:
    return DAY0 + timedelta(days=days)


def players(*names: str) -> tuple[Player, ...]:
    return tuple(Player(f"p{i + 1}", name) for i, name in enumerate(names))


def log(entries: Sequence[HandEntry]) -> tuple[LogEntry, ...]:
    return tuple(LogEntry(i + 1, LogKind.HAND, None, e) for i, e in enumerate(entries))


def evening(
    eid: str,
    rs: RuleSet,
    seats: Sequence[str],
    entries: Sequence[HandEntry],
    *,
    day: int = 0,
    cuts: Sequence[Cut] = (),
    counts_in_money: bool = True,
    status: Status = Status.ENDED,
) -> EveningRecord:
    return EveningRecord(
        id=eid,
        ruleset=rs,
        first_dealer=0,
        seats=tuple(seats),
        log=log(entries),
        cuts=tuple(CutEntry(c) for c in cuts),
        status=status,
        created_at=at(day) - timedelta(hours=3),
        ended_at=at(day) if status is Status.ENDED else None,
        counts_in_money=counts_in_money,
    )


def hand_for(rs: RuleSet, row_key: str, seat: int, value: int) -> HandEntry:
    """A hand by the cell of RULES 6.1's slates: 257 a match, -1 a countermatch, else points."""
    row = rs.row(row_key)
    contract = [c for k in row.kinds for c in all_contracts(k) if row.allows(c)][0] if row.is_choice else None
    if value == 257:
        return HandEntry(row_key, seat, contract, 157, 0, match=True)
    if value == -1:
        return HandEntry(row_key, seat, contract, 0, 157, countermatch=True)
    return HandEntry(row_key, seat, contract, value, 157 - value)


def table(rs: RuleSet, rows: dict[str, tuple[int, ...]]) -> list[HandEntry]:
    """A three-player / solo slate given as row -> one value per seat, row by row."""
    return [hand_for(rs, key, seat, v) for key, vals in rows.items() for seat, v in enumerate(vals)]


def circle(
    roster: Sequence[Player],
    evenings: Sequence[EveningRecord],
    *,
    settlements: Sequence[Settlement] = (),
    housekeeping: Sequence[Housekeeping] = (),
) -> CircleRecord:
    return CircleRecord("Sternen", tuple(roster), tuple(evenings), tuple(settlements), tuple(housekeeping))


# The book's end (RULES 6.1): Ann +13, Beth -9, Cath -4 (see tests/scoring/test_scoring_final.py).
BOOK = {
    "suit_C": (257, 40, 80),
    "suit_H": (120, 80, 40),
    "suit_S": (120, 80, 40),
    "suit_D": (120, 80, 40),
    "obenabe": (120, 40, 80),
    "undenufe": (120, 80, 40),
    "slalom": (120, 80, 40),
    "gustav": (120, -1, 80),
    "joker1": (40, 120, 80),
    "joker2": (80, 40, 120),
}
