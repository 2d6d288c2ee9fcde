"""Chalk on a slate: a dark board in a wooden frame, hand-drawn lines, sticks, potatoes, text.

Everything chalk is first drawn into a grey-scale mask per chalk colour; ``finish``
roughens the masks with a grain texture and lays them on the board. All randomness
(line wobble, grain, smudges) comes from one ``random.Random(seed)``, so the same
drawing calls give the same picture, byte for byte.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache
from pathlib import Path
from typing import Final

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
RGB = tuple[int, int, int]
Point = tuple[float, float]

BOARD: Final[RGB] = (30, 44, 37)  # dark green-black slate
SMUDGE: Final[RGB] = (50, 66, 57)  # wiped-off chalk dust
WOOD: Final[RGB] = (122, 80, 44)  # wood
WOOD_DARK: Final[RGB] = (84, 52, 27)
WHITE: Final[RGB] = (238, 236, 226)  # chalk
YELLOW: Final[RGB] = (242, 222, 140)  # yellow chalk for what decides the evening

FONT_DIR: Final = Path("/usr/share/fonts/truetype/dejavu")
FONT_FILES: Final = {
    "regular": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "condensed": "DejaVuSansCondensed-Bold.ttf",
}


@lru_cache(maxsize=64)
def font(style: str, size: int, font_dir: Path = FONT_DIR) -> Font:
    """DejaVu from Debian (fonts-dejavu-core); Pillow's built-in scalable font when it is missing."""
    path = font_dir / FONT_FILES[style]
    try:
        return ImageFont.truetype(str(path), size)
    except OSError:
        return ImageFont.load_default(size=size)


def text_width(f: Font, text: str) -> float:
    return float(f.getlength(text))


def fit_font(
    style: str, text: str, max_width: float, size: int, min_size: int, font_dir: Path = FONT_DIR
) -> tuple[Font, str]:
    """The largest font from ``size`` down to ``min_size`` in which ``text`` fits ``max_width``;
    at ``min_size`` the text is shortened with an ellipsis."""
    for s in range(size, min_size - 1, -2):
        f = font(style, s, font_dir)
        if text_width(f, text) <= max_width:
            return f, text
    f = font(style, min_size, font_dir)
    cut = text
    while cut and text_width(f, cut + "…") > max_width:
        cut = cut[:-1]
    return f, (cut + "…") if cut != text else cut


