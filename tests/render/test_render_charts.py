"""Charts: SVG that a strict Content-Security-Policy accepts, PNG for sharing, tables."""

from __future__ import annotations

import io
import math
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image
from shared_helpers import cpu_budget

from scorekeeper.history.housekeeping import view
from scorekeeper.history.ratings import Ladder, ratings
from scorekeeper.history.sample import sample_circle
from scorekeeper.history.series import contract_points, money_over_time, rating_over_time
from scorekeeper.history.stats import circle_stats
from scorekeeper.render.chart_paint import _dashed, png, svg
from scorekeeper.render.charts import (
    DASHES,
    MARKERS,
    PALETTE,
    BarChart,
    ChartSeries,
    LineChart,
    Marker,
    Scene,
    Text,
    bar_chart,
    bar_scene,
    line_chart,
    line_scene,
    nice_ticks,
)

SVG = "{http://www.w3.org/2000/svg}"
VIEW = view(sample_circle(5, evenings=40, players=5))


def chf(rappen: float) -> str:
    return f"{rappen / 100:.2f}"


def money() -> LineChart:
    return line_chart(
        money_over_time(VIEW),
        title="Net money <season> & more",
        description="Each player's running net money after every evening.",
        x_format=lambda d: d.strftime("%d.%m.") if d else "",
        value_format=chf,
        zero_line=True,
    )


def rating() -> LineChart:
    ladder = ratings(VIEW)[Ladder.TEAM]
    return line_chart(
        rating_over_time(ladder, [p.player for p in ladder.players[:3]]),
        title="Rating",
        description="d",
        x_format=lambda d: d.strftime("%d.%m.") if d else "",
    )


def bars() -> BarChart:
    stats = circle_stats(VIEW)
    return bar_chart(
        contract_points(stats, ["p1", "p2", "p3"]),
        title="Card points per contract",
        description="d",
        category=lambda k: k.value,
        hands_note=lambda n: f"{n} hands",
    )


CHARTS = [(money, line_scene), (rating, line_scene), (bars, bar_scene)]


@pytest.mark.parametrize(("make", "scene_of"), CHARTS)
def test_svg_needs_no_script_and_no_inline_style(make: Callable[[], Any], scene_of: Callable[[Any], Scene]) -> None:
    chart = make()
    text = svg(scene_of(chart), id_prefix="c1")
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg" and root.get("role") == "img" and root.get("width") == "100%"
    assert root.get("viewBox", "").startswith("0 0 360 ")
    assert root.get("aria-labelledby") == "c1-title c1-desc"
    assert root.find(f"{SVG}title").text == chart.title  # type: ignore[union-attr]  # escaped on the way in, read back as written
    for el in root.iter():
        assert el.tag not in (f"{SVG}style", f"{SVG}script", f"{SVG}foreignObject")
        assert "style" not in el.attrib
        assert not any(name.startswith("on") for name in el.attrib)
        assert not any("javascript:" in v for v in el.attrib.values())
    texts = [t.text for t in root.iter(f"{SVG}text")]
    for s in chart.series:
        assert s.label in texts  # a legend names every series


def test_lines_differ_by_more_than_colour() -> None:
    chart = money()
    scene = line_scene(chart)
    shapes_per_colour: dict[object, set[object]] = {}
    for m in scene.shapes:
        if isinstance(m, Marker):
            shapes_per_colour.setdefault(m.fill, set()).add(m.shape)
    assert len(shapes_per_colour) == len(chart.series) == 5
    assert all(len(shapes) == 1 for shapes in shapes_per_colour.values())
    assert len({next(iter(s)) for s in shapes_per_colour.values()}) == 5  # five marker shapes
    assert len(set(DASHES)) == len(DASHES) and len(set(MARKERS)) == len(MARKERS) == len(PALETTE)


@pytest.mark.parametrize(("make", "scene_of"), CHARTS)
def test_png_for_sharing(make: Callable[[], Any], scene_of: Callable[[Any], Scene]) -> None:
    scene = scene_of(make())
    data = png(scene)
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.size == (720, round(scene.height * 2))
    assert png(scene) == data  # the same chart gives the same bytes
    colours = {c for _, c in image.convert("RGB").getcolors(1 << 20)}  # type: ignore[union-attr]  # under 2**20 colours
    assert PALETTE[0] in colours and (255, 255, 255) in colours


def test_the_table_alternative() -> None:
    chart = money()
    header, rows = chart.table()
    assert header == ("", *(s.label for s in chart.series))
    assert len(rows) == len(chart.x_labels) and all(len(r) == len(header) for r in rows)
    last = rows[-1]
    stats = circle_stats(VIEW)
    assert last[1:] == tuple(chf(stats.player(s.key).net_rappen) for s in money_over_time(VIEW).series)
    header, rows = bars().table()
    assert rows[0][1].endswith(" hands)") and len(header) == 4


def test_small_and_empty_charts_draw() -> None:
    one = LineChart("t", "d", ("1.1.",), (ChartSeries("Ann", (5.0,)),))
    none = LineChart("t", "d", (), ())
    gaps = LineChart("t", "d", ("a", "b", "c"), (ChartSeries("Ann", (None, 2.0, None)),))
    for chart in (one, none, gaps):
        ET.fromstring(svg(line_scene(chart)))
        png(line_scene(chart))
    empty_bar = BarChart("t", "d", ("Obenabe",), (ChartSeries("Ann", (None,)),))
    scene = bar_scene(empty_bar)
    assert any(isinstance(s, Text) and s.text == "–" for s in scene.shapes)
    png(scene)


def test_nice_ticks_cover_the_range() -> None:
    for lo, hi in [(0, 1), (-4321, 2500), (17.5, 32.1), (5, 5), (0, 157)]:
        ticks = nice_ticks(lo, hi)
        assert ticks[0] <= lo and ticks[-1] >= hi and 2 <= len(ticks) <= 8
        steps = {round(b - a, 6) for a, b in zip(ticks, ticks[1:], strict=False)}
        assert len(steps) == 1


def test_dashes_split_a_line_into_pieces() -> None:
    pieces = _dashed([(0, 0), (20, 0)], [6, 3])
    assert [(p[0][0], p[-1][0]) for p in pieces] == [(0, 6), (9, 15), (18, 20)]
    assert _dashed([(0, 0), (5, 5)], []) == [[(0, 0), (5, 5)]]


@pytest.mark.parametrize(
    ("lo", "hi"),
    [
        (1e17, 1e17 + 1),
        (1e17, 1e17),
        (0.0, 0.0),
        (-1e308, 1e308),
        (float("nan"), 1.0),
        (0.0, float("inf")),
        (3.0, -2.0),
    ],
)
def test_a_scale_has_few_ticks_whatever_the_values(lo: float, hi: float) -> None:
    """A stored extreme evening's money (or a value the floats cannot tell apart from the next)
    gives a scale of a few ticks, not an endless loop."""
    with cpu_budget(10.0):
        ticks = nice_ticks(lo, hi)
    assert 2 <= len(ticks) <= 8 and ticks == sorted(set(ticks))
    finite = [v for v in (lo, hi) if math.isfinite(v) and abs(v) < 1e300]
    if len(finite) == 2:
        assert ticks[0] <= min(finite) and ticks[-1] >= max(finite)
