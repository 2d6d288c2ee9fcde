"""The app icons: in step with their drawing, the right sizes, maskable ones inside the safe zone."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from scorekeeper.render import icons
from scorekeeper.render.chalk import BOARD

ICONS = Path(__file__).resolve().parents[2] / "static" / "icons"


def test_the_committed_svg_is_the_drawing() -> None:
    """Regenerate with `make assets` after changing the drawing."""
    assert (ICONS / "icon.svg").read_text(encoding="utf-8") == icons.render_svg()


@pytest.mark.parametrize("size", icons.SIZES)
@pytest.mark.parametrize("maskable", [False, True], ids=["any", "maskable"])
def test_the_committed_pngs_are_the_drawing(size: int, maskable: bool) -> None:
    path = ICONS / f"icon-{'maskable-' if maskable else ''}{size}.png"
    committed = Image.open(path)
    assert committed.size == (size, size)
    assert committed.mode == "P"  # 256 colours, a fifth of the bytes
    fresh = icons.render_png(size, maskable=maskable)
    # Equal to the pixel with this Pillow; a little room for another Pillow's resampling.
    diff = ImageStat.Stat(ImageChops.difference(committed.convert("RGBA"), fresh.convert("RGBA")))
    assert max(diff.mean) < 1.0, f"{path.name} is stale"
    assert path.stat().st_size < (6_000 if size == 192 else 16_000)


@pytest.mark.parametrize("size", icons.SIZES)
def test_the_any_icon_is_a_framed_slate_with_clear_corners(size: int) -> None:
    img = Image.open(ICONS / f"icon-{size}.png").convert("RGBA")
    alpha = img.getchannel("A")
    assert [alpha.getpixel(p) for p in ((0, 0), (size - 1, 0), (0, size - 1), (size - 1, size - 1))] == [0] * 4
    assert alpha.getpixel((size // 2, size // 2)) == 255
    assert alpha.getpixel((size // 2, size // 30)) == 255  # the wooden frame reaches the edge


@pytest.mark.parametrize("size", icons.SIZES)
def test_the_maskable_icon_keeps_its_drawing_inside_the_safe_zone(size: int) -> None:
    img = Image.open(ICONS / f"icon-maskable-{size}.png").convert("RGB")
    radius = icons.SAFE_RADIUS * size
    centre = (size - 1) / 2
    outside = inside = drawn = 0
    raw = img.tobytes()  # RGB, row by row
    for y in range(size):
        for x in range(size):
            at = 3 * (y * size + x)
            differs = max(abs(a - b) for a, b in zip(raw[at : at + 3], BOARD, strict=True)) > 3
            if math.hypot(x - centre, y - centre) > radius + 1:
                outside += differs
            else:
                inside += 1
                drawn += differs
    assert outside == 0  # a launcher may cut anything beyond the safe zone
    assert drawn / inside > 0.2  # and the motif fills it well


def test_the_svg_icon_is_plain_svg() -> None:
    root = ET.fromstring(icons.render_svg())
    assert root.tag == "{http://www.w3.org/2000/svg}svg" and root.get("viewBox") == "0 0 512 512"
    for el in root.iter():
        assert el.tag.split("}")[1] in ("svg", "polygon", "polyline"), el.tag
        assert "style" not in el.attrib and not any(a.startswith("on") for a in el.attrib)
    assert len(icons.render_svg().encode()) < 8_000
