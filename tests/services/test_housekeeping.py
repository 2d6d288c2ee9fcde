"""Housekeeping (issue 9.12) through the services: rename, merge, delete a test evening,
undo; honoured by the records, the history, the slate's names and a new evening; an
evening ended early counts in money only if the table said so."""

from __future__ import annotations

import random

import pytest
from flask import Flask
from services_helpers import play_hands
from shared_helpers import rid
from sqlalchemy import delete, select

from scorekeeper.extensions import db
from scorekeeper.game.errors import RuleError
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.models import Circle, Evening, HousekeepingRow, Player
from scorekeeper.services import circles, evenings, housekeeping, tx


def _evening(circle: Circle, names: list[str], *, complete: bool = True, counts: bool = True) -> Evening:
    ev = evenings.start_evening(
        circle, ruleset=default_ruleset(Variant.THREE), player_names=names, first_dealer=0, request_id=rid()
    )
    list(play_hands(ev, None if complete else 6))
    return evenings.end_evening(
        ev,
        early=not complete,
        expected_version=ev.version,
        request_id=rid(),
        rng=random.Random(3),
        counts_in_money=counts,
    )


def _player(circle: Circle, name: str) -> int:
    return db.session.execute(select(Player.id).where(Player.circle_id == circle.id, Player.name == name)).scalar_one()


def _records(circle: Circle) -> dict[str, tuple[int, int, int]]:
    return {r.name: (r.evenings, r.wins, r.net_rappen) for r in circles.player_records(circle)}


def test_rename_is_shown_everywhere_and_undone(app: Flask) -> None:
    with app.app_context():
        circle, _w, _v = circles.create_circle("Sternen")
        ev = _evening(circle, ["Vreni", "Sepp", "Anne-Marie"])
        before = _records(circle)
        change = housekeeping.rename_player(
            circle, _player(circle, "Vreni"), "  Vreni   Schmid-Kalbermatten ", request_id=rid(), author="Sepp"
        )
        assert change.name == "Vreni Schmid-Kalbermatten" and change.seq == 1 and change.author == "Sepp"
        after = _records(circle)
        assert after["Vreni Schmid-Kalbermatten"] == before["Vreni"] and "Vreni" not in after
        assert evenings.load_snapshot(ev).names[0] == "Vreni Schmid-Kalbermatten"
        assert circles.history(circle)[0].players[0] == "Vreni Schmid-Kalbermatten"
        # the old name and the new one both stand for her when an evening starts
        ev2 = evenings.start_evening(
            circle,
            ruleset=default_ruleset(Variant.THREE),
            player_names=["vreni schmid-kalbermatten", "Sepp", "Anne-Marie"],
            first_dealer=0,
            request_id=rid(),
        )
        assert [s.player_id for s in ev2.seats] == [s.player_id for s in ev.seats]
        housekeeping.undo_change(circle, change.seq, request_id=rid())
        assert _records(circle) == before
        log = housekeeping.changes(housekeeping.folded(circle))
        assert [(c.event.kind.value, c.in_force, c.undone_by) for c in log] == [
            ("undo", False, None),
            ("rename", False, 2),
        ]


def test_merge_counts_both_as_one_and_refuses_players_of_one_table(app: Flask) -> None:
    with app.app_context():
        circle, _w, _v = circles.create_circle("Sternen")
        _evening(circle, ["Vreni", "Sepp", "Anne"])
        _evening(circle, ["Verena", "Sepp", "Anne"])
        before = _records(circle)
        vreni, verena, sepp = (_player(circle, n) for n in ("Vreni", "Verena", "Sepp"))
        with pytest.raises(RuleError) as err:
            housekeeping.merge_players(circle, vreni, sepp, request_id=rid())
        assert err.value.code == "merge_same_evening"
        with pytest.raises(RuleError) as err:
            housekeeping.merge_players(circle, vreni, vreni, request_id=rid())
        assert err.value.code == "merge_self"
        housekeeping.merge_players(circle, vreni, verena, request_id=rid())
        merged = _records(circle)
        assert "Vreni" not in merged
        assert merged["Verena"] == tuple(a + b for a, b in zip(before["Vreni"], before["Verena"], strict=True))
        assert sum(r[2] for r in merged.values()) == 0
        assert [p.name for p in housekeeping.players_now(housekeeping.folded(circle))] == ["Anne", "Sepp", "Verena"]
        # now one person: both names at one table are refused, nothing written
        with pytest.raises(RuleError) as err:
            evenings.start_evening(
                circle,
                ruleset=default_ruleset(Variant.THREE),
                player_names=["Vreni", "Verena", "Anne"],
                first_dealer=0,
                request_id=rid(),
            )
        assert err.value.code == "players_distinct"
        # a name taken by a player in force cannot be added again, nor given by a rename
        with pytest.raises(RuleError):
            circles.add_player(circle, "VERENA")
        with pytest.raises(RuleError) as err:
            housekeeping.rename_player(circle, sepp, "anne", request_id=rid())
        assert err.value.code == "name_taken"


