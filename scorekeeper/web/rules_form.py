"""The start page's own-rules editor (issue 24): a rule set carried by the form, changed one
step at a time (a row added, removed, moved; a factor; the scoring settings).

The form carries the rule set as its snapshot (``RuleSet.to_dict()``, a hidden field) and the
values typed over it; each step is a POST that answers the page again (htmx: only the rows),
so the page works without script. Nothing here decides whether a rule set is good: that is
``RuleSet.check`` (the core's message is shown); a step only edits the snapshot.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..game.cards import DeckStyle, Suit
from ..game.contracts import Kind
from ..game.errors import N_, RuleError
from ..game.rulesets import FACTOR_MAX, ROW_NAME_MAX, ROWS_MAX, Row, RuleSet, Variant, default_ruleset
from ..i18n import _
from ..models import Circle
from ..present.labels import KIND_LABELS, VARIANT_LABELS, row_label, suit_label
from ..services import house_rules

SNAPSHOT_MAX = 20_000  # characters of the hidden snapshot read back (a form, not a file)

# What "add a row" offers (RULES 4): the four suits, the contracts of the slate, a joker and the
# club's "one of these two" row; ``house`` is a named row the app has no play rules for.
ADD_KINDS: tuple[str, ...] = (
    "suit_C",
    "suit_D",
    "suit_S",
    "suit_H",
    "obenabe",
    "undenufe",
    "slalom",
    "gustav",
    "riesenslalom",
    "tuo",
    "komisch",
    "tutti",
    "zwuescheduere",
    "misere",
    "misere_zwueschi",
    "joker",
    "house",
)


def add_choices(deck: DeckStyle | str) -> list[tuple[str, str]]:
    """The rows a table may add, named in its deck."""
    out: list[tuple[str, str]] = []
    for key in ADD_KINDS:
        if key.startswith("suit_"):
            name = suit_label(Suit.parse(key[5:]), deck)
            out.append((key, name[:1].upper() + name[1:]))
        elif key == "joker":
            out.append((key, _("Joker (free choice)")))
        elif key == "misere_zwueschi":
            out.append((key, _("Misère or Zwüschedüre")))
        elif key == "house":
            out.append((key, _("A house row (its name below)")))
        else:
            out.append((key, str(KIND_LABELS[Kind(key)])))
    return out


# --- presets: the start page's and the paper slate's (issue 24) ---------------------------------
PRESETS = ("house", "last")  # besides the four variants of RULES 6


def preset_rules(circ: Circle, preset: str | None) -> RuleSet | None:
    """The rule set a preset stands for: ``house``, ``last``, or a variant's defaults (None when
    the circle has no such rules yet)."""
    if preset == "house":
        return house_rules.house_rules(circ)
    if preset == "last":
        return house_rules.last_rules(circ)
    try:
        return default_ruleset(Variant(preset or ""))
    except ValueError:
        return None


def presets(circ: Circle) -> list[tuple[str, str]]:
    """The presets: the circle's own first (when it has them), then the four of RULES 6."""
    out: list[tuple[str, str]] = []
    if circ.house_rules:
        out.append(("house", _("Our house rules")))
    if house_rules.last_rules(circ) is not None:
        out.append(("last", _("The rules of our last evening")))
    return out + [(v.value, str(label)) for v, label in VARIANT_LABELS.items()]


def read_snapshot(text: str | None) -> dict[str, Any]:
    """The snapshot the form carried: a rule set's dict (RuleError ``rules_unreadable`` if not)."""
    try:
        if not text or len(text) > SNAPSHOT_MAX:
            raise ValueError
        data = json.loads(text)
        RuleSet.from_dict(data)  # reads: the shape is a rule set's (whether it is good is ``check``)
        if not isinstance(data, dict) or not isinstance(data.get("rows"), list):
            raise ValueError
    except (ValueError, TypeError, KeyError, AttributeError, RuleError):
        raise RuleError(
            N_("The rows on this page could not be read. Please start again."), "rules_unreadable"
        ) from None
    return data


def write_snapshot(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=True)


