"""Charts drawn on the server: SVG for the pages, PNG (Pillow) for sharing.

No JavaScript, no ``style`` attribute, no ``<style>`` element (a strict
Content-Security-Policy forbids inline style): only SVG presentation attributes
(``fill=``, ``stroke=``...). 360 px wide (the phone), scaling with ``width="100%"``.
Colour is never the only cue: every line has its own marker shape and dash pattern,
every bar series its own fill pattern, and a legend names them; values are written as
text where they fit. Each chart also gives its table alternative (``table()``).

One geometry, two painters: ``line_scene`` / ``bar_scene`` lay a chart out as plain
shapes (``Scene``); ``chart_paint.svg`` and ``chart_paint.png`` only paint them. Every text is passed in
already translated; numbers are formatted by the caller's ``value_format``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Final, Generic, Literal, TypeVar, overload

if TYPE_CHECKING:  # pragma: no cover
    from datetime import datetime

    from ..game.contracts import Kind
    from ..history.series import BarSet, SeriesSet

WIDTH: Final = 360
RGB = tuple[int, int, int]
# Okabe-Ito: told apart also with the common colour-vision deficiencies.
PALETTE: Final[tuple[RGB, ...]] = (
    (0, 114, 178),
    (213, 94, 0),
    (0, 158, 115),
    (204, 121, 167),
    (230, 159, 0),
    (86, 180, 233),
    (0, 0, 0),
    (153, 102, 51),
)
MARKERS: Final = ("circle", "square", "triangle", "diamond", "down", "plus", "cross", "star")
DASHES: Final[tuple[tuple[int, ...], ...]] = ((), (6, 3), (2, 3), (8, 3, 2, 3))
PATTERNS: Final = ("solid", "stripes", "grid", "dots")
INK: Final[RGB] = (34, 34, 34)
GRID: Final[RGB] = (214, 214, 214)
FONT: Final = "DejaVu Sans, Verdana, sans-serif"


def _number(value: float) -> str:
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}"


@dataclass(frozen=True, slots=True)
class ChartSeries:
    label: str
    values: tuple[float | None, ...]
    low: tuple[float | None, ...] | None = None  # a band of uncertainty, drawn faintly
    high: tuple[float | None, ...] | None = None
    notes: tuple[str, ...] = ()  # bar charts: a small note per value ("12 hands")


T = TypeVar("T")


class _Unmade(Enum):
    """The mark of an item not made yet (an enum member, so ``is`` tells the type checker too)."""

    UNMADE = 0


_UNMADE: Final = _Unmade.UNMADE


class Lazy(Sequence[T], Generic[T]):
    """A tuple whose item ``i`` is ``make(i)``, made when first read and kept: a season's
    500 dates and its table's 4 000 numbers are formatted only where a page shows them
    (the x axis names three; a table page holds 20 rows). Compares as the tuple it stands for."""

    __slots__ = ("_make", "_items")

    def __init__(self, n: int, make: Callable[[int], T]) -> None:
        self._make = make
        self._items: list[T | _Unmade] = [_UNMADE] * n

    def _at(self, i: int) -> T:
        item = self._items[i]
        if item is _UNMADE:
            item = self._items[i] = self._make(i if i >= 0 else len(self._items) + i)
        return item

    @overload
    def __getitem__(self, i: int) -> T: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[T, ...]: ...
    def __getitem__(self, i: int | slice) -> T | tuple[T, ...]:
        if isinstance(i, slice):
            return tuple(self._at(k) for k in range(*i.indices(len(self._items))))
        return self._at(i)

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[T]:
        return (self._at(k) for k in range(len(self._items)))

    def newest_first(self) -> Lazy[T]:
        """The same items, last first (made through this one, so each is made once)."""
        n = len(self._items)
        return Lazy(n, lambda i: self._at(n - 1 - i))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Lazy | tuple):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Lazy({len(self._items)} items)"


def _cell(value: float | None, fmt: Callable[[float], str]) -> str:
    return "" if value is None else fmt(value)


@dataclass(frozen=True, slots=True)
class LineChart:
    title: str
    description: str  # one sentence for screen readers
    x_labels: Sequence[str]  # one per point (a Lazy: formatted where shown)
    series: tuple[ChartSeries, ...]
    value_format: Callable[[float], str] = _number
    zero_line: bool = False  # draw the zero line firmly (money)

    def table(self) -> tuple[tuple[str, ...], Lazy[tuple[str, ...]]]:
        """(header, rows): one row per point, one column per series (each row formatted
        when first read)."""
        header = ("", *(s.label for s in self.series))

        def row(i: int) -> tuple[str, ...]:
            return (self.x_labels[i], *(_cell(s.values[i], self.value_format) for s in self.series))

        return header, Lazy(len(self.x_labels), row)


@dataclass(frozen=True, slots=True)
class BarChart:
    """Horizontal bars: per category (a contract) one bar per series (a player)."""

    title: str
    description: str
    categories: tuple[str, ...]
    series: tuple[ChartSeries, ...]
    value_format: Callable[[float], str] = _number

    def table(self) -> tuple[tuple[str, ...], Lazy[tuple[str, ...]]]:
        header = ("", *(s.label for s in self.series))

        def row(i: int) -> tuple[str, ...]:
            cells = []
            for s in self.series:
                v = s.values[i]
                text = "" if v is None else self.value_format(v)
                if v is not None and s.notes and s.notes[i]:
                    text += f" ({s.notes[i]})"
                cells.append(text)
            return (self.categories[i], *cells)

        return header, Lazy(len(self.categories), row)


# --- the scene ------------------------------------------------------------------------
Anchor = Literal["start", "middle", "end"]


@dataclass(frozen=True, slots=True)
class Text:
    x: float
    y: float  # baseline
    text: str
    size: int = 11
    anchor: Anchor = "start"
    bold: bool = False
    fill: RGB = INK


@dataclass(frozen=True, slots=True)
class Line:
    points: tuple[tuple[float, float], ...]
    stroke: RGB
    width: float = 2.0
    dash: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Area:
    points: tuple[tuple[float, float], ...]
    fill: RGB
    opacity: float = 0.15


@dataclass(frozen=True, slots=True)
class Bar:
    x: float
    y: float
    w: float
    h: float
    fill: RGB
    pattern: str = "solid"


@dataclass(frozen=True, slots=True)
class Marker:
    shape: str
    x: float
    y: float
    fill: RGB
    r: float = 3.5


Shape = Text | Line | Area | Bar | Marker


@dataclass(slots=True)
class Scene:
    width: float
    height: float
    title: str
    description: str
    shapes: list[Shape] = field(default_factory=list)


def _text_width(text: str, size: int) -> float:
    """About how wide a text is (DejaVu Sans averages ~0.6 em)."""
    return len(text) * size * 0.6


def nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """Round tick values covering [lo, hi] (steps of 1, 2 or 5 times a power of ten): at least
    two, at most ``count + 3``, whatever the values (a span too narrow for the floats' precision
    at that size is widened, a value that is not finite taken as 0, none beyond 1e300)."""
    lo, hi = (max(-1e300, min(1e300, v)) if math.isfinite(v) else 0.0 for v in (lo, hi))
    lo, hi = min(lo, hi), max(lo, hi)
    least = max(1.0, abs(lo), abs(hi)) * 1e-9
    if hi - lo < least:
        pad = max(1.0, least)  # one either side of a single value, as far as floats tell there
        lo, hi = lo - pad, hi + pad
    raw = (hi - lo) / max(1, count - 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    start = math.floor(lo / step) * step
    ticks = [round(start, 10)]
    while ticks[-1] < hi and len(ticks) < count + 3:
        ticks.append(round(start + len(ticks) * step, 10))
    return ticks


def _legend(scene: Scene, top: float, series: Sequence[ChartSeries], line: bool) -> float:
    y = top
    for i, s in enumerate(series):
        colour = PALETTE[i % len(PALETTE)]
        if line:
            scene.shapes.append(Line(((12, y - 4), (36, y - 4)), colour, 2.0, DASHES[i % len(DASHES)]))
            scene.shapes.append(Marker(MARKERS[i % len(MARKERS)], 24, y - 4, colour))
        else:
            scene.shapes.append(Bar(12, y - 10, 24, 11, colour, PATTERNS[i % len(PATTERNS)]))
        scene.shapes.append(Text(44, y, s.label, 12))
        y += 20
    return y


def line_scene(chart: LineChart) -> Scene:
    n = len(chart.x_labels)
    values = [
        v for s in chart.series for seq in (s.values, s.low or (), s.high or ()) for v in seq if v is not None
    ] or [0.0]
    lo, hi = min(values), max(values)
    if chart.zero_line:
        lo, hi = min(lo, 0.0), max(hi, 0.0)
    ticks = nice_ticks(lo, hi)
    labels = [chart.value_format(t) for t in ticks]
    left = 10 + max(_text_width(t, 11) for t in labels) + 6
    right, top, plot_h = WIDTH - 12, 34.0, 190.0
    bottom = top + plot_h
    scene = Scene(WIDTH, 0, chart.title, chart.description)
    scene.shapes.append(Text(10, 20, chart.title, 14, bold=True))

    def sx(i: int) -> float:
        return (left + right) / 2 if n <= 1 else left + (right - left) * i / (n - 1)

    def sy(v: float) -> float:
        return bottom - (v - ticks[0]) / (ticks[-1] - ticks[0]) * plot_h

    for t, label in zip(ticks, labels, strict=True):
        firm = chart.zero_line and t == 0
        scene.shapes.append(Line(((left, sy(t)), (right, sy(t))), INK if firm else GRID, 1.5 if firm else 1.0))
        scene.shapes.append(Text(left - 6, sy(t) + 4, label, 11, "end"))
    # first, middle, last: three dates of the medium length fit 360 px without touching
    shown = sorted({0, (n - 1) // 2, n - 1}) if n > 1 else [0] * n
    for j, i in enumerate(shown):
        anchor: Anchor = "start" if j == 0 and len(shown) > 1 else "end" if j == len(shown) - 1 else "middle"
        scene.shapes.append(Text(sx(i), bottom + 16, chart.x_labels[i], 11, anchor))
    step = max(1, math.ceil(n / 10))
    for k, s in enumerate(chart.series):
        colour = PALETTE[k % len(PALETTE)]
        if s.low is not None and s.high is not None:
            band = [
                (i, lo_, hi_)
                for i, (lo_, hi_) in enumerate(zip(s.low, s.high, strict=True))
                if lo_ is not None and hi_ is not None
            ]
            if band:
                upper = [(sx(i), sy(hi_)) for i, _lo, hi_ in band]
                lower = [(sx(i), sy(lo_)) for i, lo_, _hi in reversed(band)]
                scene.shapes.append(Area(tuple(upper + lower), colour))
        run: list[tuple[float, float]] = []
        for i in range(n + 1):
            v = s.values[i] if i < n else None
            if v is not None:
                run.append((sx(i), sy(v)))
            elif run:
                scene.shapes.append(Line(tuple(run), colour, 2.0, DASHES[k % len(DASHES)]))
                run = []
        last = max((i for i in range(n) if s.values[i] is not None), default=None)
        for i in range(n):
            v = s.values[i]
            if v is not None and ((i + k) % step == 0 or i == last):
                scene.shapes.append(Marker(MARKERS[k % len(MARKERS)], sx(i), sy(v), colour))
    scene.height = _legend(scene, bottom + 42, chart.series, line=True) + 4
    return scene


def bar_scene(chart: BarChart) -> Scene:
    values = [v for s in chart.series for v in s.values if v is not None] or [0.0]
    top_value = nice_ticks(0.0, max(max(values), 1.0))[-1]
    scene = Scene(WIDTH, 0, chart.title, chart.description)
    scene.shapes.append(Text(10, 20, chart.title, 14, bold=True))
    left, room = 12.0, WIDTH - 12.0 - 96.0  # keep room for the value written after the bar
    y = 40.0
    for i, category in enumerate(chart.categories):
        scene.shapes.append(Text(left, y + 10, category, 12, bold=True))
        y += 16
        for k, s in enumerate(chart.series):
            v = s.values[i]
            colour = PALETTE[k % len(PALETTE)]
            w = 0.0 if v is None else max(1.0, room * v / top_value)
            if v is not None:
                scene.shapes.append(Bar(left, y, w, 12, colour, PATTERNS[k % len(PATTERNS)]))
                note = f" ({s.notes[i]})" if s.notes and s.notes[i] else ""
                scene.shapes.append(Text(left + w + 6, y + 10, chart.value_format(v) + note, 11))
            else:
                scene.shapes.append(Text(left, y + 10, "–", 11))
            y += 16
        y += 8
    scene.height = (_legend(scene, y + 14, chart.series, line=False) if len(chart.series) > 1 else y) + 4
    return scene


# --- from the history's numbers -----------------------------------------------------------
def line_chart(
    data: SeriesSet,
    *,
    title: str,
    description: str,
    x_format: Callable[[datetime | None], str],
    value_format: Callable[[float], str] = _number,
    zero_line: bool = False,
) -> LineChart:
    """A line chart of ``history.series`` data (money or rating over time)."""
    xs = data.x
    return LineChart(
        title,
        description,
        Lazy(len(xs), lambda i: x_format(xs[i])),
        tuple(ChartSeries(s.label, s.values, s.low, s.high) for s in data.series),
        value_format,
        zero_line,
    )


def bar_chart(
    data: BarSet,
    *,
    title: str,
    description: str,
    category: Callable[[Kind], str],
    hands_note: Callable[[int], str],
    value_format: Callable[[float], str] = _number,
) -> BarChart:
    """Average card points per contract (``history.series.contract_points``)."""
    return BarChart(
        title,
        description,
        tuple(category(k) for k in data.categories),
        tuple(
            ChartSeries(s.label, s.values, notes=tuple(hands_note(n) if n else "" for n in hands))
            for s, hands in zip(data.series, data.hands, strict=True)
        ),
        value_format,
    )
