"""A complete evening of every variant through the services: hands, double taps,
stale versions, closed rows, corrections, undo, Seich, cuts, end, result, money,
history. Runs on SQLite, and on PostgreSQL with SCOREKEEPER_TEST_DB=postgres."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from flask import Flask
from services_helpers import NAMES, next_hand
from shared_helpers import rid, settled
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.game.errors import RuleError
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.models import AppliedRequest, EntryRow, Evening
from scorekeeper.scoring import Slate, final_result, payout
from scorekeeper.services import circles, evenings
from scorekeeper.services.errors import StaleVersion
from scorekeeper.services.read import listings
from scorekeeper.services.read.snapshot import load_snapshot

HANDS = {Variant.THREE: 30, Variant.TEAMS: 16, Variant.SOLO4: 32, Variant.CLUB: 24}


def _rows(evening: Evening) -> int:
    return db.session.execute(
        select(func.count()).select_from(EntryRow).where(EntryRow.evening_id == evening.id)
    ).scalar_one()


def _record(evening: Evening, entry: HandEntry) -> Evening:
    return evenings.record_hand(evening, entry, expected_version=evening.version, request_id=rid("hand"))


@pytest.mark.parametrize("variant", list(Variant), ids=[v.value for v in Variant])
def test_complete_evening(app: Flask, variant: Variant) -> None:
    with app.app_context():
        rs = default_ruleset(variant)
        circle, _w, _v = circles.create_circle("Dienstagsrunde")
        names = list(NAMES[: rs.n_players])
        ev = evenings.start_evening(circle, ruleset=rs, player_names=names, first_dealer=1, request_id=rid("start"))
        assert [p.name for p in ev.players] == names
        assert ev.version == 0 and ev.is_open
        expected: list[HandEntry] = []  # what the slate must hold, maintained independently
        log_rows = 0

        if variant is Variant.CLUB:  # a Seich from the barrel: a deal without a cell
            slate = evenings.load_slate(ev)
            assert slate.barrel_seat is not None  # the club's barrel
            seich = HandEntry.seich_hand(slate.barrel_seat)
            ev = _record(ev, seich)
            expected.append(seich)
            log_rows += 1
            assert evenings.load_slate(ev).dealer == (1 + 1) % 4

        turn = 0
        while len([e for e in expected if not e.seich]) < HANDS[variant]:
            slate = evenings.load_slate(ev)
            entry = next_hand(slate, turn)
            turn += 1
            if turn == 3:
                # a double tap: the same request id twice records once
                v0, request_id = ev.version, rid("tap")
                ev = evenings.record_hand(ev, entry, expected_version=v0, request_id=request_id)
                again = evenings.record_hand(ev, entry, expected_version=v0, request_id=request_id)
                assert again.version == v0 + 1
                expected.append(entry)
                log_rows += 1
                assert _rows(ev) == log_rows
                continue
            if turn == 4:
                # a phone with an old version: nothing written
                with pytest.raises(StaleVersion) as stale:
                    evenings.record_hand(ev, entry, expected_version=ev.version - 1, request_id=rid())
                assert stale.value.code == "stale" and stale.value.current_version == ev.version
                assert _rows(ev) == log_rows
                # a closed row: the first entry's row for the same side again
                first = next(e for e in expected if not e.seich)
                version = ev.version
                with pytest.raises(RuleError) as closed:
                    _record(ev, replace(first, declarer_points=100, defender_points=57))
                assert closed.value.code in ("row_closed", "side_full")
                assert _rows(ev) == log_rows and ev.version == version
            ev = _record(ev, entry)
            expected.append(entry)
            log_rows += 1
            if turn == 6:
                # correct hand no. 2 (index 1): new points, the old row stays
                old = expected[1]
                assert not old.seich
                new = replace(old, declarer_points=(old.declarer_points + 10) % 158, match=False, countermatch=False)
                new = replace(new, defender_points=157 - new.declarer_points)
                ev = evenings.correct_entry(ev, 1, new, expected_version=ev.version, request_id=rid("fix"))
                expected[1] = new
                log_rows += 1
                log = list(load_snapshot(ev).trail)
                assert log[-1].kind == "correction" and log[-1].previous == old and log[-1].entry == new
                assert log[-1].index == 1
            if turn == 8:
                # undo the last hand, then record it again
                ev = evenings.undo_last(ev, expected_version=ev.version, request_id=rid("undo"))
                undone = expected.pop()
                assert list(load_snapshot(ev).trail)[-1].previous == undone
                ev = _record(ev, undone)
                expected.append(undone)
                log_rows += 2
            slate = evenings.load_slate(ev)
            assert list(slate.entries) == expected
            assert slate.totals == Slate.build(rs, 1, expected).totals

        slate = evenings.load_slate(ev)
        assert slate.complete
        assert slate.hands_dealt == HANDS[variant] + (1 if variant is Variant.CLUB else 0)
        assert _rows(ev) == log_rows  # nothing deleted: every hand, correction and undo kept

        cuts, pending = evenings.cuts_and_pending(ev)
        assert cuts == []
        with pytest.raises(RuleError) as full:
            _record(ev, next_hand(Slate.build(rs, 1, expected[:-1]), 0))
        if pending:  # the last cell filled, a tie still to cut: open until the table cuts
            assert variant is Variant.THREE and ev.is_open
            assert settled(ev) is None  # ties need a cut first
            assert full.value.code in ("evening_complete", "row_closed")
        else:  # the last cell filled: over with the hand that filled it
            assert ev.status == "ended" and not ev.ended_early and ev.counts_in_money
            assert full.value.code == "evening_ended"
        version = ev.version
        ev = evenings.end_evening(
            ev, early=False, expected_version=ev.version, request_id=rid("end"), rng=random.Random(7)
        )
        assert ev.status == "ended" and not ev.ended_early and ev.ended_at is not None
        assert ev.version == (version + 1 if pending else version)  # closing a closed evening changes nothing
        outcome = settled(ev)
        assert outcome is not None
        res, pay = outcome
        cuts, pending = evenings.cuts_and_pending(ev)
        assert pending == [] and all(c.drawn for c in cuts)
        direct = final_result(Slate.build(rs, 1, expected), cuts)
        assert res == direct
        assert pay == payout(rs, direct)
        assert sum(pay.net) == 0 and len(pay.net) == rs.n_players
        assert sum(t.rappen for t in pay.transfers) == sum(n for n in pay.net if n > 0)

        # an ended evening no longer changes
        with pytest.raises(RuleError) as ended:
            evenings.undo_last(ev, expected_version=ev.version, request_id=rid())
        assert ended.value.code == "evening_ended"

        (summary,) = listings.history(circle)
        assert summary.public_id == ev.public_id and summary.variant == variant.value
        assert summary.players == tuple(names) and summary.status == "ended"
        assert summary.money == tuple(pay.net) and summary.score == tuple(res.score)
        assert set(summary.winners) == {names[s] for side in res.winners for s in rs.seats_of(side)}
        records = {r.name: r for r in listings.player_records(circle)}
        assert {n: r.net_rappen for n, r in records.items()} == {n: pay.net[i] for i, n in enumerate(names)}
        assert all(r.evenings == 1 for r in records.values())
        assert sum(r.wins for r in records.values()) == len(summary.winners)


def test_early_end_keeps_the_standing(app: Flask) -> None:
    with app.app_context():
        rs = default_ruleset(Variant.TEAMS)
        circle, _w, _v = circles.create_circle("Runde")
        ev = evenings.start_evening(circle, ruleset=rs, player_names=list(NAMES), first_dealer=0, request_id=rid())
        for turn in range(5):
            ev = _record(ev, next_hand(evenings.load_slate(ev), turn))
        assert settled(ev) is None
        with pytest.raises(RuleError) as incomplete:
            evenings.end_evening(ev, early=False, expected_version=ev.version, request_id=rid())
        assert incomplete.value.code == "evening_incomplete"
        totals = evenings.load_slate(ev).totals
        ev = evenings.end_evening(ev, early=True, expected_version=ev.version, request_id=rid())
        assert ev.ended_early and ev.status == "ended"
        outcome = settled(ev)
        assert outcome is not None
        res, pay = outcome
        assert not res.complete and list(res.totals) == totals
        best = max(totals)
        assert res.winners == tuple(s for s, t in enumerate(totals) if t == best)
        assert sum(pay.net) == 0


def test_every_change_bumps_the_version_once_and_is_logged(app: Flask) -> None:
    with app.app_context():
        rs = default_ruleset(Variant.THREE)
        circle, _w, _v = circles.create_circle("Runde")
        ev = evenings.start_evening(circle, ruleset=rs, player_names=list(NAMES[:3]), first_dealer=2, request_id=rid())
        entry = next_hand(evenings.load_slate(ev), 0)
        ev = evenings.record_hand(ev, entry, expected_version=0, request_id=rid(), author=" Beat ")
        assert ev.version == 1 and load_snapshot(evenings.get_evening(circle, ev.public_id)).version == 1
        assert list(load_snapshot(ev).trail)[0].author == "Beat"
        # a correction that changes nothing writes nothing
        ev = evenings.correct_entry(ev, 0, entry, expected_version=1, request_id=rid())
        assert ev.version == 1 and _rows(ev) == 1
        with pytest.raises(RuleError) as bad_index:
            evenings.correct_entry(ev, 5, entry, expected_version=1, request_id=rid())
        assert bad_index.value.code == "entry_unknown"
        ev = evenings.undo_last(ev, expected_version=1, request_id=rid(), author="Anna")
        assert ev.version == 2 and evenings.load_slate(ev).hands_dealt == 0
        undo = list(load_snapshot(ev).trail)[-1]
        assert (undo.kind, undo.author, undo.previous, undo.entry) == ("undo", "Anna", entry, None)
        with pytest.raises(RuleError) as nothing:
            evenings.undo_last(ev, expected_version=2, request_id=rid())
        assert nothing.value.code == "nothing_to_undo"
        actions = db.session.execute(
            select(AppliedRequest.action, AppliedRequest.version)
            .where(AppliedRequest.evening_id == ev.id)
            .order_by(AppliedRequest.created_at)
        ).all()
        assert [tuple(a) for a in actions] == [("hand", 1), ("correction", 1), ("undo", 2)]


def test_an_evening_starts_only_with_a_rule_set_the_check_allows(app: Flask) -> None:
    """The service checks the rule set it writes (``RuleSet.check``, the check an import uses too),
    whoever built it: a factor of 10**15 is refused and nothing is written."""
    with app.app_context():
        circle, _w, _v = circles.create_circle("Dienstagsrunde")
        rs = default_ruleset(Variant.THREE)
        bad = replace(rs, rows=(replace(rs.rows[0], factor=10**15), *rs.rows[1:]))
        with pytest.raises(RuleError) as err:
            evenings.start_evening(
                circle, ruleset=bad, player_names=list(NAMES[:3]), first_dealer=0, request_id=rid("s")
            )
        assert err.value.code == "factor_range" and err.value.params["field"] == "rows[0].factor"
        assert db.session.execute(select(func.count()).select_from(Evening)).scalar_one() == 0
