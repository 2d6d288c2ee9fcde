"""House rules through the services (issue 24): an evening of a circle's own rules starts,
plays, exports and restores exactly; a file of today restores unchanged; the digital table
does not deal a side's house rows; a bad rule set starts nothing."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest
from flask import Flask
from house_rules_helpers import eleven_rows_with_tutti_and_misere
from services_helpers import NAMES, play_hands
from shared_helpers import rid
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.game.errors import RuleError
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import Row
from scorekeeper.models import Circle, Evening
from scorekeeper.services import circles, evenings, house_rules, restore
from scorekeeper.services import digital_table as tables
from scorekeeper.services.read import memory
from scorekeeper.services.read.snapshot import load_snapshot

HOUSE = eleven_rows_with_tutti_and_misere()


def _exported(circle: Circle) -> dict[str, Any]:
    memory.forget()
    data: dict[str, Any] = json.loads(restore.export_json(circle).text)
    return data


def test_a_house_rules_evening_exports_and_restores_exactly(app: Flask) -> None:
    with app.app_context():
        circle, _w, _v = circles.create_circle("Hirschen")
        ev = evenings.start_evening(circle, ruleset=HOUSE, player_names=list(NAMES), first_dealer=2, request_id=rid())
        list(play_hands(ev))
        snap = load_snapshot(ev)
        assert snap.ruleset == HOUSE and snap.slate.complete and snap.payout is not None
        assert sum(snap.payout.net) == 0
        before = _exported(circle)
        restored, _write, _view = restore.restore(json.dumps(before))
        after = _exported(restored)
        assert [e["ruleset"] for e in after["evenings"]] == [e["ruleset"] for e in before["evenings"]]
        again = evenings.get_evening(restored, after["evenings"][0]["id"])
        snap_b = load_snapshot(again)
        assert snap_b.ruleset == HOUSE and snap_b.slate.entries == snap.slate.entries
        assert snap_b.payout == snap.payout


def test_a_bad_rule_set_starts_nothing(app: Flask) -> None:
    with app.app_context():
        circle, _w, _v = circles.create_circle("Leuen")
        bad = replace(HOUSE, rows=(*HOUSE.rows[:3], replace(HOUSE.rows[3], factor=0)))
        with pytest.raises(RuleError) as err:
            evenings.start_evening(circle, ruleset=bad, player_names=list(NAMES), first_dealer=0, request_id=rid())
        assert err.value.params["field"] == "rows[3].factor"
        assert db.session.execute(select(func.count()).select_from(Evening)).scalar_one() == 0


def test_the_digital_table_does_not_deal_a_sides_house_rows(app: Flask) -> None:
    """Two suit rows and a house row: the table deals while a side has a row it plays, and says
    so once a side has only the house row left (written on the slate by hand instead)."""
    with app.app_context():
        circle, _w, _v = circles.create_circle("Bären")
        rows = (*HOUSE.rows[:3], Row("bock", (), 4, name="Bock"))
        rs = replace(HOUSE, rows=rows)
        rs.check()
        ev = evenings.start_evening(circle, ruleset=rs, player_names=list(NAMES), first_dealer=0, request_id=rid())
        table = tables.open_table(ev, rng=random.Random(3))  # every side can still choose a suit row
        tables.close_table(table)
        slate = evenings.load_slate(ev)
        for turn, key in enumerate(("suit_C", "suit_D", "suit_S")):  # side 1 (the forehand's) fills its suits
            seat = rs.seats_of(1)[turn % 2]
            evenings.record_hand(ev, HandEntry(key, seat, None, 80, 77), expected_version=ev.version, request_id=rid())
        slate = evenings.load_slate(ev)
        assert slate.open_rows(1) == ["bock"] and len(slate.open_rows(0)) == 4
        with pytest.raises(RuleError) as err:
            tables.open_table(ev, rng=random.Random(4))
        assert err.value.code == "house_row_not_dealt" and err.value.params["rows"] == "Bock"
        evenings.record_hand(ev, HandEntry("bock", 1, None, 90, 67), expected_version=ev.version, request_id=rid())
        tables.close_table(tables.open_table(ev, rng=random.Random(5)))  # side 1 is full: dealt again


def test_saved_house_rules_come_back_on_restore(app: Flask) -> None:
    with app.app_context():
        circle, _w, _v = circles.create_circle("Bären")
        house_rules.save_house_rules(circle, HOUSE)
        before = _exported(circle)
        assert before["circle"]["house_rules"] == HOUSE.to_dict()
        restored, _write, _view = restore.restore(json.dumps(before))
        assert house_rules.house_rules(restored) == HOUSE  # the default of the restored circle's start page
        assert _exported(restored)["circle"] == before["circle"]
        plain, _w2, _v2 = circles.create_circle("Krone")
        assert "house_rules" not in _exported(plain)["circle"]
        again, _w3, _v3 = restore.restore(json.dumps(_exported(plain)))
        assert again.house_rules is None and house_rules.house_rules(again) is None
