"""The server-side SVG charts (`rankings.charts`): well-formed XML, escaped texts, a hover
title per point or bar, no inline styles, a line of text when there is no data."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import pytest
from django.utils import translation
from django.utils.safestring import SafeString

from rankings.charts import BarGroup, LinePoint, Series, bar_chart, line_chart, number, thin, ticks

SVG = "{http://www.w3.org/2000/svg}"
EVIL = '<script>alert("x")</script> & co'


def parsed(markup: str) -> ET.Element:
    return ET.fromstring(markup)


def line(values: list[float]) -> SafeString:
    return line_chart(
        [
            LinePoint(value, f"d{index}", f"point {index}: {value}")
            for index, value in enumerate(values)
        ],
        title="Rating",
        empty_text="Nothing yet.",
    )


def bars(groups: int, series: int = 2) -> SafeString:
    return bar_chart(
        [
            BarGroup(
                f"g{g}",
                tuple(float(g + s) for s in range(series)),
                tuple(f"g{g}s{s}" for s in range(series)),
            )
            for g in range(groups)
        ],
        series=[Series(f"series {s}", "#123456") for s in range(series)],
        title="Bars",
        empty_text="Nothing yet.",
    )


@pytest.mark.parametrize("values", [[1.0], [3.0, 3.0], [-2.5, 0.0, 7.25, 4.0], list(range(300))])
def test_a_line_chart_is_valid_svg_with_a_title_per_point(values: list[float]) -> None:
    chart = parsed(line(values))

    assert chart.tag == f"{SVG}svg"
    assert chart.get("viewBox") == "0 0 400 220"
    assert chart.get("width") == "100%"
    assert chart.find(f"{SVG}title").text == "Rating"  # type: ignore[union-attr]
    circles = list(chart.iter(f"{SVG}circle"))
    assert [c.find(f"{SVG}title").text for c in circles] == [  # type: ignore[union-attr]
        f"point {index}: {value}" for index, value in enumerate(values)
    ]
    assert len(list(chart.iter(f"{SVG}polyline"))) == 1


def test_a_line_chart_rises_where_the_values_rise() -> None:
    chart = parsed(line([1.0, 5.0, 3.0]))

    heights = [float(c.get("cy", "0")) for c in chart.iter(f"{SVG}circle")]
    assert heights[1] < heights[2] < heights[0]  # SVG's y grows downwards


def test_a_bar_chart_has_a_bar_with_a_title_per_value_and_a_legend() -> None:
    chart = parsed(bars(3, series=2))

    rects = list(chart.iter(f"{SVG}rect"))
    legend, drawn = rects[:2], rects[2:]
    assert all(r.find(f"{SVG}title") is None for r in legend)
    assert [r.find(f"{SVG}title").text for r in drawn] == [  # type: ignore[union-attr]
        "g0s0", "g0s1", "g1s0", "g1s1", "g2s0", "g2s1",
    ]  # fmt: skip
    texts = [t.text for t in chart.iter(f"{SVG}text")]
    assert "series 0" in texts and "series 1" in texts
    assert {"g0", "g1", "g2"} <= set(texts)


def test_a_taller_value_is_a_taller_bar() -> None:
    chart = parsed(bars(2, series=1))

    heights = [float(r.get("height", "0")) for r in chart.iter(f"{SVG}rect")]
    assert heights[0] == 0 and heights[1] > 0  # values 0 and 1


def test_a_single_series_has_no_legend() -> None:
    chart = parsed(bars(2, series=1))

    assert len(list(chart.iter(f"{SVG}rect"))) == 2


def test_many_x_labels_are_thinned_so_they_dont_overlap() -> None:
    chart = parsed(bars(40, series=1))

    labels = [t for t in chart.iter(f"{SVG}text") if (t.text or "").startswith("g")]
    assert 2 <= len(labels) < 40


def test_texts_are_escaped_and_stay_text() -> None:
    markup = line_chart([LinePoint(1.0, EVIL, EVIL)], title=EVIL, empty_text="-")
    chart = parsed(markup)

    assert "<script>" not in markup
    assert chart.get("aria-label") == EVIL
    assert chart.find(f"{SVG}title").text == EVIL  # type: ignore[union-attr]
    assert list(chart.iter(f"{SVG}script")) == []
    bar = parsed(
        bar_chart(
            [BarGroup(EVIL, (1.0,), (EVIL,))],
            series=[Series(EVIL, "#000")],
            title=EVIL,
            empty_text="-",
        )
    )
    assert bar.find(f"{SVG}rect/{SVG}title").text == EVIL  # type: ignore[union-attr]


@pytest.mark.parametrize("markup", [line([2.0, -1.0]), bars(3, series=3)])
def test_charts_use_no_inline_style_or_script(markup: SafeString) -> None:
    assert isinstance(markup, SafeString)
    for element in parsed(markup).iter():
        assert "style" not in element.attrib
        assert not any(name.startswith("on") for name in element.attrib)
        assert element.tag not in (f"{SVG}script", f"{SVG}style")


def test_no_data_is_a_line_of_text_not_a_chart() -> None:
    for markup in (
        line_chart([], title="Rating", empty_text="No <rated> games yet."),
        bar_chart(
            [], series=[Series("a", "#000")], title="Bars", empty_text="No <rated> games yet."
        ),
    ):
        assert "<svg" not in markup
        paragraph = parsed(markup)
        assert paragraph.tag == "p"
        assert paragraph.text == "No <rated> games yet."


def test_a_bar_group_must_fit_the_series() -> None:
    with pytest.raises(ValueError, match="one value and one title per series"):
        bar_chart(
            [BarGroup("x", (1.0,), ("a",))],
            series=[Series("a", "#000"), Series("b", "#111")],
            title="t",
            empty_text="e",
        )


@pytest.mark.parametrize(
    ("low", "high", "expected"),
    [
        (0, 4, [0, 1, 2, 3, 4]),
        (0, 20, [0, 5, 10, 15, 20]),
        (0, 1, [0, 0.25, 0.5, 0.75, 1]),
        (-3.2, 7.9, [-5, 0, 5, 10]),
        (5, 5, [4, 4.5, 5, 5.5, 6]),
        (0, 37, [0, 10, 20, 30, 40]),
    ],
)
def test_y_ticks_are_round_numbers_around_the_values(
    low: float, high: float, expected: list[float]
) -> None:
    assert ticks(low, high) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("count", "limit", "expected"),
    [(3, 5, [0, 1, 2]), (10, 2, [0, 9]), (10, 4, [0, 3, 6, 9]), (7, 7, list(range(7)))],
)
def test_thin_keeps_the_first_and_last_evenly_spread(
    count: int, limit: int, expected: list[int]
) -> None:
    assert thin(list(range(count)), limit) == expected


def x_labels(chart: ET.Element) -> list[tuple[float, float, str]]:
    """The x-axis labels of `chart` as (start, end, text), by the charts' own width rule."""
    from rankings.charts import BOTTOM, CHAR_WIDTH, FONT, HEIGHT

    found = []
    for text in chart.iter(f"{SVG}text"):
        if text.get("y") != str(HEIGHT - BOTTOM + FONT + 6):
            continue
        x, width = float(text.get("x", "0")), len(text.text or "") * CHAR_WIDTH
        start = {"start": x, "end": x - width}.get(text.get("text-anchor", ""), x - width / 2)
        found.append((start, start + width, text.text or ""))
    return found


