"""Issue 20.7: a full slate is an evening over. The write that fills the last cell (and cuts the
last tie, three players) closes the evening in the same transaction: it counts in the purse, the
statistics and the ratings without anybody tapping "Close the evening"; a tie still to cut keeps it
open until the cut; a late "Close" changes nothing; a correction afterwards (reopen, correct) closes
it again and is counted."""

from __future__ import annotations

from dataclasses import replace

from flask import Flask
from services_helpers import NAMES, contract_for, play_hands
from shared_helpers import rid, settled

from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.models import Circle, Evening
from scorekeeper.scoring.final import Cut
from scorekeeper.services import circles, evenings
from scorekeeper.services.read import listings
from scorekeeper.services.read.memory import memory_of


def _money(circle: Circle) -> dict[str, int]:
    return {r.name: r.net_rappen for r in listings.player_records(circle)}


def test_the_hand_that_fills_the_last_cell_ends_the_evening(app: Flask) -> None:
    with app.app_context():
        rs = default_ruleset(Variant.TEAMS)
        circle, _w, _v = circles.create_circle("Sternen")
        ev = evenings.start_evening(circle, ruleset=rs, player_names=list(NAMES), first_dealer=0, request_id=rid())
        entries = list(play_hands(ev, rs.n_hands - 1))
        assert ev.is_open and listings.player_records(circle)[0].evenings == 0
        last = list(play_hands(ev, 1, start_turn=len(entries)))
        assert len(last) == 1 and evenings.load_slate(ev).complete
        assert (ev.status, ev.ended_early, ev.counts_in_money) == ("ended", False, True)
        assert ev.ended_at is not None
        (summary,) = listings.history(circle)
        assert summary.status == "ended" and summary.money is not None and summary.winners
        assert [r.evenings for r in listings.player_records(circle)] == [1, 1, 1, 1]
        money = _money(circle)
        assert sorted(money.values()) == sorted(summary.money) and any(money.values())
        purse = memory_of(circle).purse()
        assert sorted(purse.balances.values()) == sorted(summary.money)
        # a late "Close the evening" (a phone that did not see it close): nothing changes
        version = ev.version
        assert evenings.end_evening(ev, early=False, expected_version=version, request_id=rid()).version == version

        # a correction afterwards: reopen, correct; the full slate closes again and is counted
        reopened = evenings.reopen_evening(ev, expected_version=ev.version, request_id=rid())
        assert reopened.is_open
        first = evenings.load_slate(ev).entries[0]
        flipped = replace(first, declarer_points=first.defender_points, defender_points=first.declarer_points)
        if flipped.match or flipped.countermatch or flipped == first:  # a plain hand whose piles differ
            flipped = replace(first, declarer_points=10, defender_points=147, match=False, countermatch=False)
        fixed = evenings.correct_entry(ev, 0, flipped, expected_version=ev.version, request_id=rid())
        assert fixed.status == "ended" and not fixed.ended_early
        after = listings.history(circle)[0]
        assert after.totals != summary.totals
        assert _money(circle) == dict(zip(after.players, after.money or (), strict=True))


def _tied_three() -> list[HandEntry]:
    """Every cell of a three-player slate, each player's own value in each row, the first row tied
    at the top (seats 0 and 1): the slate is full but the result needs a cut."""
    rs = default_ruleset(Variant.THREE)
    out = []
    for r, row in enumerate(rs.rows):
        for seat in range(3):
            points = 90 if r == 0 and seat < 2 else (50 if r == 0 else 20 + 7 * r + 30 * seat)
            out.append(HandEntry(row.key, seat, contract_for(rs, row.key, r), points, 157 - points))
    return out


def test_a_tie_to_cut_keeps_a_full_slate_open_until_the_cut(app: Flask) -> None:
    with app.app_context():
        rs = default_ruleset(Variant.THREE)
        circle, _w, _v = circles.create_circle("Sternen")
        ev: Evening = evenings.start_evening(
            circle, ruleset=rs, player_names=list(NAMES[:3]), first_dealer=0, request_id=rid()
        )
        for entry in _tied_three():
            ev = evenings.record_hand(ev, entry, expected_version=ev.version, request_id=rid())
        assert evenings.load_slate(ev).complete
        _cuts, pending = evenings.cuts_and_pending(ev)
        assert pending and ev.is_open and settled(ev) is None  # the table cuts first
        assert listings.player_records(circle)[0].evenings == 0
        for tie in pending:  # the cut at the table that decides the last tie closes it
            assert ev.is_open
            ev = evenings.set_cut(
                ev, Cut(tie.row_key, tie.end, tie.sides[0], False), expected_version=ev.version, request_id=rid()
            )
        assert (ev.status, ev.ended_early, ev.counts_in_money) == ("ended", False, True)
        assert settled(ev) is not None
        assert [r.evenings for r in listings.player_records(circle)] == [1, 1, 1]
