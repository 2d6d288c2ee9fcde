"""The digital table: deal the evening's next hand, store every action, land the result.

No game state lives in memory: a hand is its dealt deck plus its append-only action
rows, and ``load`` rebuilds the engine state by replaying them (microseconds), so a
restart, another worker or another host continues where the hand stood.

Every change is one transaction with the table row locked; a change carries the
``expected_seq`` (number of actions the phone saw): a stale one raises
``StaleTable`` and writes nothing; an out-of-turn or illegal action raises the
engine's ``IllegalAction``/``IllegalCard`` and writes nothing. The hand's last action
is stored inside ``evenings.record_hand(digital=True)``'s transaction, so a finished
hand and its slate entry exist together or not at all.

Computer seats act server-side when it is their turn, in the write that made it their turn
(``act``, ``open_table``, ``deal_next``; the pages' and the API's POSTs that give a seat to a
computer or take a seat call ``run_computers``): every computer up to the next human's turn, so
a read (a poll, the seat page, a prefetch) finds their moves stored and plays nothing itself.
They are ``scorekeeper.bots`` (``choose_action`` at the seat's level), seeing only
their seat's view. A computer that raises, or answers an action that is not legal,
is logged (table, seat, level) and its seat marked failed: the hand waits, the pages
say so, and the organiser retries (gives the seat to the computer again, at any
level) or hands the seat to a phone. Nothing is played for it in the meantime.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..bots import choose_action
from ..engine import HandSetup, HandState, SeatView, build_view, shuffle_deck
from ..engine.deal import RandomSource
from ..game.errors import N_, RuleError
from ..game.rulesets import RuleSet, house_rows_only
from ..models import DigitalTable, Evening, TableAction, TableHand, TableSeat, is_public_id, utcnow
from ..scoring.slate import Slate
from . import evenings
from .errors import EveningDeleted, NotFound, StaleVersion
from .read.replay import ruleset_of
from .read.snapshot import EveningSnapshot, digital_hand_request_id, load_snapshot
from .seats import check_level, lock_table, mark_failed, seat_rows
from .store import tx

MAX_COMPUTER_STEPS = 200  # more than any hand has actions
log = logging.getLogger(__name__)


class StaleTable(RuleError):
    """Somebody acted first: the phone's picture of the table is out of date."""

    code = "stale"

    def __init__(self, current_seq: int) -> None:
        super().__init__(
            N_("The table moved on in the meantime; nothing was changed. Look again."), "stale", current_seq=current_seq
        )
        self.current_seq = current_seq


@dataclass(frozen=True)
class TableState:
    """A table as it stands: its current hand replayed (``state`` None before the first deal)."""

    table: DigitalTable
    ruleset: RuleSet
    hand: TableHand | None
    state: HandState | None
    computers: frozenset[int]
    joined: frozenset[int]
    levels: Mapping[int, str]  # each computer seat's level
    failed: frozenset[int]  # computer seats that could not move (the hand waits for them)
    evening: EveningSnapshot | None = None  # the evening as read with the table (``load``: pages, API)

    @property
    def names(self) -> tuple[str, ...]:
        """The players in seat order, under the names they go by now (from the snapshot)."""
        assert self.evening is not None, "a table read with load() carries its evening"
        return self.evening.names

    @property
    def slate(self) -> Slate:
        """The evening's slate as it stands (from the snapshot)."""
        assert self.evening is not None, "a table read with load() carries its evening"
        return self.evening.slate

    @property
    def seq(self) -> int:
        """Actions so far in the current hand (the ``expected_seq`` of the next one)."""
        return 0 if self.state is None else len(self.state.history)

    @property
    def hand_over(self) -> bool:
        return self.state is None or self.state.is_terminal()

    def to_move(self) -> int | None:
        if self.state is None or self.state.is_terminal():
            return None
        return self.state.current_player()

    def view(self, seat: int) -> SeatView | None:
        """What ``seat`` may see: the engine's ``build_view``, the ONLY way a seat sees the hand."""
        return None if self.state is None else build_view(self.state, seat)


class ComputerFailed(Exception):
    """The computer in ``seat`` raised, or answered an action that is not legal (logged)."""

    def __init__(self, seat: int) -> None:
        super().__init__(f"the computer in seat {seat} could not move")
        self.seat = seat


# --- reading -------------------------------------------------------------------------
def _no_table() -> NotFound:
    return NotFound(N_("There is no such table."), "table_not_found")


