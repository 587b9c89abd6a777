"""Small SVG charts drawn on the server (issue 10: "charts, served as SVG").

Each function takes plain numbers and texts and returns SVG markup to put in a page as is:
a `viewBox` and `width="100%"` (the page's CSS caps the width, `.chart` in troefclub.css),
axes with labels, and a `<title>` on every point or bar for a hover text. Only
presentation attributes (`fill`, `stroke`, `font-size` …): the Content-Security-Policy
forbids inline `style=""` and scripts. Every text is escaped here. No data: a line of
text instead of an empty chart.

The drawing is 400 units wide, so at a phone's 390 px a unit is about a pixel and the
11-unit labels stay readable.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from rankings.formats import decimal

WIDTH = 400
HEIGHT = 220
FONT = 11
# Room for the y labels (left), the x labels (bottom) and a legend (top, bar charts with
# more than one series).
LEFT, RIGHT, TOP, BOTTOM = 38, 10, 12, 30
LEGEND = 18
# An x label is kept when there is room for it: its characters at about 0.6 of the font.
CHAR_WIDTH = FONT * 0.6
LABEL_GAP = 8
T = TypeVar("T")

LINE_COLOUR = "#0d6efd"
AXIS_COLOUR = "#6c757d"
GRID_COLOUR = "#dee2e6"
TEXT_COLOUR = "#495057"


@dataclass(frozen=True, slots=True)
class LinePoint:
    """One point of a line chart: its `value` (y), its x-axis `label` (shown where there
    is room) and its hover `title`."""

    value: float
    label: str
    title: str


@dataclass(frozen=True, slots=True)
class Series:
    """One series of a bar chart: its `name` (legend) and `colour` (an SVG colour)."""

    name: str
    colour: str


@dataclass(frozen=True, slots=True)
class BarGroup:
    """One x position of a bar chart: its `label`, one value per series (`values`, not
    negative) and one hover text per value (`titles`)."""

    label: str
    values: tuple[float, ...]
    titles: tuple[str, ...]


def thin(items: Sequence[T], limit: int) -> list[T]:
    """At most `limit` (≥ 2) of `items`, evenly spread, the first and the last kept: a
    chart 400 units wide can't show more points than that anyway."""
    if len(items) <= limit:
        return list(items)
    last = len(items) - 1
    return [items[round(index * last / (limit - 1))] for index in range(limit)]


def number(value: float) -> str:
    """`value` as a tick label: no trailing zeros (at most 6 decimals), in the page's
    number format (Dutch "2,5") with a real minus sign, as the tables write numbers."""
    places = len(f"{round(value, 6):.6f}".rstrip("0").partition(".")[2])
    return decimal(value, places)


