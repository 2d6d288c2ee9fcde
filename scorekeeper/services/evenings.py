"""Evenings: start, record hands, correct, undo, cut ties, end, result.

Every change is one transaction (``applying.apply``: the lock, the request id, the version
check, the rows appended, the version bumped); the rules are checked through
``scorekeeper.scoring``. The write that fills the last cell of the slate (and cuts its last
tie) ends the evening in the same transaction (``_close_when_over``). Nothing is ever updated
in place or deleted except the evening's status/version.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Callable, Collection, Sequence
from typing import cast

from sqlalchemy import Table, bindparam, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..game.errors import N_, RuleError
from ..game.hand_entry import HandEntry
from ..game.rulesets import RuleSet
from ..game.table import verify_table
from ..models import (
    Circle,
    CutRow,
    EntryRow,
    Evening,
    Player,
    Seat,
    is_public_id,
    utcnow,
)
from ..scoring.final import Cut, Tie, draw_cut, final_result, ties
from ..scoring.slate import Slate, verify_entry
from . import applying
from .circles import PLAYER_NAME_MAX, clean_name, get_or_create_player
from .errors import EveningDeleted, NotFound
from .read import memory, outlook, who_is_who
from .read.replay import (
    EntryRecord,
    build_slate,
    effective_cuts,
    hand_fields,
    ranking_text,
    replay,
    ruleset_of,
)
from .read.snapshot import (
    cut_rows,
    entry_rows,
    hand_in_play,
    load_snapshot,
    open_table_hand,
    seat_names,
)
from .store import tx
from .store.requests import check_same, digest

log = logging.getLogger(__name__)

__all__ = [
    "correct_entry",
    "cuts_and_pending",
    "draw_cuts",
    "end_evening",
    "get_evening",
    "load_slate",
    "names_of",
    "record_hand",
    "reopen_evening",
    "set_cut",
    "start_evening",
    "undo_last",
]


# --- reading ---------------------------------------------------------------------
def _no_evening() -> NotFound:
    return NotFound(N_("There is no such evening in this circle."), "evening_not_found")


def _well_formed(public_id: str) -> str:
    """Nothing but an id we hand out reaches the database (PostgreSQL refuses a NUL byte in text)."""
    if not is_public_id(public_id):
        raise _no_evening()
    return public_id


# Built once (building a statement costs more than running it).
_OF_CIRCLE = select(Evening).where(
    Evening.public_id == bindparam("public_id"), Evening.circle_id == bindparam("circle_id")
)
_ENTRY = insert(cast(Table, EntryRow.__table__))


def get_evening(circle: Circle, public_id: str, *, deleted_ok: bool = False) -> Evening:
    """The circle's evening with that public id; raises NotFound, and ``EveningDeleted`` for an
    evening deleted as a test (housekeeping) unless ``deleted_ok`` (the housekeeping pages show it)."""
    ev = (
        tx.session()
        .execute(_OF_CIRCLE, {"public_id": _well_formed(public_id), "circle_id": circle.id})
        .scalar_one_or_none()
    )
    if ev is None:
        raise _no_evening()
    if ev.deleted and not deleted_ok:
        raise EveningDeleted()
    return ev


def _slate(s: Session, evening: Evening) -> Slate:
    return build_slate(ruleset_of(evening), evening.first_dealer, entry_rows(s, evening))


def load_slate(evening: Evening) -> Slate:
    """The scoring.Slate of the effective entries (corrections applied, undone entries gone)."""
    return _slate(tx.session(), evening)


def names_of(evening: Evening) -> tuple[str, ...]:
    """The evening's players in seat order, under the names they go by now (housekeeping)."""
    return seat_names(tx.session(), evening.id)


def cuts_and_pending(evening: Evening, slate: Slate | None = None) -> tuple[list[Cut], list[Tie]]:
    """(recorded cuts that decide a current tie; ties still waiting for a cut)."""
    s = tx.session()
    return effective_cuts(slate or _slate(s, evening), cut_rows(s, evening))


# --- starting ----------------------------------------------------------------------
_check_request_id = tx.check_request_id  # one rule for every request id (tx)


