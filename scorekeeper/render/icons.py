"""The app's icons for the installable web app (``make assets`` writes them).

Draws ``static/icons/``: ``icon-192.png`` and ``icon-512.png`` (purpose "any": a slate in
a wooden frame, transparent corners), ``icon-maskable-192.png`` and ``icon-maskable-512.png``
(purpose "maskable": the slate fills the square, everything drawn stays inside the safe
zone, the centred circle of 40 % of the size as radius) and ``icon.svg`` (the "any" icon
as SVG). The output is committed; ``tests/render/test_render_icons.py`` holds it against
this file.

The motif reads at 48 px: a white Jass card with a big acorn (Eichel), tilted on the dark
slate, and five chalk strokes counted as on a Jass slate (four and one across).

One drawing, two outputs: the picture is a list of filled polygons and round-capped
strokes in a 512-unit square; Pillow paints them (four times larger, then scaled down for
smooth edges, then to a 256-colour palette) and the same list is written as SVG, so the
PNG and the SVG agree (a browser test compares them).
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from .card_sprites import BROWN, GOLD, GREEN, INK
from .chalk import BOARD, RGB, WHITE, WOOD, WOOD_DARK, YELLOW, Point

UNITS: Final = 512.0  # the drawing's square
SAFE_RADIUS: Final = 0.4  # maskable safe zone: a centred circle, 40 % of the size as radius
SIZES: Final = (192, 512)
SUPERSAMPLE: Final = 4


def _rgb(hex_colour: str) -> RGB:
    h = hex_colour.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def _hex(c: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*c)


@dataclass(frozen=True, slots=True)
class Shape:
    """A filled polygon (``fill``) and/or a stroke along its points (``stroke``, ``width``)."""

    points: tuple[Point, ...]
    fill: RGB | None = None
    stroke: RGB | None = None
    width: float = 0.0
    closed: bool = True

    def moved(self, f: Transform) -> Shape:
        return Shape(tuple(f.apply(p) for p in self.points), self.fill, self.stroke, self.width * f.scale, self.closed)


@dataclass(frozen=True, slots=True)
class Transform:
    """Rotate by ``angle`` degrees about ``pivot``, then scale by ``scale`` about ``origin``, then shift."""

    angle: float = 0.0
    pivot: Point = (0.0, 0.0)
    scale: float = 1.0
    origin: Point = (UNITS / 2, UNITS / 2)
    shift: Point = (0.0, 0.0)

    def apply(self, p: Point) -> Point:
        a = math.radians(self.angle)
        x, y = p[0] - self.pivot[0], p[1] - self.pivot[1]
        x, y = x * math.cos(a) - y * math.sin(a) + self.pivot[0], x * math.sin(a) + y * math.cos(a) + self.pivot[1]
        x = (x - self.origin[0]) * self.scale + self.origin[0] + self.shift[0]
        y = (y - self.origin[1]) * self.scale + self.origin[1] + self.shift[1]
        return x, y


# --- shapes ------------------------------------------------------------------------------
def _arc(cx: float, cy: float, rx: float, ry: float, a0: float, a1: float, n: int) -> list[Point]:
    return [
        (
            cx + rx * math.cos(math.radians(a0 + (a1 - a0) * i / n)),
            cy + ry * math.sin(math.radians(a0 + (a1 - a0) * i / n)),
        )
        for i in range(n + 1)
    ]


def rounded_rect(
    x0: float, y0: float, x1: float, y1: float, r: float, fill: RGB | None, edge: RGB | None = None, width: float = 0.0
) -> Shape:
    pts = (
        _arc(x1 - r, y0 + r, r, r, -90, 0, 8)
        + _arc(x1 - r, y1 - r, r, r, 0, 90, 8)
        + _arc(x0 + r, y1 - r, r, r, 90, 180, 8)
        + _arc(x0 + r, y0 + r, r, r, 180, 270, 8)
    )
    return Shape(tuple(pts), fill, edge, width)


def line(points: Sequence[Point], colour: RGB, width: float) -> Shape:
    return Shape(tuple(points), stroke=colour, width=width, closed=False)


def _card() -> list[Shape]:
    """A Jass card 168 x 244 with a big acorn, in its own coordinates (top left at 0, 0)."""
    ink, gold, brown, green = _rgb(INK), _rgb(GOLD), _rgb(BROWN), _rgb(GREEN)
    cx = 84.0
    nut = _arc(cx, 128, 44, 74, 0, 180, 24)  # the nut: a half ellipse hanging from the cup
    cup = _arc(cx, 134, 58, 50, 180, 360, 24)  # the cup: a dome over the nut
    hatch = [((cx - 34 + 22 * i, 98.0), (cx - 18 + 22 * i, 130.0)) for i in range(4)]
    hatch += [((cx + 34 - 22 * i, 98.0), (cx + 18 - 22 * i, 130.0)) for i in range(4)]
    leaf = [(cx + 2, 70.0), (cx + 26, 40.0), (cx + 58, 34.0), (cx + 66, 40.0), (cx + 44, 64.0), (cx + 14, 76.0)]
    shapes = [
        rounded_rect(0, 0, 168, 244, 18, (255, 255, 255), ink, 6),
        line([(cx, 86.0), (cx + 4, 52.0)], ink, 10),
        Shape(tuple(leaf), fill=green, stroke=ink, width=5),
        Shape(tuple(nut), fill=gold, stroke=ink, width=6),
        Shape(tuple(cup), fill=brown, stroke=ink, width=6),
    ]
    shapes += [line(list(h), (201, 164, 122), 5) for h in hatch]
    return shapes


def _tally(colour: RGB) -> list[Shape]:
    """Five chalk strokes as a slate counts them: four upright, one across."""
    lines: list[Shape] = []
    for i in range(4):
        x = 322.0 + 30 * i
        lines.append(line([(x + 3, 176.0), (x, 252.0), (x - 2, 326.0)], colour, 17))
    lines.append(line([(296.0, 300.0), (380.0, 252.0), (444.0, 206.0)], colour, 17))
    return lines


def motif() -> list[Shape]:
    """The card and the count, centred on the slate (512 units)."""
    tilt = Transform(angle=-11.0, pivot=(84.0, 122.0), origin=(0.0, 0.0), shift=(98.0, 140.0))
    shapes = [s.moved(tilt) for s in _card()]
    shapes += _tally(WHITE)
    shapes.append(line([(296.0, 370.0), (370.0, 364.0), (446.0, 370.0)], YELLOW, 13))  # a chalk underline
    return shapes


def picture(maskable: bool) -> list[Shape]:
    """The whole icon in 512 units: framed slate (any) or full-bleed slate, motif in the safe zone (maskable)."""
    if maskable:
        back = [Shape(((0.0, 0.0), (UNITS, 0.0), (UNITS, UNITS), (0.0, UNITS)), fill=BOARD)]
        return back + [s.moved(Transform(scale=0.88)) for s in motif()]
    frame = [
        rounded_rect(12, 12, 500, 500, 96, WOOD, WOOD_DARK, 8),
        rounded_rect(50, 50, 462, 462, 62, BOARD, WOOD_DARK, 6),
    ]
    return frame + [s.moved(Transform(scale=0.92)) for s in motif()]


# --- output ------------------------------------------------------------------------------
def render_png(size: int, *, maskable: bool) -> Image.Image:
    big = size * SUPERSAMPLE
    k = big / UNITS
    mode = "RGB" if maskable else "RGBA"
    img = Image.new(mode, (big, big), BOARD if maskable else (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    for s in picture(maskable):
        pts = [(x * k, y * k) for x, y in s.points]
        if s.fill is not None:
            draw.polygon(pts, fill=s.fill)
        if s.stroke is not None and s.width > 0:
            w = max(1, round(s.width * k))
            line = pts + pts[:1] if s.closed else pts
            draw.line(line, fill=s.stroke, width=w, joint="curve")
            r = w / 2
            for x, y in (line[0], line[-1]) if not s.closed else ():
                draw.ellipse([x - r, y - r, x + r, y + r], fill=s.stroke)  # round caps
    small = img.resize((size, size), Image.Resampling.LANCZOS)
    # A palette of 256 colours, no dithering: looks the same, a fifth of the bytes (browsers
    # fetch manifest icons while checking installability, so they count against a first load).
    return small.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def _pts(points: Iterable[Point]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def render_svg(*, maskable: bool = False) -> str:
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {UNITS:.0f} {UNITS:.0f}">',
        "<!-- scorekeeper app icon: generated by scorekeeper/render/icons.py -->",
    ]
    for s in picture(maskable):
        tag = "polygon" if s.closed else "polyline"
        attrs = [f'points="{_pts(s.points)}"', f'fill="{_hex(s.fill)}"' if s.fill else 'fill="none"']
        if s.stroke is not None and s.width > 0:
            attrs += [f'stroke="{_hex(s.stroke)}"', f'stroke-width="{s.width:.1f}"']
            attrs += ['stroke-linejoin="round"', 'stroke-linecap="round"']
        parts.append(f"<{tag} {' '.join(attrs)}/>")
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def png_bytes(img: Image.Image) -> bytes:
    out = io.BytesIO()
    img.save(out, "PNG", optimize=True)
    return out.getvalue()


def files() -> dict[str, bytes]:
    """Every icon: path under static/ -> file content."""
    out = {"icons/icon.svg": render_svg().encode()}
    for size in SIZES:
        out[f"icons/icon-{size}.png"] = png_bytes(render_png(size, maskable=False))
        out[f"icons/icon-maskable-{size}.png"] = png_bytes(render_png(size, maskable=True))
    return out
