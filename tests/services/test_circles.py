"""Circles: secret links stored hashed, read-only links, players."""

from __future__ import annotations

import hashlib

import pytest
from flask import Flask
from shared_helpers import rid
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.game.errors import RuleError
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.models import Circle, Player
from scorekeeper.services import circles, evenings
from scorekeeper.services.errors import Forbidden, NotFound
from scorekeeper.services.read.replay import ruleset_of
from scorekeeper.services.read.snapshot import load_snapshot


def test_links_open_the_circle_and_are_stored_hashed(app: Flask) -> None:
    with app.app_context():
        circle, write, view = circles.create_circle("  Dienstags   Jass ")
        assert circle.name == "Dienstags Jass"
        assert write != view and len(write) >= 43 and len(view) >= 43
        assert circles.open_circle(write) == (circle, True)
        assert circles.open_circle(view) == (circle, False)
        assert circles.open_circle_for_write(write) == circle
        with pytest.raises(Forbidden) as ro:
            circles.open_circle_for_write(view)
        assert ro.value.code == "forbidden"
        for wrong in ("", "x", write[:-1], circle.public_id, "a" * 500):
            with pytest.raises(NotFound):
                circles.open_circle(wrong)
        stored = db.session.execute(select(Circle)).scalar_one()
        columns = [str(getattr(stored, c.key)) for c in Circle.__table__.columns]
        assert not any(write in v or view in v for v in columns)
        assert stored.write_token_hash == hashlib.sha256(write.encode()).hexdigest()


def test_players_are_unique_per_circle(app: Flask) -> None:
    with app.app_context():
        a, _w, _v = circles.create_circle("A")
        b, _w2, _v2 = circles.create_circle("B")
        anna = circles.add_player(a, " Anna ")
        assert anna.name == "Anna"
        with pytest.raises(RuleError) as dup:
            circles.add_player(a, "anna")
        assert dup.value.code == "player_exists"
        assert circles.add_player(b, "Anna").id != anna.id  # another circle
        for bad in ("", "   ", "x" * 41, "tab\x01"):
            with pytest.raises(RuleError) as err:
                circles.add_player(a, bad)
            assert err.value.code == "player_name"
        with pytest.raises(RuleError):
            circles.create_circle("")


def test_start_evening_checks_and_reuses_players(app: Flask) -> None:
    with app.app_context():
        circle, _w, _v = circles.create_circle("Runde")
        anna = circles.add_player(circle, "Anna")
        rs = default_ruleset(Variant.THREE)
        bad = [
            (["A", "B"], 0, "players_count"),
            (["A", "B", "a"], 0, "players_distinct"),
            (["A", "B", "C"], 3, "first_dealer"),
            (["A", "", "C"], 0, "player_name"),
        ]
        for names, dealer, code in bad:
            with pytest.raises(RuleError) as err:
                evenings.start_evening(circle, ruleset=rs, player_names=names, first_dealer=dealer, request_id=rid())
            assert err.value.code == code
        with pytest.raises(RuleError) as no_id:
            evenings.start_evening(circle, ruleset=rs, player_names=["A", "B", "C"], first_dealer=0, request_id="")
        assert no_id.value.code == "request_id"
        request_id = rid()
        ev = evenings.start_evening(
            circle, ruleset=rs, player_names=["anna", "Beat", "Carla"], first_dealer=2, request_id=request_id
        )
        assert ev.players[0].id == anna.id and [p.name for p in ev.players] == ["Anna", "Beat", "Carla"]
        again = evenings.start_evening(
            circle, ruleset=rs, player_names=["anna", "Beat", "Carla"], first_dealer=2, request_id=request_id
        )
        assert again.id == ev.id  # a double tap starts one evening
        with pytest.raises(RuleError) as reused:  # the same request id asking for another evening
            evenings.start_evening(
                circle, ruleset=rs, player_names=["X", "Y", "Z"], first_dealer=0, request_id=request_id
            )
        assert reused.value.code == "request_id_reused"
        names = list(db.session.execute(select(Player.name).where(Player.circle_id == circle.id)).scalars())
        assert sorted(names) == ["Anna", "Beat", "Carla"]
        assert ruleset_of(ev) == rs  # the snapshot round-trips
        assert evenings.get_evening(circle, ev.public_id) == ev
        other, _w2, _v2 = circles.create_circle("Other")
        with pytest.raises(NotFound):
            evenings.get_evening(other, ev.public_id)


def test_the_snapshot_keeps_the_rules_it_was_played_with(app: Flask) -> None:
    with app.app_context():
        circle, _w, _v = circles.create_circle("Runde")
        rs = default_ruleset(Variant.TEAMS, extra_rows=["slalom"], factors={"suit_H": 9})
        ev = evenings.start_evening(
            circle, ruleset=rs, player_names=["A", "B", "C", "D"], first_dealer=0, request_id=rid()
        )
        db.session.expire_all()
        loaded = ruleset_of(db.session.get_one(type(ev), ev.id))
        assert loaded.row("suit_H").factor == 9 and loaded.row("slalom").factor == 7


@pytest.mark.parametrize("odd", ["ab\x00cd", "../x", "a b", "é", "x" * 65])
def test_odd_evening_ids_and_request_ids_never_reach_the_database(app: Flask, odd: str) -> None:
    """PostgreSQL refuses a NUL byte in text: such input must be a clean NotFound / RuleError."""
    with app.app_context():
        circle, _, _ = circles.create_circle("Jassrunde")
        with pytest.raises(NotFound):
            evenings.get_evening(circle, odd)
        with pytest.raises(NotFound):
            load_snapshot(evenings.get_evening(circle, odd))
        rs = default_ruleset(Variant.THREE)
        with pytest.raises(RuleError) as bad:
            evenings.start_evening(
                circle, ruleset=rs, player_names=["A", "B", "C"], first_dealer=0, request_id="a\x00b"
            )
        assert bad.value.code == "request_id"
