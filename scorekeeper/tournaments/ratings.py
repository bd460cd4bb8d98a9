"""NASPA-style ratings over an event, as tsh computes them.

Only games played count (a draw is half a win); byes, forfeits and absences are not rated.

* Expected score of A against B: ``1 / (1 + exp(-0.0031879 × (R_A − R_B)))``.
* A rated player's change: ``K × (wins − sum of expected)`` over the event, with ``K`` from the
  pre-event rating and career games (``k_factor``).
* Acceleration: a gain of more than 5 points a game gets the excess (gain − 5 × games) added
  once more.
* An unrated player's first rating is their performance rating, as tsh's iterated one: the
  rating at which their expected wins equal their wins, found by bisection between 0 and
  3000, then raised to the floor of ``PERFORMANCE_FLOOR`` (500) and capped at the highest
  pre-event rating among their rated opponents (the highest current estimate among unrated
  ones when none was rated) plus 400 × wins / games. A clean sweep counts as 95% of the
  games won and no win as 5%, so both have a finite answer. Each unrated player starts at
  the average of their rated opponents (1500 with none), and all are solved again against
  each other's latest estimates until none moves by 0.01 (at most 50 times).
* A rated player who met an unrated one is rated against the unrated player's new rating.
* Ratings are whole numbers, rounded half up.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scorekeeper.tournaments.model import Game, Player, Result

SLOPE = 0.0031879
PERFORMANCE_FLOOR = 500
SEARCH_CEILING = 3000
GAIN_PER_GAME_BEFORE_ACCELERATION = 5


@dataclass(frozen=True)
class RatingChange:
    """A player's rating before and after the event, and how it was worked out."""

    player: int
    before: int
    after: int
    games: int
    wins: float
    expected: float
    k: int | None

    @property
    def change(self) -> int:
        return self.after - self.before


def expected_score(rating: float, opponent: float) -> float:
    """The chance that a player rated ``rating`` beats one rated ``opponent``.

    >>> round(expected_score(1600, 1400), 4)
    0.6542
    """
    return 1 / (1 + math.exp(-SLOPE * (rating - opponent)))


def k_factor(rating: int, career_games: int) -> int:
    """K by the pre-event rating, lower from 50 career games on.

    >>> k_factor(1799, 49), k_factor(1799, 50), k_factor(1800, 0), k_factor(2000, 50)
    (30, 20, 24, 10)
    """
    new = career_games < 50
    if rating < 1800:
        return 30 if new else 20
    if rating < 2000:
        return 24 if new else 16
    return 15 if new else 10


def accelerated(gain: float, games: int) -> float:
    """A gain of more than 5 a game gets its excess added once more.

    >>> accelerated(60.0, 10), accelerated(40.0, 10), accelerated(-60.0, 10)
    (70.0, 40.0, -60.0)
    """
    limit = GAIN_PER_GAME_BEFORE_ACCELERATION * games
    return gain + (gain - limit) if gain > limit else gain


def _round_half_up(value: float) -> int:
    return math.floor(value + 0.5)


def performance_rating(wins: float, opponents: Sequence[float]) -> float:
    """The rating at which the expected wins against ``opponents`` equal ``wins`` (a sweep
    counts as 95% of the games, no win as 5%), before the floor and the cap.

    >>> round(performance_rating(1, [1500, 1500]))
    1500
    """
    games = len(opponents)
    target = min(max(wins, 0.05 * games), 0.95 * games)
    low, high = 0.0, float(SEARCH_CEILING)
    for _ in range(60):
        middle = (low + high) / 2
        if sum(expected_score(middle, opponent) for opponent in opponents) < target:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def _newcomer_rating(
    games: Sequence[tuple[int, float]], rated: dict[int, int], estimate: dict[int, float]
) -> float:
    """One unrated player's performance rating against the current estimates, floored and
    capped as the module's docstring says."""
    wins = sum(score for _, score in games)
    found = max(performance_rating(wins, [estimate[opp] for opp, _ in games]), PERFORMANCE_FLOOR)
    strongest = max((rated[opp] for opp, _ in games if opp in rated), default=0) or max(
        estimate[opp] for opp, _ in games
    )
    return min(found, strongest + 400 * wins / len(games))


def rate_event(players: Sequence[Player], results: Iterable[Result]) -> dict[int, RatingChange]:
    """Each player's rating change over the event's played games, by player id."""
    opponents: dict[int, list[tuple[int, float]]] = {player.id: [] for player in players}
    for result in results:
        if isinstance(result, Game) and result.is_played:
            assert result.first_score is not None and result.second_score is not None
            margin = result.first_score - result.second_score
            first_wins = 1.0 if margin > 0 else 0.0 if margin < 0 else 0.5
            opponents[result.first].append((result.second, first_wins))
            opponents[result.second].append((result.first, 1.0 - first_wins))

    rated = {player.id: player.rating for player in players if player.is_rated}
    estimate = {player.id: float(player.rating) for player in players}
    unrated = [player.id for player in players if not player.is_rated and opponents[player.id]]
    for newcomer in unrated:
        known = [rated[opp] for opp, _ in opponents[newcomer] if opp in rated]
        estimate[newcomer] = sum(known) / len(known) if known else 1500.0
    for _ in range(50):
        found = {
            newcomer: _newcomer_rating(opponents[newcomer], rated, estimate) for newcomer in unrated
        }
        moved = max((abs(found[n] - estimate[n]) for n in unrated), default=0.0)
        estimate.update(found)
        if moved < 0.01:
            break

    changes: dict[int, RatingChange] = {}
    for player in players:
        games = opponents[player.id]
        wins = sum(score for _, score in games)
        if not player.is_rated:
            after = _round_half_up(estimate[player.id]) if games else player.rating
            expected = sum(expected_score(estimate[player.id], estimate[o]) for o, _ in games)
            changes[player.id] = RatingChange(
                player.id, player.rating, after, len(games), wins, expected, None
            )
            continue
        expected = sum(expected_score(player.rating, estimate[opp]) for opp, _ in games)
        k = k_factor(player.rating, player.career_games)
        gain = accelerated(k * (wins - expected), len(games))
        after = _round_half_up(player.rating + gain)
        changes[player.id] = RatingChange(
            player.id, player.rating, after, len(games), wins, expected, k
        )
    return changes
