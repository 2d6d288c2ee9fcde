"""Names shown to a person: rows, contracts, variants, sides, levels, marks, money, a hand.

Every name goes through gettext; suit and card names come from ``game.cards`` in the
evening's deck style and the user's language. Pages, the JSON API and the picture
all take their words from here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from flask_babel import lazy_gettext as _l

from ..game.cards import SUIT_NAMES, SUIT_SYMBOLS, DeckStyle, Suit, name_language, suit_name
from ..game.contracts import Contract, Kind, Mode
from ..game.hand_entry import HandEntry
from ..game.rule_facts import RuleFacts
from ..game.rulesets import BarrelRule, Row, RuleSet, Variant
from ..i18n import _, current_language, format_chf
from ..render.picture import MARKS_DRAWN
from ..scoring.entries import slate_marks

KIND_LABELS = {
    Kind.OBENABE: _l("Obenabe"),
    Kind.UNDENUFE: _l("Undenufe"),
    Kind.SLALOM: _l("Slalom"),
    Kind.GUSTAV: _l("Gustav"),
    Kind.RIESENSLALOM: _l("Riesenslalom"),
    Kind.TUO: _l("TUO"),
    Kind.KOMISCH: _l("Komisch (3×3)"),
    Kind.TUTTI: _l("Tutti"),
    Kind.ZWUESCHEDUERE: _l("Zwüschedüre"),
    Kind.MISERE: _l("Misère"),
    Kind.SUIT: _l("Trump"),
}

ROW_LABELS = {
    "obenabe": _l("Obenabe"),
    "undenufe": _l("Undenufe"),
    "slalom": _l("Slalom"),
    "gustav": _l("Gustav"),
    "tuo": _l("TUO"),
    "joker1": _l("Joker"),
    "joker2": _l("Joker"),
    "twelve": _l("12-fach"),
    "misere_zwueschi": _l("Misère / Zwüschedüre"),
    "tutti": _l("Tutti"),
    "riesenslalom": _l("Riesenslalom"),
    "komisch": _l("Komisch"),
}

VARIANT_LABELS = {
    Variant.THREE: _l("Three players (sticks and potatoes)"),
    Variant.TEAMS: _l("Two teams of two"),
    Variant.SOLO4: _l("Four players, all against all"),
    Variant.CLUB: _l("Club variant, 12 rows (teams)"),
}

VARIANT_SHORT = {
    Variant.THREE: _l("Three players"),
    Variant.TEAMS: _l("Teams"),
    Variant.SOLO4: _l("Four solo"),
    Variant.CLUB: _l("Club"),
}

LEVEL_LABELS = {"easy": _l("easy"), "normal": _l("normal"), "strong": _l("strong")}


def suit_label(suit: Suit | int, deck: DeckStyle | str) -> str:
    return suit_name(int(suit), deck, current_language())


def suit_names(deck: DeckStyle | str) -> dict[int, str]:
    """Every suit's name in the deck's style and the user's language, by suit (looked up once
    for a whole list of rows and contracts)."""
    names = SUIT_NAMES[(DeckStyle(deck), name_language(current_language()))]
    return dict(enumerate(names))


def _capital(name: str) -> str:
    return name[:1].upper() + name[1:]


def suit_order_label(suits: Sequence[Suit | int], deck: DeckStyle | str) -> str:
    """A suit order in the deck's names: ``Schilte, Eichel, Schelle, Rose`` / ``spades, clubs, diamonds, hearts``."""
    return ", ".join(suit_label(s, deck) for s in suits)


def suit_symbol(suit: Suit | int) -> str:
    return SUIT_SYMBOLS[int(suit)]


def row_label(row: Row, deck: DeckStyle | str) -> str:
    """The circle's name of the row (house rules), else its suit, its preset name, or what it is
    played as (``Slalom / TUO`` for a "one of these two" row of a circle's own)."""
    return _row_label(row, suit_names(deck))


def _row_label(row: Row, suits: Mapping[int, str]) -> str:
    if row.name:
        return row.name
    if row.suit is not None:
        return _capital(suits[int(row.suit)])
    label = ROW_LABELS.get(row.key)
    if label is not None:
        return str(label)
    if 0 < len(row.kinds) <= 2:
        return " / ".join(str(KIND_LABELS[k]) for k in row.kinds)
    return _("Joker") if row.kinds else row.key


def _start(mode: Mode | None) -> str:
    return _("Obenabe first") if mode is Mode.OBENABE else _("Undenufe first")


