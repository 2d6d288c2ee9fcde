"""Rule sets: the four variants of RULES.md section 6 and their options.

A ``RuleSet`` is a frozen value. An evening stores ``ruleset.to_dict()`` as a
snapshot and rebuilds it with ``RuleSet.from_dict``, so a later change of a
default never rewrites a past evening.

Seats are numbered 0..n-1 in playing order: play and deal run anticlockwise, so
seat ``i + 1`` sits on seat ``i``'s right. Forehand is the seat after the
dealer. In the team variants seats 0+2 and 1+3 are partners (the slate's seats
1+3 and 2+4).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from .cards import DeckStyle, Suit
from .contracts import Contract, Kind


class Variant(str, Enum):
    THREE = "three"  # 6.1 three players, sticks and potatoes (book)
    TEAMS = "teams"  # 6.2 two teams of two, multipliers
    SOLO4 = "solo4"  # 6.3 four players, all against all
    CLUB = "club"  # 6.4 club variant with 12 rows (teams)


class Scoring(str, Enum):
    RAW = "raw"  # the cell holds the declarer's card points (257 for a match)
    TENTHS = "tenths"  # floor(points / 10) x factor; countermatch 0
    FULL = "full"  # points x factor, a match adds 100 after the multiplication


class BarrelRule(str, Enum):
    BOOK = "book"  # back to forehand if she can choose, else the last eligible may not pass
    ONLINE = "online"  # after a full round the first player who can still choose must choose


SUIT_ORDERS: dict[str, tuple[Suit, Suit, Suit, Suit]] = {
    # Pagat / Göpf Egg with French suits: spades, clubs, diamonds, hearts.
    "pagat": (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS),
    # Swiss suits: acorns, roses, shields, bells.
    "swiss": (Suit.CLUBS, Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS),
    # Club variant: Ecke, Kreuz, Schaufel, Herz.
    "club": (Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES, Suit.HEARTS),
}

EXTRA_ROWS = ("slalom", "gustav", "tuo")  # optional rows of the team games


@dataclass(frozen=True, slots=True)
class Row:
    """One row of the slate: what it may be played as, and its factor (or value)."""

    key: str  # stable id, unique in the rule set: suit_H, obenabe, joker1, twelve...
    kinds: tuple[Kind, ...]
    factor: int
    suit: Suit | None = None  # the trump suit of a suit row

    def allows(self, contract: Contract) -> bool:
        if contract.kind not in self.kinds:
            return False
        return self.suit is None or contract.kind is not Kind.SUIT or contract.suit == self.suit

    @property
    def is_choice(self) -> bool:
        """True when the row must record what it was played as (joker, 12-fach, Misère/Zwüschedüre)."""
        return len(self.kinds) > 1

    @property
    def is_joker(self) -> bool:
        return self.key.startswith("joker") or self.key == "twelve"

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "kinds": [k.value for k in self.kinds],
            "factor": self.factor,
            "suit": None if self.suit is None else self.suit.letter,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Row:
        return cls(
            key=d["key"],
            kinds=tuple(Kind(k) for k in d["kinds"]),
            factor=int(d["factor"]),
            suit=None if d.get("suit") is None else Suit.parse(d["suit"]),
        )


@dataclass(frozen=True, slots=True)
class Stake:
    """Money, in Rappen.

    THREE: ``rappen`` per stick. Team and solo games: ``rappen`` per ``per_points``
    points of difference. Amounts a player pays or receives are rounded to
    ``round_to`` Rappen (5 by default; 1 means exact).
    """

    rappen: int = 100
    per_points: int = 1
    round_to: int = 5

    def __post_init__(self) -> None:
        if self.rappen < 0 or self.per_points < 1 or self.round_to < 1:
            raise ValueError("stake: amounts must be positive")


@dataclass(frozen=True, slots=True)
class RuleSet:
    variant: Variant
    rows: tuple[Row, ...]
    barrel: BarrelRule
    undenufe_six11: bool = False  # Undenufe: ace 0 and six 11 (default off)
    seich: bool = False  # club variant: once per team, throw in from the barrel
    stake: Stake = field(default_factory=Stake)
    deck: DeckStyle = DeckStyle.SWISS  # names of suits on screen

    # --- shape --------------------------------------------------------------
    @property
    def n_players(self) -> int:
        return 3 if self.variant is Variant.THREE else 4

    @property
    def n_tricks(self) -> int:
        return 36 // self.n_players

    @property
    def teams(self) -> bool:
        return self.variant in (Variant.TEAMS, Variant.CLUB)

    @property
    def n_sides(self) -> int:
        """Columns on the slate: players, or teams."""
        return 2 if self.teams else self.n_players

    @property
    def n_hands(self) -> int:
        """Hands in a full evening (not counting thrown-in Seich hands)."""
        return self.n_sides * len(self.rows)

    @property
    def scoring(self) -> Scoring:
        return {
            Variant.THREE: Scoring.RAW,
            Variant.TEAMS: Scoring.TENTHS,
            Variant.SOLO4: Scoring.TENTHS,
            Variant.CLUB: Scoring.FULL,
        }[self.variant]

    def side_of(self, seat: int) -> int:
        """The slate column a seat writes in (its team in the team variants)."""
        return seat % 2 if self.teams else seat

    def seats_of(self, side: int) -> tuple[int, ...]:
        return (side, side + 2) if self.teams else (side,)

    def row(self, key: str) -> Row:
        for r in self.rows:
            if r.key == key:
                return r
        raise KeyError(key)

    # --- snapshot -----------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant.value,
            "rows": [r.to_dict() for r in self.rows],
            "barrel": self.barrel.value,
            "undenufe_six11": self.undenufe_six11,
            "seich": self.seich,
            "stake": {
                "rappen": self.stake.rappen,
                "per_points": self.stake.per_points,
                "round_to": self.stake.round_to,
            },
            "deck": self.deck.value,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RuleSet:
        return cls(
            variant=Variant(d["variant"]),
            rows=tuple(Row.from_dict(r) for r in d["rows"]),
            barrel=BarrelRule(d["barrel"]),
            undenufe_six11=bool(d.get("undenufe_six11", False)),
            seich=bool(d.get("seich", False)),
            stake=Stake(**d.get("stake", {})),
            deck=DeckStyle(d.get("deck", DeckStyle.SWISS.value)),
        )

    def with_factors(self, factors: dict[str, int]) -> RuleSet:
        """The same rule set with some row factors changed (per-evening edit)."""
        unknown = set(factors) - {r.key for r in self.rows}
        if unknown:
            raise KeyError(f"no such rows: {sorted(unknown)}")
        for v in factors.values():
            if not 1 <= int(v) <= 1000:
                raise ValueError("a factor is a whole number from 1 to 1000")
        return replace(self, rows=tuple(replace(r, factor=int(factors.get(r.key, r.factor))) for r in self.rows))


def _suit_rows(order: Iterable[Suit], factors: Iterable[int]) -> list[Row]:
    return [Row(f"suit_{s.letter}", (Kind.SUIT,), f, s) for s, f in zip(order, factors, strict=False)]


def _jokers(rows: list[Row], keys: tuple[str, ...], factors: Iterable[int]) -> list[Row]:
    """Joker rows may be played as any contract of ``rows`` (the rule set's other rows, or those
    a joker may stand for)."""
    kinds: list[Kind] = []
    for r in rows:
        for k in r.kinds:
            if k not in kinds:
                kinds.append(k)
    return [Row(key, tuple(kinds), f) for key, f in zip(keys, factors, strict=False)]


# The variants' stakes (DECISIONS.md): CHF 1 per stick; 10 Rappen per 10 points; the
# club's totals are ten times larger: 10 Rappen per 100 points.
DEFAULT_STAKES = {
    Variant.THREE: Stake(rappen=100, per_points=1),
    Variant.TEAMS: Stake(rappen=10, per_points=10),
    Variant.SOLO4: Stake(rappen=10, per_points=10),
    Variant.CLUB: Stake(rappen=10, per_points=100),
}


def stake_of(
    variant: Variant | str, *, rappen: int | None = None, per_points: int | None = None, round_to: int | None = None
) -> Stake:
    """The stake of a variant: its default where a value is not given. Three players pay
    per stick: their ``per_points`` is 1 whatever was asked."""
    variant = Variant(variant)
    base = DEFAULT_STAKES[variant]
    return Stake(
        rappen=base.rappen if rappen is None else rappen,
        per_points=1 if variant is Variant.THREE else (base.per_points if per_points is None else per_points),
        round_to=base.round_to if round_to is None else round_to,
    )


def default_deck(variant: Variant | str) -> DeckStyle:
    """The suit names a variant is played with unless the table chooses: French for the club
    variant (its rows are named Ecke, Kreuz, Schaufel, Herz), Swiss for the others."""
    return DeckStyle.FRENCH if Variant(variant) is Variant.CLUB else DeckStyle.SWISS


def default_ruleset(
    variant: Variant | str,
    *,
    suit_order: str | None = None,
    extra_rows: Iterable[str] = (),
    barrel: BarrelRule | str | None = None,
    undenufe_six11: bool = False,
    stake: Stake | None = None,
    deck: DeckStyle | str | None = None,
    factors: dict[str, int] | None = None,
    jokers_play_extras: bool = False,
) -> RuleSet:
    """The rule set of a variant with its defaults, adjusted by the given options.

    ``deck`` None: the variant's own (``default_deck``); ``stake`` None: ``stake_of(variant)``.
    Four players: the optional rows get the factors after Undenufe and the jokers move up
    behind them (RULES 6.2); a joker is played as a suit, Obenabe or Undenufe, and also as an
    optional row only with ``jokers_play_extras`` (an evening option, off by default).
    """
    variant = Variant(variant)
    extras = [e for e in EXTRA_ROWS if e in set(extra_rows)]
    if set(extra_rows) - set(EXTRA_ROWS):
        raise ValueError(f"unknown extra rows: {sorted(set(extra_rows) - set(EXTRA_ROWS))}")
    if extras and variant not in (Variant.TEAMS, Variant.SOLO4):
        raise ValueError("optional rows belong to the four-player team and solo games")
    rows: list[Row]
    if variant is Variant.THREE:
        order = SUIT_ORDERS[suit_order or "swiss"]
        rows = _suit_rows(order, (1, 1, 1, 1)) + [
            Row("obenabe", (Kind.OBENABE,), 2),
            Row("undenufe", (Kind.UNDENUFE,), 2),
            Row("slalom", (Kind.SLALOM,), 2),
            Row("gustav", (Kind.GUSTAV,), 3),
        ]
        rows += _jokers(rows, ("joker1", "joker2"), (3, 3))
    elif variant in (Variant.TEAMS, Variant.SOLO4):
        order = SUIT_ORDERS[suit_order or "pagat"]
        rows = _suit_rows(order, (1, 2, 3, 4)) + [
            Row("obenabe", (Kind.OBENABE,), 5),
            Row("undenufe", (Kind.UNDENUFE,), 6),
        ]
        extra_kinds = {"slalom": Kind.SLALOM, "gustav": Kind.RIESENSLALOM, "tuo": Kind.TUO}
        extra_rows_ = [Row(e, (extra_kinds[e],), 7 + i) for i, e in enumerate(extras)]
        f = 7 + len(extras)
        rows, played = rows + extra_rows_, rows + (extra_rows_ if jokers_play_extras else [])
        rows += _jokers(played, ("joker1", "joker2"), (f, f + 1))
    else:
        order = SUIT_ORDERS[suit_order or "club"]
        rows = _suit_rows(order, (1, 2, 3, 4)) + [
            Row("misere_zwueschi", (Kind.MISERE, Kind.ZWUESCHEDUERE), 5),
            Row("obenabe", (Kind.OBENABE,), 6),
            Row("undenufe", (Kind.UNDENUFE,), 7),
            Row("slalom", (Kind.SLALOM,), 8),
            Row("tutti", (Kind.TUTTI,), 9),
            Row("riesenslalom", (Kind.RIESENSLALOM,), 10),
            Row("komisch", (Kind.KOMISCH,), 11),
        ]
        rows += _jokers(rows, ("twelve",), (12,))
    rs = RuleSet(
        variant=variant,
        rows=tuple(rows),
        barrel=BarrelRule(barrel) if barrel else (BarrelRule.BOOK if variant is Variant.THREE else BarrelRule.ONLINE),
        undenufe_six11=undenufe_six11,
        seich=variant is Variant.CLUB,
        stake=stake or stake_of(variant),
        deck=default_deck(variant) if deck is None else DeckStyle(deck),
    )
    return rs.with_factors(factors) if factors else rs


def typed_factors(shown: RuleSet, typed: dict[str, int | None]) -> dict[str, int]:
    """The factors a table changed on a form that showed ``shown``'s factors: a factor left at
    the value shown follows the defaults (so adding Slalom moves the jokers up, as when the
    factors are not given at all), a changed one is kept; rows ``shown`` lacks are ignored."""
    shown_factors = {r.key: r.factor for r in shown.rows}
    return {
        key: value
        for key, value in typed.items()
        if key in shown_factors and value is not None and value != shown_factors[key]
    }
