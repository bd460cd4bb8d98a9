"""What the domain refuses beyond the engine's own errors, for every subject (games, clubs,
events) to raise; ``scorekeeper.http.refusals`` turns each into an answer."""

from __future__ import annotations

from referee import IllegalAction


class Conflict(IllegalAction):
    """What was asked is done already: a round paired, a result entered, a club of that name."""
