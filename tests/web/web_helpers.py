"""Helpers for the page tests: create circles, start and fill evenings through the pages.

Every POST goes through the forms as a phone sends them: the CSRF token, the
request id and the expected version are read from the rendered page
(``shared_helpers.hidden``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask.testing import FlaskClient
from shared_helpers import flashes, hand_data, hidden

from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import RuleSet, Variant, default_ruleset
from scorekeeper.scoring.slate import Slate

NAMES = {
    Variant.THREE: ["Anna", "Beat", "Cla"],
    Variant.TEAMS: ["Anna", "Beat", "Cla", "Dora"],
    Variant.SOLO4: ["Anna", "Beat", "Cla", "Dora"],
    Variant.CLUB: ["Anna", "Beat", "Cla", "Dora"],
}


def version_of(html: str) -> int:
    m = re.search(r'id="live"[^>]*data-version="(\d+)"', html)
    assert m, "no live slate on the page"
    return int(m.group(1))


def create_circle(client: FlaskClient, name: str = "Donnschtig-Jass") -> tuple[str, str]:
    """(write path, view path) of a new circle."""
    page = client.get("/").text
    r = client.post("/", data={"name": name, **hidden(page, "/")})
    assert r.status_code == 200, r.text
    write = re.search(r'id="write-link"[^>]*value="https?://[^/]+(/c/[^"]+)"', r.text)
    view = re.search(r'id="view-link"[^>]*value="https?://[^/]+(/c/[^"]+)"', r.text)
    assert write and view
    return write.group(1), view.group(1)


def start_form(page: str, variant: Variant, *, names: list[str] | None = None, first_dealer: int = 0) -> dict[str, Any]:
    """The start form's fields as a phone sends them: its hidden fields, the variant's defaults
    (Swiss suit names, the order the page preselects), the players in seat order."""
    rs = default_ruleset(variant)
    data: dict[str, Any] = {
        **hidden(page, "/start"),
        "deck": "swiss",
        "barrel": rs.barrel.value,
        "stake_chf": f"{rs.stake.rappen / 100:.2f}",
        "per_points": str(rs.stake.per_points),
        "round_to": "5",
        "first_dealer": str(first_dealer),
    }
    m = re.search(r'<select[^>]*name="suit_order".*?<option selected value="(\w+)"', page, re.S)
    data["suit_order"] = m.group(1) if m else "swiss"
    for seat, name in enumerate(names or NAMES[variant]):
        data[f"seat_{seat}"] = name
    return data


def start_evening(
    client: FlaskClient,
    circle: str,
    variant: Variant,
    *,
    names: list[str] | None = None,
    first_dealer: int = 0,
    extra: dict[str, Any] | None = None,
) -> str:
    """Start an evening through the start form; returns the slate path."""
    url = f"{circle}/start?variant={variant.value}"
    data = start_form(client.get(url).text, variant, names=names, first_dealer=first_dealer)
    r = client.post(url, data={**data, **(extra or {})})
    assert r.status_code == 302, flashes(r.text) or r.text
    return r.headers["Location"]


def post_hand(client: FlaskClient, evening: str, data: dict[str, str], *, page: str | None = None) -> Any:
    """Record a hand through the page's form (its CSRF token, request id and version)."""
    html = page if page is not None else client.get(evening).text
    return client.post(f"{evening}/hands", data={**hidden(html, "/hands"), **data})


def plan_hand(ruleset: RuleSet, slate: Slate, i: int, points: Callable[[int, int], int] | None = None) -> HandEntry:
    """A valid next hand: the first seat in speaking order, its side's first open row, varied points
    (or ``points(i, seat)`` when given)."""
    seat = slate.eligible_seats()[0]
    side = ruleset.side_of(seat)
    key = slate.open_rows(side)[0]
    row = ruleset.row(key)
    contract = None
    if row.is_choice:
        contract = row.contracts[i % len(row.contracts)]
    if points is not None:
        p = points(i, seat)
        return HandEntry(key, seat, contract, p, 157 - p)
    if i % 11 == 5:
        return HandEntry(key, seat, contract, 157, 0, match=True)
    if i % 13 == 7:
        return HandEntry(key, seat, contract, 0, 157, countermatch=True)
    pile = (37 * i + 11) % 150 + 3
    return HandEntry(key, seat, contract, pile, 157 - pile)


def fill_evening(
    client: FlaskClient,
    evening: str,
    variant: Variant,
    *,
    hands: int | None = None,
    points: Callable[[int, int], int] | None = None,
) -> list[HandEntry]:
    """Record hands through the pages until every cell is filled (or ``hands`` hands); returns them."""
    rs = default_ruleset(variant)
    sent: list[HandEntry] = []
    first_dealer = 0
    for i in range(rs.n_hands if hands is None else hands):
        slate = Slate.build(rs, first_dealer, sent)
        entry = plan_hand(rs, slate, i, points)
        r = post_hand(client, evening, hand_data(entry))
        assert r.status_code == 302, (i, entry, flashes(r.text))
        sent.append(entry)
    return sent
