"""Line charts drawn as inline SVG on the server: the view computes every coordinate here and
the template (``scoring/_chart.html``) only writes them out. No JavaScript, no library.

Coordinates are integers in a fixed ``viewBox`` (the SVG scales to the width of the phone);
values are integers too (points, scores, ranks), so the arithmetic is exact floor division.
Each chart carries its text alternative: a title, a one-sentence description and the data as a
table for screen readers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from clubsite.formatting import format_points

WIDTH = 340
HEIGHT = 190
LEFT = 46  # room for the value labels
RIGHT = 10
TOP = 10
BOTTOM = 24  # room for the first and last x labels
# Colours of the seats' lines (seat 0 first); the legend repeats them. Each line has a dash
# pattern of its own too (scoring.css), so a print in black and white still tells them apart.
SERIES_CLASSES = ("series-0", "series-1", "series-2", "series-3")
# What happened to a seat at a hand, marked on its line: each kind its own shape (a stick
# above the point, a disc, a cross), never its colour alone.
MARK_RIICHI = "riichi"
MARK_WIN = "win"
MARK_DEAL_IN = "deal-in"
MARK_KINDS = (MARK_RIICHI, MARK_WIN, MARK_DEAL_IN)


def mark_path(kind: str, x: int, y: int) -> str:
    """The SVG path of a ``kind`` mark at the point (``x``, ``y``): a riichi stick lies above
    the point (so a win or a deal-in at the same hand stays visible; below it at the top of
    the chart, where above would be cut off), a win is a disc on it, a deal-in a cross."""
    if kind == MARK_RIICHI:
        top = y - 11 if y >= 12 else y + 7
        return f"M{x - 6},{top}h12v4h-12z"
    if kind == MARK_WIN:
        return f"M{x - 4},{y}a4,4 0 1 0 8,0a4,4 0 1 0 -8,0z"
    if kind == MARK_DEAL_IN:
        return f"M{x - 4},{y - 4}l8,8M{x - 4},{y + 4}l8,-8"
    raise ValueError(f"unknown mark kind: {kind!r}")


def legend_mark_path(kind: str) -> str:
    """A ``kind`` mark in the middle of the legend's 14 x 14 box (a stick is drawn above
    its point: its point is put lower)."""
    return mark_path(kind, 7, 16) if kind == MARK_RIICHI else mark_path(kind, 7, 7)


@dataclass(frozen=True)
class Mark:
    """A mark on a line: its ``kind`` (one of :data:`MARK_KINDS`), the point it marks
    (``index`` into the series' values, e.g. the hand number) and its path."""

    kind: str
    index: int
    path: str


@dataclass(frozen=True)
class Series:
    """One line: its name, CSS class, polyline points ("x,y x,y ...") and dot positions."""

    name: str
    css_class: str
    points: str
    dots: tuple[tuple[int, int], ...]
    marks: tuple[Mark, ...] = ()


@dataclass(frozen=True)
class Tick:
    """A horizontal grid line at ``y`` with its ``label``; ``strong`` for the zero line."""

    y: int
    label: str
    strong: bool = False


@dataclass(frozen=True)
class XLabel:
    x: int
    label: str
    anchor: str


@dataclass(frozen=True)
class LineChart:
    """Everything ``scoring/_chart.html`` draws, plus the text alternative."""

    chart_id: str
    title: str
    description: str
    series: tuple[Series, ...]
    ticks: tuple[Tick, ...]
    x_labels: tuple[XLabel, ...]
    table_head: tuple[str, ...]
    table_rows: tuple[tuple[str, ...], ...]
    legend: bool = False
    # The marks the legend explains: (kind, label, path of the mark in a 14 x 14 box).
    mark_keys: tuple[tuple[str, str, str], ...] = ()
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right_edge: int = WIDTH - RIGHT
    bottom_edge: int = HEIGHT - BOTTOM
    extra_classes: str = field(default="")


def _x_positions(count: int) -> list[int]:
    span = WIDTH - RIGHT - LEFT
    if count <= 1:
        return [LEFT + span // 2] * count
    return [LEFT + span * i // (count - 1) for i in range(count)]


def _scale(low: int, high: int) -> tuple[int, int]:
    """A value range with some room, never empty."""
    if low == high:
        low, high = low - 1, high + 1
    return low, high


def _y(value: int, low: int, high: int) -> int:
    """The y coordinate of ``value`` (``high`` at the top)."""
    span = HEIGHT - BOTTOM - TOP
    return TOP + (high - value) * span // (high - low)


def _nice_step(span: int, target: int = 4) -> int:
    """A round step (1, 2, 5 times a power of ten) giving about ``target`` grid lines."""
    raw = max(1, span // target)
    step = 1
    while True:
        for multiple in (1, 2, 5):
            if step * multiple >= raw:
                return step * multiple
        step *= 10


def value_chart(
    *,
    chart_id: str,
    title: str,
    description: str,
    series: Sequence[tuple[str, Sequence[int]]],
    x_labels: Sequence[str],
    label_value: object = None,
    table_head: Sequence[str],
    table_rows: Sequence[Sequence[str]],
    include_zero: bool = True,
    legend: bool = False,
    ticks_at: Sequence[int] | None = None,
    inverted: bool = False,
    marks: Sequence[Sequence[tuple[int, str]]] = (),
    mark_keys: Sequence[tuple[str, str]] = (),
    dots: bool = True,
) -> LineChart:
    """A line chart of integer ``series`` (name, values) over the same x positions.

    ``x_labels`` name the x positions (the first and last are drawn); ``label_value`` turns a
    value into its tick label (default: "25,000" style); ``ticks_at`` fixes the grid lines
    (e.g. ranks 1-4), otherwise round steps are chosen; ``inverted`` puts low values on top
    (rank 1 above rank 4). ``marks``, per series: ``(index, kind)`` pairs marking the value
    at ``index`` (kinds: :data:`MARK_KINDS`), which ``mark_keys`` (``(kind, label)``) explain
    in the legend; ``dots=False`` leaves the plain dots out (the marks say what matters).
    """
    formatter = label_value if callable(label_value) else format_points
    values = [v for _name, line in series for v in line]
    low = min(values, default=0)
    high = max(values, default=0)
    if include_zero:
        low, high = min(low, 0), max(high, 0)
    if ticks_at:
        low, high = min(low, *ticks_at), max(high, *ticks_at)
    low, high = _scale(low, high)

    def y_of(value: int) -> int:
        # Inverted charts mirror the value around the middle of the range.
        return _y(low + high - value if inverted else value, low, high)

    if ticks_at is None:
        step = _nice_step(high - low)
        first = -(-low // step) * step
        tick_values = list(range(first, high + 1, step))
    else:
        tick_values = list(ticks_at)
    ticks = tuple(Tick(y_of(v), str(formatter(v)), strong=v == 0) for v in tick_values)
    count = max((len(line) for _name, line in series), default=0)
    xs = _x_positions(count)
    drawn = []
    for index, (name, line) in enumerate(series):
        vertices = tuple((xs[i], y_of(v)) for i, v in enumerate(line))
        line_marks = marks[index] if index < len(marks) else ()
        drawn.append(
            Series(
                name=name,
                css_class=SERIES_CLASSES[index % len(SERIES_CLASSES)],
                points=" ".join(f"{x},{y}" for x, y in vertices),
                dots=vertices if dots and len(line) <= 40 else (),
                marks=tuple(
                    Mark(kind, at, mark_path(kind, *vertices[at]))
                    for at, kind in line_marks
                    if 0 <= at < len(vertices)
                ),
            )
        )
    labels: list[XLabel] = []
    if x_labels and xs:
        labels.append(XLabel(xs[0], x_labels[0], "start"))
        if len(xs) > 1:
            labels.append(XLabel(xs[-1], x_labels[len(xs) - 1], "end"))
    return LineChart(
        chart_id=chart_id,
        title=title,
        description=description,
        series=tuple(drawn),
        ticks=ticks,
        x_labels=tuple(labels),
        table_head=tuple(table_head),
        table_rows=tuple(tuple(row) for row in table_rows),
        legend=legend,
        mark_keys=tuple((kind, label, legend_mark_path(kind)) for kind, label in mark_keys),
    )
