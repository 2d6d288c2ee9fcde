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
import re
from dataclasses import dataclass, replace
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
HEADER_H: Final = 84  # the names (at least: long names take more lines)
NAME_LINE: Final = 1.2  # a name line's height, in font sizes
NAME_PAD: Final = 24  # above and below the names
NAME_MARGIN: Final = 20  # a column's names keep this much of its width free
MARK_W: Final = 38  # room per stick or potato
CUT: Final = "✂"  # marks a row whose tie was cut
# The most rows drawn (twice the most a variant has): a stored rule set of thousands of rows
# would otherwise ask for a picture hundreds of thousands of pixels high.
ROWS_DRAWN: Final = 24


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
    if picture.key:
        f = font("regular", 27, font_dir)
        out += [_Line(t, "regular", 27, WHITE, 38) for t in _wrap(picture.key, f, width)]
    cuts = [f"{CUT} {r.label}: {r.cut}" for r in picture.rows if r.cut]
    if cuts:
        out.append(_Line("", "regular", 10, WHITE, 14))
    for text in cuts:
        f = font("regular", 27, font_dir)
        out += [_Line(t, "regular", 27, WHITE, 38) for t in _wrap(text, f, width)]
    return out


def _height(picture: SlatePicture, font_dir: Path) -> int:
    h = GRID_TOP + header_height(picture, font_dir) + sum(_row_height(r) for r in picture.rows)
    h += ROW_H if picture.match else 0
    h += ROW_H if picture.seich else 0
    h += ROW_H + 10  # totals
    h += ROW_H if picture.net else 0
    footer = _footer(picture, font_dir)
    if footer:
        h += 30 + sum(line.height for line in footer)
    return h + PAD + FRAME


def _grid(picture: SlatePicture, font_dir: Path) -> _Grid:
    left, right = FRAME + PAD, WIDTH - FRAME - PAD
    labels = [r.label for r in picture.rows]
    labels += [picture.totals_label, picture.match_label, picture.seich_label, picture.net_label]
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


@dataclass(frozen=True, slots=True)
class NameLines:
    """How a column's names are chalked: the font size and the lines, each of whole words."""

    size: int
    lines: tuple[str, ...]


def _wrap_name(text: str, f: Font, width: float) -> list[str]:
    """A name broken into lines no wider than ``width`` at its spaces and after its hyphens
    (``Maria-`` / ``Vittoria``), never inside a word (a word wider than ``width`` stays whole)."""
    lines: list[str] = []
    current = ""
    for part in re.findall(r"\S+?-(?=\S)|\S+", text):
        glue = "" if not current or current.endswith("-") else " "
        if current and text_width(f, current + glue + part) > width:
            lines.append(current)
            current = part
        else:
            current += glue + part
    return lines + [current] if current else lines


def _fits(f: Font, lines: list[str], room: float) -> bool:
    return all(text_width(f, line) <= room for line in lines)


def _layout(names: tuple[str, ...], size: int, room: float, font_dir: Path) -> list[str] | None:
    """``names`` chalked at ``size`` in the fewest lines that fit ``room``: on one line (``Anna &
    Cla``); else one player a line; else each name broken at its spaces and hyphens too; None
    when even that does not fit. Never cut, never broken inside a word."""
    f = font("bold", size, font_dir)
    one_each = [f"{n} &" for n in names[:-1]] + [names[-1]]
    choices = [[" & ".join(names)]]
    if size <= 36:
        choices.append(one_each)
    if size <= 32:
        choices.append([line for n in one_each for line in _wrap_name(n, f, room)])
    return next((lines for lines in choices if _fits(f, lines, room)), None)


SMALLEST_NAME: Final = 10


def name_lines(picture: SlatePicture, *, font_dir: Path = FONT_DIR) -> list[NameLines]:
    """Per column, how its names are chalked across the top: every column in one size, the
    largest in which each fits its column in the fewest lines (``_layout``). A word wider than
    its column even at the smallest size is the one thing that may reach past it (a name of 40
    letters without a space): it is still not cut."""
    g = _grid(picture, font_dir)
    room = g.col_w - NAME_MARGIN
    columns = [picture.names_of(c) for c in range(len(picture.columns))]
    size = next(
        (s for s in range(40, SMALLEST_NAME - 1, -2) if all(_layout(n, s, room, font_dir) for n in columns)),
        SMALLEST_NAME,
    )
    f = font("bold", size, font_dir)
    out = []
    for names in columns:
        lines = _layout(names, size, room, font_dir)
        if lines is None:  # too long even at the smallest size: whole words all the same
            lines = [line for n in [f"{n} &" for n in names[:-1]] + [names[-1]] for line in _wrap_name(n, f, room)]
        out.append(NameLines(size, tuple(lines)))
    return out


