"""Ties in the three-player game: real cuts entered by the table, drawn cuts,
re-cuts, cuts that stop counting when a correction removes the tie, early end."""

from __future__ import annotations

import random

import pytest
from flask import Flask
from services_helpers import NAMES
from shared_helpers import rid, settled

from scorekeeper.game.errors import RuleError
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.models import Evening
from scorekeeper.scoring import Cut, Tie
from scorekeeper.services import circles, evenings


def _hand(row: str, seat: int, points: int) -> HandEntry:
    return HandEntry(row, seat, None, points, 157 - points)


def _record(ev: Evening, entry: HandEntry) -> Evening:
    return evenings.record_hand(ev, entry, expected_version=ev.version, request_id=rid())


def _evening(app: Flask) -> Evening:
    circle, _w, _v = circles.create_circle("Dreier")
    ev = evenings.start_evening(
        circle, ruleset=default_ruleset(Variant.THREE), player_names=list(NAMES[:3]), first_dealer=0, request_id=rid()
    )
    for seat, points in enumerate((90, 90, 50)):  # suit_C: a tie for the sticks between seats 0 and 1
        ev = _record(ev, _hand("suit_C", seat, points))
    return ev


def test_real_cut_recut_and_correction(app: Flask) -> None:
    with app.app_context():
        ev = _evening(app)
        cuts, pending = evenings.cuts_and_pending(ev)
        assert cuts == [] and pending == [Tie("suit_C", "high", (0, 1))]

        with pytest.raises(RuleError) as no_tie:
            evenings.set_cut(ev, Cut("suit_H", "high", 0, False), expected_version=ev.version, request_id=rid())
        assert no_tie.value.code == "no_tie"
        with pytest.raises(RuleError) as outsider:
            evenings.set_cut(ev, Cut("suit_C", "high", 2, False), expected_version=ev.version, request_id=rid())
        assert outsider.value.code == "cut_invalid"
        version = ev.version

        ev = evenings.set_cut(ev, Cut("suit_C", "high", 1, False), expected_version=version, request_id=rid())
        assert ev.version == version + 1
        cuts, pending = evenings.cuts_and_pending(ev)
        assert cuts == [Cut("suit_C", "high", 1, False, (1, 0))] and pending == []

        # a re-cut: the latest counts
        ev = evenings.set_cut(ev, Cut("suit_C", "high", 0, False), expected_version=ev.version, request_id=rid())
        assert evenings.cuts_and_pending(ev)[0] == [Cut("suit_C", "high", 0, False, (0, 1))]

        # a correction removes the tie: the cut no longer counts; restored, it counts again
        ev = evenings.correct_entry(ev, 1, _hand("suit_C", 1, 60), expected_version=ev.version, request_id=rid())
        assert evenings.cuts_and_pending(ev) == ([], [])
        ev = evenings.correct_entry(ev, 1, _hand("suit_C", 1, 90), expected_version=ev.version, request_id=rid())
        assert evenings.cuts_and_pending(ev)[0] == [Cut("suit_C", "high", 0, False, (0, 1))]

        ev = evenings.end_evening(ev, early=True, expected_version=ev.version, request_id=rid())
        outcome = settled(ev)
        assert outcome is not None
        res, pay = outcome
        row = res.rows[0]
        assert row.row_key == "suit_C" and row.marks == ((1, 0), (0, 0), (0, 1))
        assert res.net == (1, 0, -1) and res.winners == (0,)
        assert pay.net == [100, 0, -100]  # CHF 1 per stick


def test_three_equal_cells_are_drawn_at_the_end(app: Flask) -> None:
    with app.app_context():
        ev = _evening(app)
        for seat in range(3):  # suit_H: all three equal
            ev = _record(ev, _hand("suit_H", seat, 52))
        pending = evenings.cuts_and_pending(ev)[1]
        assert Tie("suit_H", "all", (0, 1, 2)) in pending
        with pytest.raises(RuleError) as needs_order:
            evenings.set_cut(ev, Cut("suit_H", "all", 2, False), expected_version=ev.version, request_id=rid())
        assert needs_order.value.code == "cut_order_required"
        ev = evenings.set_cut(
            ev, Cut("suit_H", "all", 2, False, (2, 0, 1)), expected_version=ev.version, request_id=rid()
        )
        version = ev.version
        ev = evenings.draw_cuts(ev, expected_version=version, request_id=rid(), rng=random.Random(5))
        assert ev.version == version + 1
        cuts, pending = evenings.cuts_and_pending(ev)
        assert pending == []
        assert [(c.row_key, c.end, c.drawn) for c in cuts] == [("suit_C", "high", True), ("suit_H", "all", False)]
        # nothing left to draw: no change, no new version
        ev = evenings.draw_cuts(ev, expected_version=ev.version, request_id=rid())
        assert ev.version == version + 1
