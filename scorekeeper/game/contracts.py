"""Contracts: what a row on the slate is played as (RULES.md section 4).

A ``Contract`` is a frozen value: its kind plus every choice the declarer makes
when announcing it (trump suit, Slalom start, Gustav/Riesenslalom split, TUO
trump, Misère mode). Komisch is the one contract whose blocks are chosen during
play (by the leaders of tricks 1, 4 and 7); its schedule is left to the engine.

``Contract.code`` is a compact, stable string used in storage, URLs, golden files
and the API; ``Contract.parse`` reads it back.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .cards import Suit


class Kind(str, Enum):
    SUIT = "suit"  # trump in a suit
    OBENABE = "obenabe"
    UNDENUFE = "undenufe"
    SLALOM = "slalom"  # alternates Obenabe/Undenufe trick by trick
    GUSTAV = "gustav"  # three players: 6 tricks one way, then 6 the other
    RIESENSLALOM = "riesenslalom"  # 4/5 or 5/4 split, either direction
    TUO = "tuo"  # trump, Undenufe, Obenabe in thirds
    KOMISCH = "komisch"  # 3x3 blocks chosen during play
    TUTTI = "tutti"  # led suit is trump for the trick
    ZWUESCHEDUERE = "zwuescheduere"
    MISERE = "misere"  # played as Obenabe, Undenufe or Slalom; scores the opponents' points


class Mode(str, Enum):
    """How one trick is played (and, for the first trick or block, how the hand is valued)."""

    TRUMP = "trump"
    OBENABE = "obenabe"
    UNDENUFE = "undenufe"
    ZWUESCHEDUERE = "zwuescheduere"
    TUTTI = "tutti"


@dataclass(frozen=True, slots=True)
class TrickMode:
    """The mode of one trick; ``suit`` is the trump suit for ``Mode.TRUMP``."""

    mode: Mode
    suit: Suit | None = None

    @property
    def code(self) -> str:
        """``trump:H``, ``obenabe``, ... (transcripts, views, the API)."""
        return self.mode.value if self.suit is None else f"{self.mode.value}:{self.suit.letter}"


OBE = TrickMode(Mode.OBENABE)
UNE = TrickMode(Mode.UNDENUFE)

# Kinds that need a suit, a starting direction, or a first-block length.
_NEEDS_SUIT = {Kind.SUIT, Kind.TUO}
_NEEDS_START = {Kind.SLALOM, Kind.GUSTAV, Kind.RIESENSLALOM}
_MISERE_AS = {Kind.OBENABE, Kind.UNDENUFE, Kind.SLALOM}


@dataclass(frozen=True, slots=True)
class Contract:
    kind: Kind
    suit: Suit | None = None
    # SLALOM / GUSTAV / RIESENSLALOM: the mode of the first trick (OBENABE or UNDENUFE).
    start: Mode | None = None
    # RIESENSLALOM: number of tricks in the first part (4 or 5, four players).
    first: int | None = None
    # MISERE: what it is played as (OBENABE, UNDENUFE or SLALOM).
    misere_as: Kind | None = None

    def __post_init__(self) -> None:
        k = self.kind
        if (self.suit is not None) != (k in _NEEDS_SUIT):
            raise ValueError(f"{k.value}: trump suit {'missing' if k in _NEEDS_SUIT else 'not allowed'}")
        inner_start = k in _NEEDS_START or (k is Kind.MISERE and self.misere_as is Kind.SLALOM)
        if (self.start is not None) != inner_start:
            raise ValueError(f"{k.value}: starting direction {'missing' if inner_start else 'not allowed'}")
        if self.start is not None and self.start not in (Mode.OBENABE, Mode.UNDENUFE):
            raise ValueError("a start is Obenabe or Undenufe")
        if (self.first is not None) != (k is Kind.RIESENSLALOM):
            raise ValueError(f"{k.value}: first-part length {'missing' if k is Kind.RIESENSLALOM else 'not allowed'}")
        if self.first is not None and self.first not in (4, 5):
            raise ValueError("Riesenslalom starts with 4 or 5 tricks")
        if (self.misere_as is not None) != (k is Kind.MISERE):
            raise ValueError(f"{k.value}: Misère mode {'missing' if k is Kind.MISERE else 'not allowed'}")
        if self.misere_as is not None and self.misere_as not in _MISERE_AS:
            raise ValueError("Misère is played as Obenabe, Undenufe or Slalom")

    # --- notation -------------------------------------------------------
    @property
    def code(self) -> str:
        """``suit:H``, ``obenabe``, ``slalom:undenufe``, ``riesenslalom:obenabe:4``,
        ``tuo:S``, ``misere:slalom:obenabe``..."""
        kind: str = self.kind.value
        start = self.start
        if self.suit is not None:  # a suit or TUO
            return f"{kind}:{self.suit.letter}"
        if self.misere_as is not None:
            inner = self.misere_as.value
            return f"{kind}:{inner}:{start.value}" if start is not None else f"{kind}:{inner}"
        if start is not None:  # Slalom, Gustav, Riesenslalom (with its first part)
            return f"{kind}:{start.value}" if self.first is None else f"{kind}:{start.value}:{self.first}"
        return kind

    def __str__(self) -> str:
        return self.code

    @classmethod
    def parse(cls, code: str) -> Contract:
        parts = code.strip().lower().split(":")
        try:
            kind = Kind(parts[0])
            rest = parts[1:]
            if kind in _NEEDS_SUIT:
                (s,) = rest
                return cls(kind, suit=Suit.parse(s))
            if kind is Kind.RIESENSLALOM:
                start, first = rest
                return cls(kind, start=Mode(start), first=int(first))
            if kind in _NEEDS_START:
                (start,) = rest
                return cls(kind, start=Mode(start))
            if kind is Kind.MISERE:
                inner = Kind(rest[0])
                inner_start = Mode(rest[1]) if len(rest) > 1 else None
                return cls(kind, start=inner_start, misere_as=inner)
            if rest:
                raise ValueError
            return cls(kind)
        except (ValueError, IndexError, KeyError):
            raise ValueError(f"not a contract: {code!r}") from None

    # --- shape of play ----------------------------------------------------
    @property
    def is_misere(self) -> bool:
        return self.kind is Kind.MISERE

    def schedule(self, n_tricks: int) -> tuple[TrickMode, ...] | None:
        """The mode of every trick, or ``None`` for Komisch (chosen during play).

        ``n_tricks`` is 12 (three players) or 9 (four players).
        """
        k = self.kind
        if k is Kind.SUIT:
            return (TrickMode(Mode.TRUMP, self.suit),) * n_tricks
        if k is Kind.OBENABE:
            return (OBE,) * n_tricks
        if k is Kind.UNDENUFE:
            return (UNE,) * n_tricks
        if k is Kind.TUTTI:
            return (TrickMode(Mode.TUTTI),) * n_tricks
        if k is Kind.ZWUESCHEDUERE:
            return (TrickMode(Mode.ZWUESCHEDUERE),) * n_tricks
        if k is Kind.KOMISCH:
            return None
        if self.misere_as is not None:
            return Contract(self.misere_as, start=self.start).schedule(n_tricks)
        a, b = (OBE, UNE) if self.start is Mode.OBENABE else (UNE, OBE)
        if k is Kind.SLALOM:
            return tuple(a if i % 2 == 0 else b for i in range(n_tricks))
        if k is Kind.GUSTAV:
            # Three players: 6 + 6. (Four-player rule sets offer Gustav as Riesenslalom.)
            half = n_tricks // 2
            return (a,) * half + (b,) * (n_tricks - half)
        if self.first is not None:  # Riesenslalom
            # Defined for nine tricks; scaled if ever played with twelve (5/7 or 7/5).
            first = self.first if n_tricks == 9 else round(n_tricks * self.first / 9)
            return (a,) * first + (b,) * (n_tricks - first)
        if k is Kind.TUO:
            third = n_tricks // 3
            return (TrickMode(Mode.TRUMP, self.suit),) * third + (UNE,) * third + (OBE,) * third
        raise AssertionError(k)

    def valuation(self) -> TrickMode | None:
        """The mode every card is valued by (that of the first trick or block).

        ``None`` for Komisch, whose valuation is the first block's, chosen in play.
        Tutti and Zwüschedüre are valued as Obenabe.
        """
        if self.kind in (Kind.TUTTI, Kind.ZWUESCHEDUERE):
            return OBE
        sched = self.schedule(9)
        return None if sched is None else sched[0]


# Convenience constructors for tests and defaults.
def suit_contract(suit: Suit) -> Contract:
    return Contract(Kind.SUIT, suit=suit)


OBENABE = Contract(Kind.OBENABE)
UNDENUFE = Contract(Kind.UNDENUFE)
TUTTI = Contract(Kind.TUTTI)
ZWUESCHEDUERE = Contract(Kind.ZWUESCHEDUERE)
KOMISCH = Contract(Kind.KOMISCH)


def all_contracts(kind: Kind) -> list[Contract]:
    """Every concrete contract of a kind (every suit, start, split...), in a stable order."""
    if kind in _NEEDS_SUIT:
        return [Contract(kind, suit=s) for s in Suit]
    if kind is Kind.RIESENSLALOM:
        return [Contract(kind, start=m, first=f) for m in (Mode.OBENABE, Mode.UNDENUFE) for f in (4, 5)]
    if kind in _NEEDS_START:
        return [Contract(kind, start=m) for m in (Mode.OBENABE, Mode.UNDENUFE)]
    if kind is Kind.MISERE:
        return [
            Contract(kind, misere_as=Kind.OBENABE),
            Contract(kind, misere_as=Kind.UNDENUFE),
            Contract(kind, misere_as=Kind.SLALOM, start=Mode.OBENABE),
            Contract(kind, misere_as=Kind.SLALOM, start=Mode.UNDENUFE),
        ]
    return [Contract(kind)]