def contract_label(contract: Contract, deck: DeckStyle | str) -> str:
    """``Rose``, ``Slalom (Obenabe first)``, ``Riesenslalom (4 Undenufe first)``, ``Misère: Undenufe``."""
    return _contract_label(contract, suit_names(deck))


def _contract_label(contract: Contract, suits: Mapping[int, str]) -> str:
    k = contract.kind
    if k is Kind.SUIT and contract.suit is not None:
        return suits[int(contract.suit)]
    base = str(KIND_LABELS[k])
    if k is Kind.TUO and contract.suit is not None:
        return f"{base} ({suits[int(contract.suit)]})"
    if k is Kind.RIESENSLALOM:
        return _("%(name)s (%(n)s tricks, %(start)s)", name=base, n=contract.first, start=_start(contract.start))
    if k in (Kind.SLALOM, Kind.GUSTAV):
        return f"{base} ({_start(contract.start)})"
    if k is Kind.MISERE and contract.misere_as is not None:
        inner = str(KIND_LABELS[contract.misere_as])
        if contract.start is not None:
            inner = f"{inner} ({_start(contract.start)})"
        return f"{_('%(label)s:', label=base)} {inner}"  # French: a space before the colon
    return base


def contract_short(contract: Contract, deck: DeckStyle | str) -> str:
    """A compact name for a slate cell: ``Rose``, ``Slalom ↓`` (Obenabe first), ``Misère Slalom ↑``."""
    return _contract_short(contract, suit_names(deck))


def _contract_short(contract: Contract, suits: Mapping[int, str]) -> str:
    k = contract.kind
    if k is Kind.SUIT and contract.suit is not None:
        return _capital(suits[int(contract.suit)])
    arrow = {Mode.OBENABE: " ↓", Mode.UNDENUFE: " ↑"}.get(contract.start, "") if contract.start else ""
    if k is Kind.MISERE and contract.misere_as is not None:
        return f"{KIND_LABELS[k]} {KIND_LABELS[contract.misere_as]}{arrow}"
    if k is Kind.RIESENSLALOM:
        return f"{KIND_LABELS[k]} {contract.first}{arrow}"
    if k is Kind.TUO and contract.suit is not None:
        return f"{KIND_LABELS[k]} {suit_symbol(contract.suit)}"
    return f"{KIND_LABELS[k]}{arrow}"


def side_labels(ruleset: RuleSet, names: Sequence[str]) -> list[str]:
    """Each slate column's name: a player, or a team's two names (``Anna & Cla``)."""
    return [" & ".join(names[s] for s in ruleset.seats_of(side)) for side in range(ruleset.n_sides)]


def short_names(names: Sequence[str]) -> list[str]:
    """The evening's short form of each name: the fewest first words of it that no other name
    of the evening starts with the same way (without regard to case): ``Anne-Marie``, and for
    two Annas ``Anna Zimmermann`` and ``Anna Zurbriggen``. Whole words only, never cut or
    abbreviated, so a short form breaks only where its name does (at a space or a hyphen); the
    one rule of every page, the API and the picture. Distinct names get distinct short forms;
    pages that use them show the full names too (``names_key``)."""
    words = [n.split() or [n] for n in names]
    take = [1] * len(words)
    while True:
        short = [" ".join(w[:k]) for w, k in zip(words, take, strict=True)]
        folded = [s.casefold() for s in short]
        longer = [i for i, f in enumerate(folded) if folded.count(f) > 1 and take[i] < len(words[i])]
        if not longer:
            return short
        for i in longer:
            take[i] += 1


def short_members(ruleset: RuleSet, names: Sequence[str]) -> list[list[str]]:
    """Per side: its players' short forms, unique within the evening (``labels.short_names``)."""
    short = short_names(names)
    return [[short[s] for s in ruleset.seats_of(side)] for side in range(ruleset.n_sides)]


def names_key(names: Sequence[str]) -> list[tuple[str, str]]:
    """(short form, full name) of every player whose short form is not the full name: the
    key under a table whose headers use short forms, so every player is named in full."""
    return [(short, full) for short, full in zip(short_names(names), names, strict=True) if short != full]


def level_labels(levels: Sequence[str]) -> dict[str, str]:
    """The computer levels, in the order given, as the organiser reads them."""
    return {level: str(LEVEL_LABELS.get(level, level)) for level in levels}