@pytest.mark.parametrize("count", [2, 7, 60, 200])
def test_date_labels_never_overlap_and_the_latest_is_shown(count: int) -> None:
    points = [LinePoint(float(i), f"{i % 28 + 1:02}/10/2026", "t") for i in range(count)]

    labels = x_labels(parsed(line_chart(points, title="t", empty_text="e")))

    assert labels[-1][2] == points[-1].label
    assert labels[0][2] == points[0].label
    assert all(first[1] < second[0] for first, second in itertools.pairwise(labels))
    assert all(start >= 0 and end <= 400 for start, end, _ in labels)


def test_counts_are_marked_in_whole_numbers() -> None:
    chart = parsed(
        bar_chart(
            [BarGroup("a", (2.0,), ("t",))], series=[Series("s", "#000")], title="t", empty_text="e"
        )
    )

    marks = [t.text for t in chart.iter(f"{SVG}text") if t.get("text-anchor") == "end"]
    assert marks == ["0", "1", "2"]


@pytest.mark.parametrize(
    ("value", "english", "dutch"),
    [
        (2.5, "2.5", "2,5"),
        (3.0, "3", "3"),
        (-1.25, "\u22121.25", "\u22121,25"),
        (0.1 + 0.2, "0.3", "0,3"),  # 0.30000000000000004: no float noise
        (-0.0, "0", "0"),
        (1500.0, "1500", "1500"),
    ],
)
def test_tick_labels_are_written_in_the_pages_language(value, english, dutch) -> None:
    with translation.override("en"):
        assert number(value) == english
    with translation.override("nl"):
        assert number(value) == dutch