def get_table(public_id: str) -> DigitalTable:
    """The table with that public id; NotFound, and ``EveningDeleted`` when its evening was deleted
    as a test (its seats are refused with it; taking the deletion back opens them again)."""
    if not is_public_id(public_id):
        raise _no_table()
    found = (
        tx.session()
        .execute(
            select(DigitalTable, Evening.deleted)
            .join(Evening, Evening.id == DigitalTable.evening_id)
            .where(DigitalTable.public_id == public_id)
        )
        .first()
    )
    if found is None:
        raise _no_table()
    if found[1]:
        raise EveningDeleted()
    table: DigitalTable = found[0]
    return table


def open_table_of(evening: Evening) -> DigitalTable | None:
    """The evening's open digital table, if any."""
    return (
        tx.session()
        .execute(select(DigitalTable).where(DigitalTable.evening_id == evening.id, DigitalTable.status == "open"))
        .scalars()
        .first()
    )


def _current_hand(s: Session, table_id: int) -> TableHand | None:
    return s.execute(
        select(TableHand).where(TableHand.table_id == table_id).order_by(TableHand.number.desc()).limit(1)
    ).scalar_one_or_none()


def _actions(s: Session, hand_id: int) -> list[int]:
    return list(
        s.execute(select(TableAction.action).where(TableAction.hand_id == hand_id).order_by(TableAction.seq)).scalars()
    )


def _setup(ruleset: RuleSet, hand: TableHand) -> HandSetup:
    return HandSetup.build(ruleset, hand.dealer, hand.open_rows, hand.seich_used)


def _replay(s: Session, ruleset: RuleSet, hand: TableHand | None) -> HandState | None:
    if hand is None:
        return None
    return HandState.replay(_setup(ruleset, hand), hand.deck, _actions(s, hand.id))


def _ruleset(s: Session, table: DigitalTable) -> RuleSet:
    ev = s.get(Evening, table.evening_id)
    assert ev is not None
    return ruleset_of(ev)


def _state(s: Session, table: DigitalTable, snap: EveningSnapshot | None = None) -> TableState:
    rs = _ruleset(s, table) if snap is None else snap.ruleset
    hand = _current_hand(s, table.id)
    rows = seat_rows(s, table.id)
    return TableState(
        table,
        rs,
        hand,
        _replay(s, rs, hand),
        frozenset(r.seat for r in rows if r.computer),
        frozenset(r.seat for r in rows if r.joined_at is not None),
        {r.seat: r.level for r in rows if r.computer},
        frozenset(r.seat for r in rows if r.computer and r.failed_at is not None),
        snap,
    )


def load(table: DigitalTable) -> TableState:
    """The table now, rebuilt from the database, with its evening read once as a snapshot
    (``snapshot.load_snapshot``: rules, names, slate): what the pages and the API show."""
    s = tx.session()
    s.refresh(table)
    evening = s.get(Evening, table.evening_id, populate_existing=True)
    assert evening is not None
    return _state(s, table, load_snapshot(evening))


# --- opening, dealing, closing -----------------------------------------------------------
def _deal(s: Session, table: DigitalTable, evening: Evening, number: int, rng: RandomSource) -> TableHand:
    slate = evenings.load_slate(evening)
    if slate.complete:
        raise RuleError(N_("Every row is filled: the evening is complete."), "evening_complete")
    setup = HandSetup.from_slate(slate)
    house = house_rows_only(slate.ruleset, setup.open_rows)
    if house:
        raise RuleError(
            N_("The app has no play rules for %(rows)s: write the next hand on the slate."),
            "house_row_not_dealt",
            rows=", ".join(house),
        )
    hand = TableHand(
        table_id=table.id,
        number=number,
        dealer=setup.dealer,
        deck=list(shuffle_deck(rng)),
        open_rows=[list(r) for r in setup.open_rows],
        seich_used=sorted(setup.seich_used),
        slate_version=evening.version,
    )
    s.add(hand)
    return hand


def _check_evening_open(evening: Evening) -> None:
    if evening.deleted:
        raise EveningDeleted()
    if not evening.is_open:
        raise RuleError(N_("This evening has ended; its slate can no longer change."), "evening_ended")