def start_evening(
    circle: Circle, *, ruleset: RuleSet, player_names: list[str], first_dealer: int, request_id: str
) -> Evening:
    """A new evening with the players in seat order (new names join the circle).

    A request id already used in this circle returns that evening (double tap).
    """
    _check_request_id(request_id)
    ruleset.check()
    names = [clean_name(name, limit=PLAYER_NAME_MAX, code="player_name") for name in player_names]
    verify_table(ruleset, names, first_dealer)
    snapshot = ruleset.to_dict()
    circle_id = circle.id
    asked = digest("start", ruleset=snapshot, players=names, first_dealer=first_dealer)

    def existing(s: Session) -> Evening | None:
        return s.execute(
            select(Evening).where(Evening.circle_id == circle_id, Evening.start_request_id == request_id)
        ).scalar_one_or_none()

    for attempt in (1, 2):  # PostgreSQL: a concurrent double tap or new name may collide once
        try:
            with tx.write() as s:
                found = existing(s)
                if found is not None:
                    check_same(found.start_digest, asked)
                    return found
                players = players_for(s, circle_id, names)
                ev = Evening(
                    circle_id=circle_id,
                    ruleset=snapshot,
                    first_dealer=first_dealer,
                    start_request_id=request_id,
                    start_digest=asked,
                    version=0,
                    status="open",
                    ended_early=False,
                )
                s.add(ev)
                s.flush()
                for seat, player in enumerate(players):
                    s.add(Seat(evening_id=ev.id, seat=seat, player_id=player.id))
            return ev
        except IntegrityError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def players_for(s: Session, circle_id: int, names: Sequence[str]) -> list[Player]:
    """The players the names stand for now (housekeeping honoured: a renamed player's new
    or old name, a merged player's name give the player kept); new names join the circle."""
    ids = who_is_who.resolve(who_is_who.state_in(s, circle_id), names)
    who_is_who.refuse_twice(ids)
    out = []
    for name, pid in zip(names, ids, strict=True):
        found = None if pid is None else s.get(Player, int(pid))
        out.append(found if found is not None else get_or_create_player(s, circle_id, name))
    return out


# --- changing (each through ``applying.apply``) --------------------------------------
def _next_seq(rows: Sequence[EntryRecord]) -> int:
    return (rows[-1].seq if rows else 0) + 1


_HAND_COLUMNS = ("row_key", "declarer_seat", "contract", "declarer_points", "defender_points", "cell")
_NO_MARKS = {"match": False, "countermatch": False, "seich": False}  # an undo holds no hand


def _append(
    s: Session,
    evening_id: int,
    rows: Sequence[EntryRecord],
    kind: str,
    supersedes: int | None,
    digital: bool,
    request_id: str,
    author: str | None,
    entry: HandEntry | None,
) -> None:
    """Append an entry row (one INSERT, no unit of work: the write holds the lock the shorter)."""
    hand = hand_fields(entry) if entry is not None else dict.fromkeys(_HAND_COLUMNS, None) | _NO_MARKS
    values: dict[str, object] = {
        "seq": _next_seq(rows),
        "kind": kind,
        "supersedes": supersedes,
        "digital": digital,
        "request_id": request_id,
        "author": author,
        "created_at": utcnow(),
        **hand,
    }
    s.execute(_ENTRY, {"evening_id": evening_id, **values})
    s.info.setdefault(applying.APPENDED, []).append(EntryRecord(**values))  # type: ignore[arg-type]  # EntryRecord's fields


def _author(author: str | None) -> str | None:
    if author is None or not author.strip():
        return None
    return clean_name(author, limit=PLAYER_NAME_MAX, code="author")


def _stored_after(evening: Evening, *, was_open: bool = False) -> Evening:
    """After a write that changed the evening (committed): the derived copies it changes (the
    outlook's forecast of the new version, the outcomes and rating runs of the circle's memory)
    are stored at the end of the request that wrote (``tx.after_write``); a read (GET) never
    stores them. ``was_open``: the write needed the evening open (a hand, a correction, an
    undo); if it is still open, the memory's stored copies are the same (they are of ended
    evenings only), so the memory is not read again for them."""
    tx.after_write(("evening", evening.id), lambda: _store_derived(evening, was_open))
    return evening


def _store_derived(evening: Evening, was_open: bool = False) -> None:
    try:
        tx.session().refresh(evening)
        circle = evening.circle
        snap = load_snapshot(evening)
    except Exception:  # an extra: the write stands (a later write, or a read's memory, has them)
        log.exception("the derived copies of evening %s were not stored", evening.public_id)
        return
    outlook.store_after_write(snap, circle)
    if not (was_open and snap.is_open):
        memory.store_after_write(circle)


