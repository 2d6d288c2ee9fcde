"""A rule set from outside (the API's ``rules``, a stored snapshot read back): every part
checked, a RuleError naming the field for a value of the wrong kind."""

from __future__ import annotations

from typing import Any, cast

from .cards import DeckStyle, Suit
from .contracts import Kind
from .errors import N_, RuleError
from .rulesets import (
    ROWS_MAX,
    ROWS_MIN,
    SHAPE_OF,
    BarrelRule,
    Row,
    RuleSet,
    Scoring,
    Stake,
    Variant,
    check_factor,
    default_deck,
    stake_of,
)


def _bad(field: str) -> RuleError:
    return RuleError(N_("The rule set's %(field)s is not valid."), "rules_field", field=field)


def _int(d: dict[str, Any], key: str, at: str, default: int | None = None) -> int | None:
    value = d.get(key, default)
    if value is not None and type(value) is not int:
        raise _bad(at)
    return value


def rules_from_dict(d: object) -> RuleSet:
    """A rule set in the API's shape (``RuleSet.rules_dict``; the stored snapshot is one too),
    every part checked: RuleError naming the field (``rows[2].kinds``, ``match_points``) for a
    value of the wrong kind, and ``RuleSet.check``'s for one the rules do not allow. Options
    left out are the variant's; ``shape`` may stand for the variant (``teams`` for two teams)."""
    if not isinstance(d, dict):
        raise _bad("rules")
    variants = {v.value for v in Variant}
    shapes = {s.value: v for v, s in reversed(list(SHAPE_OF.items()))}
    variant_s, shape_s = d.get("variant"), d.get("shape")
    if variant_s is None and shape_s in shapes:
        variant = shapes[shape_s]
    elif variant_s in variants:
        variant = Variant(variant_s)
    else:
        raise _bad("variant")
    if shape_s is not None and shape_s != SHAPE_OF[variant].value:
        raise _bad("shape")
    raw_rows = d.get("rows")
    if not isinstance(raw_rows, list) or not ROWS_MIN <= len(raw_rows) <= ROWS_MAX:
        raise RuleError(
            N_("A slate has %(low)s to %(high)s rows (this one has %(n)s)."),
            "rows_count",
            field="rows",
            low=ROWS_MIN,
            high=ROWS_MAX,
            n=len(raw_rows) if isinstance(raw_rows, list) else 0,
        )
    rows = tuple(_row_from(r, i) for i, r in enumerate(raw_rows))
    options: dict[str, Any] = {}
    for key in ("barrel", "deck", "scoring"):
        value = d.get(key)
        enum: Any = {"barrel": BarrelRule, "deck": DeckStyle, "scoring": Scoring}[key]
        if value is not None and value not in {e.value for e in enum}:
            raise _bad(key)
        options[key] = None if value is None else enum(value)
    for key in ("undenufe_six11", "seich"):
        value = d.get(key, key == "seich" and variant is Variant.CLUB)
        if type(value) is not bool:
            raise _bad(key)
        options[key] = value
    stake_d = d.get("stake", {})
    if not isinstance(stake_d, dict) or set(stake_d) - {"rappen", "per_points", "round_to"}:
        raise _bad("stake")
    base = stake_of(variant)
    stake_values = {
        key: _int(stake_d, key, f"stake.{key}", getattr(base, key)) for key in ("rappen", "per_points", "round_to")
    }
    try:
        stake = Stake(**cast(dict[str, int], stake_values))
    except RuleError as err:
        raise _bad("stake") from err
    rs = RuleSet(
        variant=variant,
        rows=rows,
        barrel=options["barrel"] or (BarrelRule.BOOK if variant is Variant.THREE else BarrelRule.ONLINE),
        undenufe_six11=options["undenufe_six11"],
        seich=options["seich"],
        stake=stake,
        deck=options["deck"] or default_deck(variant),
        scoring=cast(Scoring, options["scoring"]),
        match_points=cast(int, _int(d, "match_points", "match_points")),
        match_bonus=cast(int, _int(d, "match_bonus", "match_bonus")),
        countermatch_cost=cast(int, _int(d, "countermatch_cost", "countermatch_cost", 0)),
        seich_times=cast(int, _int(d, "seich_times", "seich_times", 1)),
    )
    rs.check()
    return rs


def _row_from(d: object, i: int) -> Row:
    at = f"rows[{i}]"
    if not isinstance(d, dict):
        raise _bad(at)
    key = d.get("key", f"row{i + 1}")
    if type(key) is not str:
        raise _bad(f"{at}.key")
    kinds = d.get("kinds", [])
    values = {k.value for k in Kind}
    if not isinstance(kinds, list) or any(k not in values for k in kinds):
        raise _bad(f"{at}.kinds")
    factor = d.get("factor")
    check_factor(factor, row=key, field=f"{at}.factor")
    suit = d.get("suit")
    if suit is not None and (type(suit) is not str or suit.upper() not in {s.letter for s in Suit}):
        raise _bad(f"{at}.suit")
    name = d.get("name", "")
    if type(name) is not str:
        raise _bad(f"{at}.name")
    return Row(
        key=key,
        kinds=tuple(Kind(k) for k in kinds),
        factor=cast(int, factor),
        suit=None if suit is None else Suit.parse(suit),
        name=name.strip(),
    )
