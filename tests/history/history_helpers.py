"""Helpers for the history tests: small hand-made circles."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta

from scorekeeper.game.hand_entry import HandEntry
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
from scorekeeper.scoring import Cut

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
    contract = row.contracts[0] if row.is_choice else None
    if value == 257:
        return HandEntry(row_key, seat, contract, 157, 0, match=True)
    if value == -1:
        return HandEntry(row_key, seat, contract, 0, 157, countermatch=True)
    return HandEntry(row_key, seat, contract, value, 157 - value)


def table(rs: RuleSet, rows: Mapping[str, tuple[int, ...]]) -> list[HandEntry]:
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


def rich_circle() -> CircleRecord:
    """A small circle with one of everything an export carries."""
    from dataclasses import replace

    from scorekeeper.game.rulesets import Variant, default_ruleset
    from scorekeeper.history.records import (
        DigitalAction,
        DigitalHand,
        HousekeepingKind,
        PaymentKind,
        Status,
    )
    from scorekeeper.history.sample import sample_circle

    base = sample_circle(21, evenings=8, players=6)
    three = default_ruleset(Variant.THREE)
    roster = (*base.players, Player("p7", '=HYPERLINK("x")'), Player("p8", "-Anna; die Zweite"))
    # a three-player evening with a correction, an undo, a tie and its cut, entered by someone
    tied = dict(BOOK, suit_H=(120, 120, 40))
    entries = table(three, tied)
    wrong = HandEntry("obenabe", 0, None, 100, 57)
    log = [
        LogEntry(1, LogKind.HAND, None, wrong, author="@Ruedi", created_at=at(5)),
        LogEntry(2, LogKind.UNDO, 1, None, author="Ruedi", created_at=at(5)),
        *log_of(entries, start=3),
    ]
    fixed = replace(entries[1], declarer_points=41, defender_points=116)  # Beth's 40 was 41
    log.append(LogEntry(len(log) + 1, LogKind.CORRECTION, 4, fixed, author="Beth"))
    cut = Cut("suit_H", "high", 1, True, (1, 0))
    digital = (
        DigitalHand(
            "t1",
            1,
            0,
            tuple(range(36)),
            (("suit_C",), ("suit_C",), ("suit_C",)),
            (),
            0,
            (DigitalAction(1, 1, 36), DigitalAction(2, 2, 64, computer=True)),
            True,
            at(5),
        ),
        DigitalHand("t1", 2, 1, tuple(reversed(range(36))), ((), (), ()), (), 1, (), False, at(5)),
    )
    cut_evening = replace(
        evening("cut", three, ["p7", "p8", "p1"], [], day=5, cuts=[cut]), log=tuple(log), digital=digital
    )
    still_open = evening("open", three, ["p2", "p3", "p4"], entries[:5], day=6, status=Status.OPEN)
    settlements = (
        Settlement(1, PaymentKind.PAYMENT, None, "p2", "p1", 900, at(6), "Ann", at(6)),
        Settlement(2, PaymentKind.CORRECTION, 1, "p2", "p1", 950, at(6), "Ann", at(7)),
        Settlement(3, PaymentKind.PAYMENT, None, "p3", "p7", 5, at(7), None, at(7)),
        Settlement(4, PaymentKind.VOID, 3, entered_by="Beth", created_at=at(8)),
    )
    housekeeping = (
        Housekeeping(1, HousekeepingKind.RENAME, player="p6", name="Trudi Egli-Moser", created_at=at(8)),
        Housekeeping(2, HousekeepingKind.DELETE_EVENING, evening=base.evenings[0].id, author="Ann"),
        Housekeeping(3, HousekeepingKind.UNDO, undoes=2),
        Housekeeping(4, HousekeepingKind.DELETE_EVENING, evening=base.evenings[1].id),
    )
    return CircleRecord(
        "Sternen; Dienstag",
        roster,
        (*base.evenings, cut_evening, still_open),
        settlements,
        housekeeping,
        created_at=at(-100),
    )


def log_of(entries: Sequence[HandEntry], start: int = 1) -> tuple[LogEntry, ...]:
    return tuple(LogEntry(start + i, LogKind.HAND, None, e, created_at=at(5)) for i, e in enumerate(entries))
