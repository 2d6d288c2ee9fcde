"""The read model: an evening's snapshot is loaded with a fixed number of SQL statements,
whatever the number of entries, corrections, undos and cuts; the slate page, its live
fragment, the picture and the API's answers render from it without querying again; and
it holds exactly what the slate, the cuts, the outcome and the audit trail read alone give."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from flask import Flask
from services_helpers import NAMES, next_hand, play_hands
from shared_helpers import counted, rid

from scorekeeper.extensions import db
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.models import Evening
from scorekeeper.scoring.standing import decide
from scorekeeper.services import circles, evenings
from scorekeeper.services.read import listings, snapshot
from scorekeeper.services.read.replay import audit_trail, cuts_of
from scorekeeper.services.read.snapshot import load_snapshot

MAX_STATEMENTS = 5  # seats, the circle's housekeeping (names now), entry rows, cut rows, the open digital table
KEPT_STATEMENTS = 1  # the open digital table and the naming events; rows and names kept by the worker


def _evening(variant: Variant, hands: int, *, busy: bool, write: str | None = None) -> tuple[str, str]:
    """(write token, evening id) with ``hands`` hands; ``busy`` adds a correction, an undo and cuts.
    In a new circle, or in the circle of the link ``write``."""
    rs = default_ruleset(variant)
    if write is None:
        circle, write, _view = circles.create_circle("Runde")
    else:
        circle = circles.open_circle(write)[0]
    ev = evenings.start_evening(
        circle, ruleset=rs, player_names=list(NAMES[: rs.n_players]), first_dealer=0, request_id=rid("start")
    )
    for _ in play_hands(ev, hands - 1 if busy else hands):
        pass
    if busy:  # before the last cell: the hand that fills it closes the evening
        first = evenings.load_slate(ev).entries[0]  # a plain hand (next_hand's turn 0)
        fixed = replace(first, declarer_points=first.declarer_points + 1, defender_points=first.defender_points - 1)
        ev = evenings.correct_entry(ev, 0, fixed, expected_version=ev.version, request_id=rid("fix"), author="Anna")
        ev = evenings.undo_last(ev, expected_version=ev.version, request_id=rid("undo"))
        ev = evenings.record_hand(
            ev, next_hand(evenings.load_slate(ev), 99), expected_version=ev.version, request_id=rid("again")
        )
        for _ in play_hands(ev, 1, start_turn=hands):
            pass
        if evenings.load_slate(ev).complete and ev.is_open:  # a tie to cut keeps it open
            ev = evenings.draw_cuts(ev, expected_version=ev.version, request_id=rid("cut"), rng=random.Random(3))
    return write, ev.public_id


def _fresh(write: str, evening_id: str) -> Evening:
    db.session.remove()
    circle, _can_write = circles.open_circle(write)
    return evenings.get_evening(circle, evening_id)


@pytest.mark.parametrize("variant", [Variant.THREE, Variant.CLUB], ids=["three", "club"])
def test_a_snapshot_takes_the_same_few_statements_for_few_and_many_entries(app: Flask, variant: Variant) -> None:
    with app.app_context():
        small = _evening(variant, 2, busy=False)
        full = _evening(variant, default_ruleset(variant).n_hands, busy=True)
        counts, kept = [], []
        for write, evening_id in (small, full):
            ev = _fresh(write, evening_id)
            snapshot.forget()  # a worker that has not seen the evening
            with counted() as seen:
                snap = load_snapshot(ev)
            counts.append(len(seen))
            assert snap.public_id == evening_id
            with counted() as seen:
                again = load_snapshot(ev)
            kept.append(len(seen))
            assert again.slate.entries == snap.slate.entries and again == snap
        assert counts[0] == counts[1] <= MAX_STATEMENTS, counts
        assert kept == [KEPT_STATEMENTS, KEPT_STATEMENTS], kept
        assert snap.slate.complete and snap.result is not None and snap.corrections  # the full one has it all


def test_the_snapshot_holds_what_the_single_reads_give(app: Flask) -> None:
    with app.app_context():
        write, evening_id = _evening(Variant.THREE, default_ruleset(Variant.THREE).n_hands, busy=True)
        ev = _fresh(write, evening_id)
        snap = load_snapshot(ev)
        slate = evenings.load_slate(ev)
        cuts, pending = evenings.cuts_and_pending(ev)
        assert snap.slate.entries == slate.entries and snap.slate.totals == slate.totals
        assert (list(snap.cuts), list(snap.pending)) == (cuts, pending)
        decided = decide(slate, cuts_of(snapshot.cut_rows(db.session(), ev)), is_open=ev.is_open)
        assert (snap.result, snap.payout) == (decided.result, decided.payout)
        assert list(snap.trail) == audit_trail(snapshot.entry_rows(db.session(), ev))
        assert [i.kind for i in snap.corrections] == ["correction", "undo"]
        assert snap.names == tuple(NAMES[:3]) and snap.version == ev.version
        assert snap.turn is None and not snap.table_open and not snap.hand_in_play
        assert snap.digital == frozenset()


def test_the_turn_guide_is_the_slates(app: Flask) -> None:
    with app.app_context():
        write, evening_id = _evening(Variant.CLUB, 3, busy=False)
        snap = load_snapshot(_fresh(write, evening_id))
        slate, turn = snap.slate, snap.turn
        assert turn is not None
        assert (turn.dealer, turn.forehand, turn.barrel_seat) == (slate.dealer, slate.forehand, slate.barrel_seat)
        assert list(turn.speaking) == slate.eligible_seats()
        assert set(turn.full_sides) == slate.full_sides()
        assert turn.seich_available == tuple(s for s in range(2) if s not in slate.seich_used)


Read = Callable[[Any, str, str], Any]
READS: dict[str, Read] = {
    "slate page": lambda c, w, e: c.get(f"/c/{w}/e/{e}"),
    "live fragment": lambda c, w, e: c.get(f"/c/{w}/e/{e}/version?v=-1"),
    "picture": lambda c, w, e: c.get(f"/c/{w}/e/{e}/slate.png"),
    "api evening": lambda c, w, e: c.get(f"/api/v1/evenings/{e}", headers={"Authorization": f"Bearer {w}"}),
    "api slate": lambda c, w, e: c.get(f"/api/v1/evenings/{e}/slate", headers={"Authorization": f"Bearer {w}"}),
    "api result": lambda c, w, e: c.get(f"/api/v1/evenings/{e}/result", headers={"Authorization": f"Bearer {w}"}),
}


@pytest.mark.parametrize("read", list(READS), ids=list(READS))
def test_every_view_of_an_evening_reads_it_once(app: Flask, read: str) -> None:
    """The page, the live fragment, the PNG and the JSON render from the snapshot: the same
    number of statements for an evening of two hands and for a whole evening with corrections."""
    with app.app_context():
        # one circle: what the circle's memory adds (the outlook's history: the full evening is over,
        # so it is in it) is the same for both; what differs is the evening's own reads
        full = _evening(Variant.THREE, default_ruleset(Variant.THREE).n_hands, busy=True)
        small = _evening(Variant.THREE, 2, busy=False, write=full[0])
        listings.history(circles.open_circle(full[0])[0])  # read once per worker, as on a table's first page
    client = app.test_client()
    counts = []
    for write, evening_id in (small, full):
        snapshot.forget()  # a worker that has not read the evening yet
        with app.app_context(), counted() as seen:
            response = READS[read](client, write, evening_id)
        assert response.status_code == 200, response.get_data(as_text=True)[:300]
        counts.append(len(seen))
    assert counts[0] == counts[1], counts


def _same(a: Any, b: Any) -> None:
    assert a.slate.entries == b.slate.entries and a.slate.totals == b.slate.totals
    assert a.slate.entries == b.slate.entries and a == b


def test_the_rows_a_write_hands_over_are_the_rows_the_database_holds(app: Flask) -> None:
    """After every kind of change the snapshot read from what the worker kept (the rows the write
    read under the lock and the ones it appended) is the snapshot a worker that kept nothing reads;
    and a snapshot asked for by an evening object of an older version reads that version's rows."""
    with app.app_context():
        write, evening_id = _evening(Variant.THREE, 2, busy=False)
        ev = _fresh(write, evening_id)
        old = ev.version
        steps: list[Callable[[Evening], Evening]] = [
            lambda e: evenings.record_hand(
                e, next_hand(evenings.load_slate(e), 5), expected_version=e.version, request_id=rid("h")
            ),
            lambda e: evenings.correct_entry(
                e,
                0,
                replace(evenings.load_slate(e).entries[0], declarer_points=40, defender_points=117),
                expected_version=e.version,
                request_id=rid("c"),
            ),
            lambda e: evenings.undo_last(e, expected_version=e.version, request_id=rid("u")),
            lambda e: evenings.end_evening(
                e, early=True, expected_version=e.version, request_id=rid("end"), rng=random.Random(1)
            ),
            lambda e: evenings.reopen_evening(e, expected_version=e.version, request_id=rid("re")),
        ]
        for step in steps:
            ev = step(ev)
            kept = load_snapshot(ev)
            snapshot.forget()
            _same(kept, load_snapshot(_fresh(write, evening_id)))
            ev = _fresh(write, evening_id)
        snapshot.forget()
        stale = _fresh(write, evening_id)
        db.session.expunge(stale)  # not written back: it stands for an object read before the changes
        now, stale.version = stale.version, old
        rows = snapshot.entry_rows(db.session(), stale)  # the database gives today's rows...
        key = (stale.id, stale.public_id)
        assert snapshot.kept_entries(key, old) is None  # ...never kept as the old version's
        assert snapshot.kept_entries(key, now) == rows and len(rows) == 5
        db.session.rollback()