def ticks(low: float, high: float, *, count: int = 4, whole: bool = False) -> list[float]:
    """About `count` round y-axis values (steps of 1, 2, 2.5 or 5 times a power of ten)
    from at most `low` to at least `high`; `whole`: whole numbers only (counts)."""
    if high < low:
        low, high = high, low
    if high == low:
        low, high = low - 1, high + 1
    raw = (high - low) / count
    if whole:
        raw = max(raw, 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(
        m * magnitude
        for m in (1, 2, 2.5, 5, 10)
        if m * magnitude >= raw and not (whole and m * magnitude % 1)
    )
    start = math.floor(low / step) * step
    end = math.ceil(high / step) * step
    return [start + index * step for index in range(round((end - start) / step) + 1)]


def empty(text: str) -> SafeString:
    """The line shown instead of a chart without data."""
    return format_html('<p class="chart-empty small text-body-secondary">{}</p>', text)


def _x_labels(places: Sequence[tuple[float, str]], *, pinned: bool) -> list[str]:
    """The x labels at their positions `places` (x, text), left to right, leaving out any
    that would overlap the one kept before it or stick out of the drawing. `pinned`: the
    first label starts at its point and the last ends at its point (a line chart's ends),
    and the last is always kept (the latest), in place of those before it it overlaps."""
    kept: list[tuple[float, float, float, str, str]] = []  # start, end, x, text, anchor
    last = len(places) - 1
    for index, (x, text) in enumerate(places):
        width = len(text) * CHAR_WIDTH
        anchor = "middle"
        if pinned and last and index == 0:
            anchor = "start"
        elif pinned and last and index == last:
            anchor = "end"
        start = {"start": x, "end": x - width, "middle": x - width / 2}[anchor]
        if start < 0 or start + width > WIDTH:
            continue
        if kept and start < kept[-1][1] + LABEL_GAP:
            if not (pinned and index == last):
                continue
            while kept and start < kept[-1][1] + LABEL_GAP:
                kept.pop()
        kept.append((start, start + width, x, text, anchor))
    return [_x_label(x, text, anchor) for _, _, x, text, anchor in kept]


def _open(title: str, height: int = HEIGHT) -> list[str]:
    return [
        format_html(
            '<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {} {}" '
            'width="100%" role="img" aria-label="{}" font-family="system-ui, sans-serif" '
            'font-size="{}">',
            WIDTH,
            height,
            title,
            FONT,
        ),
        format_html("<title>{}</title>", title),
    ]


def _y_axis(values: list[float], top: float, bottom: float) -> tuple[list[str], float, float]:
    """Grid lines and labels for `values` (the ticks) between `top` and `bottom` (y
    units); returns the parts and the value range drawn (low, high)."""
    low, high = values[0], values[-1]
    parts = []
    for value in values:
        y = bottom - (value - low) / (high - low) * (bottom - top)
        parts.append(
            f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" '
            f'stroke="{GRID_COLOUR}" stroke-width="1"/>'
        )
        parts.append(
            format_html(
                '<text x="{}" y="{}" text-anchor="end" dominant-baseline="middle" fill="{}">'
                "{}</text>",
                LEFT - 4,
                f"{y:.1f}",
                TEXT_COLOUR,
                number(value),
            )
        )
    parts.append(
        f'<line x1="{LEFT}" y1="{top:.1f}" x2="{LEFT}" y2="{bottom:.1f}" '
        f'stroke="{AXIS_COLOUR}" stroke-width="1"/>'
    )
    parts.append(
        f'<line x1="{LEFT}" y1="{bottom:.1f}" x2="{WIDTH - RIGHT}" y2="{bottom:.1f}" '
        f'stroke="{AXIS_COLOUR}" stroke-width="1"/>'
    )
    return parts, low, high


def _x_label(x: float, label: str, anchor: str = "middle") -> str:
    return format_html(
        '<text x="{}" y="{}" text-anchor="{}" fill="{}">{}</text>',
        f"{x:.1f}",
        HEIGHT - BOTTOM + FONT + 6,
        anchor,
        TEXT_COLOUR,
        label,
    )


def line_chart(points: Sequence[LinePoint], *, title: str, empty_text: str) -> SafeString:
    """A line through `points`, left to right, evenly spaced; the y axis spans the values
    (not from 0: a rating moves in a narrow band, and may be negative). `title` names the
    chart for screen readers; `empty_text` is shown instead when there are no points."""
    if not points:
        return empty(empty_text)
    top, bottom = TOP, HEIGHT - BOTTOM
    values = [point.value for point in points]
    parts = _open(title)
    axis, low, high = _y_axis(ticks(min(values), max(values)), top, bottom)
    parts += axis
    room = WIDTH - RIGHT - LEFT - 16
    left = LEFT + 8

    def x_of(index: int) -> float:
        return left + room / 2 if len(points) == 1 else left + index * room / (len(points) - 1)

    def y_of(value: float) -> float:
        return bottom - (value - low) / (high - low) * (bottom - top)

    parts += _x_labels([(x_of(i), point.label) for i, point in enumerate(points)], pinned=True)
    coordinates = " ".join(
        f"{x_of(index):.1f},{y_of(point.value):.1f}" for index, point in enumerate(points)
    )
    parts.append(
        f'<polyline points="{coordinates}" fill="none" stroke="{LINE_COLOUR}" '
        f'stroke-width="2" stroke-linejoin="round"/>'
    )
    for index, point in enumerate(points):
        parts.append(
            format_html(
                '<circle cx="{}" cy="{}" r="3.5" fill="{}"><title>{}</title></circle>',
                f"{x_of(index):.1f}",
                f"{y_of(point.value):.1f}",
                LINE_COLOUR,
                point.title,
            )
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # every text above went through format_html/escape


def bar_chart(
    groups: Sequence[BarGroup],
    *,
    series: Sequence[Series],
    title: str,
    empty_text: str,
    whole: bool = True,
) -> SafeString:
    """Bars from 0 up: for each group (x position, left to right) one bar per series,
    side by side, with a legend when there is more than one series. `title` names the
    chart for screen readers; `empty_text` is shown instead when there are no groups.
    `whole`: the values are counts, so the y axis is marked in whole numbers only.
    Raises ValueError when a group's values or titles don't match the series."""
    if not groups:
        return empty(empty_text)
    for group in groups:
        if len(group.values) != len(series) or len(group.titles) != len(series):
            raise ValueError("a bar group needs one value and one title per series")
    top = TOP + (LEGEND if len(series) > 1 else 0)
    bottom = HEIGHT - BOTTOM
    parts = _open(title)
    if len(series) > 1:
        x = float(LEFT)
        for item in series:
            parts.append(
                format_html(
                    '<rect x="{}" y="{}" width="10" height="10" fill="{}"/>'
                    '<text x="{}" y="{}" fill="{}">{}</text>',
                    f"{x:.1f}",
                    TOP - 8,
                    item.colour,
                    f"{x + 14:.1f}",
                    TOP + 1,
                    TEXT_COLOUR,
                    item.name,
                )
            )
            x += 14 + len(item.name) * CHAR_WIDTH + 14
    highest = max((value for group in groups for value in group.values), default=0)
    axis, low, high = _y_axis(ticks(0, max(highest, 1), whole=whole), top, bottom)
    parts += axis
    room = WIDTH - RIGHT - LEFT
    slot = room / len(groups)
    bar = slot * 0.8 / len(series)
    for index, group in enumerate(groups):
        start = LEFT + index * slot + slot * 0.1
        for position, (value, text) in enumerate(zip(group.values, group.titles, strict=True)):
            height = (value - low) / (high - low) * (bottom - top)
            parts.append(
                format_html(
                    '<rect x="{}" y="{}" width="{}" height="{}" fill="{}"><title>{}</title></rect>',
                    f"{start + position * bar:.1f}",
                    f"{bottom - height:.1f}",
                    f"{max(bar - 1, 1):.1f}",
                    f"{height:.1f}",
                    series[position].colour,
                    text,
                )
            )
    places = [(LEFT + (index + 0.5) * slot, group.label) for index, group in enumerate(groups)]
    parts += _x_labels(places, pinned=False)
    parts.append("</svg>")
    return mark_safe("".join(parts))  # every text above went through format_html/escape
