"""The card faces as SVG sprites, written by hand in code (``make assets`` writes them).

Draws ``static/cards/swiss.svg``, ``french.svg`` and ``french-4c.svg`` (the output is
committed; ``tests/render/test_render_card_sprites.py`` fails when it is out of step with
this file). Each sprite holds a ``<symbol>`` per card (ids and corner marks from
``scorekeeper.render.faces``), per suit (``suit-C`` .. ``suit-H``), a card ``back`` and a
``trump`` overlay (a frame and a star badge, drawn over a face).

Made for a phone at 360 px in bright light: a card is 100 x 150 units and is shown about
50 to 65 px wide in a hand, so the corner index is large (a monoline glyph 34 units high,
drawn as strokes so no font is needed and every phone shows the same marks) with the suit
symbol under it; the picture (pips, banner, figures, the ace's big symbol) fills the rest.
Court figures wear the rank's colour (under/jack rust, ober/queen teal, king purple) and
hold the suit symbol where the Swiss deck holds it: low for the Under, high for the Ober.

Only presentation attributes: no ``style`` attribute, no ``<style>``, no script, no
external reference, so the sprites work under a strict Content-Security-Policy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from scorekeeper.game.cards import Card, DeckStyle, Suit
from scorekeeper.render.faces import (
    BACK_SYMBOL,
    CARD_VIEWBOX,
    SUIT_VIEWBOX,
    TRUMP_SYMBOL,
    sprite_file,
    sprite_symbols,
    suit_symbol_id,
)

INK: Final = "#111"  # outlines and the Swiss index
PAPER: Final = "#fff"
RED: Final = "#c0141b"
GOLD: Final = "#e8b21c"
BROWN: Final = "#6b4424"
GREEN: Final = "#2e7a32"
SKIN: Final = "#f3d2b0"
SLATE: Final = "#1d2b24"
CHALK: Final = "#dfe8e2"
# Court robes by rank, in colours no suit uses (not even the four-colour French deck):
# under/jack rust, ober/queen teal, king purple.
ROBE: Final = {"U": "#c25e12", "J": "#c25e12", "B": "#c25e12", "O": "#0f7c86", "Q": "#0f7c86", "D": "#0f7c86"}
KING_ROBE: Final = "#5b2d8a"

# --- the corner index: monoline glyphs, 34 units high, drawn as strokes -------------------
GLYPH_H: Final = 34.0
GLYPH_STROKE: Final = 6.5
# glyph -> (width, path in a box of width x GLYPH_H; the stroke is added around it)
GLYPHS: Final[dict[str, tuple[float, str]]] = {
    "6": (22, "M19 2.5C10 -1 .5 6 .5 23.5M.5 23.5A10.5 10.5 0 1 0 21.5 23.5A10.5 10.5 0 1 0 .5 23.5"),
    "7": (22, "M.5 1H21.5C14 12 9.5 22 8 33.5"),
    "8": (22, "M11 0A8 8 0 1 0 11 16A8 8 0 1 0 11 0M11 15A9.5 9.5 0 1 0 11 34A9.5 9.5 0 1 0 11 15"),
    "9": (22, "M3 31.5C12 35 21.5 28 21.5 10.5M21.5 10.5A10.5 10.5 0 1 0 .5 10.5A10.5 10.5 0 1 0 21.5 10.5"),
    "1": (8, "M.5 7L7.5 1V34"),
    "0": (14, "M7 0A7 17 0 1 0 7 34A7 17 0 1 0 7 0"),
    "U": (22, "M.5 0V22.5A10.5 11.5 0 0 0 21.5 22.5V0"),
    "O": (24, "M12 0A12 17 0 1 0 12 34A12 17 0 1 0 12 0"),
    "K": (22, "M1 0V34M21.5 0L1 21M8.5 13L22 34"),
    "A": (24, "M0 34L12 0L24 34M4.5 22H19.5"),
    "J": (18, "M17 0V24.5A8.25 9.5 0 0 1 .5 24.5"),
    "Q": (24, "M12 0A12 17 0 1 0 12 34A12 17 0 1 0 12 0M14 23L24 35"),
    "B": (21, "M1 16.5H11A8 8.25 0 0 0 11 0H1V34H12A8.5 8.75 0 0 0 12 16.5"),
    "D": (22, "M1 0V34H8C24 34 24 0 8 0Z"),
}
GLYPH_GAP: Final = 5.5
INDEX_CENTRE_X: Final = 20.0
INDEX_TOP: Final = 9.0
INDEX_PIP: Final = (5.0, 50.0, 30.0)  # x, y, size of the suit symbol under the index

# --- the suit symbols (viewBox 0 0 100 100) ----------------------------------------------
_SW = 'stroke="#111" stroke-width="4" stroke-linejoin="round"'
SWISS_SUITS: Final[dict[str, str]] = {
    # Eichel: a golden nut under a brown cup, a stem and a green leaf.
    "C": (
        f'<path d="M50 36V10" fill="none" stroke="{INK}" stroke-width="6" stroke-linecap="round"/>'
        f'<path d="M51 20C60 6 78 5 88 10C80 22 64 26 51 20Z" fill="{GREEN}" {_SW}/>'
        f'<path d="M29 52C28 74 40 90 50 95C60 90 72 74 71 52Z" fill="{GOLD}" {_SW}/>'
        f'<path d="M22 56C21 36 33 29 50 29C67 29 79 36 78 56Z" fill="{BROWN}" {_SW}/>'
        f'<path d="M32 36L44 54M46 32L58 54M60 33L68 48M40 34L30 50M56 31L44 52M70 38L60 54" '
        f'stroke="#c9a47a" stroke-width="2.5" stroke-linecap="round"/>'
    ),
    # Schelle: a golden bell ball with a red band, a ring on top, the slit with its clapper.
    "D": (
        f'<circle cx="50" cy="18" r="8" fill="none" stroke="{INK}" stroke-width="5"/>'
        f'<circle cx="50" cy="58" r="36" fill="{GOLD}" {_SW}/>'
        f'<path d="M15.1 50H84.9A36 36 0 0 1 85.4 64H14.6A36 36 0 0 1 15.1 50Z" fill="{RED}" {_SW}/>'
        f'<path d="M30 78H70" stroke="{INK}" stroke-width="7" stroke-linecap="round"/>'
        f'<circle cx="50" cy="84" r="6" fill="{INK}"/>'
    ),
    # Schilte: a heraldic shield, red border, golden field, a black bar.
    "S": (
        f'<path d="M12 8H88V46C88 72 70 87 50 96C30 87 12 72 12 46Z" fill="{RED}" {_SW}/>'
        f'<path d="M24 19H76V46C76 65 64 76 50 83C36 76 24 65 24 46Z" fill="{GOLD}" {_SW}/>'
        f'<path d="M24 40H76V54H24Z" fill="{INK}"/>'
    ),
    # Rose ("H"): drawn by _rose below.
}


def _rose() -> str:
    """Rose: five red petals around a golden heart, green sepals between them."""
    parts: list[str] = []
    for k in range(5):  # sepals first, the petals cover their roots
        a = math.radians(-54 + 72 * k)
        tip = (50 + 47 * math.cos(a), 50 + 47 * math.sin(a))
        left = (50 + 24 * math.cos(a - 0.45), 50 + 24 * math.sin(a - 0.45))
        right = (50 + 24 * math.cos(a + 0.45), 50 + 24 * math.sin(a + 0.45))
        parts.append(f'<path d="M{_pt(left)}L{_pt(tip)}L{_pt(right)}Z" fill="{GREEN}" {_SW}/>')
    for k in range(5):
        a = math.radians(-90 + 72 * k)
        cx, cy = 50 + 22 * math.cos(a), 50 + 22 * math.sin(a)
        parts.append(f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="19" fill="{RED}" {_SW}/>')
    parts.append(f'<circle cx="50" cy="50" r="14" fill="{GOLD}" {_SW}/>')
    parts.append(f'<circle cx="50" cy="50" r="5" fill="{INK}"/>')
    return "".join(parts)


FRENCH_PATHS: Final[dict[str, str]] = {
    "C": (
        '<circle cx="50" cy="27" r="19"/><circle cx="27" cy="57" r="19"/><circle cx="73" cy="57" r="19"/>'
        '<path d="M50 40L58 70C60 82 66 90 72 95H28C34 90 40 82 42 70Z"/>'
    ),
    "D": '<path d="M50 3C60 20 72 36 88 50C72 64 60 80 50 97C40 80 28 64 12 50C28 36 40 20 50 3Z"/>',
    "S": (
        '<path d="M50 4C62 24 92 38 92 62C92 79 73 87 57 76C59 84 64 91 70 96H30C36 91 41 84 43 76'
        'C27 87 8 79 8 62C8 38 38 24 50 4Z"/>'
    ),
    "H": (
        '<path d="M50 94C40 80 6 62 6 34C6 18 18 7 31 7C41 7 47 13 50 21C53 13 59 7 69 7'
        'C82 7 94 18 94 34C94 62 60 80 50 94Z"/>'
    ),
}
FRENCH_COLOURS: Final = {"C": INK, "D": RED, "S": INK, "H": RED}
FRENCH_COLOURS_4C: Final = {"C": "#137a33", "D": "#1b5fc1", "S": INK, "H": RED}


def _n(x: float) -> str:
    """A coordinate, short: at most two decimals, no trailing zeros."""
    s = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("", "-0") else s


def _pt(p: tuple[float, float]) -> str:
    return f"{_n(p[0])} {_n(p[1])}"


@dataclass(frozen=True)
class Deck:
    style: DeckStyle
    four_colour: bool = False

    def suit_body(self, letter: str) -> str:
        if self.style is DeckStyle.SWISS:
            return _rose() if letter == "H" else SWISS_SUITS[letter]
        return f'<g fill="{self.suit_colour(letter)}">{FRENCH_PATHS[letter]}</g>'

    def suit_colour(self, letter: str) -> str:
        """The colour of the suit's index and its main shape."""
        if self.style is DeckStyle.SWISS:
            return INK
        return (FRENCH_COLOURS_4C if self.four_colour else FRENCH_COLOURS)[letter]


