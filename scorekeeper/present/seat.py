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
from ..game.cards import Card, DeckStyle, Suit
from ..game.contracts import Mode, TrickMode
from ..game.rulesets import RuleSet
from ..game.turns import forehand
from ..i18n import _, current_language
from ..render.faces import SuitFace, card_face, suit_face
from .labels import contract_label, row_label, short_names, side_labels, suit_label


@dataclass(frozen=True)
class CardShown:
    """A card as the seat page draws it: the deck's own face from its sprite (``render.faces``),
    the trump overlay on a trump card, and the words a screen reader says."""

    action: int
    code: str  # compact notation (H9), for tests and the API
    name: str  # accessible name in the deck style and language ("ace of roses, trump")
    sprite: str  # the deck's sprite, a path under static/ ("cards/swiss.svg")
    symbol: str  # the card's symbol in it ("HA", "HJ-de" for a German French jack)
    suit: int
    trump: bool = False
    legal: bool = False


@dataclass(frozen=True)
class Choice:
    action: int
    label: str
    group: str = ""
    suit: SuitFace | None = None  # a trump suit chosen by this button: its symbol beside the words


@dataclass(frozen=True)
class SeatShown:
    """One player at the table, as every seat sees her: the full name and her roles in words."""

    seat: int
    name: str  # the full name (wraps; never cut)
    short: str  # the evening's short form, under her cards on the table
    cards_left: int
    roles: tuple[str, ...]  # "Dealer", "Forehand", "Declarer", "To play"
    me: bool
    to_move: bool


@dataclass(frozen=True)
class Played:
    """A card on the table and who played it (her short form; her full name is in the ring)."""

    seat: int
    who: str
    card: CardShown


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
    trump: SuitFace | None  # the current trick's trump suit (its symbol beside "Trumps: ...")
    hand: list[CardShown]
    trick: list[Played]  # leader first
    leader: str
    last_trick: list[Played]
    last_winner: str | None
    side_names: list[str]  # short forms (``Anne-Marie & Hans-Peter``)
    side_points: list[int]
    side_tricks: list[int]
    open_rows: list[tuple[str, list[str]]]  # (side name, row labels): the row being played left out
    ring: list[SeatShown] = field(default_factory=list)
    choices: list[Choice] = field(default_factory=list)
    choice_groups: list[tuple[str, list[Choice]]] = field(default_factory=list)
    may_pass: bool = False
    result: str | None = None


def show_card(
    card: Card | int, deck: DeckStyle | str, *, trump: Suit | None = None, legal: bool = False, playable: bool = True
) -> CardShown:
    """``trump``: the suit that is trump for the trick the card is in (or would go to);
    ``playable`` False adds "cannot be played now" to the spoken name (a card not legal on the
    seat's own turn)."""
    c = Card(int(card))
    face = card_face(c, deck, current_language())
    is_trump = trump is not None and c.suit is trump
    name = face.name
    if is_trump:
        name = _("%(card)s, trump", card=name)
    if not playable:
        name = _("%(card)s (cannot be played now)", card=name)
    return CardShown(int(c), c.name, name, face.sprite, face.symbol, int(c.suit), is_trump, legal)


def choice_label(ruleset: RuleSet, action: int) -> Choice:
    deck = ruleset.deck
    if action == PASS:
        return Choice(action, _("Pass"))
    if action == SEICH:
        return Choice(action, _("Seich (throw the hand in)"))
    if KOMISCH_TRUMP <= action < KOMISCH_TRUMP + 4:
        block = action - KOMISCH_TRUMP
        return Choice(
            action, _("Trumps: %(suit)s", suit=suit_label(block, deck)), _("Next block"), _suit_face(block, deck)
        )
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
    suit = None if contract.suit is None else _suit_face(contract.suit, deck)
    return Choice(action, label[:1].upper() + label[1:], f"{name} ×{row.factor}", suit)


def _suit_face(suit: Suit | int, deck: DeckStyle | str) -> SuitFace:
    return suit_face(int(suit), deck, current_language())


