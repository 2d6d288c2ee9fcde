"""The slate picture: every variant and state renders into a valid PNG of the expected size,
looks like a slate (board colour, wooden frame, chalk where sticks and potatoes are), and
the same picture always gives the same bytes."""

from __future__ import annotations

import hashlib
import io
import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import cast

import pytest
from PIL import Image, ImageChops
from render_helpers import decide, picture, play

from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.render import WIDTH, Marks, PictureRow, SlatePicture, picture_height, render_slate, slate_png
from scorekeeper.render.chalk import BOARD, FONT_DIR, font, text_width
from scorekeeper.render.slate_png import FRAME

STATES = ("empty", "partial", "complete")


def _open(png: bytes) -> Image.Image:
    """The PNG as RGB, after checking it is a palette PNG (chalk needs few colours)."""
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG"
    img.load()
    assert img.mode == "P" and len(img.getcolors(256) or ()) <= 128
    return img.convert("RGB")


def _near(pixel: tuple[int, ...], colour: tuple[int, int, int], tol: int) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(pixel, colour, strict=False))


def _chalk(img: Image.Image, box: tuple[float, float, float, float]) -> int:
    """Chalk-white pixels inside ``box``."""
    left, top, right, bottom = (int(v) for v in box)
    r, g, b = img.crop((left, top, right, bottom)).convert("RGB").split()
    darkest = ImageChops.darker(ImageChops.darker(r, g), b)
    return darkest.point(lambda v: 255 if v > 150 else 0).histogram()[255]