def _use(ref: str, x: float, y: float, size: float) -> str:
    return f'<use href="#{ref}" x="{_n(x)}" y="{_n(y)}" width="{_n(size)}" height="{_n(size)}"/>'


def _index(mark: str, colour: str) -> str:
    """The rank mark centred in the left column, as stroked glyphs."""
    widths = [GLYPHS[g][0] for g in mark]
    total = sum(widths) + GLYPH_GAP * (len(mark) - 1)
    x = INDEX_CENTRE_X - total / 2
    uses = []
    for g, w in zip(mark, widths, strict=True):
        uses.append(f'<use href="#g{g}" x="{_n(x)}" y="{_n(INDEX_TOP)}"/>')
        x += w + GLYPH_GAP
    return (
        f'<g fill="none" stroke="{colour}" stroke-width="{_n(GLYPH_STROKE)}" stroke-linecap="round" '
        f'stroke-linejoin="round">{"".join(uses)}</g>'
    )


# the picture area: right of the index column
ART_X0, ART_X1, ART_Y0, ART_Y1 = 40.0, 94.0, 8.0, 142.0
ART_CX = (ART_X0 + ART_X1) / 2


def _pips(suit: str, n: int) -> str:
    """n suit symbols in two columns, the odd one centred in the last row."""
    rows = (n + 1) // 2
    step = (ART_Y1 - ART_Y0) / rows
    size = min(24.0, step - 5)
    cols = (ART_CX - 13, ART_CX + 13)
    out = []
    for i in range(n):
        row, col = divmod(i, 2)
        cy = ART_Y0 + step * (row + 0.5)
        cx = ART_CX if (n % 2 and i == n - 1) else cols[col]
        out.append(_use(f"suit-{suit}", cx - size / 2, cy - size / 2, size))
    return "".join(out)


