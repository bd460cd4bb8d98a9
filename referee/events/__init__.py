"""The rules of an event as plain Python: pairings (``pair_round``, by the methods in
``METHODS``), standings and scorecards (``compute_standings``), Gibsonization (``gibson``),
ratings (``rate_event``) and tsh's ``.t`` file (``read_t``, ``write_t``).

Inputs and outputs are plain data (``Competitor``, ``Rules``, ``Bout``, ``Bye``, ``Forfeit``,
``Absence``), so the models, views and API can call it with what they store.

May import: the standard library and ``networkx``. Never imports Django, ``scorekeeper`` or
the rest of ``referee``. Callers import from here, never from the modules inside.
"""

from __future__ import annotations

from referee.events.data import (
    UNRATED,
    Absence,
    Bout,
    Bye,
    Competitor,
    EventError,
    Forfeit,
    PairingError,
    Result,
    ResultError,
    Rules,
    forfeits_for_withdrawal,
)
from referee.events.pairing import (
    METHODS,
    Matchup,
    Options,
    RoundPairings,
    pair_round,
    seat,
)
from referee.events.ratings import (
    RatingChange,
    expected_score,
    k_factor,
    performance_rating,
    rate_event,
)
from referee.events.schedules import circle_round, fontes_groups
from referee.events.standings import ScorecardLine, Standing, compute_standings
from referee.events.tfile import Division, TFileError, read_t, write_t

__all__ = [
    "METHODS",
    "UNRATED",
    "Absence",
    "Bye",
    "Division",
    "Forfeit",
    "Bout",
    "Options",
    "Matchup",
    "PairingError",
    "Competitor",
    "RatingChange",
    "Result",
    "ResultError",
    "RoundPairings",
    "Rules",
    "ScorecardLine",
    "Standing",
    "TFileError",
    "EventError",
    "circle_round",
    "compute_standings",
    "expected_score",
    "fontes_groups",
    "forfeits_for_withdrawal",
    "k_factor",
    "pair_round",
    "performance_rating",
    "rate_event",
    "read_t",
    "seat",
    "write_t",
]
