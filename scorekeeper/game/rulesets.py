"""Rule sets: the four variants of RULES.md section 6 and their options, and a circle's own
rules (house rules, docs/DECISIONS.md "House rules").

A ``RuleSet`` is a frozen value. An evening stores ``ruleset.to_dict()`` as a
snapshot and rebuilds it with ``RuleSet.from_dict``, so a later change of a
default never rewrites a past evening.

Seats are numbered 0..n-1 in playing order: play and deal run anticlockwise, so
seat ``i + 1`` sits on seat ``i``'s right. Forehand is the seat after the
dealer. In the team variants seats 0+2 and 1+3 are partners (the slate's seats
1+3 and 2+4).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import lru_cache
from typing import Any, cast, overload

from .cards import DeckStyle, Suit
from .contracts import Contract, Kind, all_contracts
from .errors import N_, RuleError
from .hand_entry import COUNTERMATCH, MATCH_POINTS, OUTCOMES


class Variant(str, Enum):
    THREE = "three"  # 6.1 three players, sticks and potatoes (book)
    TEAMS = "teams"  # 6.2 two teams of two, multipliers
    SOLO4 = "solo4"  # 6.3 four players, all against all
    CLUB = "club"  # 6.4 club variant with 12 rows (teams)


class Shape(str, Enum):
    """Who plays against whom (RULES 6.1-6.3); the club variant is a team shape with its own rows."""

    THREE = "three"  # three players alone
    TEAMS = "teams"  # two teams of two
    SOLO4 = "solo4"  # four players, all against all


SHAPE_OF: dict[Variant, Shape] = {
    Variant.THREE: Shape.THREE,
    Variant.TEAMS: Shape.TEAMS,
    Variant.SOLO4: Shape.SOLO4,
    Variant.CLUB: Shape.TEAMS,
}


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


def takes_extra_rows(variant: Variant) -> bool:
    """The optional rows (``EXTRA_ROWS``) belong to the four-player games: teams and solo."""
    return variant in (Variant.TEAMS, Variant.SOLO4)


# What a circle's own rules may say (``RuleSet.check``).
ROWS_MIN, ROWS_MAX = 4, 13
ROW_NAME_MAX = 40  # characters of a house row's name
MATCH_POINTS_MIN, MATCH_POINTS_MAX = 157, 10_000  # what a match counts as before the factor
MATCH_BONUS_MAX = 100_000  # added after the factor
COUNTERMATCH_COST_MAX = 10_000  # points a countermatch costs (counted before the factor)
SEICH_TIMES_MAX = 9  # Seich hands per player or team and evening

# What each shape can play: Gustav (6 + 6 tricks) is the three players' split, Riesenslalom
# (4 + 5) the four players'; every other contract of RULES 4 is played by every shape.
NOT_PLAYED: dict[Shape, frozenset[Kind]] = {
    Shape.THREE: frozenset({Kind.RIESENSLALOM}),
    Shape.TEAMS: frozenset({Kind.GUSTAV}),
    Shape.SOLO4: frozenset({Kind.GUSTAV}),
}

# What an evening may be started with (the start form shows the same bounds): a row's factor,
# and the stake. ``RuleSet.check`` holds every rule set that is written to them.
FACTOR_MIN, FACTOR_MAX = 1, 1000
STAKE_RAPPEN_MAX = 100_000  # CHF 1000 per stick, or per ``per_points`` points
PER_POINTS_MAX = 10_000
ROUND_TO_MAX = 100  # to the franc at most


def check_factor(value: object, **where: object) -> None:
    """A row's factor: a whole number from ``FACTOR_MIN`` to ``FACTOR_MAX`` (``where``: the params
    the RuleError carries to say which row)."""
    if type(value) is not int or not FACTOR_MIN <= value <= FACTOR_MAX:
        raise RuleError(N_("A factor is a whole number from 1 to 1000."), "factor_range", **where)


@dataclass(frozen=True, slots=True)
class Row:
    """One row of the slate: what it may be played as, and its factor (or value)."""

    key: str  # stable id, unique in the rule set: suit_H, obenabe, joker1, twelve...
    kinds: tuple[Kind, ...]  # empty: a house row, a contract the app has no play rules for
    factor: int
    suit: Suit | None = None  # the trump suit of a suit row
    name: str = ""  # the circle's name for the row (a house row's only label); "" = the app's

    @property
    def playable(self) -> bool:
        """True when the app knows how the row is played (the digital deal and the computer players
        are offered for it); False for a house row, which is written by hand only."""
        return bool(self.kinds)

    def allows(self, contract: Contract) -> bool:
        if contract.kind not in self.kinds:
            return False
        return self.suit is None or contract.kind is not Kind.SUIT or contract.suit == self.suit

    @property
    def always_misere(self) -> bool:
        """True when every hand in the row is a Misère (written from the opponents' pile)."""
        return self.kinds == (Kind.MISERE,)

    @property
    def contracts(self) -> tuple[Contract, ...]:
        """Every contract the row may be played as."""
        return tuple(c for kind in self.kinds for c in all_contracts(kind) if self.allows(c))

    @property
    def is_choice(self) -> bool:
        """True when the row must record what it was played as (joker, 12-fach, Misère/Zwüschedüre)."""
        return len(self.kinds) > 1

    @property
    def is_joker(self) -> bool:
        return self.key.startswith("joker") or self.key == "twelve"

    def to_dict(self) -> dict[str, Any]:
        """The stored snapshot; ``name`` only when the circle named the row (so a preset's rows
        are stored as before house rules)."""
        out: dict[str, Any] = {
            "key": self.key,
            "kinds": [k.value for k in self.kinds],
            "factor": self.factor,
            "suit": None if self.suit is None else self.suit.letter,
        }
        if self.name:
            out["name"] = self.name
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Row:
        return cls(
            key=d["key"],
            kinds=tuple(Kind(k) for k in d["kinds"]),
            factor=int(d["factor"]),
            suit=None if d.get("suit") is None else Suit.parse(d["suit"]),
            name=str(d.get("name") or ""),
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
            raise RuleError(
                N_("A stake is 0 Rappen or more, per 1 point or more, rounded to 1 Rappen or more."), "stake_invalid"
            )

    def check(self) -> None:
        """The bounds an evening may be started with (a stored stake is read whatever it says)."""
        for name, value, low, high in (
            ("rappen", self.rappen, 0, STAKE_RAPPEN_MAX),
            ("per_points", self.per_points, 1, PER_POINTS_MAX),
            ("round_to", self.round_to, 1, ROUND_TO_MAX),
        ):
            if type(value) is not int or not low <= value <= high:
                raise RuleError(
                    N_(
                        "A stake is 0 to %(rappen)s Rappen, per 1 to %(per_points)s points, "
                        "rounded to 1 to %(round_to)s Rappen."
                    ),
                    "stake_range",
                    rappen=STAKE_RAPPEN_MAX,
                    per_points=PER_POINTS_MAX,
                    round_to=ROUND_TO_MAX,
                    field=f"stake.{name}",
                )


# What a variant scores by, and what its match is worth (RULES 6): the defaults of a rule set's
# ``scoring``, ``match_points`` and ``match_bonus``.
SCORING_OF: dict[Variant, Scoring] = {
    Variant.THREE: Scoring.RAW,
    Variant.TEAMS: Scoring.TENTHS,
    Variant.SOLO4: Scoring.TENTHS,
    Variant.CLUB: Scoring.FULL,
}


def match_default(scoring: Scoring) -> tuple[int, int]:
    """(points before the factor, bonus after it) of a match: 257 and 0 (RAW, TENTHS: 25 x factor),
    157 and 100 for FULL (157 x factor + 100)."""
    return (157, 100) if scoring is Scoring.FULL else (257, 0)


@dataclass(frozen=True, slots=True)
class Cells:
    """How a cell is written (``RuleSet.cells``; ``written``; per row ``RuleSet.writes``): points by
    ``scoring``; a match counts as ``match_points`` before the factor and adds ``match_bonus``
    after it; a countermatch counts as minus ``countermatch_cost`` points before the factor."""

    scoring: Scoring
    match_points: int = 257
    match_bonus: int = 0
    countermatch_cost: int = 0

    @overload
    def scaled(self, factor: int, points: int) -> int: ...
    @overload
    def scaled(self, factor: int, points: float) -> float: ...
    def scaled(self, factor: int, points: float) -> float:
        """``points`` (below 0: a cost) as a cell of a row with ``factor`` writes them (an
        expected, fractional number of points too: the row adviser's)."""
        if self.scoring is Scoring.RAW:
            return points
        if self.scoring is Scoring.TENTHS:  # divide and floor FIRST (a cost: its tenths, as a cost)
            return (points // 10 if points >= 0 else -(-points // 10)) * factor
        return points * factor

    def match(self, factor: int) -> int:
        """A match's cell: ``match_points`` by the scoring, plus ``match_bonus``."""
        return self.scaled(factor, self.match_points) + self.match_bonus

    def countermatch(self, factor: int) -> int:
        """A countermatch's cell: minus ``countermatch_cost`` by the scoring."""
        return self.scaled(factor, -self.countermatch_cost)

    def written(self, factor: int, outcome: int) -> int:
        """What a cell of a row with ``factor`` holds for ``outcome`` (the written pile's
        points 0..157, ``MATCH_POINTS``, ``COUNTERMATCH``): a match is ``match_points`` by the
        scoring plus ``match_bonus`` (257; 25 x factor; 157 x factor + 100 by default), a
        countermatch minus ``countermatch_cost`` by the scoring (0 by default)."""
        if outcome == MATCH_POINTS:
            return self.match(factor)
        if outcome == COUNTERMATCH:
            return self.countermatch(factor)
        return self.scaled(factor, outcome)


@lru_cache(maxsize=256)
def _writes(cells: Cells, factor: int) -> Mapping[int, int]:
    """Outcome -> the cell a row with ``factor`` writes (``RuleSet.writes``; shared, not changed)."""
    return {o: cells.written(factor, o) for o in OUTCOMES}


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The rules an evening is played with. ``variant`` names the shape (``SHAPE_OF``) and the
    defaults of every option left out (None): a preset of RULES 6 is a variant with its defaults
    and its rows; a circle's own rules (house rules) change the rows, the scoring or the match."""

    variant: Variant
    rows: tuple[Row, ...]
    barrel: BarrelRule
    undenufe_six11: bool = False  # Undenufe: ace 0 and six 11 (default off)
    seich: bool = False  # a player in the barrel may throw the hand in (club variant: once per team)
    stake: Stake = field(default_factory=Stake)
    deck: DeckStyle = DeckStyle.SWISS  # names of suits on screen
    # House rules; None (the default) is the variant's, filled in on construction.
    scoring: Scoring = cast(Scoring, None)  # how a cell is written
    match_points: int = cast(int, None)  # a match counts as these points before the factor
    match_bonus: int = cast(int, None)  # ... and this is added after it
    countermatch_cost: int = 0  # a countermatch counts as minus these points before the factor
    seich_times: int = 1  # Seich hands per player or team and evening (when ``seich``)
    # row key -> row, filled in on construction (a lookup per recorded hand, not a search)
    row_of: Mapping[str, Row] = field(init=False, repr=False, compare=False)
    # row key -> outcome -> the cell it writes (``Cells.written``), filled in on construction:
    # the slate reads its cells, the checks of a paper cell its values, without arithmetic
    writes: Mapping[str, Mapping[int, int]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "row_of", {r.key: r for r in self.rows})  # a dict: a rule set is pickled
        given: dict[str, object] = {k: getattr(self, k) for k in HOUSE_OPTIONS[:3]}
        scoring = SCORING_OF[self.variant] if given["scoring"] is None else given["scoring"]
        points, bonus = match_default(cast(Scoring, scoring))
        defaults = {"scoring": scoring, "match_points": points, "match_bonus": bonus}
        for key, value in given.items():
            if value is None:
                object.__setattr__(self, key, defaults[key])
        cells = self.cells
        whole = all(type(v) is int for v in (cells.match_points, cells.match_bonus, cells.countermatch_cost))
        # a rule set whose options are not whole numbers writes nothing: ``check`` refuses it
        object.__setattr__(self, "writes", {r.key: _writes(cells, r.factor) for r in self.rows} if whole else {})

    @property
    def cells(self) -> Cells:
        return Cells(self.scoring, self.match_points, self.match_bonus, self.countermatch_cost)

    # --- shape --------------------------------------------------------------
    @property
    def shape(self) -> Shape:
        return SHAPE_OF[self.variant]

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
    def digital_rows(self) -> tuple[str, ...]:
        """The keys of the rows the app can deal and play (the computer players too): every row
        but the house rows (``Row.playable``), in row order."""
        return tuple(r.key for r in self.rows if r.playable)

    @property
    def all_playable(self) -> bool:
        """True when the digital table can deal every row of the evening."""
        return all(r.playable for r in self.rows)

    @property
    def is_preset(self) -> bool:
        """True for a rule set of RULES 6 (any of its options and factors): the rows of its
        variant, and its variant's scoring, match, countermatch and Seich. What the shipped
        tables (the win odds) were made for; False for house rules."""
        return (
            _shape(self.rows, self.seich) in _shapes(self.variant)
            and self._options() == RuleSet(self.variant, (), self.barrel)._options()
        )

    def _options(self) -> tuple[object, ...]:
        return (self.scoring, self.match_points, self.match_bonus, self.countermatch_cost, self.seich_times)

    def side_of(self, seat: int) -> int:
        """The slate column a seat writes in (its team in the team variants)."""
        return seat % 2 if self.teams else seat

    def seats_of(self, side: int) -> tuple[int, ...]:
        return (side, side + 2) if self.teams else (side,)

    def row(self, key: str) -> Row:
        """The row of ``key`` (KeyError for a key the rule set does not have)."""
        return self.row_of[key]

    # --- snapshot -----------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The stored snapshot. The house-rule options are written only where they differ from
        the variant's, so a preset is stored exactly as before house rules."""
        out: dict[str, Any] = {
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
        base = RuleSet(self.variant, (), self.barrel, scoring=self.scoring)
        for key in HOUSE_OPTIONS:
            if key == "scoring":
                if self.scoring is not SCORING_OF[self.variant]:
                    out[key] = self.scoring.value
            elif getattr(self, key) != getattr(base, key):
                out[key] = getattr(self, key)
        return out

    def rules_dict(self) -> dict[str, Any]:
        """The API's shape of a rule set (``Rules`` in OpenAPI): the snapshot with every option
        written out, and the shape; ``rules_input.rules_from_dict`` reads it back unchanged."""
        out = self.to_dict()
        out["shape"] = self.shape.value
        out["scoring"] = self.scoring.value
        for key in HOUSE_OPTIONS[1:]:
            out[key] = getattr(self, key)
        out["preset"] = self.is_preset
        out["digital_rows"] = list(self.digital_rows)
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RuleSet:
        scoring = d.get("scoring")
        return cls(
            variant=Variant(d["variant"]),
            rows=tuple(Row.from_dict(r) for r in d["rows"]),
            barrel=BarrelRule(d["barrel"]),
            undenufe_six11=bool(d.get("undenufe_six11", False)),
            seich=bool(d.get("seich", False)),
            stake=Stake(**d.get("stake", {})),
            deck=DeckStyle(d.get("deck", DeckStyle.SWISS.value)),
            scoring=cast(Scoring, None if scoring is None else Scoring(scoring)),
            match_points=cast(int, d.get("match_points")),
            match_bonus=cast(int, d.get("match_bonus")),
            countermatch_cost=int(d.get("countermatch_cost", 0)),
            seich_times=int(d.get("seich_times", 1)),
        )

    def with_factors(self, factors: dict[str, int]) -> RuleSet:
        """The same rule set with some row factors changed (per-evening edit)."""
        unknown = set(factors) - {r.key for r in self.rows}
        if unknown:
            raise RuleError(N_("This game has no row %(rows)s."), "factor_row_unknown", rows=", ".join(sorted(unknown)))
        for key, v in factors.items():
            check_factor(v, row=key)
        return replace(self, rows=tuple(replace(r, factor=factors.get(r.key, r.factor)) for r in self.rows))

    def check(self) -> None:
        """Raises RuleError unless an evening could be started with this rule set: every factor
        from 1 to 1000, the stake within its bounds, and the rows either those of the variant with
        some of its options (suit order, optional rows, what a joker may stand for) or a circle's
        own (``check_house_rows``), and the house-rule options within theirs. The one check of a
        rule set that is written: a started evening, a paper slate, each evening of an imported
        file. Its ``field`` param says where (``rows[3].factor``, ``stake.rappen``, ``rows``)."""
        for i, r in enumerate(self.rows):
            check_factor(r.factor, row=r.key, field=f"rows[{i}].factor")
        self.stake.check()
        if _shape(self.rows, self.seich) not in _shapes(self.variant):
            check_house_rows(self.shape, self.rows)
        _check_options(self)


# The house-rule options of a rule set, as named in its dict (``scoring`` first).
HOUSE_OPTIONS = ("scoring", "match_points", "match_bonus", "countermatch_cost", "seich_times")


def _rule_error(message: str, code: str, field: str, **params: object) -> RuleError:
    return RuleError(message, code, field=field, **params)


def check_house_rows(shape: Shape, rows: Sequence[Row]) -> None:
    """A circle's own rows (docs/DECISIONS.md "House rules"): 4 to 13, each key once; a row is
    one or more contracts of RULES 4 the shape plays (a suit row names its suit), or a named
    house row (no contracts); a row of one contract, and a house row's name, come once (a joker
    and a "one of these two" row may repeat). RuleError naming the field otherwise."""
    if not ROWS_MIN <= len(rows) <= ROWS_MAX:
        raise _rule_error(
            N_("A slate has %(low)s to %(high)s rows (this one has %(n)s)."),
            "rows_count",
            "rows",
            low=ROWS_MIN,
            high=ROWS_MAX,
            n=len(rows),
        )
    keys: set[str] = set()
    seen: dict[object, int] = {}
    for i, r in enumerate(rows):
        at = f"rows[{i}]"
        if type(r.key) is not str or not r.key or len(r.key) > ROW_NAME_MAX or r.key in keys:
            raise _rule_error(N_("Every row needs a key of its own (row %(n)s)."), "row_key", f"{at}.key", n=i + 1)
        keys.add(r.key)
        if type(r.name) is not str or len(r.name) > ROW_NAME_MAX:
            raise _rule_error(
                N_("A row's name is at most %(max)s characters (row %(n)s)."),
                "row_name_long",
                f"{at}.name",
                max=ROW_NAME_MAX,
                n=i + 1,
            )
        if not r.kinds and not r.name.strip():
            raise _rule_error(
                N_("A house row (one the app has no play rules for) needs a name (row %(n)s)."),
                "row_name_required",
                f"{at}.name",
                n=i + 1,
            )
        if len(set(r.kinds)) != len(r.kinds):
            raise _rule_error(N_("Row %(n)s names a contract twice."), "row_kinds_twice", f"{at}.kinds", n=i + 1)
        if Kind.GUSTAV in r.kinds and shape is not Shape.THREE:
            raise _rule_error(
                N_("Gustav is played by three players; four play Riesenslalom (row %(n)s)."),
                "row_gustav",
                f"{at}.kinds",
                n=i + 1,
            )
        cannot = [k for k in r.kinds if k in NOT_PLAYED[shape]]
        if cannot:
            raise _rule_error(
                N_("This table cannot play %(contract)s (row %(n)s)."),
                "row_shape",
                f"{at}.kinds",
                contract=cannot[0].value,
                n=i + 1,
            )
        if r.kinds == (Kind.SUIT,) and r.suit is None:
            raise _rule_error(N_("A suit row names its suit (row %(n)s)."), "row_suit_required", f"{at}.suit", n=i + 1)
        if r.suit is not None and r.kinds != (Kind.SUIT,):
            raise _rule_error(
                N_("Only a suit row names a suit (row %(n)s)."), "row_suit_not_allowed", f"{at}.suit", n=i + 1
            )
        same: object = ("name", r.name.strip().casefold()) if not r.kinds else (r.kinds, r.suit)
        if (not r.kinds or len(r.kinds) == 1) and same in seen:
            raise _rule_error(
                N_("Rows %(first)s and %(n)s are the same: a contract is written in one row."),
                "row_twice",
                at,
                first=seen[same] + 1,
                n=i + 1,
            )
        seen.setdefault(same, i)


def _check_options(rs: RuleSet) -> None:
    """The house-rule options within their bounds (whole numbers; the field named). Three
    players write the declarer's card points (a match 257, a countermatch 0): their money is
    in sticks and potatoes, a row's factor its sticks (RULES 6.1), so the other options are
    the team and solo games'."""
    if not isinstance(rs.scoring, Scoring):
        raise _rule_error(N_("There is no scoring %(value)s."), "scoring_unknown", "scoring", value=str(rs.scoring))
    if rs.shape is Shape.THREE:
        plain = RuleSet(Variant.THREE, (), rs.barrel)
        for name in HOUSE_OPTIONS[:4]:
            if getattr(rs, name) != getattr(plain, name):
                raise _rule_error(
                    N_(
                        "Three players write the declarer's card points (a match 257, a countermatch 0); "
                        "a row's factor is its sticks."
                    ),
                    "three_writes_points",
                    name,
                )
    for name, low, high in (
        ("match_points", MATCH_POINTS_MIN, MATCH_POINTS_MAX),
        ("match_bonus", 0, MATCH_BONUS_MAX),
        ("countermatch_cost", 0, COUNTERMATCH_COST_MAX),
        ("seich_times", 1, SEICH_TIMES_MAX),
    ):
        value = getattr(rs, name)
        if type(value) is not int or not low <= value <= high:
            raise _rule_error(
                N_("%(name)s is a whole number from %(low)s to %(high)s."),
                "option_range",
                name,
                name=name,
                low=low,
                high=high,
            )


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


def stored_or_none(snapshot: dict[str, Any] | None) -> RuleSet | None:
    """A stored rule-set snapshot that is a default only (a circle's house rules, the rules of its
    last evening): the rule set, or None when there is none or it no longer reads."""
    if not snapshot:
        return None
    try:
        return RuleSet.from_dict(snapshot)
    except (KeyError, TypeError, ValueError, AttributeError):  # RuleError is a ValueError
        return None


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
        unknown = ", ".join(sorted(set(extra_rows) - set(EXTRA_ROWS)))
        raise RuleError(N_("There is no optional row %(rows)s."), "extra_row_unknown", rows=unknown)
    if extras and not takes_extra_rows(variant):
        raise RuleError(
            N_("The optional rows (Slalom, Gustav, TUO) belong to the four-player team and solo games."),
            "extra_rows_variant",
        )
    if suit_order is not None and suit_order not in SUIT_ORDERS:
        raise RuleError(N_("There is no suit order %(order)s."), "suit_order_unknown", order=suit_order)
    if barrel and barrel not in {b.value for b in BarrelRule}:
        raise RuleError(N_("There is no barrel rule %(barrel)s."), "barrel_unknown", barrel=str(barrel))
    if deck is not None and deck not in {d.value for d in DeckStyle}:
        raise RuleError(N_("There are no suit names %(deck)s."), "deck_unknown", deck=str(deck))
    rs = RuleSet(
        variant=variant,
        rows=tuple(_rows(variant, suit_order, extras, jokers_play_extras)),
        barrel=BarrelRule(barrel) if barrel else (BarrelRule.BOOK if variant is Variant.THREE else BarrelRule.ONLINE),
        undenufe_six11=undenufe_six11,
        seich=variant is Variant.CLUB,
        stake=stake or stake_of(variant),
        deck=default_deck(variant) if deck is None else DeckStyle(deck),
    )
    rs = rs.with_factors(factors) if factors else rs
    rs.check()
    return rs


def _rows(variant: Variant, suit_order: str | None, extras: list[str], jokers_play_extras: bool) -> list[Row]:
    """The rows of a variant with its options (``default_ruleset``'s, options already checked)."""
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
    return rows


RowShape = tuple[tuple[tuple[str, tuple[Kind, ...], Suit | None], ...], bool]


def _shape(rows: Iterable[Row], seich: bool) -> RowShape:
    """What of a rule set's rows the options decide (their factors aside), and its Seich."""
    return tuple((r.key, r.kinds, r.suit) for r in rows), seich


@lru_cache(maxsize=len(Variant))
def _shapes(variant: Variant) -> frozenset[RowShape]:
    """Every shape an evening of ``variant`` can be started with (every option taken or not)."""
    extras_options: list[list[str]] = [[]]
    if takes_extra_rows(variant):
        extras_options = [[e for e in EXTRA_ROWS if e in chosen] for chosen in _subsets(EXTRA_ROWS)]
    return frozenset(
        _shape(_rows(variant, order, extras, jokers), variant is Variant.CLUB)
        for order in SUIT_ORDERS
        for extras in extras_options
        for jokers in (False, True)
    )


def _subsets(items: tuple[str, ...]) -> list[set[str]]:
    return [{x for i, x in enumerate(items) if mask >> i & 1} for mask in range(1 << len(items))]


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


def shared_factors(ruleset: RuleSet) -> list[tuple[int, tuple[str, ...]]]:
    """The factors more than one row holds, each with its rows in row order: a factor typed by
    hand may have hit another row's by mistake (some house rules do it on purpose). Empty for
    three players, whose row values 1 to 3 repeat by design (RULES.md 6.1)."""
    if ruleset.variant is Variant.THREE:
        return []
    rows: dict[int, list[str]] = {}
    for row in ruleset.rows:
        rows.setdefault(row.factor, []).append(row.key)
    return [(factor, tuple(keys)) for factor, keys in rows.items() if len(keys) > 1]


def house_rows_only(ruleset: RuleSet, open_rows: Sequence[Sequence[str]]) -> list[str]:
    """The names of the house rows (``Row.playable`` False) of the sides whose open rows are all
    house rows: the digital table deals only rows the app plays, so such a side could not choose
    (empty: the next hand can be dealt; the house rows are written on the slate)."""
    out: list[str] = []
    for keys in open_rows:
        rows = [ruleset.row(k) for k in keys]
        if rows and not any(r.playable for r in rows):
            out.extend(r.name or r.key for r in rows if (r.name or r.key) not in out)
    return out