class Chalkboard:
    """A framed slate of ``width`` x ``height`` pixels; draw on it, then ``finish()``."""

    def __init__(self, width: int, height: int, *, seed: int, frame: int = 26) -> None:
        self.width, self.height, self.frame = width, height, frame
        self.rng = random.Random(seed)
        self._masks: dict[RGB, Image.Image] = {}
        self._draws: dict[RGB, ImageDraw.ImageDraw] = {}

    def _draw(self, colour: RGB) -> ImageDraw.ImageDraw:
        if colour not in self._draws:
            mask = Image.new("L", (self.width, self.height), 0)
            self._masks[colour] = mask
            self._draws[colour] = ImageDraw.Draw(mask)
        return self._draws[colour]

    # --- strokes ----------------------------------------------------------------
    def _wobbly(self, p0: Point, p1: Point, wobble: float) -> list[Point]:
        """Points along p0-p1 with a smooth sideways wobble, as a hand draws a long line."""
        (x0, y0), (x1, y1) = p0, p1
        length = math.hypot(x1 - x0, y1 - y0)
        n = max(2, int(length // 28) + 1)
        nx, ny = (-(y1 - y0) / length, (x1 - x0) / length) if length else (0.0, 0.0)
        rng = self.rng
        off, drift = 0.0, 0.0
        pts: list[Point] = []
        for i in range(n + 1):
            t = i / n
            if 0 < i < n:
                drift = 0.6 * drift + rng.uniform(-wobble, wobble)
                off = max(-2 * wobble, min(2 * wobble, off + drift))
            else:
                off = rng.uniform(-wobble, wobble) * 0.5
            pts.append((x0 + (x1 - x0) * t + nx * off, y0 + (y1 - y0) * t + ny * off))
        return pts

    def line(self, p0: Point, p1: Point, width: int = 3, colour: RGB = WHITE, wobble: float = 0.9) -> None:
        """A chalk line: a faint wider dusting under a firm stroke whose pressure varies."""
        draw = self._draw(colour)
        rng = self.rng
        pts = self._wobbly(p0, p1, wobble)
        draw.line(pts, fill=rng.randint(60, 90), width=width + 3, joint="curve")  # dust along the stroke
        for a, b in zip(pts, pts[1:], strict=False):
            draw.line([a, b], fill=rng.randint(200, 255), width=width)
        for p in pts[1:-1]:  # round the joints so the stroke does not break
            r = width / 2
            draw.ellipse([p[0] - r, p[1] - r, p[0] + r, p[1] + r], fill=rng.randint(200, 255))

    def hline(self, x0: float, x1: float, y: float, width: int = 3, colour: RGB = WHITE) -> None:
        o = self.rng.uniform(-4, 4)
        self.line(
            (x0 + o, y + self.rng.uniform(-1, 1)),
            (x1 + self.rng.uniform(-4, 4), y + self.rng.uniform(-1, 1)),
            width,
            colour,
        )

    def vline(self, x: float, y0: float, y1: float, width: int = 3, colour: RGB = WHITE) -> None:
        self.line(
            (x + self.rng.uniform(-1, 1), y0 + self.rng.uniform(-3, 3)),
            (x + self.rng.uniform(-1, 1), y1 + self.rng.uniform(-3, 3)),
            width,
            colour,
        )

    def stick(self, x: float, y: float, h: float, colour: RGB = WHITE) -> None:
        """A stick: one short, slightly slanted stroke, its foot at (x, y + h)."""
        rng = self.rng
        lean = h * rng.uniform(0.08, 0.2)
        self.line(
            (x - lean / 2, y + h + rng.uniform(-2, 1)),
            (x + lean / 2, y + rng.uniform(-1, 2)),
            width=max(3, round(h / 9)),
            colour=colour,
            wobble=0.5,
        )

    def potato(self, cx: float, cy: float, r: float, colour: RGB = WHITE) -> None:
        """A potato: a small lumpy circle whose end runs a little past its start."""
        rng = self.rng
        start = rng.uniform(0, 2 * math.pi)
        n = 16
        pts: list[Point] = []
        for i in range(n + 2):
            a = start + 2 * math.pi * i / n
            rr = r * (1 + rng.uniform(-0.08, 0.08)) * (0.94 if i > n else 1)
            pts.append((cx + rr * math.cos(a), cy + rr * 0.92 * math.sin(a)))
        draw = self._draw(colour)
        w = max(3, round(r / 3.5))
        draw.line(pts, fill=rng.randint(90, 120), width=w + 2, joint="curve")
        draw.line(pts, fill=rng.randint(215, 255), width=w, joint="curve")

    def crossed(self, cx: float, cy: float, r: float, colour: RGB = WHITE) -> None:
        """A stick drawn through a potato: the two cancel."""
        self.potato(cx, cy, r, colour)
        self.stick(cx, cy - r * 1.6, r * 3.2, colour)

    def squiggle(self, x0: float, x1: float, y: float, colour: RGB = YELLOW) -> None:
        """A quick wavy underline."""
        rng = self.rng
        n = max(3, int((x1 - x0) // 22))
        pts = [(x0 + (x1 - x0) * i / n, y + (3 if i % 2 else -3) + rng.uniform(-1, 1)) for i in range(n + 1)]
        self._draw(colour).line(pts, fill=235, width=3, joint="curve")

    # --- text ---------------------------------------------------------------------
    def text(self, xy: Point, text: str, f: Font, *, anchor: str = "la", colour: RGB = WHITE) -> None:
        """Text written letter by letter, each a little off the line as by hand."""
        if not text:
            return
        draw = self._draw(colour)
        want = f.getbbox(text, anchor=anchor)
        base = f.getbbox(text, anchor="ls")
        ox, oy = xy[0] + want[0] - base[0], xy[1] + want[1] - base[1]
        rng = self.rng
        for i, ch in enumerate(text):
            if ch.isspace():
                continue
            x = ox + f.getlength(text[:i]) + rng.uniform(-0.6, 0.6)
            y = oy + rng.uniform(-1.2, 1.2)
            draw.text((x, y), ch, font=f, anchor="ls", fill=rng.randint(225, 255))

    # --- the finished picture -----------------------------------------------------------
    def _noise(self, size: int, blur: float) -> Image.Image:
        tile = Image.frombytes("L", (size, size), self.rng.randbytes(size * size))
        return tile.filter(ImageFilter.GaussianBlur(blur)) if blur else tile

    def _tiled(self, tile: Image.Image) -> Image.Image:
        out = Image.new("L", (self.width, self.height))
        for y in range(0, self.height, tile.height):
            for x in range(0, self.width, tile.width):
                out.paste(tile, (x, y))
        return out

    def _board(self) -> Image.Image:
        """The bare slate: dark, with wiped smudges of old chalk dust and a fine grain."""
        rng = self.rng
        small = Image.new("RGB", (max(1, self.width // 8), max(1, self.height // 8)), BOARD)
        d = ImageDraw.Draw(small)
        for _ in range(10 + self.height // 120):
            cx, cy = rng.uniform(0, small.width), rng.uniform(0, small.height)
            rx, ry = rng.uniform(8, 30), rng.uniform(2, 7)
            d.ellipse([cx - rx, cy - ry, cx + rx, cy + ry], fill=SMUDGE)
        small = small.filter(ImageFilter.GaussianBlur(5))
        board = small.resize((self.width, self.height), Image.Resampling.BICUBIC)
        board = Image.blend(Image.new("RGB", board.size, BOARD), board, 0.55)
        grain = self._tiled(self._noise(128, 0.7).point(lambda v: 236 + v * 19 // 255))
        return ImageChops.multiply(board, Image.merge("RGB", (grain, grain, grain)))

    def _frame(self, img: Image.Image) -> None:
        """A wooden frame with a few grain lines and a dark inner edge."""
        w, h, f = self.width, self.height, self.frame
        if f <= 0:
            return
        d = ImageDraw.Draw(img)
        rng = self.rng
        for box in ([0, 0, w, f], [0, h - f, w, h], [0, 0, f, h], [w - f, 0, w, h]):
            d.rectangle(box, fill=WOOD)
        for _ in range(40):
            shade = tuple(c + rng.randint(-18, 12) for c in WOOD)
            o = rng.uniform(2, f - 3)
            if rng.random() < 0.5:
                y = o if rng.random() < 0.5 else h - o
                d.line(
                    [(rng.uniform(0, w / 2), y), (rng.uniform(w / 2, w), y + rng.uniform(-1, 1))], fill=shade, width=1
                )
            else:
                x = o if rng.random() < 0.5 else w - o
                d.line(
                    [(x, rng.uniform(0, h / 2)), (x + rng.uniform(-1, 1), rng.uniform(h / 2, h))], fill=shade, width=1
                )
        d.rectangle([0, 0, w - 1, h - 1], outline=WOOD_DARK, width=2)
        d.rectangle([f - 3, f - 3, w - f + 2, h - f + 2], outline=WOOD_DARK, width=3)

    def finish(self) -> Image.Image:
        """The board with every chalk colour laid on it, grainy as chalk is."""
        img = self._board()
        grain = self._tiled(self._noise(160, 0.9))
        grain = grain.point(lambda v: max(0, min(255, 70 + (v - 100) * 5)))  # mostly full, some gaps
        for colour, mask in self._masks.items():
            soft = mask.filter(ImageFilter.GaussianBlur(0.6))
            img.paste(Image.new("RGB", img.size, colour), (0, 0), ImageChops.multiply(soft, grain))
        self._frame(img)
        return img


def _ramp(a: RGB, b: RGB, n: int) -> list[RGB]:
    return [
        (
            round(a[0] + (b[0] - a[0]) * k / (n - 1)),
            round(a[1] + (b[1] - a[1]) * k / (n - 1)),
            round(a[2] + (b[2] - a[2]) * k / (n - 1)),
        )
        for k in range(n)
    ]


@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """128 colours for a slate: board shades, chalk and yellow chalk on the board, wood."""
    dark: RGB = (round(BOARD[0] * 0.9), round(BOARD[1] * 0.9), round(BOARD[2] * 0.9))
    light_wood: RGB = (min(255, WOOD[0] + 14), min(255, WOOD[1] + 14), min(255, WOOD[2] + 14))
    colours = (
        _ramp(dark, SMUDGE, 16)
        + _ramp(BOARD, WHITE, 48)
        + _ramp(BOARD, YELLOW, 32)
        + _ramp(WOOD_DARK, light_wood, 24)
        + _ramp(SMUDGE, WHITE, 8)
    )
    flat = [v for c in colours for v in c]
    img = Image.new("P", (1, 1))
    img.putpalette(flat + [0] * (768 - len(flat)))
    return img


def to_palette(img: Image.Image) -> Image.Image:
    """The picture in the slate's 128 colours, each pixel its nearest (no dithering): a PNG
    about a quarter of the RGB one, encoded several times faster, indistinguishable on a phone."""
    return img.quantize(palette=palette(), dither=Image.Dither.NONE)
