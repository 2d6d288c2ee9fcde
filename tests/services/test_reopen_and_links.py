"""Reopening an ended evening to correct it; a new onlookers link replaces the old one.
Runs on SQLite, and on PostgreSQL with SCOREKEEPER_TEST_DB=postgres."""

from __future__ import annotations

import hashlib
import random

import pytest
from flask import Flask
from services_helpers import NAMES, play_hands
from shared_helpers import rid, settled
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.game.errors import RuleError
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.models import Circle
from scorekeeper.services import circles, evenings
from scorekeeper.services.errors import LinkGone, StaleVersion
from scorekeeper.services.read import listings


def test_reopen_an_ended_evening_to_correct_it(app: Flask) -> None:
    with app.app_context():
        circle, _w, _v = circles.create_circle("Runde")
        rs = default_ruleset(Variant.TEAMS)
        ev = evenings.start_evening(circle, ruleset=rs, player_names=list(NAMES), first_dealer=0, request_id=rid())
        list(play_hands(ev, 3))
        ev = evenings.end_evening(
            ev, early=True, expected_version=ev.version, request_id=rid("end"), rng=random.Random(1)
        )
        assert ev.status == "ended" and ev.ended_early and ev.ended_at is not None
        version = ev.version
        with pytest.raises(StaleVersion):
            evenings.reopen_evening(ev, expected_version=version - 1, request_id=rid())
        again = rid("reopen")
        ev = evenings.reopen_evening(ev, expected_version=version, request_id=again)
        assert ev.status == "open" and ev.ended_at is None and not ev.ended_early
        assert ev.version == version + 1
        # a double tap: the same request id changes nothing
        ev = evenings.reopen_evening(ev, expected_version=version, request_id=again)
        assert ev.version == version + 1 and ev.is_open
        # now the mistake can be corrected, and the evening closed again
        first = evenings.load_slate(ev).entries[0]
        fixed = HandEntry(first.row_key, first.declarer_seat, first.contract, 100, 57)
        ev = evenings.correct_entry(ev, 0, fixed, expected_version=ev.version, request_id=rid())
        assert evenings.load_slate(ev).entries[0] == fixed
        with pytest.raises(RuleError) as still_open:
            evenings.reopen_evening(ev, expected_version=ev.version, request_id=rid())
        assert still_open.value.code == "evening_open"
        ev = evenings.end_evening(ev, early=True, expected_version=ev.version, request_id=rid("end"))
        assert ev.status == "ended" and ev.ended_at is not None
        outcome = settled(ev)
        assert outcome is not None and sum(outcome[1].net) == 0
        (summary,) = listings.history(circle)
        assert summary.status == "ended"


def test_a_new_onlookers_link_replaces_the_old_one(app: Flask) -> None:
    with app.app_context():
        circle, write, view = circles.create_circle("Runde")
        other, _w2, other_view = circles.create_circle("Andere")
        fresh = circles.new_view_link(circle)
        assert fresh not in (view, write) and len(fresh) >= 43
        with pytest.raises(LinkGone) as gone:
            circles.open_circle(view)  # the old onlookers link stops working, and says so
        assert (gone.value.code, gone.value.reason, gone.value.link) == ("link_replaced", "replaced", "view")
        assert circles.open_circle(fresh) == (circle, False)
        assert circles.open_circle(write) == (circle, True)  # the write link is unchanged
        assert circles.open_circle(other_view) == (other, False)
        db.session.expire_all()
        stored = db.session.execute(select(Circle).where(Circle.id == circle.id)).scalar_one()
        assert stored.view_token_hash == hashlib.sha256(fresh.encode()).hexdigest()
        assert fresh not in {str(getattr(stored, c.key)) for c in Circle.__table__.columns}