def open_table(
    evening: Evening, *, computers: Collection[int] = (), level: str | None = None, rng: RandomSource | None = None
) -> DigitalTable:
    """A digital table for the evening's next hand (same players, dealer and open rows
    as the slate), its first hand dealt. An open table of the evening is returned as it is.

    ``computers`` play at ``level`` (one of ``bots.LEVELS``, else RuleError ``level_unknown``),
    which must be given when there are computers."""
    _check_evening_open(evening)
    if level is not None:
        check_level(level)
    elif computers:
        raise ValueError("computer seats need a level")
    found = open_table_of(evening)
    if found is not None:
        return found
    n = ruleset_of(evening).n_players
    if any(not 0 <= c < n for c in computers):
        raise RuleError(N_("There is no seat %(seat)s at this table."), "seat_unknown", seat=max(computers))
    with tx.write() as s:
        ev = s.execute(select(Evening).where(Evening.id == evening.id).with_for_update()).scalar_one()
        _check_evening_open(ev)  # as it stands under the lock
        again = (
            s.execute(select(DigitalTable).where(DigitalTable.evening_id == ev.id, DigitalTable.status == "open"))
            .scalars()
            .first()
        )
        if again is not None:  # a double tap on another worker
            return again
        table = DigitalTable(evening_id=ev.id, status="open", version=0)
        s.add(table)
        s.flush()
        for seat in range(n):
            row = TableSeat(table_id=table.id, seat=seat, computer=seat in computers)
            if level is not None:  # human seats keep the column's default until given to a computer
                row.level = level
            s.add(row)
        _deal(s, table, ev, 1, rng or secrets.SystemRandom())
    run_computers(table)
    return table


def deal_next(table: DigitalTable, *, rng: RandomSource | None = None) -> TableState:
    """Deal the evening's next hand at this table (the current one must be over).

    A repeated tap after the deal is harmless: while a hand is in play nothing is dealt.
    """
    with tx.write() as s:
        t = lock_table(s, table.id)
        if not t.is_open:
            raise RuleError(N_("This table is closed."), "table_closed")
        ev = s.get(Evening, t.evening_id)
        assert ev is not None
        _check_evening_open(ev)
        current = _current_hand(s, t.id)
        state = _replay(s, ruleset_of(ev), current)
        if state is None or state.is_terminal():
            _deal(s, t, ev, (current.number if current else 0) + 1, rng or secrets.SystemRandom())
            t.version += 1
    return run_computers(table)


def close_table(table: DigitalTable) -> None:
    """Back to real cards: the table closes (a hand in play is dropped; nothing reaches the slate)."""
    with tx.write() as s:
        t = lock_table(s, table.id)
        if t.is_open:
            t.status = "closed"
            t.closed_at = utcnow()
            t.version += 1


# --- acting ------------------------------------------------------------------------------
def _locked_state(s: Session, table_id: int) -> TableState:
    t = lock_table(s, table_id)
    if not t.is_open:
        raise RuleError(N_("This table is closed."), "table_closed")
    st = _state(s, t)
    if st.state is None or st.hand is None:
        raise RuleError(N_("No hand has been dealt at this table."), "no_hand")
    return st


def _append(s: Session, st: TableState, seat: int, action: int, expected_seq: int, computer: bool) -> HandState:
    """Check and store one action inside a write transaction (the table row locked)."""
    state, hand = st.state, st.hand
    assert state is not None and hand is not None
    seq = st.seq
    if expected_seq != seq:
        raise StaleTable(seq)
    state.apply(action, seat)  # IllegalAction / IllegalCard: raised before anything is written
    s.add(TableAction(hand_id=hand.id, seq=seq + 1, seat=seat, action=action, computer=computer))
    st.table.version += 1
    return state


def _record(table: DigitalTable, seat: int, action: int, expected_seq: int, computer: bool, final: HandState) -> None:
    """Store the hand's last action and write its result on the slate, in ONE transaction."""
    evening = tx.session().get(Evening, table.evening_id)
    assert evening is not None
    entry = final.result().to_entry()

    def also(s: Session, _ev: Evening) -> None:
        _append(s, _locked_state(s, table.id), seat, action, expected_seq, computer)

    hand = _current_hand(tx.session(), table.id)
    assert hand is not None
    request_id = digital_hand_request_id(table.public_id, hand.number)
    for attempt in (1, 2):  # the slate may change (a correction elsewhere) between read and lock
        try:
            evenings.record_hand(
                evening, entry, expected_version=evening.version, request_id=request_id, digital=True, also=also
            )
            return
        except StaleVersion:
            if attempt == 2:
                raise
            tx.session().refresh(evening)


