"""The own-rules editor's steps (web.rules_form): moves are permutations, a remove takes one row,
an add appends one with a key of its own, and nothing beyond 13 rows is added."""

from __future__ import annotations

import pytest
from flask import Flask
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.game.errors import RuleError
from scorekeeper.game.rulesets import ROWS_MAX, RuleSet, Variant, default_ruleset
from scorekeeper.web import rules_form
from scorekeeper.web.rules_form import ADD_KINDS, Step, apply_step, read_snapshot, write_snapshot

STEPS = st.one_of(
    st.tuples(st.sampled_from(["up", "down", "remove"]), st.integers(0, 15)).map(lambda t: f"{t[0]}:{t[1]}"),
    st.tuples(st.just("add"), st.sampled_from(ADD_KINDS)).map(lambda t: f"add:{t[1]}"),
)


@settings(max_examples=200, deadline=None)
@given(variant=st.sampled_from(list(Variant)), steps=st.lists(STEPS, max_size=25))
def test_steps_keep_the_rows_whole(variant: Variant, steps: list[str]) -> None:
    data = default_ruleset(variant).to_dict()
    for text in steps:
        action, _sep, arg = text.partition(":")
        before = [dict(r) for r in data["rows"]]
        step = Step.parse("add" if action == "add" else text)
        assert step is not None
        try:
            data = apply_step(data, step, arg if action == "add" else None, "Molotow")
        except RuleError as err:
            assert err.code == "rows_too_many" and len(before) == ROWS_MAX
            continue
        rows = data["rows"]
        keys = [r["key"] for r in rows]
        assert len(set(keys)) == len(keys)  # every row keeps a key of its own
        if action in ("up", "down"):
            assert sorted(map(str, rows)) == sorted(map(str, before))
            i = int(arg)
            moved = 0 <= i < len(before) and (i > 0 if action == "up" else i < len(before) - 1)
            assert (rows != before) == moved
        elif action == "remove":
            assert len(rows) == len(before) - (0 <= int(arg) < len(before))
        else:
            assert rows[:-1] == before and rows[-1]["factor"] == min(max(r["factor"] for r in before) + 1, 1000)
        RuleSet.from_dict(data)  # the snapshot still reads as a rule set (the core says if it is good)
        assert read_snapshot(write_snapshot(data)) == data


def test_step_texts_and_snapshots_that_do_not_read() -> None:
    assert Step.parse("up:3") == Step("up", 3) and Step.parse("add") == Step("add")
    assert Step.parse("up:-1") is None and Step.parse("drop:1") is None and Step.parse("") is None
    for text in ("", "{", "[]", '{"variant": "nine", "rows": []}', "x" * (rules_form.SNAPSHOT_MAX + 1)):
        with pytest.raises(RuleError) as err:
            read_snapshot(text)
        assert err.value.code == "rules_unreadable"


def test_a_house_row_needs_a_name(app: Flask) -> None:
    data = default_ruleset(Variant.TEAMS).to_dict()
    with app.test_request_context():
        with pytest.raises(RuleError) as err:
            apply_step(data, Step("add"), "house", "   ")
        assert err.value.code == "row_add_name"
        row = apply_step(data, Step("add"), "house", " Molotow  Extra ")["rows"][-1]
    assert row["name"] == "Molotow Extra" and row["kinds"] == [] and row["key"] == "house1"
    joker = rules_form.new_row(data["rows"], "joker")
    assert joker["key"] == "joker3" and "suit" in joker["kinds"]
