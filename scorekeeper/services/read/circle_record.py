"""The circle's history read from its rows: ``history.records.CircleRecord`` in a constant
number of SQL statements, whatever the number of evenings.

``load_record(circle)`` sends one statement per kind of row (``STATEMENTS`` of them):
the players, the evenings, their seats, their entry rows, their cut rows, the digital
hands of the circle's tables, the actions of those hands, and the purse's settlements.
Columns are read as plain tuples (no ORM objects) and turned into the frozen records of
``scorekeeper.history``, from which statistics, ratings, the purse, charts and the
export are derived.

A digital hand goes into the record only once it is over: exactly when its result is on
the slate, written under ``snapshot.digital_hand_request_id(table, number)``. A hand
still in play holds private cards: it and its actions are left out.

The housekeeping log (rename, merge, delete evening, undo; ``services.housekeeping``)
is one statement more. Everything read goes through ``history.housekeeping.view`` before
it is shown. ``evening_records`` reads some evenings only (the memory's reload,
``services.read.memory``), and an ended evening as its stored outcome when that is current.
"""

from __future__ import annotations

import json
import logging
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any, Final, cast

from sqlalchemy import ColumnElement, Text, and_, select
from sqlalchemy import cast as sql_cast
from sqlalchemy.orm import Session

from ...game.contracts import Contract
from ...game.hand_entry import HandEntry
from ...game.rulesets import RuleSet, stored_or_none
from ...history.records import (
    CircleRecord,
    CutEntry,
    DigitalAction,
    DigitalHand,
    EveningRecord,
    Housekeeping,
    LogEntry,
    LogKind,
    PaymentKind,
    Player,
    Settlement,
    Status,
)
from ...history.summary import FORMAT, Summary, from_data
from ...models import (
    Circle,
    CutRow,
    DigitalTable,
    EntryRow,
    Evening,
    EveningOutcome,
    Seat,
    SettlementRow,
    TableAction,
    TableHand,
)
from ...models import Player as PlayerRow
from ...scoring.final import Cut, End
from ..store import tx
from .snapshot import ENTRY_COLUMNS, digital_hand_request_id
from .who_is_who import events_of

log = logging.getLogger(__name__)

# players, evenings, seats, entries, cuts, digital hands, digital actions, settlements, housekeeping
STATEMENTS: Final = 9
# The inputs of an evening (entries, cuts, digital hands, their actions): read only for the
# evenings without a current stored outcome (open ones, and ended ones not yet summarized).
INPUT_STATEMENTS: Final = 4
# The memory read when every ended evening's outcome is stored: players, evenings (with their
# stored outcomes), seats, settlements, housekeeping.
STORED_STATEMENTS: Final = STATEMENTS - INPUT_STATEMENTS
RELOAD_IN_LIMIT: Final = 200  # more changed evenings than this: load the circle's evenings whole
Which = ColumnElement[bool]  # which evenings to read (the circle's, or some of them by id)


def player_key(player_id: int) -> str:
    """A database player id as the history's ``PlayerId`` (text)."""
    return str(player_id)


@lru_cache(maxsize=256)
def _ruleset(text: str) -> RuleSet:
    """The stored rule set snapshot, read as text (evenings of one circle share a few: each
    distinct one is parsed once)."""
    return RuleSet.from_dict(json.loads(text))


@lru_cache(maxsize=1024)
def _contract(code: str) -> Contract:
    return Contract.parse(code)


_KINDS: Final = {k.value: k for k in LogKind}


def _players(s: Session, circle_id: int) -> tuple[Player, ...]:
    rows = s.connection().execute(
        select(PlayerRow.id, PlayerRow.name, PlayerRow.created_at)
        .where(PlayerRow.circle_id == circle_id)
        .order_by(PlayerRow.id)
    )
    return tuple(Player(player_key(r.id), r.name, r.created_at) for r in rows)


def _seats(s: Session, which: Which) -> dict[int, list[str]]:
    rows = (
        s.connection()
        .execute(
            select(Seat.evening_id, Seat.player_id)
            .join(Evening, Evening.id == Seat.evening_id)
            .where(which)
            .order_by(Seat.evening_id, Seat.seat)
        )
        .all()
    )  # fetched at once (iterating fetches row by row)
    out: dict[int, list[str]] = defaultdict(list)
    for evening_id, player_id in rows:  # plain tuples: some 2 000 rows for 500 evenings
        out[evening_id].append(str(player_id))  # player_key
    return out


