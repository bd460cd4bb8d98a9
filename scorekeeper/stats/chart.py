"""The score chart: each player's cumulative score by turn, laid out for an SVG.

Geometry only: the points come from the log's recorded totals (``history``), the drawing
from ``history/_chart.html`` with a fixed viewBox, so the chart scales with the page.
"""

from __future__ import annotations

import math
from typing import Any

# Okabe–Ito colours, told apart with colour-blindness too; the dashes tell them apart in grey.
COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "4 2", "1 2")

WIDTH, HEIGHT = 480, 280
LEFT, RIGHT, TOP, BOTTOM = 46, 14, 14, 42


def _nice_step(span: float, ticks: int) -> float:
    """A round step (1, 2 or 5 times a power of ten) giving about ``ticks`` intervals."""
    raw = max(span, 1) / ticks
    magnitude = 10.0 ** math.floor(math.log10(raw))
    for multiple in (1, 2, 5, 10):
        if multiple * magnitude >= raw:
            return multiple * magnitude
    return 10 * magnitude  # pragma: no cover - the loop always returns


# A chart 480 units wide shows no more than this many points per line; a longer game is drawn
# from evenly spaced turns (the last always among them), and so is its table of numbers, so a
# game's page stays the same size however long the game.
MAX_POINTS = 161


def sampled(count: int, most: int = MAX_POINTS) -> list[int]:
    """Evenly spaced indices of ``count`` points, at most ``most``, the first and last included.

    >>> sampled(5), sampled(11, 5)
    ([0, 1, 2, 3, 4], [0, 3, 6, 9, 10])
    """
    if count <= most:
        return list(range(count))
    step = -(-(count - 1) // (most - 1))
    return [*range(0, count - 1, step), count - 1]


def chart(
    points: list[list[int]],
    names: list[str],
    finished: bool,
    labels: list[str] | None = None,
) -> dict[str, Any]:
    """Each player's cumulative score by turn, laid out for an SVG with a fixed viewBox.

    ``labels[n]``: what point ``n`` is after: the turn as players count it ("3"), or an entry
    that is no turn ("challenge", "end"); by default the point's number.
    """
    turns = len(points) - 1
    named = labels if labels is not None else [str(n) for n in range(len(points))]

    last = max((int(said) for said in named if said.isdigit()), default=0)

    def label(n: int) -> str:
        return named[n]

    shown = sampled(len(points))
    values = [v for row in points for v in row]
    low: float = min(0, *values)
    high: float = max(1, *values)
    y_step = _nice_step(high - low, 5)
    low = math.floor(low / y_step) * y_step
    high = math.ceil(high / y_step) * y_step
    x_step = max(1, int(_nice_step(turns, 8)))
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(turn: int) -> float:
        return LEFT + plot_w * turn / max(turns, 1)

    def y(score: float) -> float:
        return TOP + plot_h * (high - score) / (high - low)

    series = []
    for seat, name in enumerate(names):
        scores = [points[n][seat] for n in shown]
        series.append(
            {
                "name": name,
                "colour": COLOURS[seat % len(COLOURS)],
                "dash": DASHES[seat % len(DASHES)],
                "points": " ".join(
                    f"{x(n):.1f},{y(s):.1f}" for n, s in zip(shown, scores, strict=True)
                ),
                "count": len(scores),
                "last": scores[-1],
                "end": (round(x(turns), 1), round(y(scores[-1]), 1)),
            }
        )
    y_ticks = []
    value = low
    while value <= high + y_step / 2:
        y_ticks.append({"y": round(y(value), 1), "label": f"{value:g}"})
        value += y_step
    x_ticks = [{"x": round(x(n), 1), "label": label(n)} for n in range(0, turns + 1, x_step)]
    ending = "final" if finished else "latest"
    summary = "; ".join(f"{s['name']} {s['last']}" for s in series)
    rows = [{"turn": label(n), "scores": points[n]} for n in shown]
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "top": TOP,
        "bottom": HEIGHT - BOTTOM,
        "mid_x": LEFT + plot_w / 2,
        "mid_y": TOP + plot_h / 2,
        "series": series,
        "x_ticks": x_ticks,
        "y_ticks": y_ticks,
        "zero": round(y(0), 1) if low < 0 else None,
        "label": f"Cumulative score by turn, turns 0 to {last}; {ending} scores: {summary}.",
        "rows": rows,
    }
