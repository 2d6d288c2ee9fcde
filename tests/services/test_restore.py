"""Export, restore, delete for good, through the database.

The round trip is exact: a circle exported, restored into a new circle and exported
again gives the same document (ids aside: a restore makes new ones), on every variant,
with corrections, undos, cuts, paper cells, early endings, digital hands, settlements
and housekeeping. A damaged, foreign or newer file writes nothing; an older one imports.
Deleting a circle leaves no row of it."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from services_helpers import NAMES, play_hands
from shared_helpers import rid
from sqlalchemy import func, inspect, select, text

from scorekeeper.extensions import db
from scorekeeper.game.errors import RuleError
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.history import export, ratings, spreadsheet, stats
from scorekeeper.history import purse as history_purse
from scorekeeper.history.housekeeping import view as history_view
from scorekeeper.history.records import PaymentKind
from scorekeeper.history.sample import sample_circle
from scorekeeper.models import Circle, Evening, Player, utcnow
from scorekeeper.services import circles, erase, evenings, housekeeping, purse, restore
from scorekeeper.services import digital_table as tables
from scorekeeper.services.read import circle_record, listings, memory, outlook
from scorekeeper.services.read.snapshot import load_snapshot

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "history" / "export_v1.json"


def normal(doc: dict[str, Any]) -> dict[str, Any]:
    """The document with its ids renamed by order of appearance and no export time."""
    out: dict[str, Any] = json.loads(json.dumps({k: v for k, v in doc.items() if k != "exported_at"}))
    pid = {p["id"]: f"player-{i}" for i, p in enumerate(out["players"])}
    eid = {ev["id"]: f"evening-{i}" for i, ev in enumerate(out["evenings"])}
    tid: dict[str, str] = {}
    for p in out["players"]:
        p["id"] = pid[p["id"]]
    for ev in out["evenings"]:
        ev["id"] = eid[ev["id"]]
        ev["seats"] = [pid[p] for p in ev["seats"]]
        for h in ev["digital"]:
            h["table"] = tid.setdefault(h["table"], f"table-{len(tid)}")
    for row in out["settlements"]:
        row["payer"], row["payee"] = pid.get(row["payer"]), pid.get(row["payee"])
    for row in out["housekeeping"]:
        row["player"], row["into"], row["evening"] = (
            pid.get(row["player"]),
            pid.get(row["into"]),
            eid.get(row["evening"]),
        )
    return out


def _exported(circle: Circle) -> dict[str, Any]:
    memory.forget()
    data: dict[str, Any] = json.loads(restore.export_json(circle).text)
    return data


def _rich_circle() -> Circle:
    """Every kind of stored input: a three-player evening with a correction, an undo, a
    finished digital hand (and one in play), a team evening of paper cells ended early
    that does not count in money, a club evening, a settlement, housekeeping."""
    circle, _w, _v = circles.create_circle("Sternen")
    ev = evenings.start_evening(
        circle, ruleset=default_ruleset(Variant.THREE), player_names=list(NAMES[:3]), first_dealer=1, request_id=rid()
    )
    list(play_hands(ev, 4))
    first = evenings.load_slate(ev).entries[0]
    fixed = replace(first, declarer_points=first.declarer_points + 1, defender_points=first.defender_points - 1)
    ev = evenings.correct_entry(ev, 0, fixed, expected_version=ev.version, request_id=rid(), author="Anna")
    ev = evenings.undo_last(ev, expected_version=ev.version, request_id=rid())
    outlook.outlook_of(load_snapshot(ev), circle)  # a stored forecast (erased with the circle)
    tables.close_table(tables.open_table(ev, computers=(0, 1, 2), level="easy", rng=random.Random(1)))
    tables.close_table(tables.open_table(ev, rng=random.Random(2)))  # a hand left in play: never exported
    ev = evenings.get_evening(circle, ev.public_id)
    evenings.end_evening(ev, early=True, expected_version=ev.version, request_id=rid(), rng=random.Random(4))

    teams = evenings.start_evening(
        circle, ruleset=default_ruleset(Variant.TEAMS), player_names=list(NAMES), first_dealer=0, request_id=rid()
    )
    for entry in (HandEntry.paper("suit_S", 0, 12), HandEntry.paper("obenabe", 1, 45)):
        teams = evenings.record_hand(teams, entry, expected_version=teams.version, request_id=rid())
    evenings.end_evening(teams, early=True, expected_version=teams.version, request_id=rid(), counts_in_money=False)
    club = evenings.start_evening(
        circle, ruleset=default_ruleset(Variant.CLUB), player_names=list(NAMES), first_dealer=2, request_id=rid()
    )
    list(play_hands(club))
    club = evenings.get_evening(circle, club.public_id)
    evenings.end_evening(club, early=False, expected_version=club.version, request_id=rid(), rng=random.Random(5))

    ids = {p.name: p.id for p in circle.players}
    purse.append(
        circle,
        purse.Payment(PaymentKind.PAYMENT, payer_id=ids["Beat"], payee_id=ids["Anna"], rappen=350, paid_at=utcnow()),
        request_id=rid(),
        entered_by="Carla",
    )
    circles.add_player(circle, "Dora")
    dora = db.session.execute(
        select(Player.id).where(Player.name == "Dora", Player.circle_id == circle.id)
    ).scalar_one()
    housekeeping.merge_players(circle, dora, ids["Dölf"], request_id=rid())
    renamed = housekeeping.rename_player(circle, ids["Anna"], "Anne-Marie Zurbriggen", request_id=rid(), author="Beat")
    housekeeping.delete_evening(circle, teams.public_id, request_id=rid())
    housekeeping.undo_change(circle, renamed.seq, request_id=rid())
    return circle


def test_a_rich_circle_round_trips_exactly(app: Flask) -> None:
    with app.app_context():
        circle = _rich_circle()
        before = _exported(circle)
        assert sum(len(ev["digital"]) for ev in before["evenings"]) == 1  # the hand in play is not there
        assert any(row["hand"] and row["hand"]["cell"] for ev in before["evenings"] for row in ev["log"])
        restored, write, view = restore.restore(json.dumps(before))
        assert write != view and restored.id != circle.id
        after = _exported(restored)
        assert normal(after) == normal(before)
        # and so is everything derived: records, money, the CSV
        assert [(r.name, r.evenings, r.wins, r.net_rappen) for r in listings.player_records(restored)] == [
            (r.name, r.evenings, r.wins, r.net_rappen) for r in listings.player_records(circle)
        ]
        rows = [spreadsheet.csv_rows(history_view(circle_record.load_record(c))) for c in (circle, restored)]
        assert [{k: v for k, v in r.items() if k != "evening"} for r in rows[0]] == [
            {k: v for k, v in r.items() if k != "evening"} for r in rows[1]
        ]
        # statistics, ratings and the purse, computed on both (ids named alike), are equal
        views = [
            history_view(export.decode({**normal(doc), "exported_at": doc["exported_at"]})) for doc in (before, after)
        ]
        for compute in (ratings.ratings, stats.circle_stats, history_purse.purse):
            assert compute(views[0]) == compute(views[1])
        # the restored slates read as the original ones
        deleted = []
        for a, b in zip(before["evenings"], after["evenings"], strict=True):
            ev_a = evenings.get_evening(circle, a["id"], deleted_ok=True)
            ev_b = evenings.get_evening(restored, b["id"], deleted_ok=True)
            assert ev_a.deleted == ev_b.deleted  # a test evening deleted stays deleted (its own row says so)
            deleted.append(ev_b.deleted)
            snap_a, snap_b = load_snapshot(ev_a), load_snapshot(ev_b)
            assert snap_a.slate.entries == snap_b.slate.entries and snap_a.payout == snap_b.payout
            assert snap_a.names == snap_b.names and snap_a.ended_early == snap_b.ended_early
            assert not snap_b.hand_in_play
        assert any(deleted) and not all(deleted)


def _no_created_at(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _no_created_at(v) for k, v in value.items() if k != "created_at"}
    if isinstance(value, list):
        return [_no_created_at(v) for v in value]
    return value


@pytest.mark.parametrize("seed", [1, 2])
def test_sample_circles_of_every_variant_round_trip(app: Flask, seed: int) -> None:
    """A synthetic circle (paper cells, early endings, cuts, housekeeping) of every variant.
    Its records say null where they do not know when a row was written: the database
    stores a time for those (when it was restored), and from then on the trip is exact."""
    record = sample_circle(seed, evenings=16, players=7)
    assert {ev.ruleset.variant for ev in record.evenings} == set(Variant)
    source = export.encode(record, utcnow())
    with app.app_context():
        circle, _w, _v = restore.restore(json.dumps(source))
        once = _exported(circle)
        again, _w, _v = restore.restore(json.dumps(once))
        twice = _exported(again)
    assert normal(twice) == normal(once)
    assert _no_created_at(normal(once)) == _no_created_at(normal(source))


def _count_circles() -> int:
    return db.session.execute(select(func.count(Circle.id))).scalar_one()


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"\x89PNG\r\n", "export_not_json"),
        (b'{"format": "something-else", "version": 1}', "export_foreign"),
        (b'{"format": "scorekeeper-circle", "version": 99}', "export_version_newer"),
        (b'{"format": "scorekeeper-circle", "version": 1, "players": []}', "export_damaged"),
    ],
)
def test_a_damaged_or_foreign_file_writes_nothing(app: Flask, data: bytes, code: str) -> None:
    with app.app_context():
        before = _count_circles()
        with pytest.raises(RuleError) as err:
            restore.restore(data)
        assert err.value.code == code
        assert _count_circles() == before


def test_a_file_that_does_not_add_up_writes_nothing(app: Flask) -> None:
    doc = json.loads(GOLDEN.read_text(encoding="utf-8"))
    doc["evenings"][0]["log"][0]["hand"]["declarer_points"] = 200
    long = json.loads(GOLDEN.read_text(encoding="utf-8"))
    long["players"][0]["name"] = "x" * 41
    with app.app_context():
        for bad, reason in ((doc, None), (long, "player_name")):
            with pytest.raises(RuleError) as err:
                restore.restore(json.dumps(bad))
            assert err.value.code == "export_invalid"
            assert reason is None or err.value.params["reason"] == reason
        assert _count_circles() == 0


def test_an_older_format_version_still_imports(app: Flask) -> None:
    raw = GOLDEN.read_bytes()
    with app.app_context():
        circle, _w, _v = restore.restore(raw)
        restored = _no_created_at(normal(_exported(circle)))
    assert restored == _no_created_at(normal(export.encode(export.decode(raw), utcnow())))


def _rows_of_circle(circle_id: int) -> dict[str, int]:
    """Every row in every table that belongs to the circle (by its evenings, tables, hands)."""
    counts: dict[str, int] = {}
    evenings_ = f"SELECT id FROM evenings WHERE circle_id = {circle_id}"
    tables_ = f"SELECT id FROM digital_tables WHERE evening_id IN ({evenings_})"
    hands = f"SELECT id FROM table_hands WHERE table_id IN ({tables_})"
    where = {
        "circles": f"id = {circle_id}",
        "players": f"circle_id = {circle_id}",
        "evenings": f"circle_id = {circle_id}",
        "housekeeping": f"circle_id = {circle_id}",
        "settlements": f"circle_id = {circle_id}",
        "rating_runs": f"circle_id = {circle_id}",
        "seats": f"evening_id IN ({evenings_})",
        "entries": f"evening_id IN ({evenings_})",
        "cuts": f"evening_id IN ({evenings_})",
        "applied_requests": f"evening_id IN ({evenings_})",
        "outlook_forecasts": f"evening_id IN ({evenings_})",
        "evening_outcomes": f"evening_id IN ({evenings_})",
        "digital_tables": f"evening_id IN ({evenings_})",
        "table_seats": f"table_id IN ({tables_})",
        "table_hands": f"table_id IN ({tables_})",
        "table_actions": f"hand_id IN ({hands})",
        "retired_links": f"circle_id = {circle_id}",  # erased: kept without the circle
    }
    assert set(where) | {"alembic_version"} == set(inspect(db.engine).get_table_names())  # every table is looked at
    for table, condition in where.items():
        counts[table] = db.session.execute(text(f"SELECT count(*) FROM {table} WHERE {condition}")).scalar_one()
    return counts


def test_deleting_a_circle_leaves_nothing_of_it(app: Flask) -> None:
    with app.app_context():
        circle = _rich_circle()
        other = _rich_circle()
        circle_id, other_id = circle.id, other.id
        for c in (circle, other):  # pages read their memories: the outcomes and ratings are stored
            memory.memory_of(c).ratings()
        db.session.rollback()  # they were written on a connection of their own: read them afresh
        circles.new_view_link(circle)  # a replaced link: its hash is kept (services.retired)
        full = _rows_of_circle(circle_id)
        assert all(v for k, v in full.items() if k != "cuts"), [k for k, v in full.items() if not v]  # (no tie was cut)
        kept = _rows_of_circle(other_id)
        with pytest.raises(RuleError) as err:
            erase.delete_circle(circle, typed_name="Sterne")
        assert err.value.code == "circle_name_mismatch"
        assert _rows_of_circle(circle_id) == full
        erase.delete_circle(circle, typed_name="  sternen ")
        db.session.expire_all()
        assert set(_rows_of_circle(circle_id).values()) == {0}
        assert _rows_of_circle(other_id) == kept
        assert db.session.execute(select(func.count(Evening.id))).scalar_one() == kept["evenings"]
