"""The benchmark's one definition of a percentile.

Nearest rank: the p-th percentile of n values is the smallest value with at least p·n values
at or below it, so it is always one of the values measured (p99 of 100 values is the 99th
smallest; of 50 values, the largest).
"""

from __future__ import annotations

import math
from collections.abc import Iterable


def percentile(values: Iterable[float], fraction: float) -> float | None:
    """The nearest-rank percentile of ``values`` (``fraction`` from 0 to 1), None if none.

    >>> percentile(range(1, 101), 0.99), percentile(range(1, 51), 0.99), percentile([3, 1, 2], 0.5)
    (99, 50, 2)
    >>> percentile([], 0.5) is None
    True
    """
    ordered = sorted(values)
    if not ordered:
        return None
    # Rounded first so that 0.07 * 100 (7.000000000000001) is rank 7, not 8.
    rank = math.ceil(round(fraction * len(ordered), 9))
    return ordered[min(len(ordered), max(rank, 1)) - 1]


def rounded(value: float | None, digits: int = 1) -> float | None:
    """``value`` rounded, None kept."""
    return None if value is None else round(value, digits)


def spread(values: Iterable[float]) -> list[float] | None:
    """The least, the median (nearest rank) and the most of ``values``, None if none."""
    ordered = sorted(values)
    if not ordered:
        return None
    middle = percentile(ordered, 0.5)
    assert middle is not None
    return [ordered[0], middle, ordered[-1]]