def barrel_rule_text(ruleset: RuleSet) -> str:
    if ruleset.barrel is BarrelRule.BOOK:
        return _(
            "Barrel (book rule): when everybody has passed once, the turn comes back to the forehand, "
            "who must choose. If the forehand is full, the last player who can still choose may not pass."
        )
    return _(
        "Barrel (online-table rule): after a full round of passes, the first player who can still choose must choose."
    )


def marks_text(sticks: int, potatoes: int) -> str:
    """``||| oo``: sticks as strokes, potatoes as circles; ``–`` when there are none; past
    ``MARKS_DRAWN`` in all, each kind once with its count (``|×1000 o×2``)."""
    if sticks + potatoes > MARKS_DRAWN:
        text = " ".join(f"{mark}×{n}" for mark, n in (("|", sticks), ("o", potatoes)) if n)
    else:
        text = " ".join(p for p in ("|" * sticks, "o" * potatoes) if p)
    return text or "–"


def describe(ruleset: RuleSet, names: Sequence[str], entry: HandEntry | None) -> str:
    """One line for a hand (the correction history, the undo button): ``Anna · Rose ×1 · 120 : 37 · match``."""
    if entry is None:
        return "–"
    try:
        label = row_label(ruleset.row(entry.row_key), ruleset.deck) if entry.row_key is not None else ""
    except KeyError:
        label = entry.row_key or ""
    contract = entry.contract
    played = contract_label(contract, ruleset.deck) if contract is not None else ""
    # as the slate marks it: a Misère without a trick is a match
    return _hand_line(names, entry, label, played, slate_marks(ruleset, entry))


def _hand_line(names: Sequence[str], entry: HandEntry, label: str, played: str, marks: tuple[bool, bool]) -> str:
    """``describe``'s line, from the row's and the contract's names and the hand's (★, ✗)."""
    who = names[entry.declarer_seat] if 0 <= entry.declarer_seat < len(names) else str(entry.declarer_seat)
    if entry.seich or entry.row_key is None:
        return _("%(name)s · Seich", name=who)
    parts = [who, label]
    if entry.contract is not None and entry.contract.kind is not Kind.SUIT:
        parts.append(played)
    parts.append(f"{entry.declarer_points} : {entry.defender_points}")
    good, bad = marks
    if good:
        parts.append(_("match"))
    if bad:
        parts.append(_("countermatch"))
    return " · ".join(parts)


def seich_texts(ruleset: RuleSet) -> tuple[str, str]:
    """The turn guide's Seich line while some side may still call one (with ``%(teams)s``
    left to fill) and once none may: the club's "once per team", or how many times per side."""
    if ruleset.seich_times == 1 and ruleset.n_sides == 2:
        return (
            _(
                "Seich: once per team, the player in the barrel may throw the hand in instead of choosing. Still available for: %(teams)s.",  # noqa: E501
                teams="%(teams)s",
            ),
            _("Seich: both teams have used theirs."),
        )
    available = (
        _(
            "Seich: once per side, the player in the barrel may throw the hand in instead of choosing. Still available for: %(teams)s.",  # noqa: E501
            teams="%(teams)s",
        )
        if ruleset.seich_times == 1
        else _(
            "Seich: up to %(num)s times per side, the player in the barrel may throw the hand in instead of choosing. Still available for: %(teams)s.",  # noqa: E501
            num=ruleset.seich_times,
            teams="%(teams)s",
        )
    )
    return available, _("Seich: every side has used all of theirs.")


@dataclass(frozen=True)
class RuleWords:
    """The names of a rule set's rows and contracts and its rule texts, in one language (the
    same for every evening with those rules: kept per worker, ``rule_words``)."""

    rows: Mapping[str, str]  # row key -> its name (``row_label``)
    narrow_rows: Mapping[str, str]  # ... with soft hyphens, for a narrow slate (``hyphenate``)
    contracts: Mapping[str, str]  # code -> the contract's name (``contract_label``), every contract
    played_as: Mapping[str, str]  # code -> a cell's compact name, with soft hyphens (``contract_short``)
    barrel_rule: str
    seich: tuple[str, str]  # the turn guide's Seich lines (``seich_texts``)


_RULE_WORDS: dict[tuple[RuleSet, str], RuleWords] = {}
_RULE_WORDS_MAX = 512


