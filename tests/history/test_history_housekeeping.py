"""Rename, merge, delete an evening, and undo any of them: a checked, pure fold."""

from __future__ import annotations

import pytest
from history_helpers import BOOK, circle, evening, players, table

from scorekeeper.game.errors import RuleError
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.history.housekeeping import ERROR_CODES, fold_events, seats_of, verify, view
from scorekeeper.history.records import Housekeeping, HousekeepingKind, PaymentKind, Settlement

THREE = default_ruleset(Variant.THREE)
ROSTER = players("Ann", "Beth", "Cath", "Dora")
K = HousekeepingKind
BOOK_ENTRIES = table(THREE, BOOK)
CIRCLE = circle(
    ROSTER,
    [
        evening("e1", THREE, ["p1", "p2", "p3"], BOOK_ENTRIES, day=0),
        evening("e2", THREE, ["p1", "p2", "p4"], BOOK_ENTRIES, day=1),
    ],
    settlements=[Settlement(1, PaymentKind.PAYMENT, payer="p4", payee="p1", rappen=500)],
)
SEATS = seats_of(CIRCLE)


def rename(seq: int, player: str, name: str) -> Housekeeping:
    return Housekeeping(seq, K.RENAME, player=player, name=name)


def merge(seq: int, player: str, into: str) -> Housekeeping:
    return Housekeeping(seq, K.MERGE, player=player, into=into)


def delete(seq: int, ev: str) -> Housekeeping:
    return Housekeeping(seq, K.DELETE_EVENING, evening=ev)


def undo(seq: int, target: int) -> Housekeeping:
    return Housekeeping(seq, K.UNDO, undoes=target)


def refused(events: list[Housekeeping], new: Housekeeping) -> str:
    with pytest.raises(RuleError) as info:
        verify(ROSTER, SEATS, events, new)
    return info.value.code


def test_rename_is_shown_everywhere_and_undone() -> None:
    checked = verify(ROSTER, SEATS, [], rename(1, "p2", "  Beth   Schmid-Kalbermatten "))
    assert checked.name == "Beth Schmid-Kalbermatten"  # stored as cleaned
    assert fold_events(ROSTER, SEATS, [checked]).name("p2") == "Beth Schmid-Kalbermatten"
    assert fold_events(ROSTER, SEATS, [checked, undo(2, 1)]).name("p2") == "Beth"


def test_names_stay_unique_without_regard_to_case() -> None:
    assert refused([], rename(1, "p2", "ann")) == "name_taken"
    assert refused([], rename(1, "p2", "")) == "player_name"
    assert refused([], rename(1, "p2", "x" * 41)) == "player_name"
    assert refused([], rename(1, "p9", "Zoe")) == "player_unknown"
    # Ann becomes Anna, Beth takes "Ann": undoing Ann's rename would make two Anns.
    events = [rename(1, "p1", "Anna"), rename(2, "p2", "Ann")]
    assert refused(events, undo(3, 1)) == "name_taken"


def test_merge_makes_one_person_and_can_be_undone() -> None:
    events = [merge(1, "p4", "p3")]  # Dora is Cath: they never sat together
    state = fold_events(ROSTER, SEATS, events)
    assert state.canonical("p4") == "p3" and state.name("p4") == "Cath"
    assert state.members("p3") == ("p3", "p4") and state.active == ("p1", "p2", "p3")
    v = view(circle(ROSTER, CIRCLE.evenings, settlements=CIRCLE.settlements, housekeeping=events))
    assert [ev.seats for ev in v.evenings] == [("p1", "p2", "p3"), ("p1", "p2", "p3")]
    assert v.settlements[0].payer == "p3" and [p.name for p in v.players] == ["Ann", "Beth", "Cath"]
    assert fold_events(ROSTER, SEATS, [*events, undo(2, 1)]).canonical("p4") == "p4"


def test_merge_chains_are_followed() -> None:
    events = [merge(1, "p4", "p3"), delete(2, "e1"), delete(3, "e2"), merge(4, "p3", "p2")]
    state = fold_events(ROSTER, SEATS, events)
    assert state.canonical("p4") == "p2" and state.members("p2") == ("p2", "p3", "p4")


def test_who_sat_together_cannot_be_merged() -> None:
    assert refused([], merge(1, "p1", "p2")) == "merge_same_evening"
    assert refused([], merge(1, "p1", "p1")) == "merge_self"
    assert refused([merge(1, "p4", "p3")], merge(2, "p4", "p1")) == "player_merged"
    assert refused([merge(1, "p4", "p3")], rename(2, "p4", "Dorli")) == "player_merged"
    # with e1 deleted, Cath and Beth never met... until e1 comes back
    events = [delete(1, "e1"), merge(2, "p3", "p2")]
    fold_events(ROSTER, SEATS, events)
    assert refused(events, undo(3, 1)) == "merge_same_evening"


def test_delete_and_undelete_an_evening() -> None:
    state = fold_events(ROSTER, SEATS, [delete(1, "e2")])
    assert state.deleted == {"e2"}
    assert [ev.id for ev in view(circle(ROSTER, CIRCLE.evenings, housekeeping=[delete(1, "e2")])).evenings] == ["e1"]
    assert refused([delete(1, "e2")], delete(2, "e2")) == "evening_deleted"
    assert refused([], delete(1, "e9")) == "evening_unknown"
    assert fold_events(ROSTER, SEATS, [delete(1, "e2"), undo(2, 1)]).deleted == frozenset()


def test_undo_of_unknown_or_undone_changes_is_refused() -> None:
    assert refused([], undo(1, 5)) == "change_unknown"
    assert refused([delete(1, "e2"), undo(2, 1)], undo(3, 1)) == "change_undone"
    assert refused([delete(1, "e2"), undo(2, 1)], undo(3, 2)) == "change_unknown"  # an undo is not undone
    assert refused([delete(4, "e2")], delete(3, "e1")) == "housekeeping_order"


def test_a_broken_log_is_refused_with_the_change_number() -> None:
    with pytest.raises(RuleError) as info:
        fold_events(ROSTER, SEATS, [rename(1, "p1", "Anna"), merge(2, "p1", "p2")])
    assert info.value.code == "merge_same_evening" and info.value.params["seq"] == 2


def test_every_code_is_exercised() -> None:
    import pathlib

    text = pathlib.Path(__file__).read_text()
    assert [c for c in ERROR_CODES if f'"{c}"' not in text] == []


def test_a_kind_given_as_text_is_read_as_the_event_kind() -> None:
    as_text = Housekeeping(1, "rename", player="p2", name="Betty")  # type: ignore[arg-type]  # a database row's text
    assert verify(ROSTER, SEATS, [], as_text).kind is K.RENAME
    assert fold_events(ROSTER, SEATS, [as_text]).name("p2") == "Betty"