def _logs(s: Session, which: Which) -> tuple[dict[int, list[LogEntry]], set[str]]:
    """Per evening its log rows in order; and every request id on a slate (digital hands over)."""
    rows = (
        s.connection()
        .execute(
            select(EntryRow.evening_id, *ENTRY_COLUMNS)
            .join(Evening, Evening.id == EntryRow.evening_id)
            .where(which)
            .order_by(EntryRow.evening_id, EntryRow.seq)
        )
        .all()
    )
    logs: dict[int, list[LogEntry]] = defaultdict(list)
    written: set[str] = set()
    # A circle of 500 evenings holds ~13 000 rows: plain tuples, cached contracts and kinds.
    for (
        evening,
        seq,
        kind,
        supersedes,
        row_key,
        seat,
        contract,
        dp,
        op,
        match,
        cm,
        seich,
        cell,
        digital,
        rid,
        author,
        when,
    ) in rows:
        hand = None
        if kind != "undo":
            assert seat is not None  # a hand or correction row always names its declarer
            hand = HandEntry(
                row_key=row_key,
                declarer_seat=seat,
                contract=_contract(contract) if contract else None,
                declarer_points=dp or 0,
                defender_points=op or 0,
                match=match,
                countermatch=cm,
                seich=seich,
                cell=cell,
            )
        logs[evening].append(LogEntry(seq, _KINDS[kind], supersedes, hand, digital, author, when))
        if digital:
            written.add(rid)
    return logs, written


def _cuts(s: Session, which: Which) -> dict[int, list[CutEntry]]:
    rows = s.connection().execute(
        select(
            CutRow.evening_id,
            CutRow.row_key,
            CutRow.end.label("end"),
            CutRow.ranking,
            CutRow.winner,
            CutRow.drawn,
            CutRow.created_at,
        )
        .join(Evening, Evening.id == CutRow.evening_id)
        .where(which)
        .order_by(CutRow.id)
    )
    out: dict[int, list[CutEntry]] = defaultdict(list)
    for r in rows:
        order = tuple(int(x) for x in r.ranking.split(",") if x != "")
        end = cast(End, r.end)  # the column's CHECK constraint allows only high, low, all
        out[r.evening_id].append(CutEntry(Cut(r.row_key, end, r.winner, r.drawn, order), r.created_at))
    return out


def _digital(s: Session, which: Which, written: set[str]) -> dict[int, list[DigitalHand]]:
    """Per evening the digital hands that are over, with their actions (two statements; one
    when none is over)."""
    hands = list(
        s.connection().execute(
            select(
                TableHand.id,
                DigitalTable.public_id,
                DigitalTable.evening_id,
                DigitalTable.restored,
                TableHand.number,
                TableHand.dealer,
                TableHand.deck,
                TableHand.open_rows,
                TableHand.seich_used,
                TableHand.slate_version,
                TableHand.created_at,
            )
            .join(DigitalTable, DigitalTable.id == TableHand.table_id)
            .join(Evening, Evening.id == DigitalTable.evening_id)
            .where(which)
            .order_by(DigitalTable.id, TableHand.number)
        )
    )
    # a restored table holds only hands that were over when they were exported
    over = [h for h in hands if h.restored or digital_hand_request_id(h.public_id, h.number) in written]
    if not over:  # no hand dealt digitally is over: no action to read (one statement fewer)
        return {}
    actions: dict[int, list[DigitalAction]] = defaultdict(list)
    keep = {h.id for h in over}
    rows = s.connection().execute(
        select(
            TableAction.hand_id,
            TableAction.seq,
            TableAction.seat,
            TableAction.action,
            TableAction.computer,
            TableAction.created_at,
        )
        .join(TableHand, TableHand.id == TableAction.hand_id)
        .join(DigitalTable, DigitalTable.id == TableHand.table_id)
        .join(Evening, Evening.id == DigitalTable.evening_id)
        .where(which)
        .order_by(TableAction.hand_id, TableAction.seq)
    )
    for a in rows:
        if a.hand_id in keep:  # a hand in play: its actions stay on the server
            actions[a.hand_id].append(DigitalAction(a.seq, a.seat, a.action, a.computer, a.created_at))
    out: dict[int, list[DigitalHand]] = defaultdict(list)
    for h in over:
        out[h.evening_id].append(
            DigitalHand(
                table=h.public_id,
                number=h.number,
                dealer=h.dealer,
                deck=tuple(h.deck),
                open_rows=tuple(tuple(side) for side in h.open_rows),
                seich_used=tuple(h.seich_used),
                slate_version=h.slate_version,
                actions=tuple(actions[h.id]),
                finished=True,
                created_at=h.created_at,
            )
        )
    return out


def settlements(s: Session, circle_id: int) -> tuple[Settlement, ...]:
    """The purse's append-only log, in order."""
    rows = s.connection().execute(
        select(
            SettlementRow.seq,
            SettlementRow.kind,
            SettlementRow.supersedes,
            SettlementRow.payer_id,
            SettlementRow.payee_id,
            SettlementRow.rappen,
            SettlementRow.paid_at,
            SettlementRow.entered_by,
            SettlementRow.created_at,
        )
        .where(SettlementRow.circle_id == circle_id)
        .order_by(SettlementRow.seq)
    )
    return tuple(
        Settlement(
            seq=r.seq,
            kind=PaymentKind(r.kind),
            supersedes=r.supersedes,
            payer=None if r.payer_id is None else player_key(r.payer_id),
            payee=None if r.payee_id is None else player_key(r.payee_id),
            rappen=r.rappen,
            paid_at=r.paid_at,
            entered_by=r.entered_by,
            created_at=r.created_at,
        )
        for r in rows
    )


def _housekeeping(s: Session, circle_id: int) -> tuple[Housekeeping, ...]:
    """Rename, merge, delete evening, undo: the circle's housekeeping log (one statement)."""
    return events_of(s, circle_id)