def _banner(suit: str) -> str:
    """The Swiss Banner: a white flag on a pole, the suit on the cloth."""
    return (
        f'<path d="M47 18V140" stroke="{BROWN}" stroke-width="5" stroke-linecap="round"/>'
        f'<circle cx="47" cy="14" r="5" fill="{GOLD}" stroke="{INK}" stroke-width="2"/>'
        f'<path d="M50 22C62 15 78 30 92 22V84C78 92 62 77 50 84Z" fill="{PAPER}" stroke="{INK}" '
        f'stroke-width="3" stroke-linejoin="round"/>' + _use(f"suit-{suit}", 55, 36, 32)
    )


def _figure(suit: str, mark: str) -> str:
    """A court figure: robe in the rank's colour, head, headgear, and the suit where the rank holds it."""
    cx = ART_CX
    high = mark == "O"  # the Ober holds his suit up high, the Under low (as on Swiss cards)
    head_y = 64.0 if high else 42.0
    robe = KING_ROBE if mark == "K" else ROBE[mark]
    top = head_y + 12
    parts = [
        f'<path d="M{_n(cx - 13)} {_n(top)}H{_n(cx + 13)}L{_n(cx + 24)} 140H{_n(cx - 24)}Z" fill="{robe}" '
        f'stroke="{INK}" stroke-width="2.5" stroke-linejoin="round"/>',
    ]
    if mark in ("Q", "D"):  # the queen's long hair, behind the head
        parts.append(
            f'<path d="M{_n(cx - 12)} {_n(head_y)}C{_n(cx - 14)} {_n(head_y + 22)} {_n(cx + 14)} '
            f'{_n(head_y + 22)} {_n(cx + 12)} {_n(head_y)}Z" fill="{BROWN}" stroke="{INK}" stroke-width="2"/>'
        )
    parts.append(f'<circle cx="{_n(cx)}" cy="{_n(head_y)}" r="10" fill="{SKIN}" stroke="{INK}" stroke-width="2.5"/>')
    parts.append(_headgear(mark, cx, head_y))
    if high:
        parts.append(_use(f"suit-{suit}", cx - 14, 6, 28))
    else:  # on the robe, on a white medallion: low for the Under and the jack, at the chest otherwise
        cy = 120.0 if mark in ("U", "J", "B") else 94.0
        parts.append(f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="16" fill="{PAPER}" stroke="{INK}" stroke-width="2"/>')
        parts.append(_use(f"suit-{suit}", cx - 12, cy - 12, 24))
    return "".join(parts)


def _headgear(mark: str, cx: float, hy: float) -> str:
    t = hy - 9  # top of the head
    if mark == "K":  # a golden crown with three points
        pts = [(cx - 11, t + 2), (cx - 11, t - 13), (cx - 5.5, t - 6), (cx, t - 15), (cx + 5.5, t - 6)]
        pts += [(cx + 11, t - 13), (cx + 11, t + 2)]
        d = "M" + "L".join(_pt(p) for p in pts) + "Z"
        return f'<path d="{d}" fill="{GOLD}" stroke="{INK}" stroke-width="2.5" stroke-linejoin="round"/>'
    if mark in ("Q", "D"):  # a small tiara
        return (
            f'<path d="M{_n(cx - 9)} {_n(t + 3)}L{_n(cx - 5)} {_n(t - 6)}L{_n(cx)} {_n(t - 1)}L{_n(cx + 5)} '
            f'{_n(t - 6)}L{_n(cx + 9)} {_n(t + 3)}Z" fill="{GOLD}" stroke="{INK}" stroke-width="2"/>'
        )
    if mark == "O":  # a wide hat with a feather
        return (
            f'<path d="M{_n(cx + 6)} {_n(t - 2)}C{_n(cx + 14)} {_n(t - 16)} {_n(cx + 24)} {_n(t - 16)} '
            f'{_n(cx + 26)} {_n(t - 18)}" fill="none" stroke="{RED}" stroke-width="4" stroke-linecap="round"/>'
            f'<path d="M{_n(cx - 17)} {_n(t + 3)}H{_n(cx + 17)}M{_n(cx - 9)} {_n(t + 2)}C{_n(cx - 9)} '
            f'{_n(t - 10)} {_n(cx + 9)} {_n(t - 10)} {_n(cx + 9)} {_n(t + 2)}" fill="{INK}" stroke="{INK}" '
            f'stroke-width="3" stroke-linecap="round"/>'
        )
    # Under, jack: a round cap
    return (
        f'<path d="M{_n(cx - 11)} {_n(t + 4)}C{_n(cx - 11)} {_n(t - 8)} {_n(cx + 11)} {_n(t - 8)} '
        f'{_n(cx + 11)} {_n(t + 4)}Z" fill="{RED}" stroke="{INK}" stroke-width="2.5" stroke-linejoin="round"/>'
    )


FRAME: Final = f'<rect x="1.5" y="1.5" width="97" height="147" rx="8" fill="{PAPER}" stroke="{INK}" stroke-width="3"/>'


def _glyph_defs(style: DeckStyle) -> str:
    """The index glyphs this deck needs, once; cards draw them with <use> in their own colour."""
    needed = sorted({g for mark in sprite_symbols(style).values() for g in mark})
    return "".join(f'<path id="g{g}" d="{GLYPHS[g][1]}"/>' for g in needed)


def _card(deck: Deck, symbol: str, mark: str) -> str:
    card = Card[symbol.split("-")[0]]
    suit = card.suit.letter
    rank = int(card.rank)
    if rank <= 3 or (rank == 4 and deck.style is DeckStyle.FRENCH):
        art = _pips(suit, rank + 6)
    elif rank == 4:
        art = _banner(suit)
    elif rank == 8:
        art = _use(f"suit-{suit}", ART_CX - 27, 56, 54)
    else:
        art = _figure(suit, mark)
    body = '<use href="#frame"/>' + _index(mark, deck.suit_colour(suit)) + _use(f"suit-{suit}", *INDEX_PIP) + art
    return f'<symbol id="{symbol}" viewBox="{CARD_VIEWBOX}">{body}</symbol>'


def _back() -> str:
    lattice = "".join(f"M{x} 8L{x + 60} 142M{x + 60} 8L{x} 142" for x in range(-50, 100, 15))
    return (
        f'<symbol id="{BACK_SYMBOL}" viewBox="{CARD_VIEWBOX}">'
        f'<rect x="1.5" y="1.5" width="97" height="147" rx="8" fill="{SLATE}" stroke="{INK}" stroke-width="3"/>'
        f'<clipPath id="back-clip"><rect x="9" y="9" width="82" height="132" rx="4"/></clipPath>'
        f'<path d="{lattice}" stroke="#3d5447" stroke-width="2" clip-path="url(#back-clip)"/>'
        f'<rect x="9" y="9" width="82" height="132" rx="4" fill="none" stroke="{CHALK}" stroke-width="2.5"/>'
        "</symbol>"
    )


def _trump() -> str:
    """Drawn over a face: a thick golden frame and a black badge with a golden star (shape, not only colour)."""
    star = []
    for k in range(10):
        r = 11 if k % 2 == 0 else 4.6
        a = math.radians(-90 + 36 * k)
        star.append((20 + r * math.cos(a), 127 + r * math.sin(a)))
    return (
        f'<symbol id="{TRUMP_SYMBOL}" viewBox="{CARD_VIEWBOX}">'
        f'<rect x="4" y="4" width="92" height="142" rx="7" fill="none" stroke="#a86e00" stroke-width="6"/>'
        f'<rect x="4" y="4" width="92" height="142" rx="7" fill="none" stroke="{GOLD}" stroke-width="3"/>'
        f'<circle cx="20" cy="127" r="15" fill="{INK}"/>'
        f'<path d="M{"L".join(_pt(p) for p in star)}Z" fill="{GOLD}"/>'
        "</symbol>"
    )


def sprite(style: DeckStyle | str, *, four_colour: bool = False) -> str:
    """The whole sprite of a deck as SVG text."""
    deck = Deck(DeckStyle(style), four_colour and DeckStyle(style) is DeckStyle.FRENCH)
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg">',
        f"<!-- scorekeeper card faces, {deck.style.value} deck"
        f"{', four colours' if deck.four_colour else ''}: generated by scorekeeper/render/card_sprites.py -->",
        f'<defs><g id="frame">{FRAME}</g>{_glyph_defs(deck.style)}</defs>',
    ]
    for s in Suit:
        parts.append(f'<symbol id="{suit_symbol_id(s)}" viewBox="{SUIT_VIEWBOX}">{deck.suit_body(s.letter)}</symbol>')
    parts.extend(_card(deck, symbol, mark) for symbol, mark in sprite_symbols(deck.style).items())
    parts.append(_back())
    parts.append(_trump())
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def sprites() -> dict[str, str]:
    """Every sprite the app ships: path under static/ -> SVG text."""
    out: dict[str, str] = {}
    for style, four in ((DeckStyle.SWISS, False), (DeckStyle.FRENCH, False), (DeckStyle.FRENCH, True)):
        out[sprite_file(style, four_colour=four)] = sprite(style, four_colour=four)
    return out
