"""House rules for tests: a Hypothesis strategy of valid rule sets of every shape (a circle's own
rows, scoring, match, countermatch and Seich), and a few fixed examples."""

from __future__ import annotations

from hypothesis import strategies as st

from scorekeeper.game.cards import Suit
from scorekeeper.game.contracts import Kind
from scorekeeper.game.rulesets import (
    NOT_PLAYED,
    ROWS_MAX,
    ROWS_MIN,
    SHAPE_OF,
    BarrelRule,
    Row,
    RuleSet,
    Scoring,
    Stake,
    Variant,
)

SINGLE_KINDS = [k for k in Kind if k is not Kind.SUIT]


def eleven_rows_with_tutti_and_misere() -> RuleSet:
    """The issue's example: eleven team rows with Tutti and a Misère, a house row, 257 + 500."""
    rows = (
        *(Row(f"suit_{s.letter}", (Kind.SUIT,), i + 1, s) for i, s in enumerate(Suit)),
        Row("obenabe", (Kind.OBENABE,), 5),
        Row("undenufe", (Kind.UNDENUFE,), 6),
        Row("tutti", (Kind.TUTTI,), 7),
        Row("misere", (Kind.MISERE,), 8),
        Row("bock", (), 9, name="Bock"),
        Row("either", (Kind.SLALOM, Kind.TUO), 10),
        Row("joker", (Kind.SUIT, Kind.OBENABE, Kind.UNDENUFE), 11),
    )
    return RuleSet(Variant.TEAMS, rows, BarrelRule.ONLINE, match_bonus=500, countermatch_cost=50)


@st.composite
def house_rulesets(draw: st.DrawFn, variant: Variant | None = None) -> RuleSet:
    """A valid rule set of a circle's own: 4 to 13 rows of what the shape plays (suits once,
    single contracts once, choice rows and named house rows), any scoring and match."""
    variant = variant or draw(st.sampled_from(list(Variant)))
    shape = SHAPE_OF[variant]
    n = draw(st.integers(ROWS_MIN, ROWS_MAX))
    playable = [k for k in SINGLE_KINDS if k not in NOT_PLAYED[shape]]
    pool: list[tuple[tuple[Kind, ...], Suit | None, str]] = [((Kind.SUIT,), s, "") for s in Suit]
    pool += [((k,), None, "") for k in playable]
    pool += [((), None, f"House {i}") for i in range(3)]
    picked = draw(st.lists(st.sampled_from(pool), min_size=0, max_size=n, unique=True))
    while len(picked) < n:  # the rest are choice rows ("one of these two", jokers)
        kinds = draw(st.lists(st.sampled_from([Kind.SUIT, *playable]), min_size=2, max_size=4, unique=True))
        picked.append((tuple(kinds), None, ""))
    picked = draw(st.permutations(picked))
    factors = draw(st.lists(st.integers(1, 20), min_size=n, max_size=n))
    rows = tuple(Row(f"r{i}", kinds, factors[i], suit, name) for i, (kinds, suit, name) in enumerate(picked))
    three = variant is Variant.THREE  # three players write card points (a match 257, a countermatch 0)
    scoring = Scoring.RAW if three else draw(st.sampled_from(list(Scoring)))
    seich = draw(st.booleans())
    rs = RuleSet(
        variant,
        rows,
        draw(st.sampled_from(list(BarrelRule))),
        seich=seich,
        stake=Stake(draw(st.integers(0, 200)), 1 if variant is Variant.THREE else draw(st.integers(1, 100))),
        scoring=scoring,
        match_points=257 if three else draw(st.sampled_from([257, 157, 657])),
        match_bonus=0 if three else draw(st.sampled_from([0, 100, 500])),
        countermatch_cost=0 if three else draw(st.sampled_from([0, 0, 50, 257])),
        seich_times=draw(st.integers(1, 3)),
    )
    rs.check()
    return rs
