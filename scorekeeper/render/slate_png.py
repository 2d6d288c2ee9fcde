"""The slate as a picture: ``render_slate(picture) -> PNG bytes``.

Laid out like the chalk slate of the book: names across the top, the rows down the
left margin with thicker lines between value groups, the numbers in the cells,
sticks and potatoes chalked beside them, the match row, and the totals at the
lower right; the winner and the money below. 1080 pixels wide (a phone's share
size), as high as the rows need. The same picture gives the same bytes.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from PIL import Image

from .chalk import FONT_DIR, WHITE, YELLOW, Chalkboard, Font, fit_font, font, text_width, to_palette
from .picture import Marks, PictureRow, SlatePicture

WIDTH: Final = 1080
FRAME: Final = 26
PAD: Final = 34  # chalk keeps this far from the frame
ROW_H: Final = 78
ROW_H_NOTES: Final = 96  # rows where a cell carries a note under its number
TITLE_H: Final = 62  # the circle's name
SUBTITLE_H: Final = 44 + 24  # date, variant and status, and a gap
GRID_TOP: Final = FRAME + PAD + TITLE_H + SUBTITLE_H  # where the names start
HEADER_H: Final = 84  # the names
MARK_W: Final = 38  # room per stick or potato
CUT: Final = "✂"  # marks a row whose tie was cut


@dataclass(frozen=True, slots=True)
class _Grid:
    left: float  # left edge of the chalk
    right: float
    label_w: float  # the margin column with the row names
    col_w: float

    def col_x(self, c: int) -> float:
        return self.left + self.label_w + c * self.col_w


def _seed(picture: SlatePicture) -> int:
    """A seed from the picture itself: the same slate is always drawn the same way."""
    return int.from_bytes(hashlib.sha256(repr(picture).encode()).digest()[:8], "big")


def _has_marks(picture: SlatePicture) -> bool:
    return any(r.marks for r in picture.rows)


def _row_height(row: PictureRow) -> int:
    return ROW_H_NOTES if any(row.notes) else ROW_H


@dataclass(frozen=True, slots=True)
class _Line:
    """One line of text below the slate."""

    text: str
    style: str
    size: int
    colour: tuple[int, int, int]
    height: int


def _wrap(text: str, f: Font, width: float) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width`` (a long word stays whole)."""
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        candidate = f"{current} {word}" if current else word
        if current and text_width(f, candidate) > width:
            lines.append(current)
            current = word
        else:
            current = candidate
    return lines + [current] if current else lines


def _footer(picture: SlatePicture, font_dir: Path) -> list[_Line]:
    """The cuts (as footnotes to the ✂ in the margin), the winner and the money, wrapped."""
    width = WIDTH - 2 * (FRAME + PAD)
    out: list[_Line] = []
    if picture.winner:
        out.append(_Line(picture.winner, "bold", 40, YELLOW, 58))
    for text in picture.money:
        f = font("regular", 34, font_dir)
        out += [_Line(t, "regular", 34, WHITE, 48) for t in _wrap(text, f, width)]
    cuts = [f"{CUT} {r.label}: {r.cut}" for r in picture.rows if r.cut]
    if cuts:
        out.append(_Line("", "regular", 10, WHITE, 14))
    for text in cuts:
        f = font("regular", 27, font_dir)
        out += [_Line(t, "regular", 27, WHITE, 38) for t in _wrap(text, f, width)]
    return out


def _height(picture: SlatePicture, font_dir: Path) -> int:
    h = GRID_TOP + HEADER_H + sum(_row_height(r) for r in picture.rows)
    h += ROW_H if picture.match else 0
    h += ROW_H + 10  # totals
    h += ROW_H if picture.net else 0
    footer = _footer(picture, font_dir)
    if footer:
        h += 30 + sum(line.height for line in footer)
    return h + PAD + FRAME


def _grid(picture: SlatePicture, font_dir: Path) -> _Grid:
    left, right = FRAME + PAD, WIDTH - FRAME - PAD
    labels = [r.label for r in picture.rows] + [picture.totals_label, picture.match_label, picture.net_label]
    f = font("condensed", 36, font_dir)
    widest = max(text_width(f, t) for t in labels if t) if any(labels) else 0.0
    factor_w = 56 if any(r.factor for r in picture.rows) else 0
    label_w = min(max(widest + factor_w + 24, 230.0), 0.36 * (right - left))
    return _Grid(left, right, label_w, (right - left - label_w) / len(picture.columns))