def test_deleted_evening_counts_nowhere_until_undone(app: Flask) -> None:
    with app.app_context():
        circle, _w, _v = circles.create_circle("Sternen")
        _evening(circle, ["Anna", "Beat", "Cla"])
        before = _records(circle)
        test = _evening(circle, ["Anna", "Beat", "Cla"])
        assert _records(circle) != before
        change = housekeeping.delete_evening(circle, test.public_id, request_id="del-1")
        assert _records(circle) == before
        assert [s.deleted for s in circles.history(circle)] == [True, False]
        again = housekeeping.delete_evening(circle, test.public_id, request_id="del-1")  # a double tap
        assert again.seq == change.seq
        assert len(housekeeping.folded(circle).events) == 1
        with pytest.raises(RuleError) as err:
            housekeeping.delete_evening(circle, test.public_id, request_id=rid())
        assert err.value.code == "evening_deleted"
        with pytest.raises(RuleError) as err:
            housekeeping.delete_evening(circle, "nope", request_id=rid())
        assert err.value.code == "evening_unknown"
        housekeeping.undo_change(circle, change.seq, request_id=rid())
        assert [s.deleted for s in circles.history(circle)] == [False, False]
        with pytest.raises(RuleError) as err:
            housekeeping.undo_change(circle, change.seq, request_id=rid())
        assert err.value.code == "change_undone"


def test_an_evening_ended_early_counts_in_money_only_if_the_table_says_so(app: Flask) -> None:
    with app.app_context():
        circle, _w, _v = circles.create_circle("Sternen")
        kept = _evening(circle, ["Anna", "Beat", "Cla"], complete=False, counts=False)
        assert not kept.counts_in_money and kept.ended_early
        assert all(net == 0 for _e, _w, net in _records(circle).values())
        assert all(e == 1 for e, _w, _n in _records(circle).values())  # it still counts as played
        counted = _evening(circle, ["Anna", "Beat", "Cla"], complete=False, counts=True)
        outcome = evenings.result(counted)
        assert outcome is not None and any(outcome[1].net)
        assert sorted(n for _e, _w, n in _records(circle).values()) == sorted(outcome[1].net)
        # a complete evening always counts, whatever was said
        full = _evening(circle, ["Dora", "Emil", "Fritz"], complete=True, counts=False)
        assert full.counts_in_money
        # reopening forgets the choice: it is asked again when ending
        reopened = evenings.reopen_evening(counted, expected_version=counted.version, request_id=rid())
        assert reopened.counts_in_money


def test_housekeeping_rows_are_append_only(app: Flask) -> None:
    with app.app_context():
        circle, _w, _v = circles.create_circle("Sternen")
        _evening(circle, ["Anna", "Beat", "Cla"])
        housekeeping.rename_player(circle, _player(circle, "Anna"), "Anna Z.", request_id=rid())
        row = db.session.execute(select(HousekeepingRow)).scalar_one()
        row.name = "Other"
        with pytest.raises(RuntimeError, match="append-only"):
            db.session.flush()
        db.session.rollback()
        with pytest.raises(RuntimeError, match="append-only"):
            db.session.execute(delete(HousekeepingRow))
        db.session.rollback()
        with tx.erasing(), pytest.raises(RuntimeError, match="append-only"):
            db.session.execute(HousekeepingRow.__table__.update().values(name="x"))  # never an update
        db.session.rollback()
        assert db.session.execute(select(HousekeepingRow.name)).scalar_one() == "Anna Z."


def test_a_slate_names_its_players_as_they_are_called_now(app: Flask) -> None:
    """Merged into a player who never sat at this table and was renamed since: the slate
    (the snapshot's five statements) shows the kept player's name now; undone, her own."""
    with app.app_context():
        circle, _w, _v = circles.create_circle("Sternen")
        ev = _evening(circle, ["Vreni", "Sepp", "Anne"])
        circles.add_player(circle, "Verena")
        vreni, verena = _player(circle, "Vreni"), _player(circle, "Verena")
        merged = housekeeping.merge_players(circle, vreni, verena, request_id=rid())
        housekeeping.rename_player(circle, verena, "Verena Schmid-Kalbermatten", request_id=rid())
        assert evenings.load_snapshot(ev).names == ("Verena Schmid-Kalbermatten", "Sepp", "Anne")
        assert evenings.names_of(ev) == ("Verena Schmid-Kalbermatten", "Sepp", "Anne")
        housekeeping.undo_change(circle, merged.seq, request_id=rid())
        assert evenings.load_snapshot(ev).names == ("Vreni", "Sepp", "Anne")
