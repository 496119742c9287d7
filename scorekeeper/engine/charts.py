"""Small inline SVG charts drawn from a computed sheet: no JavaScript, no chart library."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..rules import Sheet

WIDTH, HEIGHT, PAD = 320, 140, 24
MOST = (WIDTH - 2 * PAD) // 2  # the points a line of running totals is drawn through, at most
# Distinct on light and dark backgrounds; given as SVG attributes so that paper (WeasyPrint)
# and screens draw the same colours.
COLORS = ("#3b8ee8", "#e5534b", "#2fa84f", "#a371f7", "#f0883e", "#1fb6c9", "#c38b5f",
          "#e85aad", "#9aa0a6", "#c2c23a")
# Each line has its own dashes as well as its colour: two lines of close colours, or two
# lines that run together for a while, stay told apart (SVG stroke-dasharray; "" is solid).
DASHES = ("", "7 3", "2 3", "9 3 2 3", "4 4", "1 2")


@dataclass(frozen=True)
class Series:
    """One line: a column's running totals, or the ratings of players whose ratings were
    the same after every match (partners who only played together), as polyline points."""

    column: int  # the first of ``members``
    color: str
    points: str
    last: tuple[float, float]
    total: float
    dash: str = ""
    members: tuple[int, ...] = ()


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
    base: int = 0  # the value of the line drawn across (at ``zero``)


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
    columns, hands = len(sheet.columns), len(sheet.rows)
    every = [row.totals for row in sheet.rows]
    # A seat's line runs while it plays: a row before a join or after a leave has no total.
    values = [t for totals in every for t in totals if t is not None]
    top, bottom = max(0, *values), min(0, *values)
    span = (top - bottom) or 1
    step = (WIDTH - 2 * PAD) / hands
    # A long match's lines are drawn through at most MOST of its hands (spread): the chart
    # is no wider for a thousand hands.
    rows = [(i, every[i - 1] if i else (0,) * columns) for i in spread(range(hands + 1))]

    def y(value: int) -> float:
        return round(PAD / 2 + (top - value) * (HEIGHT - PAD) / span, 1)

    series = []
    for column in range(columns):
        coords = [(round(PAD + i * step, 1), y(totals[column])) for i, totals in rows
                  if column < len(totals) and totals[column] is not None]
        if not coords:
            continue
        points = " ".join(f"{x},{v}" for x, v in coords)
        color, dash = _look(column)
        last = next(t[column] for t in reversed(every) if t[column] is not None)
        series.append(Series(column, color, points, coords[-1], last, dash, (column,)))
    return LineChart(tuple(series), y(0), top, bottom, hands)


def spread(values: Sequence[Any], most: int = MOST) -> Sequence[Any]:
    """At most ``most + 1`` of ``values``, evenly spread, the first and the last among them
    (all of them when there are no more).

    >>> spread(list(range(10)), 3), spread([1, 2], 3)
    ([0, 3, 6, 9], [1, 2])
    """
    if len(values) <= most + 1:
        return values
    last = len(values) - 1
    return [values[round(i * last / most)] for i in range(most + 1)]


def _look(index: int) -> tuple[str, str]:
    """The colour and dashes of the ``index``-th line: no two of the first 30 alike."""
    return COLORS[index % len(COLORS)], DASHES[index % len(DASHES)]


def history_chart(histories: list[list[tuple[int, float]]], steps: int,
                  base: float = 0) -> LineChart | None:
    """Lines of (step, value) points over ``steps`` steps, or None before two steps: each
    player's rating after each rated match of a game, the line at ``base`` (the rating
    everyone starts from) drawn across. Identical histories (partners who only ever played
    together) are one line, with every one of them among its ``members``.

    >>> chart = history_chart([[(1, 27.0), (2, 29.5)], [(2, 23.0)], [(2, 23.0)]], 2, 25)
    >>> chart.top, chart.bottom, chart.series[0].total, chart.series[1].members
    (30, 23, 29.5, (1, 2))
    """
    if steps < 2 or not histories:
        return None
    values = [v for history in histories for _step, v in history]
    top, bottom = math.ceil(max(values + [base])), math.floor(min(values + [base]))
    span = (top - bottom) or 1
    step = (WIDTH - 2 * PAD) / steps

    def y(value: float) -> float:
        return round(PAD / 2 + (top - value) * (HEIGHT - PAD) / span, 1)

    lines: dict[tuple[tuple[int, float], ...], list[int]] = {}
    for index, history in enumerate(histories):
        lines.setdefault(tuple(history), []).append(index)
    series = []
    for number, (history, members) in enumerate(lines.items()):
        coords = [(round(PAD + i * step, 1), y(v)) for i, v in history]
        color, dash = _look(number)
        series.append(Series(members[0], color, " ".join(f"{x},{v}" for x, v in coords),
                             coords[-1], round(history[-1][1], 1), dash, tuple(members)))
    return LineChart(tuple(series), y(base), top, bottom, steps, base=round(base))