def _current_outcome() -> Any:
    """The join condition of an evening's stored outcome that is still its outcome: written
    for the evening's version in this code's ``summary.FORMAT``."""
    return and_(
        EveningOutcome.evening_id == Evening.id,
        EveningOutcome.version == Evening.version,
        EveningOutcome.format == FORMAT,
    )


def _evenings(s: Session, which: Which, *, stored: bool) -> Sequence[Any]:
    """The evenings' own rows; ``stored``: with each ended one's current stored outcome (or None)."""
    columns: list[Any] = [
        Evening.id,
        Evening.public_id,
        sql_cast(Evening.ruleset, Text).label("ruleset"),  # text: parsed once per distinct rule set
        Evening.first_dealer,
        Evening.status,
        Evening.created_at,
        Evening.ended_at,
        Evening.counts_in_money,
        Evening.version,
    ]
    query = select(*columns)
    if stored:
        query = query.add_columns(EveningOutcome.summary, EveningOutcome.hands).outerjoin(
            EveningOutcome, _current_outcome()
        )
    return s.connection().execute(query.where(which).order_by(Evening.id)).all()


def _stored_summary(public_id: str, status: str, figures: Any, hands: Any) -> Summary | None:
    """The evening's stored outcome if it is one (an ended evening's, readable); else None."""
    if status != _ENDED or figures is None:
        return None
    try:
        return from_data(figures, hands)
    except ValueError:  # not what this code writes: computed again and replaced
        log.warning("memory: the stored outcome of evening %s is unreadable; computing it again", public_id)
        return None


_ENDED: Final = Status.ENDED.value
_STATUS: Final = {s.value: s for s in Status}


def evening_records(s: Session, which: Which, *, stored: bool = False) -> tuple[dict[int, EveningRecord], set[int]]:
    """The evenings ``which`` selects, by database id; and the ids of the ended ones whose
    outcome is not stored yet (to store).

    ``stored``: an ended evening whose outcome is stored and current is read as that
    outcome alone (``EveningRecord.inputs`` False); the inputs (entries, cuts, digital
    hands and their actions) are read for the others only, and not at all when there are
    none: three to seven statements. Without ``stored`` every evening is read whole (seven)."""
    evening_rows = [tuple(r) for r in _evenings(s, which, stored=stored)]  # plain tuples: 500 rows
    summaries: dict[int, Summary] = {}
    if stored:
        for ev_id, public_id, _rs, _fd, status, _c, _e, _m, _v, figures, hands in evening_rows:
            found = _stored_summary(public_id, status, figures, hands)
            if found is not None:
                summaries[ev_id] = found
    need = [ev[0] for ev in evening_rows if ev[0] not in summaries]
    seats = _seats(s, which)
    logs: dict[int, list[LogEntry]] = {}
    cuts: dict[int, list[CutEntry]] = {}
    digital: dict[int, list[DigitalHand]] = {}
    if need:
        inputs = which if len(need) == len(evening_rows) or len(need) > RELOAD_IN_LIMIT else Evening.id.in_(need)
        logs, written = _logs(s, inputs)
        cuts = _cuts(s, inputs)
        digital = _digital(s, inputs, written)
    out: dict[int, EveningRecord] = {}
    for (
        ev_id,
        public_id,
        ruleset,
        first_dealer,
        status,
        created_at,
        ended_at,
        counts,
        version,
        *_stored,
    ) in evening_rows:
        summary = summaries.get(ev_id)
        whole = summary is None
        out[ev_id] = EveningRecord(
            id=public_id,
            ruleset=_ruleset(ruleset),
            first_dealer=first_dealer,
            seats=tuple(seats[ev_id]),
            log=tuple(logs.get(ev_id, ())) if whole else (),
            cuts=tuple(cuts.get(ev_id, ())) if whole else (),
            status=_STATUS[status],
            created_at=created_at,
            ended_at=ended_at,
            counts_in_money=counts,
            digital=tuple(digital.get(ev_id, ())) if whole else (),
            version=version,
            stored=summary,
            inputs=whole,
        )
    to_store = {ev[0] for ev in evening_rows if stored and ev[4] == _ENDED and ev[0] not in summaries}
    return out, to_store


def circle_record(s: Session, circle: Circle, evenings: dict[int, EveningRecord]) -> CircleRecord:
    """The circle around its evenings (in the order they were stored): players, settlements."""
    return CircleRecord(
        name=circle.name,
        players=_players(s, circle.id),
        evenings=tuple(evenings[k] for k in sorted(evenings)),
        settlements=settlements(s, circle.id),
        housekeeping=_housekeeping(s, circle.id),
        created_at=circle.created_at,
    )


def load_record(circle: Circle) -> CircleRecord:
    """The whole circle as stored (every evening with all its inputs, open ones too), in
    ``STATEMENTS`` statements: what an export writes."""
    s = tx.session()
    record = circle_record(s, circle, evening_records(s, Evening.circle_id == circle.id)[0])
    return replace(record, house_rules=stored_or_none(circle.house_rules))
