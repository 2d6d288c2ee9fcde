"""Property: whatever mix of hands, corrections and undos is recorded, replaying the
append-only rows gives exactly the list a plain in-memory model holds, and the audit
trail has one line per row with the right old and new values.

In memory (transient ORM rows, no database) for many examples; through the
services and the database for a few. ``SCOREKEEPER_SOAK=1`` runs many more."""

from __future__ import annotations

from dataclasses import replace
from typing import cast

from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from services_helpers import NAMES, next_hand
from shared_helpers import SOAK, rid

from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.models import EntryRow
from scorekeeper.scoring import Slate
from scorekeeper.services import circles, evenings
from scorekeeper.services.read.replay import EntryRecord, audit_trail, build_slate, hand_fields, replay, to_hand

Op = tuple[str, int]
ops_strategy = st.lists(
    st.tuples(st.sampled_from(["hand", "hand", "fix", "undo"]), st.integers(0, 10_000)), max_size=40
)


def _fixed(entry: HandEntry, seed: int) -> HandEntry:
    """The same hand with other points (always still valid)."""
    if entry.seich:
        return entry
    points = (entry.declarer_points + 1 + seed % 150) % 158
    return replace(entry, declarer_points=points, defender_points=157 - points, match=False, countermatch=False)


def _step(model: list[HandEntry], variant: Variant, op: Op) -> tuple[str, int, HandEntry | None] | None:
    """The next operation as (kind, index, new entry), or None when it cannot apply."""
    kind, seed = op
    rs = default_ruleset(variant)
    if kind == "hand":
        slate = Slate.build(rs, 0, model)
        return None if slate.complete else ("hand", len(model), next_hand(slate, seed))
    if not model:
        return None
    if kind == "undo":
        return ("undo", len(model) - 1, None)
    index = seed % len(model)
    new = _fixed(model[index], seed)
    return None if new == model[index] else ("fix", index, new)


@settings(max_examples=400 if SOAK else 60, deadline=None)
@given(variant=st.sampled_from(list(Variant)), ops=ops_strategy)
def test_replay_matches_the_model_in_memory(variant: Variant, ops: list[Op]) -> None:
    model: list[HandEntry] = []
    rows: list[EntryRow] = []
    records = cast(list[EntryRecord], rows)  # the same list: transient rows carry the records' fields
    expected_log: list[tuple[str, int, HandEntry | None, HandEntry | None]] = []
    for op in ops:
        step = _step(model, variant, op)
        if step is None:
            continue
        kind, index, new = step
        seq = len(rows) + 1
        current = replay(records)
        if kind == "hand":
            assert new is not None
            rows.append(EntryRow(seq=seq, kind="hand", supersedes=None, digital=False, **hand_fields(new)))
            expected_log.append(("hand", index, new, None))
            model.append(new)
        elif kind == "fix":
            assert new is not None
            rows.append(
                EntryRow(seq=seq, kind="correction", supersedes=current[index].seq, digital=False, **hand_fields(new))
            )
            expected_log.append(("correction", index, new, model[index]))
            model[index] = new
        else:
            rows.append(EntryRow(seq=seq, kind="undo", supersedes=current[-1].seq, digital=False))
            expected_log.append(("undo", index, None, model[-1]))
            model.pop()
        assert [to_hand(r) for r in replay(records)] == model
    rs = default_ruleset(variant)
    assert list(build_slate(rs, 0, records).entries) == model
    log = audit_trail(records)
    assert [(i.kind, i.index, i.entry, i.previous) for i in log] == expected_log


@settings(max_examples=40 if SOAK else 6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(variant=st.sampled_from(list(Variant)), ops=ops_strategy)
def test_replay_matches_the_model_through_the_services(app: Flask, variant: Variant, ops: list[Op]) -> None:
    with app.app_context():
        circle, _w, _v = circles.create_circle("Property")
        rs = default_ruleset(variant)
        ev = evenings.start_evening(
            circle, ruleset=rs, player_names=list(NAMES[: rs.n_players]), first_dealer=0, request_id=rid()
        )
        model: list[HandEntry] = []
        for op in ops:
            step = _step(model, variant, op)
            if step is None:
                continue
            kind, index, new = step
            version = ev.version
            if kind == "hand":
                assert new is not None
                ev = evenings.record_hand(ev, new, expected_version=version, request_id=rid())
                model.append(new)
            elif kind == "fix":
                assert new is not None
                ev = evenings.correct_entry(ev, index, new, expected_version=version, request_id=rid())
                model[index] = new
            else:
                ev = evenings.undo_last(ev, expected_version=version, request_id=rid())
                model.pop()
            assert ev.version == version + 1
        assert list(evenings.load_slate(ev).entries) == model
