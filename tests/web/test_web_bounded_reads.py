"""No single read costs more than a bounded amount, whatever is stored (issue 21, 2).

An evening stored with factors and a stake no start and no import allows (written straight
into the database, past every check: an old row, a hand-edited database) still gives every
page, the picture, the charts and the outlook, in bounded work: marks past
``MARKS_DRAWN`` are written as a count, money is written for any whole number, chart
scales have a bounded number of ticks. The picture is drawn once per evening version and
kept (its ETag answers a phone that asks again)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from shared_helpers import cpu_budget, rid
from web_helpers import create_circle, start_evening

from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import RuleSet, Variant
from scorekeeper.history.records import CircleRecord
from scorekeeper.history.sample import sample_circle
from scorekeeper.render import MARKS_DRAWN, render_slate
from scorekeeper.render.chalk import Chalkboard
from scorekeeper.services import circles, evenings, restore
from scorekeeper.web import picture as web_picture

PAGE_MAX_BYTES = 400_000  # a slate page of factor 100,000 wrote 100,000 strokes per cell
CPU_BUDGET_S = 90.0  # every read below takes some 6 s of CPU; one picture of factor 100,000 took 122 s


def _extreme(factor: int) -> CircleRecord:
    """Eight evenings of every variant whose every factor and stake is ``factor``."""
    record = sample_circle(7, evenings=8, players=5, paper_rate=0.0)

    def huge(rs: RuleSet) -> RuleSet:
        rows = tuple(replace(r, factor=factor) for r in rs.rows)
        return replace(rs, rows=rows, stake=replace(rs.stake, rappen=factor))

    assert {ev.ruleset.variant for ev in record.evenings} == set(Variant)
    return replace(record, evenings=tuple(replace(ev, ruleset=huge(ev.ruleset)) for ev in record.evenings))


@pytest.fixture
def drawn_marks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many sticks, potatoes and crossed pairs the pictures chalk (one count per call)."""
    count = [0]
    for name in ("stick", "potato", "crossed"):
        original = getattr(Chalkboard, name)

        def counting(self: Chalkboard, *args: Any, _original: Any = original, **kwargs: Any) -> None:
            count[0] += 1
            _original(self, *args, **kwargs)

        monkeypatch.setattr(Chalkboard, name, counting)
    yield count


@pytest.mark.parametrize("factor", [100_000, 10**15, 10**30], ids=["1e5", "1e15", "1e30"])
def test_a_stored_extreme_evening_reads_in_bounded_work(
    app: Flask, client: FlaskClient, drawn_marks: list[int], factor: int
) -> None:
    with app.app_context():
        _circle, token, _view = restore.restore_record(_extreme(factor))  # written past every check
    auth = {"Authorization": f"Bearer {token}"}
    listed = client.get("/api/v1/evenings", headers=auth).get_json()["evenings"]
    assert len(listed) == 8
    circle = f"/c/{token}"
    pages = [circle, f"{circle}/stats", f"{circle}/ratings", f"{circle}/purse", f"{circle}/housekeeping"]
    charts = [f"{circle}/charts/money.svg", f"{circle}/charts/money.png"]
    api = ["/api/v1/players/records", "/api/v1/ledger"]
    for ev in listed:
        pages.append(f"{circle}/e/{ev['id']}")
        api += [f"/api/v1/evenings/{ev['id']}", f"/api/v1/evenings/{ev['id']}/outlook"]
    with cpu_budget(CPU_BUDGET_S):
        for path in pages:
            resp = client.get(path)
            assert resp.status_code == 200, path
            assert len(resp.data) < PAGE_MAX_BYTES, (path, len(resp.data))
        for path in charts + api:
            resp = client.get(path, headers=auth)
            assert resp.status_code == 200, (path, resp.get_data(as_text=True)[:300])
        for ev in listed:
            before = drawn_marks[0]
            resp = client.get(f"{circle}/e/{ev['id']}/slate.png")
            assert resp.status_code == 200 and resp.mimetype == "image/png"
            # at most MARKS_DRAWN symbols in each of the (10 rows + the match row) x 3 cells
            assert drawn_marks[0] - before <= 11 * 3 * MARKS_DRAWN
    assert drawn_marks[0] > 0  # the three-player evenings' marks were chalked (as counts)


def test_the_picture_is_drawn_once_per_evening_version(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[int] = []
    render = render_slate

    def counting(picture: Any) -> bytes:
        drawn.append(1)
        return render(picture)

    monkeypatch.setattr(web_picture, "render_slate", counting)
    circle, _view = create_circle(client, "Sternen")
    slate = start_evening(client, circle, Variant.THREE)
    first = client.get(f"{slate}/slate.png")
    again = client.get(f"{slate}/slate.png")
    assert first.status_code == again.status_code == 200 and first.data == again.data
    assert len(drawn) == 1  # the second answer came from the worker's drawing
    etag = first.headers["ETag"]
    assert again.headers["ETag"] == etag
    unchanged = client.get(f"{slate}/slate.png", headers={"If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged.data == b"" and len(drawn) == 1
    # another language is another picture; a new hand is a new version: each drawn once
    client.get(f"{slate}/slate.png", headers={"Accept-Language": "de-CH"})
    assert len(drawn) == 2
    with app.app_context():
        circle_row, _can_write = circles.open_circle(circle.rsplit("/", 1)[1])
        ev = evenings.get_evening(circle_row, slate.rsplit("/", 1)[1])
        evenings.record_hand(
            ev, HandEntry("obenabe", 0, None, 90, 67), expected_version=ev.version, request_id=rid("hand")
        )
    changed = client.get(f"{slate}/slate.png", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag and len(drawn) == 3
    client.get(f"{slate}/slate.png")
    assert len(drawn) == 3