def header_height(picture: SlatePicture, font_dir: Path = FONT_DIR) -> int:
    """The height of the names across the top: ``HEADER_H``, more when a column needs more lines."""
    tallest = max(len(n.lines) * n.size * NAME_LINE for n in name_lines(picture, font_dir=font_dir))
    return max(HEADER_H, round(tallest + NAME_PAD))


def _names(board: Chalkboard, picture: SlatePicture, g: _Grid, y: float, font_dir: Path) -> None:
    """The names across the top, whole (a team's two on two lines where needed); the winners underlined."""
    room = g.col_w - NAME_MARGIN
    height = header_height(picture, font_dir)
    for c, fitted in enumerate(name_lines(picture, font_dir=font_dir)):
        cx = g.col_x(c) + g.col_w / 2
        f = font("bold", fitted.size, font_dir)
        step = fitted.size * NAME_LINE
        top = y + (height - step * len(fitted.lines)) / 2
        for i, line in enumerate(fitted.lines):
            board.text((cx, top + step * (i + 0.5)), line, f, anchor="mm")
        if c in picture.highlight:
            half = min(max(text_width(f, line) for line in fitted.lines), room) / 2
            board.squiggle(cx - half, cx + half, min(top + step * len(fitted.lines) + 4, y + height - 4))


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


def _counted_marks(board: Chalkboard, marks: Marks, x0: float, x1: float, cy: float, font_dir: Path) -> None:
    """More marks than ``MARKS_DRAWN``: each kind chalked once with its count (``| 1000``)."""
    kinds = [(n, kind) for n, kind in ((marks.sticks, 0), (marks.potatoes, 1), (marks.crossed, 2)) if n]
    room = (x1 - x0) / len(kinds)
    for i, (n, kind) in enumerate(kinds):
        x = x0 + i * room + 12
        if kind == 0:
            board.stick(x, cy - 18, 36)
        elif kind == 1:
            board.potato(x, cy, 10)
        else:
            board.crossed(x, cy, 10)
        f, shown = fit_font("regular", str(n), room - 30, 26, 12, font_dir)
        board.text((x + 14, cy), shown, f, anchor="lm")


def _marks(
    board: Chalkboard, marks: Marks, x0: float, x1: float, cy: float, scale: float = 1.0, font_dir: Path = FONT_DIR
) -> None:
    """Sticks, then potatoes, then crossed pairs, side by side, squeezed to fit ``x0..x1``; past
    ``MARKS_DRAWN`` of them, each kind once with its count."""
    if marks.empty:
        return
    if marks.counted:
        _counted_marks(board, marks, x0, x1, cy, font_dir)
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
            _marks(board, marks, split + 2, x + g.col_w - 14, mid, font_dir=font_dir)
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


def _bounded(picture: SlatePicture) -> SlatePicture:
    """The picture as drawn: at most ``ROWS_DRAWN`` rows (marks are bounded by ``_marks``)."""
    return picture if len(picture.rows) <= ROWS_DRAWN else replace(picture, rows=picture.rows[:ROWS_DRAWN])


def render_image(picture: SlatePicture, *, font_dir: Path = FONT_DIR) -> Image.Image:
    """The slate as a Pillow RGB image (``render_slate`` encodes it)."""
    picture = _bounded(picture)
    height = _height(picture, font_dir)
    board = Chalkboard(WIDTH, height, seed=_seed(picture), frame=FRAME)
    g = _grid(picture, font_dir)
    y = _header(board, picture, font_dir)
    top = y
    _names(board, picture, g, y, font_dir)
    y += header_height(picture, font_dir)
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
            _marks(board, m, g.col_x(c) + 14, g.col_x(c) + g.col_w - 14, y + ROW_H / 2, scale=1.2, font_dir=font_dir)
        y += ROW_H
        breaks.append((y, 2))
    if picture.seich:  # where each team's one Seich went
        _label(board, picture.seich_label, "", g, y, ROW_H, font_dir)
        for c, text in enumerate(picture.seich):
            f, shown = fit_font("regular", text or "–", g.col_w - 16, 30, 18, font_dir)
            board.text((g.col_x(c) + g.col_w / 2, y + ROW_H / 2), shown, f, anchor="mm", colour=WHITE)
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
    return _height(_bounded(picture), font_dir)
