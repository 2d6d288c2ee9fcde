"""What the "Which row?" page shows: the 36 cards to tap (the evening's deck faces) and the
adviser's answer in words (services.read.adviser)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from ..game.cards import N_CARDS, Card
from ..game.rulesets import RuleSet
from ..i18n import _, current_language
from ..render.faces import card_face
from ..services.read.adviser import AdviserAnswer
from .labels import contract_label, row_label


@dataclass(frozen=True, slots=True)
class CardTap:
    code: str  # HA
    name: str  # the card's name in the deck and language, for screen readers
    sprite: str
    symbol: str
    suit: int
    checked: bool


@dataclass(frozen=True, slots=True)
class RowLine:
    key: str
    label: str  # the row and how to play it: "Joker 2 · Rose"
    factor: int
    points: str  # "94"
    value: str  # "752"
    match: str  # "12 %"
    odds: str | None  # "+3 %", None when the outlook is hidden
    pick: bool


@dataclass(frozen=True, slots=True)
class AnswerView:
    lines: tuple[RowLine, ...]
    pick_text: str  # "Play Joker 2 as Rose." / "Pass." / "Throw in (Seich)."
    may_pass: bool
    samples: int
    odds_now: str | None


def card_taps(ruleset: RuleSet, chosen: Collection[str] = ()) -> list[CardTap]:
    lang = current_language()
    out = []
    for c in range(N_CARDS):
        face = card_face(c, ruleset.deck, lang)
        code = Card(c).code
        out.append(CardTap(code, face.name, face.sprite, face.symbol, c // 9, code in chosen))
    return out


def _percent(p: float) -> str:
    return f"{round(100 * p)} %"


def _signed_percent(p: float) -> str:
    v = round(100 * p)
    return f"+{v} %" if v > 0 else (f"−{-v} %" if v < 0 else "±0 %")


def answer_view(ruleset: RuleSet, ans: AdviserAnswer) -> AnswerView:
    lines = []
    for r in ans.rows:
        row = ruleset.row(r.row_key)
        label = row_label(row, ruleset.deck)
        how = contract_label(r.contract, ruleset.deck)
        if how.casefold() != label.casefold():
            label = f"{label} · {how}"
        lines.append(
            RowLine(
                r.row_key,
                label,
                row.factor,
                str(round(r.points)),
                str(round(r.value)),
                _percent(r.match),
                None if r.odds_move is None else _signed_percent(r.odds_move),
                r.row_key == ans.pick,
            )
        )
    lines.sort(key=lambda ln: (not ln.pick, -float(ln.value)))
    if ans.pick == "pass":
        pick = _("Pass: this hand is below what an ordinary hand makes.")
    elif ans.pick == "seich":
        pick = _("Throw in (Seich): this hand is hopeless in every open row.")
    else:
        chosen = next(ln for ln in lines if ln.key == ans.pick)
        pick = _("Play %(row)s.", row=chosen.label)
    return AnswerView(
        tuple(lines), pick, ans.may_pass, ans.samples, None if ans.odds_now is None else _percent(ans.odds_now)
    )


def hand_error_text(code: str, cards: Sequence[str], expected: int) -> str:
    """An illegal hand, in the user's language."""
    if code == "wrong_deck":
        return _("%(cards)s: not a card of this deck (36 cards, six to ace). Nothing was kept.", cards=", ".join(cards))
    if code == "duplicate":
        return _("%(cards)s: chosen twice. A hand holds every card once.", cards=", ".join(cards))
    return _("Choose exactly %(num)s cards: the hand you hold.", num=expected)