def record_hand(
    evening: Evening,
    entry: HandEntry,
    *,
    expected_version: int,
    request_id: str,
    digital: bool = False,
    author: str | None = None,
    also: Callable[[Session, Evening], None] | None = None,
    queued_after: Collection[str] | None = None,
) -> Evening:
    """Append a hand after the checks of RULES.md 7 (RuleError: nothing written).

    ``author``: who entered it, as the phone says (optional; there are no accounts).
    ``also``: more writes in the same transaction, with the evening locked (the
    digital table stores the hand's last action there); raising writes nothing.
    A manual hand (``digital=False``) is refused while a hand is dealt digitally.
    ``queued_after``: a hand sent from an offline phone's queue names the request ids of
    that phone's earlier queued hands; it is accepted on a version newer than
    ``expected_version`` only if every change since is one of them (else StaleVersion).
    """
    who = _author(author)
    mine = applying.check_queued_after(queued_after)

    def change(s: Session, ev: Evening) -> bool:
        if also is not None:
            also(s, ev)
        rows = entry_rows(s, ev)
        # the table writes its hand's result; a manual hand would take that cell
        if not digital and hand_in_play(open_table_hand(s, ev.id), {r.request_id for r in rows}):
            raise RuleError(
                N_(
                    "A hand is being dealt digitally; it is written on the slate when it ends. "
                    "To record by hand, close the table first."
                ),
                "digital_hand_in_play",
            )
        rs = ruleset_of(ev)
        verify_entry(rs, build_slate(rs, ev.first_dealer, rows), entry)
        _append(s, ev.id, rows, "hand", None, digital, request_id, who, entry)
        _close_when_over(s, ev, rows)
        return True

    return _stored_after(
        applying.apply(
            evening,
            expected_version=expected_version,
            request_id=request_id,
            action="hand",
            asked={"entry": hand_fields(entry), "digital": digital, "author": who},
            change=change,
            queued_after=mine,
        ),
        was_open=True,
    )


def correct_entry(
    evening: Evening,
    index: int,
    entry: HandEntry,
    *,
    expected_version: int,
    request_id: str,
    author: str | None = None,
) -> Evening:
    """Replace the entry at ``index`` (0-based position on the slate) by ``entry``.

    The old row stays; the new one supersedes it. Every later hand must still be valid.
    """
    who = _author(author)

    def change(s: Session, ev: Evening) -> bool:
        rows = entry_rows(s, ev)
        rs = ruleset_of(ev)
        slate = build_slate(rs, ev.first_dealer, rows)
        verify_entry(rs, slate, entry, replacing=index)
        old = replay(rows)[index]
        if slate.entries[index] == entry:
            return False  # nothing to correct
        _append(s, ev.id, rows, "correction", old.seq, old.digital, request_id, who, entry)
        _close_when_over(s, ev, rows)
        return True

    return _stored_after(
        applying.apply(
            evening,
            expected_version=expected_version,
            request_id=request_id,
            action="correction",
            asked={"index": index, "entry": hand_fields(entry), "author": who},
            change=change,
        ),
        was_open=True,
    )


def undo_last(evening: Evening, *, expected_version: int, request_id: str, author: str | None = None) -> Evening:
    """Take back the last entry on the slate (a new ``undo`` row; nothing deleted)."""
    who = _author(author)

    def change(s: Session, ev: Evening) -> bool:
        rows = entry_rows(s, ev)
        effective = replay(rows)
        if not effective:
            raise RuleError(N_("There is no hand to undo."), "nothing_to_undo")
        _append(s, ev.id, rows, "undo", effective[-1].seq, False, request_id, who, None)
        return True

    return _stored_after(
        applying.apply(
            evening,
            expected_version=expected_version,
            request_id=request_id,
            action="undo",
            asked={"author": who},
            change=change,
        ),
        was_open=True,
    )


def _add_cut(s: Session, evening_id: int, cut: Cut, tie: Tie, request_id: str) -> None:
    order = cut.ranking(tie)  # RuleError when the cut does not fit the tie
    s.info[applying.CUTS_ADDED] = True
    s.add(
        CutRow(
            evening_id=evening_id,
            row_key=tie.row_key,
            end=tie.end,
            ranking=ranking_text(order),
            winner=order[0],
            drawn=cut.drawn,
            request_id=request_id,
        )
    )


def set_cut(evening: Evening, cut: Cut, *, expected_version: int, request_id: str) -> Evening:
    """Record how a tie was decided (a real cut at the table, or a re-cut)."""

    def change(s: Session, ev: Evening) -> bool:
        slate = _slate(s, ev)
        tie = {(t.row_key, t.end): t for t in ties(slate)}.get((cut.row_key, cut.end))
        if tie is None:
            raise RuleError(N_("Row “%(row)s” has no tie to cut."), "no_tie", row=cut.row_key)
        _add_cut(s, ev.id, cut, tie, request_id)
        _close_when_over(s, ev, entry_rows(s, ev), cuts_added=True)
        return True

    asked = {"row_key": cut.row_key, "end": cut.end, "winner": cut.winner, "drawn": cut.drawn, "order": cut.order}
    return _stored_after(
        applying.apply(
            evening, expected_version=expected_version, request_id=request_id, action="cut", asked=asked, change=change
        )
    )


def _draw_missing(s: Session, ev: Evening, slate: Slate, rng: random.Random, request_id: str) -> bool:
    _cuts, pending = effective_cuts(slate, cut_rows(s, ev))
    for tie in pending:
        _add_cut(s, ev.id, draw_cut(tie, rng), tie, request_id)
    return bool(pending)