def rule_words(ruleset: RuleSet, facts: RuleFacts) -> RuleWords:
    """The words of ``ruleset`` (``facts``: its table) in the user's language, worked out once
    per worker and language (the catalogues never change while it runs)."""
    key = (ruleset, current_language())
    found = _RULE_WORDS.get(key)
    if found is None:
        suits = suit_names(ruleset.deck)  # the deck's names, looked up once
        rows = {r.row.key: _row_label(r.row, suits) for r in facts.rows}
        found = RuleWords(
            rows=MappingProxyType(rows),
            narrow_rows=MappingProxyType({k: hyphenate(label) for k, label in rows.items()}),
            contracts=MappingProxyType({c.code: _contract_label(c, suits) for c in facts.contracts}),
            played_as=MappingProxyType({c.code: hyphenate(_contract_short(c, suits)) for c in facts.contracts}),
            barrel_rule=barrel_rule_text(ruleset),
            seich=seich_texts(ruleset),
        )
        if len(_RULE_WORDS) >= _RULE_WORDS_MAX:
            _RULE_WORDS.clear()
        _RULE_WORDS[key] = found
    return found


@dataclass(frozen=True)
class EveningWords:
    """Every name one evening's faces show, worked out once (``evening_words``) from its rule
    set, its players and tonight's rules as a table: the views look them up, and ask
    ``game`` and the catalogue nothing more."""

    names: tuple[str, ...]  # the players in full, in seat order
    rows: Mapping[str, str]  # row key -> its name (``row_label``)
    narrow_rows: Mapping[str, str]  # ... with soft hyphens, for a narrow slate (``hyphenate``)
    contracts: Mapping[str, str]  # code -> the contract's name (``contract_label``), every contract
    played_as: Mapping[str, str]  # code -> a cell's compact name, with soft hyphens (``contract_short``)
    sides: list[str]  # each slate column's name (``side_labels``)
    short: list[str]  # each player's short form, in seat order (``short_names``)
    short_sides: list[str]  # each slate column's name in the players' short forms
    members: list[list[str]]  # per side: its players' short forms (``short_members``)
    key: list[tuple[str, str]]  # (short, full) where the short form differs (``names_key``)
    barrel_rule: str
    seich: tuple[str, str]  # the turn guide's Seich lines (``seich_texts``)
    hands: dict[HandEntry, str]  # the hands asked for, each in one line (``describe``)


def evening_words(
    ruleset: RuleSet, names: Sequence[str], facts: RuleFacts, marks: Mapping[HandEntry, tuple[bool, bool]]
) -> EveningWords:
    """The words of one evening (``EveningWords``), in the user's language; ``marks``: the
    hands to describe, with their (★, ✗) as the slate marks them."""
    rules = rule_words(ruleset, facts)
    short = short_names(names)
    return EveningWords(
        names=tuple(names),
        rows=rules.rows,
        narrow_rows=rules.narrow_rows,
        contracts=rules.contracts,
        played_as=rules.played_as,
        sides=side_labels(ruleset, names),
        short=short,
        short_sides=side_labels(ruleset, short),
        members=short_members(ruleset, names),
        key=names_key(names),
        barrel_rule=rules.barrel_rule,
        seich=rules.seich,
        hands={
            hand: _hand_line(
                names,
                hand,
                rules.rows.get(hand.row_key, hand.row_key) if hand.row_key is not None else "",
                "" if hand.contract is None else rules.contracts[hand.contract.code],
                mark,
            )
            for hand, mark in marks.items()
        },
    )


SHY = "\u00ad"
# Natural break points of the long words on a narrow slate (both languages use them).
_BREAKS = {
    "Zwüschedüre": "Zwü·sche·düre",
    "Riesenslalom": "Riesen·slalom",
    "Undenufe": "Unde·nufe",
    "Obenabe": "Oben·abe",
    "Schaufel": "Schau·fel",
    "Schilten": "Schil·ten",
    "Schellen": "Schel·len",
    "Komisch": "Ko·misch",
}


def hyphenate(text: str) -> str:
    """``text`` with soft hyphens at the natural break points of its long words."""
    for word, marked in _BREAKS.items():
        if word in text:
            text = text.replace(word, marked.replace("·", SHY))
    return text


def chf(rappen: int, signed: bool = False) -> str:
    """Rappen as the user's language writes francs (Babel): ``CHF 12.35``, ``12,35 CHF``;
    ``+`` before a gain when ``signed``."""
    return format_chf(rappen, signed=signed)


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else ("−" + str(-n) if n < 0 else "0")
