"""Nothing is ever deleted or rewritten; every action is idempotent and version-checked."""

from __future__ import annotations

import pytest
from flask import Flask
from services_helpers import NAMES
from shared_helpers import rid
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.models import AppliedRequest, CutRow, EntryRow, Evening
from scorekeeper.scoring import Cut
from scorekeeper.services import circles, evenings
from scorekeeper.services.errors import StaleVersion


def _three(app: Flask) -> Evening:
    circle, _w, _v = circles.create_circle("Runde")
    ev = evenings.start_evening(
        circle, ruleset=default_ruleset(Variant.THREE), player_names=list(NAMES[:3]), first_dealer=0, request_id=rid()
    )
    for seat, pts in enumerate((90, 90, 40)):
        ev = evenings.record_hand(
            ev,
            HandEntry("suit_C", seat, None, pts, 157 - pts),
            expected_version=ev.version,
            request_id=rid(),
            digital=seat == 2,
        )
    return ev


def _counts(ev: Evening) -> tuple[int, int, int]:
    def n(model: type[EntryRow] | type[CutRow] | type[AppliedRequest]) -> int:
        return db.session.execute(select(func.count()).select_from(model).where(model.evening_id == ev.id)).scalar_one()

    return n(EntryRow), n(CutRow), n(AppliedRequest)


def test_rows_cannot_be_deleted_or_changed(app: Flask) -> None:
    with app.app_context():
        ev = _three(app)
        row = db.session.execute(select(EntryRow).where(EntryRow.evening_id == ev.id)).scalars().first()
        assert row is not None
        assert [r.digital for r in db.session.execute(select(EntryRow)).scalars()] == [False, False, True]
        row.declarer_points = 100
        with pytest.raises(RuntimeError, match="append-only"):
            db.session.flush()
        db.session.rollback()
        db.session.delete(db.session.get(EntryRow, row.id))
        with pytest.raises(RuntimeError, match="append-only"):
            db.session.flush()
        db.session.rollback()
        assert db.session.get(EntryRow, row.id).declarer_points == 90  # type: ignore[union-attr]  # the row is there


ACTIONS = {
    "correct": lambda ev, v, r: evenings.correct_entry(
        ev, 2, HandEntry("suit_C", 2, None, 50, 107), expected_version=v, request_id=r
    ),
    "undo": lambda ev, v, r: evenings.undo_last(ev, expected_version=v, request_id=r),
    "cut": lambda ev, v, r: evenings.set_cut(ev, Cut("suit_C", "high", 1, False), expected_version=v, request_id=r),
    "draw": lambda ev, v, r: evenings.draw_cuts(ev, expected_version=v, request_id=r),
    "end": lambda ev, v, r: evenings.end_evening(ev, early=True, expected_version=v, request_id=r),
}


@pytest.mark.parametrize("action", list(ACTIONS))
def test_each_action_once_per_request_and_only_on_the_current_version(app: Flask, action: str) -> None:
    with app.app_context():
        ev = _three(app)
        version = ev.version
        before = _counts(ev)
        with pytest.raises(StaleVersion):
            ACTIONS[action](ev, version - 1, rid())
        assert _counts(ev) == before and ev.version == version  # nothing written
        request_id = rid()
        ev = ACTIONS[action](ev, version, request_id)
        assert ev.version == version + 1
        after = _counts(ev)
        slate_after = evenings.load_slate(ev).entries
        ev = ACTIONS[action](ev, version, request_id)  # the double tap
        assert ev.version == version + 1 and _counts(ev) == after
        assert evenings.load_slate(ev).entries == slate_after
        assert after[0] >= before[0] and after[1] >= before[1]  # rows only ever added