def _free_key(rows: list[dict[str, Any]], base: str) -> str:
    """``base``, or the next number after its stem that no row holds (``joker1`` -> ``joker3``)."""
    taken = {r.get("key") for r in rows}
    if base not in taken:
        return base
    stem = base.rstrip("0123456789")
    n = 2
    while f"{stem}{n}" in taken:
        n += 1
    return f"{stem}{n}"


def _joker_kinds(rows: list[dict[str, Any]]) -> list[str]:
    """What a joker stands for: every contract of the other rows (as the presets' jokers)."""
    kinds: list[str] = []
    for r in rows:
        if str(r.get("key", "")).startswith("joker") or r.get("key") == "twelve":
            continue
        for k in r.get("kinds", []):
            if k not in kinds:
                kinds.append(k)
    return kinds or [Kind.SUIT.value, Kind.OBENABE.value, Kind.UNDENUFE.value]


def new_row(rows: list[dict[str, Any]], what: str, name: str = "") -> dict[str, Any]:
    """The row ``what`` (one of ``ADD_KINDS``), last on the slate with the next factor; a house
    row (``house``) is the row ``name``, written by hand only (no contracts)."""
    factor = min(max((int(r.get("factor", 0)) for r in rows), default=0) + 1, FACTOR_MAX)
    if what == "house":
        return {"key": _free_key(rows, "house1"), "kinds": [], "factor": factor, "suit": None, "name": name}
    if what.startswith("suit_"):
        letter = what[5:]
        return {"key": _free_key(rows, what), "kinds": [Kind.SUIT.value], "factor": factor, "suit": letter}
    if what == "joker":
        return {"key": _free_key(rows, "joker1"), "kinds": _joker_kinds(rows), "factor": factor, "suit": None}
    if what == "misere_zwueschi":
        kinds = [Kind.MISERE.value, Kind.ZWUESCHEDUERE.value]
        return {"key": _free_key(rows, what), "kinds": kinds, "factor": factor, "suit": None}
    return {"key": _free_key(rows, what), "kinds": [Kind(what).value], "factor": factor, "suit": None}


@dataclass(frozen=True, slots=True)
class Step:
    """One edit of the rows: ``up``/``down``/``remove`` a row by its place, or ``add``."""

    action: str
    index: int = -1

    @classmethod
    def parse(cls, text: str | None) -> Step | None:
        if not text:
            return None
        action, _sep, index = text.partition(":")
        if action == "add":
            return cls("add")
        if action in ("up", "down", "remove") and index.isdigit():
            return cls(action, int(index))
        return None


def apply_step(data: dict[str, Any], step: Step, what: str | None, name: str = "") -> dict[str, Any]:
    """The snapshot with one edit applied (a step out of range changes nothing; a row beyond
    ``ROWS_MAX``, of an unknown kind or a house row without a name is refused with the reason)."""
    rows = [dict(r) for r in data["rows"]]
    i = step.index
    name = " ".join(name.split())
    if step.action == "add":
        if what not in ADD_KINDS:
            raise RuleError(N_("Choose the row to add."), "row_add_unknown", field="add_row")
        if what == "house" and not 1 <= len(name) <= ROW_NAME_MAX:
            raise RuleError(
                N_("A house row needs a name of 1 to %(max)s characters."),
                "row_add_name",
                max=ROW_NAME_MAX,
                field="add_name",
            )
        if len(rows) >= ROWS_MAX:
            raise RuleError(
                N_("A slate has at most %(n)s rows: remove one first."), "rows_too_many", n=ROWS_MAX, field="rows"
            )
        rows.append(new_row(rows, what, name))
    elif 0 <= i < len(rows):
        if step.action == "remove":
            del rows[i]
        elif step.action == "up" and i > 0:
            rows[i - 1], rows[i] = rows[i], rows[i - 1]
        elif step.action == "down" and i < len(rows) - 1:
            rows[i + 1], rows[i] = rows[i], rows[i + 1]
    return {**data, "rows": rows}


def row_name(row: dict[str, Any], deck: DeckStyle | str) -> str:
    """A row as the slate names it (a house row by its own name)."""
    if row.get("name"):
        return str(row["name"])
    try:
        return row_label(Row.from_dict(row), deck)
    except (KeyError, TypeError, ValueError):
        return str(row.get("key", "?"))