def _header(board: Chalkboard, picture: SlatePicture, font_dir: Path) -> float:
    x0, x1 = FRAME + PAD, WIDTH - FRAME - PAD
    y = FRAME + PAD
    title_font, title = fit_font("bold", picture.title, x1 - x0, 52, 30, font_dir)
    board.text((x0, y), title, title_font)
    y += TITLE_H
    sub = " · ".join(p for p in (picture.date, picture.variant) if p)
    sub_font, sub = fit_font("regular", sub, (x1 - x0) * (0.62 if picture.status else 1.0), 32, 22, font_dir)
    board.text((x0, y), sub, sub_font)
    if picture.status:
        st_font, status = fit_font("regular", picture.status, (x1 - x0) * 0.36, 30, 20, font_dir)
        board.text((x1, y), status, st_font, anchor="ra", colour=YELLOW)
    return GRID_TOP


def _names(board: Chalkboard, picture: SlatePicture, g: _Grid, y: float, font_dir: Path) -> None:
    """The names across the top; a long team on two lines; the winners underlined."""
    room = g.col_w - 30
    for c, name in enumerate(picture.columns):
        cx = g.col_x(c) + g.col_w / 2
        f, shown = fit_font("bold", name, room, 40, 20, font_dir)
        width = text_width(f, shown)
        under = y + HEADER_H - 12
        if getattr(f, "size", 40) < 32 and " & " in name:  # one partner per line
            first, second = name.split(" & ", 1)
            f, top = fit_font("bold", first + " &", room, 32, 18, font_dir)
            f2, bottom = fit_font("bold", second, room, getattr(f, "size", 32), 18, font_dir)
            board.text((cx, y + 38), top, f, anchor="md")
            board.text((cx, y + 42), bottom, f2, anchor="ma")
            width, under = text_width(f2, bottom), y + HEADER_H - 4
        else:
            board.text((cx, y + HEADER_H / 2), shown, f, anchor="mm")
        if c in picture.highlight:
            half = min(width, room) / 2
            board.squiggle(cx - half, cx + half, under)


def _label(
    board: Chalkboard,
    row_label: str,
    factor: str,
    g: _Grid,
    y: float,
    h: float,
    font_dir: Path,
    cut: bool = False,
    colour: tuple[int, int, int] = WHITE,
) -> None:
    """A row name in the margin, its factor at the right; a ✂ where a tie was cut."""
    right_w = (56 if factor else 0) + (34 if cut else 0)
    f, shown = fit_font("condensed", row_label, g.label_w - right_w - 20, 36, 20, font_dir)
    mid = y + h / 2
    board.text((g.left + 6, mid), shown, f, anchor="lm", colour=colour)
    if factor:
        board.text((g.left + g.label_w - 12, mid), factor, font("regular", 28, font_dir), anchor="rm")
    if cut:
        board.text(
            (g.left + g.label_w - 14 - (56 if factor else 0), mid),
            CUT,
            font("regular", 30, font_dir),
            anchor="rm",
            colour=YELLOW,
        )


def _marks(board: Chalkboard, marks: Marks, x0: float, x1: float, cy: float, scale: float = 1.0) -> None:
    """Sticks, then potatoes, then crossed pairs, side by side, squeezed to fit ``x0..x1``."""
    if marks.empty:
        return
    step = min(MARK_W * scale, (x1 - x0) / marks.count)
    size = min(scale, step / MARK_W + 0.25)
    x = x0 + step / 2
    for _ in range(marks.sticks):
        board.stick(x, cy - 24 * size, 48 * size)
        x += step
    for _ in range(marks.potatoes):
        board.potato(x, cy, 13 * size)
        x += step
    for _ in range(marks.crossed):
        board.crossed(x, cy, 13 * size)
        x += step


def _cell(
    board: Chalkboard, row: PictureRow, c: int, g: _Grid, y: float, h: float, with_marks: bool, font_dir: Path
) -> None:
    x = g.col_x(c)
    text = row.cells[c]
    note = row.notes[c] if row.notes else ""
    marks = row.marks[c] if row.marks else None
    mid = y + (h / 2 if not note else 32)
    if with_marks:
        split = x + g.col_w * 0.54
        f, shown = fit_font("bold", text, split - x - 12, 44, 22, font_dir)
        board.text((split - 10, mid), shown, f, anchor="rm")
        if marks is not None:
            _marks(board, marks, split + 2, x + g.col_w - 14, mid)
    else:
        f, shown = fit_font("bold", text, g.col_w - 16, 44, 22, font_dir)
        board.text((x + g.col_w / 2, mid), shown, f, anchor="mm")
    if note:
        nf, note_shown = fit_font("regular", note, g.col_w - 12, 25, 15, font_dir)
        board.text((x + g.col_w / 2, y + h - 14), note_shown, nf, anchor="ms")


