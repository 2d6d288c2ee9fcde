"""A circle's saved house rules in the export file (issue 24, docs/EXPORT.md): written when
saved, read back exactly, an absent key (every file of before) means none, and a file whose
house rules the rules refuse does not restore."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from history_helpers import rich_circle
from house_rules_helpers import eleven_rows_with_tutti_and_misere, house_rulesets
from hypothesis import given, settings

from scorekeeper.game.errors import RuleError
from scorekeeper.game.rulesets import RuleSet
from scorekeeper.history.export import VERSION, decode, dumps, encode

NOW = datetime(2026, 11, 30, 20, 15, tzinfo=UTC)
GOLDEN_V1 = Path(__file__).resolve().parents[1] / "golden" / "history" / "export_v1.json"
HOUSE = eleven_rows_with_tutti_and_misere()


def test_saved_house_rules_are_written_and_read_back() -> None:
    c = replace(rich_circle(), house_rules=HOUSE)
    doc = encode(c, NOW)
    assert doc["circle"]["house_rules"] == HOUSE.to_dict()
    assert doc["version"] == VERSION == 1  # an optional key older readers ignore: no new version
    back = decode(dumps(c, NOW))
    assert back.house_rules == HOUSE
    assert back == replace(decode(dumps(rich_circle(), NOW)), house_rules=HOUSE)  # the rest as without


def test_a_circle_without_house_rules_writes_its_file_as_before() -> None:
    doc = encode(rich_circle(), NOW)
    assert set(doc["circle"]) == {"name", "created_at"}
    assert decode(json.dumps(doc)).house_rules is None


def test_a_file_of_before_restores_unchanged_without_house_rules() -> None:
    raw = json.loads(GOLDEN_V1.read_text())
    assert "house_rules" not in raw["circle"]
    c = decode(GOLDEN_V1.read_bytes())
    assert c.house_rules is None
    assert encode(c, NOW)["circle"] == raw["circle"]  # and it writes back as it was


def test_null_house_rules_mean_none() -> None:
    doc = encode(rich_circle(), NOW)
    doc["circle"]["house_rules"] = None
    assert decode(json.dumps(doc)).house_rules is None


@settings(max_examples=25, deadline=None)
@given(house_rulesets())
def test_any_house_rules_round_trip(rules: RuleSet) -> None:
    c = replace(rich_circle(), house_rules=rules)
    assert decode(dumps(c, NOW)).house_rules == rules


def refused(doc: dict[str, object]) -> RuleError:
    with pytest.raises(RuleError) as info:
        decode(json.dumps(doc))
    return info.value


def test_damaged_house_rules_name_the_place() -> None:
    doc = encode(replace(rich_circle(), house_rules=HOUSE), NOW)
    doc["circle"]["house_rules"] = {"variant": "five"}
    err = refused(doc)
    assert err.code == "export_damaged" and err.params == {"where": "export.circle.house_rules"}
    doc["circle"]["house_rules"] = [1]
    assert refused(doc).params == {"where": "export.circle.house_rules"}


@pytest.mark.parametrize(
    ("row", "change", "where", "reason"),
    [
        (3, {"factor": 0}, "circle.house_rules.rows[3].factor", "factor_range"),
        (5, {"kinds": ["obenabe"]}, "circle.house_rules.rows[5]", "row_twice"),
    ],
)
def test_refused_house_rules_do_not_restore(row: int, change: dict[str, object], where: str, reason: str) -> None:
    doc = encode(replace(rich_circle(), house_rules=HOUSE), NOW)
    doc["circle"]["house_rules"]["rows"][row].update(change)
    err = refused(doc)
    assert err.code == "export_invalid" and err.params == {"where": where, "reason": reason}
