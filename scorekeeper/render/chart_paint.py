"""The two painters of a chart's ``Scene`` (``render.charts`` lays it out): ``svg`` for the pages,
``png`` (Pillow) for sharing. They add no geometry of their own: every shape, text and position
is the scene's, so the page and the picture show the same chart.

SVG: no JavaScript, no ``style`` attribute, no ``<style>`` element (a strict Content-Security-Policy
forbids inline style), only presentation attributes; bar patterns are ``<pattern>`` definitions.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

from PIL import Image, ImageDraw

from .chalk import font
from .charts import FONT, RGB, Area, Bar, Line, Marker, Scene, Text


# --- SVG ----------------------------------------------------------------------------------
def _hex(c: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*c)


def _path(points: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def _marker_points(shape: str, x: float, y: float, r: float) -> list[tuple[float, float]]:
    if shape == "square":
        return [(x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r)]
    if shape == "triangle":
        return [(x, y - r * 1.2), (x + r * 1.1, y + r * 0.8), (x - r * 1.1, y + r * 0.8)]
    if shape == "down":
        return [(x, y + r * 1.2), (x + r * 1.1, y - r * 0.8), (x - r * 1.1, y - r * 0.8)]
    if shape == "diamond":
        return [(x, y - r * 1.3), (x + r * 1.3, y), (x, y + r * 1.3), (x - r * 1.3, y)]
    if shape == "star":
        return [
            (
                x + (1.5 if a % 2 == 0 else 0.6) * r * math.sin(a * math.pi / 5),
                y - (1.5 if a % 2 == 0 else 0.6) * r * math.cos(a * math.pi / 5),
            )
            for a in range(10)
        ]
    return []


def _cross_lines(shape: str, x: float, y: float, r: float) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    if shape == "plus":
        return [((x - r * 1.3, y), (x + r * 1.3, y)), ((x, y - r * 1.3), (x, y + r * 1.3))]
    return [((x - r, y - r), (x + r, y + r)), ((x - r, y + r), (x + r, y - r))]


def svg(scene: Scene, *, id_prefix: str = "chart") -> str:
    """The scene as an SVG document (no script, no style), 360 px wide and scalable."""
    title_id, desc_id = f"{id_prefix}-title", f"{id_prefix}-desc"
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {scene.width:.0f} {scene.height:.0f}" '
        f'width="100%" role="img" aria-labelledby="{title_id} {desc_id}" font-family={quoteattr(FONT)}>',
        f'<title id="{title_id}">{escape(scene.title)}</title>',
        f'<desc id="{desc_id}">{escape(scene.description)}</desc>',
        "<defs>",
    ]
    patterns = {(b.pattern, b.fill) for b in scene.shapes if isinstance(b, Bar) and b.pattern != "solid"}
    for pattern, colour in sorted(patterns):
        pid = f"{id_prefix}-{pattern}-{_hex(colour)[1:]}"
        c = _hex(colour)
        body = {
            "stripes": f'<path d="M0,6 L6,0" stroke="{c}" stroke-width="2"/>',
            "grid": f'<path d="M0,0 L6,0 M0,0 L0,6" stroke="{c}" stroke-width="2"/>',
            "dots": f'<circle cx="3" cy="3" r="1.6" fill="{c}"/>',
        }[pattern]
        out.append(
            f'<pattern id="{pid}" width="6" height="6" patternUnits="userSpaceOnUse">'
            f'<rect width="6" height="6" fill="#ffffff"/>{body}</pattern>'
        )
    out.append("</defs>")
    out.append(f'<rect width="{scene.width:.0f}" height="{scene.height:.0f}" fill="#ffffff"/>')
    for shape in scene.shapes:
        if isinstance(shape, Area):
            out.append(
                f'<polygon points="{_path(shape.points)}" fill="{_hex(shape.fill)}" fill-opacity="{shape.opacity}"/>'
            )
        elif isinstance(shape, Line):
            dash = f' stroke-dasharray="{" ".join(map(str, shape.dash))}"' if shape.dash else ""
            out.append(
                f'<polyline points="{_path(shape.points)}" fill="none" stroke="{_hex(shape.stroke)}" '
                f'stroke-width="{shape.width}" stroke-linejoin="round"{dash}/>'
            )
        elif isinstance(shape, Bar):
            fill = (
                _hex(shape.fill)
                if shape.pattern == "solid"
                else f"url(#{id_prefix}-{shape.pattern}-{_hex(shape.fill)[1:]})"
            )
            out.append(
                f'<rect x="{shape.x:.1f}" y="{shape.y:.1f}" width="{shape.w:.1f}" height="{shape.h:.1f}" '
                f'fill="{fill}" stroke="{_hex(shape.fill)}" stroke-width="1"/>'
            )
        elif isinstance(shape, Marker):
            c = _hex(shape.fill)
            if shape.shape == "circle":
                out.append(f'<circle cx="{shape.x:.1f}" cy="{shape.y:.1f}" r="{shape.r}" fill="{c}"/>')
            elif shape.shape in ("plus", "cross"):
                d = " ".join(
                    f"M{a[0]:.1f},{a[1]:.1f} L{b[0]:.1f},{b[1]:.1f}"
                    for a, b in _cross_lines(shape.shape, shape.x, shape.y, shape.r)
                )
                out.append(f'<path d="{d}" stroke="{c}" stroke-width="2"/>')
            else:
                out.append(
                    f'<polygon points="{_path(_marker_points(shape.shape, shape.x, shape.y, shape.r))}" fill="{c}"/>'
                )
        else:
            weight = ' font-weight="bold"' if shape.bold else ""
            out.append(
                f'<text x="{shape.x:.1f}" y="{shape.y:.1f}" font-size="{shape.size}" text-anchor="{shape.anchor}" '
                f'fill="{_hex(shape.fill)}"{weight}>{escape(shape.text)}</text>'
            )
    out.append("</svg>")
    return "\n".join(out)


# --- PNG ----------------------------------------------------------------------------------
def _dashed(points: Sequence[tuple[float, float]], dash: Sequence[int]) -> list[list[tuple[float, float]]]:
    """Split a polyline into the drawn pieces of a dash pattern."""
    if not dash:
        return [list(points)]
    pieces: list[list[tuple[float, float]]] = []
    k, left, on = 0, float(dash[0]), True
    current: list[tuple[float, float]] = [points[0]]
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        seg = math.hypot(x1 - x0, y1 - y0)
        pos = 0.0
        while seg - pos > left:
            pos += left
            p = (x0 + (x1 - x0) * pos / seg, y0 + (y1 - y0) * pos / seg)
            if on:
                current.append(p)
                pieces.append(current)
            current = [p]
            on = not on
            k = (k + 1) % len(dash)
            left = float(dash[k])
        left -= seg - pos
        if on:
            current.append((x1, y1))
        else:
            current = [(x1, y1)]
    if on and len(current) > 1:
        pieces.append(current)
    return pieces


def png(scene: Scene, *, scale: int = 2) -> bytes:
    """The scene as PNG bytes (``scale`` x 360 pixels wide, white)."""
    s = scale
    image = Image.new("RGB", (round(scene.width * s), round(scene.height * s)), (255, 255, 255))
    for shape in scene.shapes:
        if isinstance(shape, Area):
            overlay = Image.new("RGBA", image.size, (0, 0, 0, 0))
            ImageDraw.Draw(overlay).polygon(
                [(x * s, y * s) for x, y in shape.points], fill=(*shape.fill, round(255 * shape.opacity))
            )
            image = Image.alpha_composite(image.convert("RGBA"), overlay).convert("RGB")
    draw = ImageDraw.Draw(image)
    for shape in scene.shapes:
        if isinstance(shape, Line):
            for piece in _dashed([(x * s, y * s) for x, y in shape.points], [d * s for d in shape.dash]):
                draw.line(piece, fill=shape.stroke, width=max(1, round(shape.width * s)), joint="curve")
        elif isinstance(shape, Bar):
            x0, y0, x1, y1 = shape.x * s, shape.y * s, (shape.x + shape.w) * s, (shape.y + shape.h) * s
            solid = shape.pattern == "solid"
            draw.rectangle([x0, y0, x1, y1], fill=shape.fill if solid else (255, 255, 255), outline=shape.fill)
            gap = 6 * s
            if shape.pattern in ("stripes", "grid"):
                x = x0 + gap / 2
                while x < x1:
                    draw.line([(x, y0), (x, y1)], fill=shape.fill, width=s)
                    x += gap
            if shape.pattern == "grid":
                y = y0 + gap / 2
                while y < y1:
                    draw.line([(x0, y), (x1, y)], fill=shape.fill, width=s)
                    y += gap
            if shape.pattern == "dots":
                y = y0 + gap / 2
                while y < y1:
                    x = x0 + gap / 2
                    while x < x1:
                        draw.ellipse([x - 1.6 * s, y - 1.6 * s, x + 1.6 * s, y + 1.6 * s], fill=shape.fill)
                        x += gap
                    y += gap
        elif isinstance(shape, Marker):
            x, y, r = shape.x * s, shape.y * s, shape.r * s
            if shape.shape == "circle":
                draw.ellipse([x - r, y - r, x + r, y + r], fill=shape.fill)
            elif shape.shape in ("plus", "cross"):
                for a, b in _cross_lines(shape.shape, x, y, r):
                    draw.line([a, b], fill=shape.fill, width=2 * s)
            else:
                draw.polygon(_marker_points(shape.shape, x, y, r), fill=shape.fill)
        elif isinstance(shape, Text):
            f = font("bold" if shape.bold else "regular", shape.size * s)
            anchor = {"start": "ls", "middle": "ms", "end": "rs"}[shape.anchor]
            draw.text((shape.x * s, shape.y * s), shape.text, font=f, fill=shape.fill, anchor=anchor)
    out = io.BytesIO()
    # zlib's default level: a fifth of the time of optimize=True (the most squeezing) for a
    # file some 4 % larger (57 KB against 55 KB for 500 evenings), and a chart's first PNG
    # is painted while someone waits for it
    image.save(out, format="PNG", compress_level=6)
    return out.getvalue()