def _already_done(table: DigitalTable, seat: int, action: int, expected_seq: int) -> bool:
    """A repeat: the action at ``expected_seq`` is this very one, by this seat (a double tap)."""
    s = tx.session()
    hand = _current_hand(s, table.id)
    if hand is None:
        return False
    row = s.execute(
        select(TableAction).where(TableAction.hand_id == hand.id, TableAction.seq == expected_seq + 1)
    ).scalar_one_or_none()
    return row is not None and row.seat == seat and row.action == action


def act(table: DigitalTable, seat: int, action: int, *, expected_seq: int, computer: bool = False) -> TableState:
    """``seat`` takes ``action`` (an engine action id: a card, pass, an announcement, a
    Komisch block). Then the computer seats play until it is a human's turn.

    A repeat of the action already stored at ``expected_seq`` by the same seat (a double
    tap, a resent request) changes nothing and answers like the first one."""
    try:
        _act(table, seat, action, expected_seq, computer)
    except StaleTable:
        if computer or not _already_done(table, seat, action, expected_seq):
            raise
    if computer:
        return load(table)
    return run_computers(table)


def _act(table: DigitalTable, seat: int, action: int, expected_seq: int, computer: bool) -> None:
    s = tx.session()
    s.refresh(table)
    if not table.is_open:
        raise RuleError(N_("This table is closed."), "table_closed")
    st = _state(s, table)
    if st.state is None:
        raise RuleError(N_("No hand has been dealt at this table."), "no_hand")
    if expected_seq != st.seq:
        raise StaleTable(st.seq)
    after = st.state.clone()
    after.apply(action, seat)  # the engine's reason, nothing written
    if after.is_terminal():
        _record(table, seat, action, expected_seq, computer, after)
    else:
        with tx.write() as w:
            _append(w, _locked_state(w, table.id), seat, action, expected_seq, computer)


def run_computers(table: DigitalTable) -> TableState:
    """Let computer seats play while it is their turn; returns the table as it then stands.

    The computers think OUTSIDE any transaction (each sees only its own view, on a
    scratch copy of the hand); their moves up to a human's turn are then stored in one
    short transaction that checks nobody moved meanwhile. A hand's last move goes
    through ``act`` (it lands on the slate). Two requests doing this at once are safe:
    the one that loses the race gets ``StaleTable``, reloads and goes on. A computer
    that fails is marked (``seats.mark_failed``); the moves before it are kept.
    """
    for _ in range(MAX_COMPUTER_STEPS):
        st = load(table)
        mover = st.to_move()
        if not st.table.is_open or mover is None or mover not in st.computers or mover in st.failed:
            return st
        assert st.state is not None
        scores = {key: cell.value for key, cell in st.slate.cells.items()}  # public: the row choice
        scratch = st.state.clone()
        moves: list[tuple[int, int]] = []
        last: tuple[int, int] | None = None
        failed: int | None = None
        while not scratch.is_terminal() and (mover := scratch.current_player()) in st.computers:
            try:
                action = computer_move(st, build_view(scratch, mover), scores)
            except ComputerFailed as err:
                failed = err.seat
                break
            scratch.apply(action, mover)
            if scratch.is_terminal():
                last = (mover, action)
            else:
                moves.append((mover, action))
        try:
            if moves:
                with tx.write() as w:
                    locked = _locked_state(w, table.id)
                    for i, (seat, action) in enumerate(moves):
                        _append(w, locked, seat, action, st.seq + i, True)
            if last is not None:
                act(table, last[0], last[1], expected_seq=st.seq + len(moves), computer=True)
        except StaleTable:
            continue
        if failed is not None:
            mark_failed(table, failed)
    return load(table)


def computer_move(st: TableState, view: SeatView, scores: Mapping[tuple[str, int], int]) -> int:
    """The bots' action for the computer in ``view.seat`` at its level; ComputerFailed (logged)
    when the bot raises or answers an action that is not one of ``view.legal_actions``."""
    level = st.levels[view.seat]
    try:
        action = choose_action(view, st.ruleset, level, scores=dict(scores))
    except Exception:  # any bug of a bot: logged with its table and seat, and shown on the pages
        log.exception("computer player failed: table %s, seat %s, level %s", st.table.public_id, view.seat, level)
        raise ComputerFailed(view.seat) from None
    if action not in view.legal_actions:
        log.error(
            "computer player answered an illegal action %r: table %s, seat %s, level %s",
            action,
            st.table.public_id,
            view.seat,
            level,
        )
        raise ComputerFailed(view.seat)
    return action
