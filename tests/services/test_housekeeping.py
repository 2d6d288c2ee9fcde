"""Housekeeping (issue 9.12) through the services: rename, merge, delete a test evening,
undo; honoured by the records, the history, the slate's names and a new evening; an
evening ended early counts in money only if the table said so."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import cast

import pytest
from flask import Flask
from services_helpers import next_hand, play_hands
from shared_helpers import rid, settled
from sqlalchemy import Table, delete, select

from scorekeeper.extensions import db
from scorekeeper.game.errors import RuleError
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.models import Circle, EntryRow, Evening, HousekeepingRow, Player
from scorekeeper.services import circles, evenings, housekeeping
from scorekeeper.services.errors import EveningDeleted, RequestIdReused
from scorekeeper.services.read import listings, who_is_who
from scorekeeper.services.read.snapshot import load_snapshot
from scorekeeper.services.store import tx


def _started(circle: Circle, names: list[str]) -> Evening:
    """A new three-player evening of ``names`` (the first deals)."""
    return evenings.start_evening(
        circle, ruleset=default_ruleset(Variant.THREE), player_names=names, first_dealer=0, request_id=rid()
    )


def _evening(circle: Circle, names: list[str], *, complete: bool = True, counts: bool = True) -> Evening:
    ev = _started(circle, names)
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
    return {r.name: (r.evenings, r.wins, r.net_rappen) for r in listings.player_records(circle)}


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
        assert load_snapshot(ev).names[0] == "Vreni Schmid-Kalbermatten"
        assert listings.history(circle)[0].players[0] == "Vreni Schmid-Kalbermatten"
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
        log = who_is_who.changes(who_is_who.folded(circle))
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
        assert [p.name for p in who_is_who.players_now(who_is_who.folded(circle))] == ["Anne", "Sepp", "Verena"]
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
        assert [s.public_id for s in listings.history(circle)] != [test.public_id]  # gone from the history
        assert [s.deleted for s in listings.history(circle, deleted=True)] == [True, False]
        again = housekeeping.delete_evening(circle, test.public_id, request_id="del-1")  # a double tap
        assert again.seq == change.seq
        assert len(who_is_who.folded(circle).events) == 1
        with pytest.raises(RuleError) as err:
            housekeeping.delete_evening(circle, test.public_id, request_id=rid())
        assert err.value.code == "evening_deleted"
        with pytest.raises(RuleError) as err:
            housekeeping.delete_evening(circle, "nope", request_id=rid())
        assert err.value.code == "evening_unknown"
        housekeeping.undo_change(circle, change.seq, request_id=rid())
        assert [s.deleted for s in listings.history(circle)] == [False, False]
        assert [s.deleted for s in listings.history(circle, deleted=True)] == [False, False]
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
        outcome = settled(counted)
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
            db.session.execute(cast(Table, HousekeepingRow.__table__).update().values(name="x"))  # never an update
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
        assert load_snapshot(ev).names == ("Verena Schmid-Kalbermatten", "Sepp", "Anne")
        assert evenings.names_of(ev) == ("Verena Schmid-Kalbermatten", "Sepp", "Anne")
        housekeeping.undo_change(circle, merged.seq, request_id=rid())
        assert load_snapshot(ev).names == ("Vreni", "Sepp", "Anne")


def _entry_rows(ev_id: int) -> int:
    return len(db.session.execute(select(EntryRow.id).where(EntryRow.evening_id == ev_id)).all())


def test_a_deleted_evening_takes_no_write_and_comes_back_whole(app: Flask) -> None:
    """Issue 20.6: deleting a test evening in progress takes it off every read (NotFound's
    sibling ``EveningDeleted``) and refuses every write to it, a phone's that still holds it
    and an offline queue's alike, with nothing written; undoing the delete brings it back as it
    was: in progress, every hand, writable again."""
    with app.app_context():
        circle, _w, _v = circles.create_circle("Sternen")
        ev = _started(circle, ["Anna", "Beat", "Cla"])
        queued = [rid("queued") for _ in range(2)]
        for request_id in queued:  # two hands from a phone's offline queue
            evenings.record_hand(
                ev, next_hand(evenings.load_slate(ev), 1), expected_version=ev.version, request_id=request_id
            )
        before = load_snapshot(ev)
        held, version, rows = ev, ev.version, _entry_rows(ev.id)  # the phone that still has the page
        assert [s.public_id for s in listings.history(circle) if s.status == "open"] == [ev.public_id]

        change = housekeeping.delete_evening(circle, ev.public_id, request_id=rid())
        assert listings.history(circle) == []  # not "in progress", not in the history
        with pytest.raises(EveningDeleted):
            evenings.get_evening(circle, ev.public_id)
        with pytest.raises(EveningDeleted):
            load_snapshot(evenings.get_evening(circle, ev.public_id))
        hand = next_hand(evenings.load_slate(held), 2)
        writes: list[Callable[[], object]] = [
            lambda: evenings.record_hand(held, hand, expected_version=version, request_id=rid()),
            lambda: evenings.record_hand(  # the offline queue's third hand, synced later
                held, hand, expected_version=version, request_id=rid(), queued_after=queued
            ),
            lambda: evenings.correct_entry(held, 0, hand, expected_version=version, request_id=rid()),
            lambda: evenings.undo_last(held, expected_version=version, request_id=rid()),
            lambda: evenings.end_evening(held, early=True, expected_version=version, request_id=rid()),
            lambda: evenings.draw_cuts(held, expected_version=version, request_id=rid()),
            lambda: evenings.record_hand(held, hand, expected_version=version, request_id=queued[0]),  # a resend
        ]
        for write in writes:
            with pytest.raises(EveningDeleted) as refused:
                write()
            assert refused.value.code == "evening_deleted"
        assert _entry_rows(ev.id) == rows  # nothing written

        housekeeping.undo_change(circle, change.seq, request_id=rid())
        back = evenings.get_evening(circle, ev.public_id)
        snap = load_snapshot(back)
        assert back.is_open and snap.slate.entries == before.slate.entries and snap.trail == before.trail
        assert [s.public_id for s in listings.history(circle) if s.status == "open"] == [ev.public_id]
        again = evenings.record_hand(back, hand, expected_version=back.version, request_id=rid())
        assert len(evenings.load_slate(again).entries) == 3


def test_a_renamed_players_log_line_names_her_old_name(app: Flask) -> None:
    """Issue 20.10: the log says who was renamed what (the name before each rename)."""
    with app.app_context():
        circle, _w, _v = circles.create_circle("Sternen")
        gianni = circles.add_player(circle, "Gianni").id
        housekeeping.rename_player(circle, gianni, "Gianni Bernasconi", request_id=rid())
        housekeeping.rename_player(circle, gianni, "Gianni B.", request_id=rid())
        assert who_is_who.names_before(who_is_who.folded(circle)) == {1: "Gianni", 2: "Gianni Bernasconi"}


def test_the_same_request_id_asking_another_change_is_refused(app: Flask) -> None:
    """Issue 21.4: a repeated request id answers the change written; the same id with another
    name, player, kind or author is ``request_id_reused`` and writes nothing."""
    with app.app_context():
        circle, _w, _v = circles.create_circle("Sternen")
        anna = circles.add_player(circle, "Anna").id
        beat = circles.add_player(circle, "Beat").id
        first = housekeeping.rename_player(circle, anna, "Anna Z.", request_id="hk-1", author="Beat")
        repeat = housekeeping.rename_player(circle, anna, " Anna  Z. ", request_id="hk-1", author="Beat")
        assert (repeat.seq, repeat.name, repeat.player) == (first.seq, "Anna Z.", str(anna))
        other: Callable[[], object]
        for other in (
            lambda: housekeeping.rename_player(circle, anna, "Anna Zurbriggen", request_id="hk-1", author="Beat"),
            lambda: housekeeping.rename_player(circle, beat, "Anna Z.", request_id="hk-1", author="Beat"),
            lambda: housekeeping.rename_player(circle, anna, "Anna Z.", request_id="hk-1"),
            lambda: housekeeping.rename_player(circle, anna, "", request_id="hk-1", author="Beat"),
            lambda: housekeeping.merge_players(circle, beat, anna, request_id="hk-1", author="Beat"),
            lambda: housekeeping.undo_change(circle, 1, request_id="hk-1", author="Beat"),
        ):
            with pytest.raises(RequestIdReused):
                other()
        assert len(who_is_who.folded(circle).events) == 1


def test_ending_again_with_the_same_request_id_must_say_the_same(app: Flask) -> None:
    """Issue 21.4: ending early says whether the evening counts in money; the same request id
    saying otherwise is ``request_id_reused`` (nothing written), saying the same answers again."""
    with app.app_context():
        circle, _w, _v = circles.create_circle("Sternen")
        ev = _started(circle, ["Anna", "Beat", "Cla"])
        list(play_hands(ev, 4))
        ended = evenings.end_evening(ev, early=True, expected_version=ev.version, request_id="end-1")
        assert ended.counts_in_money
        version = ended.version
        with pytest.raises(RequestIdReused):
            evenings.end_evening(ev, early=True, expected_version=version, request_id="end-1", counts_in_money=False)
        again = evenings.end_evening(ev, early=True, expected_version=version, request_id="end-1")
        assert again.counts_in_money and again.version == version