def draw_cuts(evening: Evening, *, expected_version: int, request_id: str, rng: random.Random | None = None) -> Evening:
    """Cut the cards for every tie still undecided (secure random draw, recorded)."""
    generator = rng or secrets.SystemRandom()

    def change(s: Session, ev: Evening) -> bool:
        drawn = _draw_missing(s, ev, _slate(s, ev), generator, request_id)
        if drawn:
            _close_when_over(s, ev, entry_rows(s, ev), cuts_added=True)
        return drawn

    return _stored_after(
        applying.apply(
            evening,
            expected_version=expected_version,
            request_id=request_id,
            action="draw_cuts",
            asked={},
            change=change,
        )
    )


def _close_when_over(s: Session, ev: Evening, rows: Sequence[EntryRecord], *, cuts_added: bool = False) -> None:
    """The evening is over once its last cell is filled and every tie of the slate is cut: the
    write that makes it so closes it, in the same transaction (it then counts in the purse, the
    statistics and the ratings as if the table had tapped "Close the evening"; a complete evening
    always counts in money). ``rows``: the entry rows before this write (its own appended rows are
    in the session's ``applying.APPENDED``); ``cuts_added``: this write added cut rows. A tie still
    to cut (three players) keeps the evening open: the table cuts the cards, and that cut closes it."""
    if not ev.is_open:
        return
    appended: list[EntryRecord] = s.info.get(applying.APPENDED, [])
    rs = ruleset_of(ev)
    slate = build_slate(rs, ev.first_dealer, (*rows, *appended))
    if not slate.complete:
        return
    if cuts_added:
        s.flush()
    cuts, pending = effective_cuts(slate, cut_rows(s, ev, fresh=cuts_added))
    if pending:
        return
    final_result(slate, cuts)  # stands: every tie cut
    ev.status = "ended"
    ev.ended_early = False
    ev.counts_in_money = True
    ev.ended_at = utcnow()


def end_evening(
    evening: Evening,
    *,
    early: bool,
    expected_version: int,
    request_id: str,
    rng: random.Random | None = None,
    counts_in_money: bool = True,
) -> Evening:
    """End the evening: when every cell is filled, or ``early`` with the standing so far.

    Ties without a cut are cut by a secure random draw now (recorded like any cut).
    ``counts_in_money``: whether an evening ended early counts in the circle's money
    totals (the table says so when ending it); a complete evening always counts.
    An evening already over with every cell filled (closed by the write that filled its
    last cell, ``_close_when_over``) is left as it is: ending it again changes nothing.
    """
    generator = rng or secrets.SystemRandom()

    def change(s: Session, ev: Evening) -> bool:
        if not ev.is_open:
            if ev.ended_early:
                raise RuleError(N_("This evening has ended; its slate can no longer change."), "evening_ended")
            return False  # over already, every cell filled: nothing to do
        slate = _slate(s, ev)
        if not slate.complete and not early:
            raise RuleError(N_("Some cells are still open: fill them, or end the evening early."), "evening_incomplete")
        _draw_missing(s, ev, slate, generator, request_id)
        s.flush()
        cuts, _pending = effective_cuts(slate, cut_rows(s, ev, fresh=True))  # with those just drawn
        final_result(slate, cuts)  # must stand before the evening is closed
        ev.status = "ended"
        ev.ended_early = not slate.complete
        ev.counts_in_money = slate.complete or bool(counts_in_money)
        ev.ended_at = utcnow()
        return True

    return _stored_after(
        applying.apply(
            evening,
            expected_version=expected_version,
            request_id=request_id,
            action="end",
            # what the table said is part of the request (the same id saying otherwise is refused);
            # the default is left out, so an id sent before it was asked is still the same request
            asked={"early": early} if counts_in_money else {"early": early, "counts_in_money": False},
            change=change,
            ended_ok=True,
        )
    )


def reopen_evening(evening: Evening, *, expected_version: int, request_id: str) -> Evening:
    """Open an ended evening again to correct it (a mistake noticed at payout time).

    Status back to ``open``, ``ended_at``, ``ended_early`` and ``counts_in_money`` cleared, version + 1. The
    entries and the recorded cuts stay; closing it again computes the result afresh.
    Reopening an open evening raises ``evening_open``.
    """

    def change(s: Session, ev: Evening) -> bool:
        if ev.is_open:
            raise RuleError(N_("This evening is still open."), "evening_open")
        ev.status = "open"
        ev.ended_early = False
        ev.counts_in_money = True
        ev.ended_at = None
        return True

    return _stored_after(
        applying.apply(
            evening,
            expected_version=expected_version,
            request_id=request_id,
            action="reopen",
            asked={},
            change=change,
            ended_ok=True,
        )
    )
