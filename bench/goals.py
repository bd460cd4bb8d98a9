"""The benchmark's goals, one table: each figure's bound, and what meets it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# figure: (comparison, bound). A figure that is missing (its part failed) meets no goal.
GOALS: dict[str, tuple[str, float]] = {
    "engine_play_us_median": ("<=", 100),
    "lexicon_load_ms": ("<=", 50),
    "lexicon_rss_mb": ("<=", 20),
    "lookups_per_s": (">=", 1_000_000),
    "movegen_ms_median": ("<=", 20),
    "movegen_ms_p90": ("<=", 100),
    "movegen_rss_mb": ("<=", 100),
    "analysis_worst_ms": ("<=", 2000),
    "http_turn_ratio": (">=", 0.5),
    "poll_ratio": (">=", 0.8),
    "p99_turn_ms": ("<=", 50),
    "capacity_tables": (">=", 5000),
    "turn_cpu_ms": ("<=", 2),
    "delivery_p99_ms": ("<=", 1000),
    "turn_ratio": ("<=", 2),
    "correction_ratio": ("<=", 2),
    "event_turn_p99_ms": ("<=", 50),
    "event_page_p99_ms": ("<=", 100),
    "event_end_p99_ms": ("<=", 1000),
    "event_pairing_ms": ("<=", 1000),
}


def met(name: str, value: Any) -> bool:
    """Whether ``value`` meets the goal of figure ``name``.

    >>> met("p99_turn_ms", 41.5), met("p99_turn_ms", 60), met("poll_ratio", None)
    (True, False, False)
    """
    op, bound = GOALS[name]
    if value is None:
        return False
    return bool(value <= bound if op == "<=" else value >= bound)


def goals_met(figures: Mapping[str, Any]) -> dict[str, bool]:
    """Each goal whose figure is among ``figures``, and whether it is met."""
    return {name: met(name, figures[name]) for name in GOALS if name in figures}
