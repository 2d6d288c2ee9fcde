"""What a seat at the digital table shows, built from ONE source: the engine's ``SeatView``
of that seat.

Nothing here reads ``HandState`` directly: every card shown comes from
``TableState.view(seat)`` (``engine.build_view``), so another seat's cards cannot
reach a page, a fragment or an error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..engine import PASS, SEICH, SeatView, decode_announce
from ..engine.actions import KOMISCH_OBENABE, KOMISCH_TRUMP, KOMISCH_UNDENUFE
from ..game.cards import SUIT_SYMBOLS, Card, DeckStyle, card_name, rank_name
from ..game.rulesets import RuleSet
from ..i18n import _, current_language
from .labels import contract_label, row_label, side_labels, suit_label


@dataclass(frozen=True)
class CardShown:
    action: int
    code: str  # compact notation (H9), for tests and the API
    rank: str  # big text on the card
    symbol: str
    suit: int
    name: str  # full name in the deck style and language
    legal: bool = False


@dataclass(frozen=True)
class Choice:
    action: int
    label: str
    group: str = ""


def grouped(choices: Sequence[Choice]) -> list[tuple[str, list[Choice]]]:
    """Choices by row, in order (a row with several contracts folds away on the page)."""
    out: list[tuple[str, list[Choice]]] = []
    for ch in choices:
        if not out or out[-1][0] != ch.group:
            out.append((ch.group, []))
        out[-1][1].append(ch)
    return out


@dataclass
class SeatPage:
    seat: int
    names: list[str]
    phase: str
    my_turn: bool
    to_move: str | None
    dealer: str
    declarer: str | None
    playing: str | None  # the contract (and row) being played
    trick_mode: str | None
    hand: list[CardShown]
    trick: list[tuple[str, CardShown]]  # (player, card), leader first
    leader: str
    last_trick: list[tuple[str, CardShown]]
    last_winner: str | None
    side_names: list[str]
    side_points: list[int]
    side_tricks: list[int]
    open_rows: list[tuple[str, list[str]]]  # (side name, row labels)
    ring: list[tuple[str, int, str]] = field(default_factory=list)  # (name, cards left, markers) per seat
    choices: list[Choice] = field(default_factory=list)
    choice_groups: list[tuple[str, list[Choice]]] = field(default_factory=list)
    may_pass: bool = False
    result: str | None = None


def show_card(card: Card | int, deck: DeckStyle | str, legal: bool = False) -> CardShown:
    c = Card(int(card))
    lang = current_language()
    r = rank_name(int(c.rank), deck, lang)
    big = r if len(r) <= 2 else r[:1].upper()
    return CardShown(int(c), c.name, big, SUIT_SYMBOLS[int(c.suit)], int(c.suit), card_name(c, deck, lang), legal)


def choice_label(ruleset: RuleSet, action: int) -> Choice:
    deck = ruleset.deck
    if action == PASS:
        return Choice(action, _("Pass"))
    if action == SEICH:
        return Choice(action, _("Seich (throw the hand in)"))
    if KOMISCH_TRUMP <= action < KOMISCH_TRUMP + 4:
        return Choice(action, _("Trumps: %(suit)s", suit=suit_label(action - KOMISCH_TRUMP, deck)), _("Next block"))
    if action == KOMISCH_OBENABE:
        return Choice(action, _("Obenabe"), _("Next block"))
    if action == KOMISCH_UNDENUFE:
        return Choice(action, _("Undenufe"), _("Next block"))
    decoded = decode_announce(ruleset, action)
    if decoded is None:
        return Choice(action, str(action))
    key, contract = decoded
    row = ruleset.row(key)
    name = row_label(row, deck)
    label = contract_label(contract, deck)
    return Choice(action, label[:1].upper() + label[1:], f"{name} ×{row.factor}")


def _trick(
    view: SeatView, leader: int, cards: Sequence[Card], names: Sequence[str], deck: DeckStyle | str
) -> list[tuple[str, CardShown]]:
    return [(names[(leader + i) % view.n_players], show_card(c, deck)) for i, c in enumerate(cards)]


def seat_page(ruleset: RuleSet, names: Sequence[str], view: SeatView) -> SeatPage:
    deck = ruleset.deck
    legal = set(view.legal_actions)
    sides = side_labels(ruleset, names)
    points = [0] * ruleset.n_sides
    won = [0] * ruleset.n_sides
    for s in range(view.n_players):
        points[ruleset.side_of(s)] += view.points[s]
        won[ruleset.side_of(s)] += view.tricks_won[s]
    playing = None
    if view.contract is not None and view.row_key is not None:
        row = ruleset.row(view.row_key)
        played_as, row_name = contract_label(view.contract, deck), row_label(row, deck)
        same = played_as.casefold() == row_name.casefold()
        playing = f"{row_name} ×{row.factor}" if same else f"{played_as} · {row_name} ×{row.factor}"
    last = view.tricks[-1] if view.tricks else None
    page = SeatPage(
        seat=view.seat,
        names=list(names),
        phase=view.phase,
        my_turn=view.my_turn,
        to_move=None if view.to_move is None else names[view.to_move],
        dealer=names[view.dealer],
        declarer=None if view.declarer is None else names[view.declarer],
        playing=playing,
        trick_mode=None if view.trick_mode is None else _mode_text(view, deck),
        hand=[show_card(c, deck, int(c) in legal) for c in view.hand],
        trick=_trick(view, view.leader, view.trick, names, deck),
        leader=names[view.leader],
        last_trick=[] if last is None else _trick(view, last.leader, last.cards, names, deck),
        last_winner=None if last is None else names[last.winner],
        side_names=sides,
        side_points=points,
        side_tricks=won,
        open_rows=[
            (sides[i], [row_label(ruleset.row(k), deck) for k in keys]) for i, keys in enumerate(view.open_rows)
        ],
    )
    page.ring = [(names[s], view.hand_sizes[s], _markers(view, s)) for s in range(view.n_players)]
    if view.my_turn and view.phase in ("bidding", "komisch"):
        page.choices = [choice_label(ruleset, a) for a in view.legal_actions if a != PASS]
        page.choice_groups = grouped(page.choices)
        page.may_pass = PASS in legal
    if view.result is not None:
        page.result = _result_text(ruleset, names, view)
    return page


def _markers(view: SeatView, seat: int) -> str:
    """Public marks next to a name: ▶ to move, ★ declarer, D dealer."""
    return "".join(
        mark
        for mark, on in (("▶", view.to_move == seat), ("★", view.declarer == seat), ("D", view.dealer == seat))
        if on
    )


def _mode_text(view: SeatView, deck: DeckStyle | str) -> str:
    tm = view.trick_mode
    assert tm is not None
    if tm.suit is not None:
        return _("Trumps: %(suit)s", suit=suit_label(tm.suit, deck))
    return {
        "obenabe": _("Obenabe"),
        "undenufe": _("Undenufe"),
        "tutti": _("Tutti"),
        "zwuescheduere": _("Zwüschedüre"),
    }.get(tm.mode.value, tm.mode.value)


def _result_text(ruleset: RuleSet, names: Sequence[str], view: SeatView) -> str:
    r = view.result
    assert r is not None
    who = names[r.declarer_seat]
    if r.seich:
        return _("%(name)s called Seich: the hand is thrown in.", name=who)
    if r.match:
        return _("%(name)s: match! %(points)s points.", name=who, points=r.declarer_points)
    return _(
        "%(name)s's side made %(points)s points, the others %(other)s.",
        name=who,
        points=r.declarer_points,
        other=r.defender_points,
    )
