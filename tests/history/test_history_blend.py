"""The circle's hands as the forecast's history (issue 13): per player and contract, the
outcomes of the hands she declared in ended evenings of the same variant; paper cells, Seich
in Misère the opponents' pile; open evenings and other variants do not count."""

from __future__ import annotations

from history_helpers import circle, evening, hand_for, players, table

from scorekeeper.game.contracts import Kind
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.history.blend import player_history, seat_history
from scorekeeper.history.housekeeping import view
from scorekeeper.history.records import Status
from scorekeeper.history.sample import sample_circle
from scorekeeper.scoring.entries import outcome_of
from scorekeeper.scoring.forecast import BLEND, cell_distribution, default_table, history_key, normalize_history

THREE = default_ruleset(Variant.THREE)
TEAMS = default_ruleset(Variant.TEAMS)


def test_each_declared_hand_counts_for_its_player_and_contract() -> None:
    roster = players("Ann", "Beth", "Cath", "Dora")
    hands = table(THREE, {"suit_C": (257, 40, 80), "obenabe": (120, -1, 30)})
    ended = evening("e1", THREE, ["p1", "p2", "p3"], hands)
    still_open = evening("e2", THREE, ["p1", "p2", "p3"], hands, status=Status.OPEN, day=1)
    teams = evening("e3", TEAMS, ["p1", "p2", "p3", "p4"], [hand_for(TEAMS, "obenabe", 0, 90)], day=2)
    got = player_history(view(circle(roster, [ended, still_open, teams])), Variant.THREE)
    assert got == {
        "p1": {"suit:C": [257], "obenabe": [120]},
        "p2": {"suit:C": [40], "obenabe": [-1]},
        "p3": {"suit:C": [80], "obenabe": [30]},
    }
    assert player_history(view(circle(roster, [ended, teams])), Variant.TEAMS) == {"p1": {"obenabe": [90]}}


def test_a_misere_counts_as_the_opponents_pile() -> None:
    club = default_ruleset(Variant.CLUB)
    row = club.row("misere_zwueschi")
    contract = next(c for c in row.contracts if c.kind is Kind.MISERE)
    misere = HandEntry("misere_zwueschi", 1, contract, 20, 137)
    ev = evening("e1", club, ["p1", "p2", "p3", "p4"], [misere])
    got = player_history(view(circle(players("Ann", "Beth", "Cath", "Dora"), [ev])), Variant.CLUB)
    assert got == {"p2": {"misere": [137]}}
    assert history_key(club, misere) == "misere" and outcome_of(club, misere) == 137


def test_seat_history_is_what_the_forecast_blends() -> None:
    record = sample_circle(3, evenings=40, players=6, variants=(Variant.TEAMS,), paper_rate=0.0)
    players_table = player_history(view(record), Variant.TEAMS)
    seats = ("p1", "p2", "p3", "p4")
    history, n = seat_history(players_table, seats)
    assert n == sum(len(v) for v in history.values()) > 0
    assert normalize_history(history).keys() == history.keys()  # keys the forecast accepts
    for (seat, key), outs in history.items():
        assert outs == players_table[seats[seat]][key]
    # a row of one contract draws from the players' own hands with weight n/(n+30)
    row = TEAMS.row("obenabe")
    mine = cell_distribution(TEAMS, row, 0, default_table(), history)
    plain = cell_distribution(TEAMS, row, 0, default_table())
    own = [len(history.get((s, "obenabe"), ())) for s in TEAMS.seats_of(0)]
    assert any(own) and mine != plain
    assert abs(sum(p for _o, p in mine) - 1) < 1e-9
    assert BLEND == 30