def trump_of(mode: TrickMode | None, trick: Sequence[Card]) -> Suit | None:
    """The suit that is trump in a trick: the trump suit of a trump trick; in Tutti the
    suit led (once a card is led); else none."""
    if mode is None:
        return None
    if mode.mode is Mode.TRUMP:
        return mode.suit
    if mode.mode is Mode.TUTTI and trick:
        return Card(int(trick[0])).suit
    return None


def _played(
    view: SeatView,
    leader: int,
    cards: Sequence[Card],
    short: Sequence[str],
    deck: DeckStyle | str,
    trump: Suit | None,
) -> list[Played]:
    seats = [(leader + i) % view.n_players for i in range(len(cards))]
    return [Played(s, short[s], show_card(c, deck, trump=trump)) for s, c in zip(seats, cards, strict=True)]


def rows_open_now(ruleset: RuleSet, view: SeatView) -> list[list[str]]:
    """Each side's open row keys now. The engine gives them as they were when the hand was
    dealt; the row the declarer chose leaves her side's list at once (it is being played,
    then written). The seat page and the API's seat state both show this."""
    taken = None if view.declarer is None or view.row_key is None else ruleset.side_of(view.declarer)
    return [[k for k in keys if not (i == taken and k == view.row_key)] for i, keys in enumerate(view.open_rows)]


def _open_rows(ruleset: RuleSet, view: SeatView, sides: Sequence[str]) -> list[tuple[str, list[str]]]:
    """Each side's open rows by their labels (``rows_open_now``)."""
    return [
        (sides[i], [row_label(ruleset.row(k), ruleset.deck) for k in keys])
        for i, keys in enumerate(rows_open_now(ruleset, view))
    ]


def seat_page(ruleset: RuleSet, names: Sequence[str], view: SeatView) -> SeatPage:
    deck = ruleset.deck
    legal = set(view.legal_actions)
    short = short_names(names)
    sides = side_labels(ruleset, short)
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
    trump = trump_of(view.trick_mode, view.trick) if view.phase == "playing" else None
    mode_trump = view.trick_mode.suit if view.trick_mode is not None and view.phase == "playing" else None
    choosing_card = view.my_turn and view.phase == "playing"
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
        trump=None if mode_trump is None else _suit_face(mode_trump, deck),
        hand=[
            show_card(c, deck, trump=trump, legal=int(c) in legal, playable=not choosing_card or int(c) in legal)
            for c in view.hand
        ],
        trick=_played(view, view.leader, view.trick, short, deck, trump),
        leader=names[view.leader],
        last_trick=[]
        if last is None
        else _played(view, last.leader, last.cards, short, deck, trump_of(last.mode, last.cards)),
        last_winner=None if last is None else names[last.winner],
        side_names=sides,
        side_points=points,
        side_tricks=won,
        open_rows=_open_rows(ruleset, view, sides),
    )
    page.ring = [
        SeatShown(
            s, names[s], short[s], view.hand_sizes[s], _roles(ruleset, view, s), s == view.seat, s == view.to_move
        )
        for s in range(view.n_players)
    ]
    if view.my_turn and view.phase in ("bidding", "komisch"):
        page.choices = [choice_label(ruleset, a) for a in view.legal_actions if a != PASS]
        page.choice_groups = grouped(page.choices)
        page.may_pass = PASS in legal
    if view.result is not None:
        page.result = _result_text(ruleset, names, view)
    return page


def _roles(ruleset: RuleSet, view: SeatView, seat: int) -> tuple[str, ...]:
    """What a player is in this hand, in words (no symbol to decode): dealer, forehand,
    declarer, and whose move it is (choosing, or to play)."""
    moving = _("Choosing") if view.phase in ("bidding", "komisch") else _("To play")
    return tuple(
        word
        for word, on in (
            (moving, view.to_move == seat),
            (_("Dealer"), view.dealer == seat),
            (_("Forehand"), forehand(ruleset, view.dealer) == seat),
            (_("Declarer"), view.declarer == seat),
        )
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
        "tutti": _("Tutti: the suit led is trump"),
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
