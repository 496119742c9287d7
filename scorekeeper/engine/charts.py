"""Small inline SVG charts drawn from a computed sheet: no JavaScript, no chart library."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..rules import Sheet

WIDTH, HEIGHT, PAD = 320, 140, 24
# Distinct on light and dark backgrounds; given as SVG attributes so that paper (WeasyPrint)
# and screens draw the same colours.
COLORS = ("#3b8ee8", "#e5534b", "#2fa84f", "#a371f7", "#f0883e", "#1fb6c9", "#c38b5f",
          "#e85aad", "#9aa0a6", "#c2c23a")


@dataclass(frozen=True)
class Series:
    """One column's running totals as SVG polyline points."""

    column: int
    color: str
    points: str
    last: tuple[float, float]
    total: int


@dataclass(frozen=True)
class LineChart:
    """Running totals after each hand, scaled to a WIDTH x HEIGHT box."""

    series: tuple[Series, ...]
    zero: float
    top: int
    bottom: int
    hands: int
    width: int = WIDTH
    height: int = HEIGHT


def running_chart(sheet: Sheet) -> LineChart | None:
    """The chart of the sheet's running totals, or None before two hands are scored.

    >>> from types import SimpleNamespace as Row
    >>> sheet = Row(columns=((0,), (1,)), rows=[Row(totals=(3, 0)), Row(totals=(3, 2))])
    >>> chart = running_chart(sheet)
    >>> chart.top, chart.bottom, chart.series[0].total
    (3, 0, 3)
    """
    if len(sheet.rows) < 2:
        return None
    columns = len(sheet.columns)
    rows = [(0,) * columns] + [row.totals for row in sheet.rows]
    values = [v for totals in rows for v in totals]
    top, bottom = max(values + [0]), min(values + [0])
    span = (top - bottom) or 1
    step = (WIDTH - 2 * PAD) / (len(rows) - 1)

    def y(value: int) -> float:
        return round(PAD / 2 + (top - value) * (HEIGHT - PAD) / span, 1)

    series = []
    for column in range(columns):
        coords = [(round(PAD + i * step, 1), y(totals[column])) for i, totals in enumerate(rows)]
        points = " ".join(f"{x},{v}" for x, v in coords)
        color = COLORS[column % len(COLORS)]
        series.append(Series(column, color, points, coords[-1], rows[-1][column]))
    return LineChart(tuple(series), y(0), top, bottom, len(rows) - 1)


def history_chart(histories: list[list[tuple[int, float]]], steps: int) -> LineChart | None:
    """Lines of (step, value) points over ``steps`` steps, one per series, or None before
    two steps: each player's rating after each rated match of a game.

    >>> chart = history_chart([[(1, 5.0), (2, 7.5)], [(2, -1.0)]], 2)
    >>> chart.top, chart.bottom, chart.series[0].total
    (8, -1, 8)
    """
    if steps < 2 or not histories:
        return None
    values = [v for history in histories for _step, v in history]
    top, bottom = math.ceil(max(values + [0])), math.floor(min(values + [0]))
    span = (top - bottom) or 1
    step = (WIDTH - 2 * PAD) / steps

    def y(value: float) -> float:
        return round(PAD / 2 + (top - value) * (HEIGHT - PAD) / span, 1)

    series = []
    for index, history in enumerate(histories):
        coords = [(round(PAD + i * step, 1), y(v)) for i, v in history]
        color = COLORS[index % len(COLORS)]
        series.append(Series(index, color, " ".join(f"{x},{v}" for x, v in coords),
                             coords[-1], round(history[-1][1])))
    return LineChart(tuple(series), y(0), top, bottom, steps)
