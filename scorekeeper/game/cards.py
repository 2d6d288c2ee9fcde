"""Cards of the 36-card Jass pack.

A card is an ``int`` from 0 to 35: ``suit * 9 + rank``, with rank 0 the six and
rank 8 the ace. ``Card`` is an ``IntEnum`` over those ints, so ``Card.H9`` reads
well in tests and messages while the engine's hot paths use the plain ints.

Compact notation: suit letter (French initials C D S H) followed by the rank
character (6 7 8 9 T J Q K A); ``"10"`` is accepted for the ten when parsing.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum, IntEnum


class Suit(IntEnum):
    CLUBS = 0  # Eicheln (acorns)
    DIAMONDS = 1  # Schellen (bells)
    SPADES = 2  # Schilten (shields)
    HEARTS = 3  # Rosen (roses)

    @property
    def letter(self) -> str:
        return "CDSH"[self]

    def __str__(self) -> str:
        """English name for logs and test messages (screens use ``suit_name``)."""
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Suit:
        try:
            return cls("CDSH".index(text.strip().upper()[:1]))
        except ValueError:
            raise ValueError(f"unknown suit {text!r}") from None


class Rank(IntEnum):
    SIX = 0
    SEVEN = 1
    EIGHT = 2
    NINE = 3
    TEN = 4
    JACK = 5
    QUEEN = 6
    KING = 7
    ACE = 8

    @property
    def char(self) -> str:
        return "6789TJQKA"[self]


class DeckStyle(str, Enum):
    """Which names the suits and ranks carry on screen (a per-evening choice)."""

    SWISS = "swiss"
    FRENCH = "french"


class Card(IntEnum):
    """The 36 cards, ``suit * 9 + rank`` (``C6`` = 0 .. ``HA`` = 35)."""

    C6 = 0
    C7 = 1
    C8 = 2
    C9 = 3
    CT = 4
    CJ = 5
    CQ = 6
    CK = 7
    CA = 8

    D6 = 9
    D7 = 10
    D8 = 11
    D9 = 12
    DT = 13
    DJ = 14
    DQ = 15
    DK = 16
    DA = 17

    S6 = 18
    S7 = 19
    S8 = 20
    S9 = 21
    ST = 22
    SJ = 23
    SQ = 24
    SK = 25
    SA = 26

    H6 = 27
    H7 = 28
    H8 = 29
    H9 = 30
    HT = 31
    HJ = 32
    HQ = 33
    HK = 34
    HA = 35

    @property
    def suit(self) -> Suit:
        return Suit(self // 9)

    @property
    def rank(self) -> Rank:
        return Rank(self % 9)

    @property
    def code(self) -> str:
        return self.name

    def __str__(self) -> str:
        return self.name

    @classmethod
    def of(cls, suit: Suit, rank: Rank) -> Card:
        return cls(int(suit) * 9 + int(rank))

    @classmethod
    def parse(cls, text: str) -> Card:
        t = text.strip().upper().replace("10", "T")
        try:
            return cls[t]
        except KeyError:
            raise ValueError(f"not a card: {text!r} (write e.g. H9, SA, DT)") from None


ALL_CARDS: tuple[Card, ...] = tuple(Card)
N_CARDS = 36


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """``"H9 SA DT"`` (or a list of codes) -> cards."""
    items = text.split() if isinstance(text, str) else list(text)
    return [Card.parse(t) for t in items]


def format_cards(cards: Iterable[int]) -> str:
    return " ".join(Card(c).name for c in cards)


def mask_of(cards: Iterable[int]) -> int:
    """A set of cards as a 36-bit mask (bit ``c`` set for card ``c``)."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[Card]:
    return [Card(c) for c in range(N_CARDS) if mask >> c & 1]


# Display names. Pure data: the web layer picks the language and deck style. The words are
# docs/GLOSSARY.md's: French names the suit in the singular ("as de cœur"), Italian in the
# plural ("asso di cuori"); Under and Ober are kept in both.
SUIT_NAMES: dict[tuple[DeckStyle, str], tuple[str, str, str, str]] = {
    (DeckStyle.SWISS, "de"): ("Eichel", "Schelle", "Schilte", "Rose"),
    (DeckStyle.SWISS, "en"): ("acorns", "bells", "shields", "roses"),
    (DeckStyle.SWISS, "fr"): ("gland", "grelot", "écusson", "rose"),
    (DeckStyle.SWISS, "it"): ("ghiande", "campanelli", "scudi", "rose"),
    (DeckStyle.FRENCH, "de"): ("Kreuz", "Ecke", "Schaufel", "Herz"),
    (DeckStyle.FRENCH, "en"): ("clubs", "diamonds", "spades", "hearts"),
    (DeckStyle.FRENCH, "fr"): ("trèfle", "carreau", "pique", "cœur"),
    (DeckStyle.FRENCH, "it"): ("fiori", "quadri", "picche", "cuori"),
}
RANK_NAMES: dict[tuple[DeckStyle, str], tuple[str, ...]] = {
    (DeckStyle.SWISS, "de"): ("6", "7", "8", "9", "Banner", "Under", "Ober", "König", "Ass"),
    (DeckStyle.SWISS, "en"): ("6", "7", "8", "9", "banner", "under", "ober", "king", "ace"),
    (DeckStyle.SWISS, "fr"): ("6", "7", "8", "9", "bannière", "Under", "Ober", "roi", "as"),
    (DeckStyle.SWISS, "it"): ("6", "7", "8", "9", "bandiera", "Under", "Ober", "re", "asso"),
    (DeckStyle.FRENCH, "de"): ("6", "7", "8", "9", "10", "Bube", "Dame", "König", "Ass"),
    (DeckStyle.FRENCH, "en"): ("6", "7", "8", "9", "10", "jack", "queen", "king", "ace"),
    (DeckStyle.FRENCH, "fr"): ("6", "7", "8", "9", "10", "valet", "dame", "roi", "as"),
    (DeckStyle.FRENCH, "it"): ("6", "7", "8", "9", "10", "fante", "donna", "re", "asso"),
}
SUIT_SYMBOLS = ("♣", "♦", "♠", "♥")
NAME_LANGUAGES = ("de", "en", "fr", "it")


def name_language(language: str) -> str:
    """``de_CH``, ``gsw``, ``fr-CH``, ``it``... -> the key of the name tables; English otherwise."""
    code = language.lower()
    if code.startswith(("de", "gsw")):
        return "de"
    return code[:2] if code[:2] in NAME_LANGUAGES else "en"


def suit_name(suit: int, style: DeckStyle | str = DeckStyle.SWISS, language: str = "de") -> str:
    return SUIT_NAMES[(DeckStyle(style), name_language(language))][suit]


def rank_name(rank: int, style: DeckStyle | str = DeckStyle.SWISS, language: str = "de") -> str:
    return RANK_NAMES[(DeckStyle(style), name_language(language))][rank]


def card_name(card: int, style: DeckStyle | str = DeckStyle.SWISS, language: str = "de") -> str:
    """``Rose Ass`` / ``Herz Ass`` / ``ace of roses`` / ``as de cœur`` / ``valet d'écusson`` / ``asso di cuori``."""
    s, r = divmod(int(card), 9)
    lang = name_language(language)
    suit, rank = suit_name(s, style, language), rank_name(r, style, language)
    if lang == "de":
        return f"{suit} {rank}"
    if lang == "fr":
        return f"{rank} d'{suit}" if suit[:1] in "aeéiou" else f"{rank} de {suit}"
    if lang == "it":
        return f"{rank} di {suit}"
    return f"{rank} of {suit}"