def _grid_lines(
    board: Chalkboard, picture: SlatePicture, g: _Grid, top: float, breaks: list[tuple[float, int]], bottom: float
) -> None:
    """Horizontal lines under the rows (``breaks``: y and width), verticals between columns."""
    for y, width in breaks:
        board.hline(g.left, g.right, y, width)
    board.vline(g.left + g.label_w, top + 6, bottom, 5)
    for c in range(1, len(picture.columns)):
        board.vline(g.col_x(c), top + 10, bottom, 3)


def render_image(picture: SlatePicture, *, font_dir: Path = FONT_DIR) -> Image.Image:
    """The slate as a Pillow RGB image (``render_slate`` encodes it)."""
    height = _height(picture, font_dir)
    board = Chalkboard(WIDTH, height, seed=_seed(picture), frame=FRAME)
    g = _grid(picture, font_dir)
    y = _header(board, picture, font_dir)
    top = y
    _names(board, picture, g, y, font_dir)
    y += HEADER_H
    breaks: list[tuple[float, int]] = [(y, 5)]
    with_marks = _has_marks(picture)
    for row in picture.rows:
        h = _row_height(row)
        _label(board, row.label, row.factor, g, y, h, font_dir, cut=bool(row.cut))
        for c in range(len(picture.columns)):
            _cell(board, row, c, g, y, h, with_marks, font_dir)
        y += h
        breaks.append((y, 6 if row.group_end else 2))
    if picture.match:
        _label(board, picture.match_label, "", g, y, ROW_H, font_dir)
        for c, m in enumerate(picture.match):
            _marks(board, m, g.col_x(c) + 14, g.col_x(c) + g.col_w - 14, y + ROW_H / 2, scale=1.2)
        y += ROW_H
        breaks.append((y, 2))
    breaks[-1] = (breaks[-1][0], 6)
    y += 10
    breaks.append((y, 3))  # a double line above the totals
    _label(board, picture.totals_label, "", g, y, ROW_H, font_dir)
    for c, total in enumerate(picture.totals):
        f, shown = fit_font("bold", total, g.col_w - 16, 46, 22, font_dir)
        board.text(
            (g.col_x(c) + g.col_w / 2, y + ROW_H / 2), shown, f, anchor="mm", colour=WHITE if picture.net else YELLOW
        )
    y += ROW_H
    if picture.net:
        breaks.append((y, 2))
        _label(board, picture.net_label, "", g, y, ROW_H, font_dir, colour=YELLOW)
        for c, net in enumerate(picture.net):
            f, shown = fit_font("bold", net, g.col_w - 16, 52, 22, font_dir)
            board.text((g.col_x(c) + g.col_w / 2, y + ROW_H / 2), shown, f, anchor="mm", colour=YELLOW)
        y += ROW_H
    _grid_lines(board, picture, g, top, breaks, y)
    footer = _footer(picture, font_dir)
    if footer:
        y += 30
        for line in footer:
            f, shown = fit_font(line.style, line.text, g.right - g.left, line.size, 16, font_dir)
            board.text((g.left, y + line.height / 2), shown, f, anchor="lm", colour=line.colour)
            y += line.height
    return board.finish()


def render_slate(picture: SlatePicture, *, font_dir: Path = FONT_DIR) -> bytes:
    """The slate as PNG bytes, 1080 pixels wide; the same picture gives the same bytes.

    Stored with the slate's palette (``chalk.to_palette``): ~350 KB instead of ~1.3 MB.
    """
    out = io.BytesIO()
    to_palette(render_image(picture, font_dir=font_dir)).save(out, format="PNG", optimize=False, compress_level=6)
    return out.getvalue()


def picture_height(picture: SlatePicture, *, font_dir: Path = FONT_DIR) -> int:
    """The height ``render_slate`` gives the picture (it depends on the rows and the lines below)."""
    return _height(picture, font_dir)