def _slate_picture(variant: Variant, state: str) -> SlatePicture:
    rs = default_ruleset(variant)
    if state == "empty":
        return picture(rs, play(rs, 0))
    if state == "partial":
        return picture(rs, play(rs, rs.n_hands // 2))
    slate = play(rs, tie_row="slalom" if variant is Variant.THREE else None)
    result, _cuts = decide(slate)
    return picture(rs, slate, result)


@pytest.mark.parametrize("state", STATES)
@pytest.mark.parametrize("variant", list(Variant), ids=[v.value for v in Variant])
def test_every_variant_and_state_renders(variant: Variant, state: str) -> None:
    pic = _slate_picture(variant, state)
    png = render_slate(pic)
    assert len(png) < 600_000
    img = _open(png)
    assert img.size == (WIDTH, picture_height(pic))
    assert 900 <= img.height <= 2400
    inside = cast(tuple[int, ...], img.getpixel((FRAME + 6, FRAME + 6)))
    assert _near(inside, BOARD, 24), inside  # the slate just inside the frame
    frame = cast(tuple[int, ...], img.getpixel((FRAME // 2, img.height // 2)))
    assert frame[0] > frame[2] + 40 and frame[0] > 80, frame  # brown wood
    assert _chalk(img, (0, 0, WIDTH, img.height)) > 10_000  # lines and writing


def test_sizes_follow_the_rows() -> None:
    heights = {v: picture_height(_slate_picture(v, "empty")) for v in Variant}
    assert heights[Variant.CLUB] > heights[Variant.TEAMS]  # 12 rows against 8
    assert heights[Variant.SOLO4] == heights[Variant.TEAMS]  # same rows, more columns
    full = _slate_picture(Variant.THREE, "complete")
    assert picture_height(full) > picture_height(_slate_picture(Variant.THREE, "empty"))  # money below


def _marks_picture(marks: tuple[Marks, ...], match: tuple[Marks, ...]) -> SlatePicture:
    row = PictureRow("Eichle", "", ("120", "80", "40"), marks=marks)
    return SlatePicture(
        title="Test",
        date="29.11.2026",
        variant="Three players",
        columns=("Anna", "Beat", "Cla"),
        rows=(row, PictureRow("Rose", "", ("90", "91", "92"), marks=(Marks(), Marks(), Marks()))),
        totals_label="Points",
        totals=("210", "171", "132"),
        match_label="Match",
        match=match,
        net_label="Net sticks",
        net=("+4", "0", "−4"),
    )


def _mark_boxes(pic: SlatePicture, row: int) -> list[tuple[float, float, float, float]]:
    """Where the sticks and potatoes of ``row`` (or the match row, ``row == len(rows)``) go, per column."""
    g = slate_png._grid(pic, FONT_DIR)
    top = slate_png.GRID_TOP + slate_png.HEADER_H + row * slate_png.ROW_H
    out: list[tuple[float, float, float, float]] = []
    for c in range(len(pic.columns)):
        x = g.col_x(c)
        left = x + (g.col_w * 0.54 + 6 if row < len(pic.rows) else 16)
        out.append((left, top + 10, x + g.col_w - 10, top + slate_png.ROW_H - 10))
    return out


def test_sticks_and_potatoes_are_chalked_where_they_belong() -> None:
    pic = _marks_picture((Marks(3, 0), Marks(), Marks(0, 3)), (Marks(2, 0), Marks(0, 1, 1), Marks()))
    img = _open(render_slate(pic))
    sticks, nothing, potatoes = (_chalk(img, b) for b in _mark_boxes(pic, 0))
    assert sticks > 150 and potatoes > 150, (sticks, potatoes)
    assert nothing < 15, nothing  # an empty mark area stays dark
    match_sticks, crossed, empty = (_chalk(img, b) for b in _mark_boxes(pic, 2))
    assert match_sticks > 100 and crossed > 100, (match_sticks, crossed)
    assert empty < 15, empty
    blank_row = [_chalk(img, b) for b in _mark_boxes(pic, 1)]
    assert max(blank_row) < 15, blank_row


def test_a_crossed_pair_draws_more_than_its_potato() -> None:
    """A stick through a potato: the potato alone plus a stroke across it."""
    base = _marks_picture((Marks(), Marks(), Marks()), (Marks(0, 1), Marks(), Marks()))
    crossed = replace(base, match=(Marks(0, 0, 1), Marks(), Marks()))
    box = _mark_boxes(base, 2)[0]
    only_potato = _chalk(_open(render_slate(base)), box)
    with_stick = _chalk(_open(render_slate(crossed)), box)
    assert only_potato > 40
    assert with_stick > only_potato + 30, (only_potato, with_stick)


def test_the_same_picture_gives_the_same_bytes() -> None:
    pic = _slate_picture(Variant.THREE, "complete")
    first = render_slate(pic)
    assert render_slate(replace(pic)) == first
    other = replace(pic, totals=tuple("1" + t for t in pic.totals))
    assert render_slate(other) != first


def test_missing_dejavu_falls_back_to_pillows_own_font(tmp_path: Path) -> None:
    pic = _slate_picture(Variant.TEAMS, "partial")
    img = _open(render_slate(pic, font_dir=tmp_path))  # no font files there
    assert img.size == (WIDTH, picture_height(pic, font_dir=tmp_path))
    assert _chalk(img, (0, 0, WIDTH, img.height)) > 10_000


def test_long_names_and_texts_fit() -> None:
    rs = default_ruleset(Variant.CLUB)
    slate = play(rs)
    result, _ = decide(slate)
    names = ("Anna-Barbara Müller-Lüdenscheid", "Beat", "Claudio Schwarzenbach", "Dora")
    pic = picture(rs, slate, result, names=names, title="Der längste Jassabend aller Zeiten im Rössli " * 2)
    pic = replace(pic, money=pic.money + ("word " * 60,))
    img = _open(render_slate(pic))
    assert img.size == (WIDTH, picture_height(pic))


@pytest.mark.parametrize("variant", [Variant.TEAMS, Variant.SOLO4, Variant.THREE], ids=["teams", "solo4", "three"])
def test_names_are_chalked_whole_never_cut(variant: Variant) -> None:
    # issue 20, point 11: the names across the top are never cut with an ellipsis nor broken
    # inside a word; a long team goes on more lines (at a space or after a hyphen) instead
    rs = default_ruleset(variant)
    names = ("Anna-Barbara Müller-Lüdenscheid", "Beat", "Claudio Schwarzenbach", "Dora Zurbriggen")[: rs.n_players]
    members = tuple(tuple(names[s] for s in rs.seats_of(side)) for side in range(rs.n_sides))
    pic = replace(picture(rs, play(rs, 4), names=names), column_names=members)
    room = slate_png._grid(pic, FONT_DIR).col_w - slate_png.NAME_MARGIN
    drawn = slate_png.name_lines(pic)
    assert len({n.size for n in drawn}) == 1 and drawn[0].size >= 16  # one size, readable
    for fitted, column in zip(drawn, members, strict=True):
        f = font("bold", fitted.size)
        assert all(text_width(f, line) <= room for line in fitted.lines)
        text = ""
        for line in fitted.lines:
            text += line if not text or text.endswith("-") else " " + line
        assert text == " & ".join(column) and "…" not in text
    assert picture_height(pic) == _open(render_slate(pic)).height


@pytest.mark.parametrize(
    "change",
    [
        {"totals": ("1",)},
        {"rows": (PictureRow("Eichle", "", ("1", "2")),)},
        {"rows": (PictureRow("Eichle", "", ("1", "2", "3"), notes=("x",)),)},
        {"rows": (PictureRow("Eichle", "", ("1", "2", "3"), marks=(Marks(),)),)},
        {"match": (Marks(),)},
        {"net": ("+1", "-1")},
        {"highlight": (3,)},
        {"columns": (), "totals": ()},
    ],
)
def test_a_picture_must_be_consistent(change: dict[str, object]) -> None:
    good = _marks_picture((Marks(), Marks(), Marks()), (Marks(), Marks(), Marks()))
    with pytest.raises(ValueError):
        replace(good, **change)  # type: ignore[arg-type]  # inconsistent on purpose


def test_marks_are_counts() -> None:
    with pytest.raises(ValueError):
        Marks(-1, 0)
    assert Marks(1, 2, 1).count == 4 and Marks().empty


def test_render_imports_no_web_framework() -> None:
    code = (
        "import json, sys, scorekeeper.render, scorekeeper.render.chalk, scorekeeper.render.slate_png\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    bad = [
        m for m in json.loads(out) if m.split(".")[0] in ("flask", "sqlalchemy", "wtforms", "werkzeug", "flask_babel")
    ]
    assert bad == []


def test_the_bytes_do_not_depend_on_the_process() -> None:
    """The wobble is seeded from the picture itself, not from hash() or the clock."""
    pic = _marks_picture((Marks(1, 0), Marks(), Marks(0, 1)), (Marks(2, 0), Marks(0, 1, 1), Marks(0, 1)))
    code = (
        "import hashlib, sys\n"
        "from scorekeeper.render import Marks, PictureRow, SlatePicture, render_slate\n"
        f"print(hashlib.sha256(render_slate({pic!r})).hexdigest())\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    assert out.strip() == hashlib.sha256(render_slate(pic)).hexdigest()


def test_a_circles_own_rules_render_with_its_row_names() -> None:
    """House rules (issue 24): eleven rows with a named house row and a costly countermatch."""
    from house_rules_helpers import eleven_rows_with_tutti_and_misere

    rs = eleven_rows_with_tutti_and_misere()
    slate = play(rs, countermatches=2)
    result, _cuts = decide(slate)
    pic = picture(rs, slate, result)
    assert "Bock" in [row.label for row in pic.rows]
    img = _open(render_slate(pic))
    assert img.size == (WIDTH, picture_height(pic))
