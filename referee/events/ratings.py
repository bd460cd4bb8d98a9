"""NASPA ratings over an event, as tsh computes them with its ``naspa2024`` setting (John
Chew's tsh: ``Ratings.pm`` and ``Ratings/Elo.pm``, ``CalculateSplitRatings`` and the routines
it calls; the rule is the one NASPA publishes).

Only games played count (a draw is half a win); byes, forfeits and absences are not rated.

* **Segments**: an event of more than 16 rounds is rated in segments, each from the ratings
  the one before left: up to 35 rounds in two (rounds 1 … ⌊(n−1)/2⌋+1, then the rest), more
  in three. The count goes by the event's rounds, not the rounds played so far. A player's
  career games grow by each segment's games.
* **Expected score** of A against B: ``1 / (1 + exp(-0.0031879 × (R_A − R_B)))``.
* **A rated player**: the excess, wins less the sum of expected scores against each
  opponent's rating (a newcomer's new one), turns into points at ``K`` a win (``k_factor``:
  by the rating and career games), band by band: a change that crosses 1800 or 2000 is
  counted at the lower band's K up to the boundary and at the next band's K beyond it.
* **Acceleration**: a gain of more than 5 points a game gets the excess (gain − 5 × games)
  added once more; and each opponent rated before the segment gets **feedback**, 1/20 of that
  bonus for each game they played the player, added after everyone's change.
* **A newcomer** (rating 0) gets their performance rating: the whole rating at which their
  expected wins equal their wins, found by tsh's binary search between 0 and 3000 (a sweep
  counts as 95% won, no win as 5%), at least 500, and at most the best pre-segment rating
  among their rated opponents (the best current estimate among unrated ones when none was
  rated) + 400 × wins ÷ games. Newcomers start at the average of their rated opponents (1500
  with none) and are solved again against each other's latest estimates, all at once, until
  none changes (at most 50 times; then the next 50 are averaged). From the next segment they
  are rated players.
* Ratings are whole numbers, rounded half up at the end of each segment.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from referee.events.data import Bout, Competitor, Result

SLOPE = 0.0031879
PERFORMANCE_FLOOR = 500
SEARCH_CEILING = 3000
GAIN_PER_GAME_BEFORE_ACCELERATION = 5
FEEDBACK_SHARE = 1 / 20
ITERATIONS = 50
NEWCOMER_START = 1500.0


@dataclass(frozen=True)
class RatingChange:
    """A player's rating before and after the event, and how it was worked out (``expected``
    summed over the segments, ``k`` the K the event started at, None for a newcomer)."""

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
    return 1 - 1 / (1 + math.exp(SLOPE * (rating - opponent)))


def k_factor(rating: float, career_games: int) -> int:
    """K by the rating, lower from 50 career games on (tsh's ``Multiplier``).

    >>> k_factor(1799, 49), k_factor(1799, 50), k_factor(1800, 0), k_factor(2000, 50)
    (30, 20, 24, 10)
    """
    new = career_games < 50
    if rating < 1800:
        return 30 if new else 20
    if rating < 2000:
        return 24 if new else 16
    return 15 if new else 10


def segments(rounds: int) -> list[tuple[int, int]]:
    """The segments an event of ``rounds`` rounds is rated in, as (first, last) rounds.

    >>> segments(16), segments(23), segments(40)
    ([(1, 16)], [(1, 12), (13, 23)], [(1, 14), (15, 27), (28, 40)])
    """
    last = rounds - 1
    if last < 16:
        return [(1, rounds)]
    if last < 35:
        cut = last // 2
        return [(1, cut + 1), (cut + 2, rounds)]
    cut, cut2 = last // 3, (2 * last + 1) // 3
    return [(1, cut + 1), (cut + 2, cut2 + 1), (cut2 + 2, rounds)]


def points_for(excess: float, rating: float, career_games: int) -> float:
    """The rating after ``excess`` wins over expectation, each band at its own K (tsh's
    ``ConvertExcessToPoints``).

    >>> points_for(1.0, 1790, 100)  # 10 points at K 20 to 1800, the other half-win at 16
    1808.0
    """
    while excess:
        k = k_factor(rating, career_games)
        reached = rating + k * excess
        if k == k_factor(reached, career_games):
            return reached
        if rating < 1800:
            boundary = 1800.0
        elif rating < 2000:
            boundary = 2000.0 if excess > 0 else 1799.0
        else:
            boundary = 1999.0
        excess -= (boundary - rating) / k
        rating = boundary
    return rating


def _search(gap: object, low: int = 0, high: int = SEARCH_CEILING) -> int:
    """tsh's whole-number binary search: the last middle tried where ``gap`` changes sign."""
    assert callable(gap)
    middle = low
    while high - low > 1:
        middle = (low + high) // 2
        if gap(middle) < 0:
            low = middle
        else:
            high = middle
    return middle


def performance_rating(wins: float, opponents: Sequence[float]) -> int:
    """The whole rating at which the expected wins against ``opponents`` equal ``wins`` (a
    sweep counts as 95% of the games, no win as 5%), before the floor and the cap.

    >>> performance_rating(1, [1500, 1500])  # the search's last middle, as tsh's
    1499
    """
    games = len(opponents)
    target = 0.05 * games if wins == 0 else 0.95 * games if wins == games else wins
    return _search(lambda r: sum(expected_score(r, o) for o in opponents) - target)


@dataclass
class _Line:
    """One player's state through the segments."""

    player: Competitor
    rating: float  # at the segment's start; 0 for a newcomer
    career: int
    games: list[tuple[int, int, float]]  # (round, opponent, score)


def _rate_segment(lines: dict[int, _Line], first: int, last: int) -> dict[int, float]:
    """Each player's expected wins this segment; updates their ratings and careers."""
    played = {
        pid: [(opp, won) for rnd, opp, won in line.games if first <= rnd <= last]
        for pid, line in lines.items()
    }
    start = {pid: line.rating for pid, line in lines.items()}
    effective = dict(start)
    newcomers = [pid for pid, rating in start.items() if not rating]
    current: dict[int, float] = {}
    for pid in newcomers:
        rated = [start[opp] for opp, _ in played[pid] if start[opp]]
        current[pid] = sum(rated) / len(rated) if rated else NEWCOMER_START

    def solve(pid: int) -> float:
        games = played[pid]
        wins = sum(won for _, won in games)
        ratings = [start[opp] or current[opp] for opp, _ in games]
        found = max(performance_rating(wins, ratings), PERFORMANCE_FLOOR)
        best = max((start[opp] for opp, _ in games if start[opp]), default=0.0) or max(
            (current[opp] for opp, _ in games if not start[opp]), default=0.0
        )
        return min(found, best + 400 * wins / len(games)) if best else found

    active = [pid for pid in newcomers if played[pid]]
    for _ in range(ITERATIONS):
        found = {pid: solve(pid) for pid in active}
        changed = any(found[pid] != current[pid] for pid in active)
        current.update(found)
        if not changed:
            break
    else:
        totals = dict.fromkeys(active, 0.0)
        for _ in range(ITERATIONS):
            current.update({pid: solve(pid) for pid in active})
            for pid in active:
                totals[pid] += current[pid]
        current.update({pid: totals[pid] / ITERATIONS for pid in active})
    effective.update(current)

    new = dict(effective)
    feedback = dict.fromkeys(lines, 0.0)
    expected: dict[int, float] = {}
    for pid, line in lines.items():
        games = played[pid]
        expected[pid] = sum(expected_score(effective[pid], effective[o]) for o, _ in games)
        if not start[pid] or not games:
            continue
        wins = sum(won for _, won in games)
        new[pid] = points_for(wins - expected[pid], start[pid], line.career)
        bonus = new[pid] - start[pid] - GAIN_PER_GAME_BEFORE_ACCELERATION * len(games)
        if bonus > 0:
            new[pid] += bonus
            for opponent, _ in games:
                if start[opponent]:
                    feedback[opponent] += bonus * FEEDBACK_SHARE
    for pid, line in lines.items():
        line.rating = math.floor(new[pid] + feedback[pid] + 0.5)
        line.career += len(played[pid])
    return expected


def rate_event(
    players: Sequence[Competitor], results: Iterable[Result], rounds: int | None = None
) -> dict[int, RatingChange]:
    """Each player's rating change over the event's played games, by player id; ``rounds``
    is the event's number of rounds (the last round with a game when None), which decides
    its segments."""
    lines = {p.id: _Line(p, float(p.rating), p.career_games, []) for p in players}
    for result in results:
        if isinstance(result, Bout) and result.is_played:
            assert result.first_score is not None and result.second_score is not None
            margin = result.first_score - result.second_score
            first_wins = 1.0 if margin > 0 else 0.0 if margin < 0 else 0.5
            lines[result.first].games.append((result.round, result.second, first_wins))
            lines[result.second].games.append((result.round, result.first, 1.0 - first_wins))
    last_played = max((rnd for line in lines.values() for rnd, _, _ in line.games), default=0)
    total = max(rounds or 0, last_played)
    expected = dict.fromkeys(lines, 0.0)
    for first, last in segments(total) if total else []:
        for pid, value in _rate_segment(lines, first, last).items():
            expected[pid] += value

    changes: dict[int, RatingChange] = {}
    for player in players:
        line = lines[player.id]
        games = len(line.games)
        after = int(line.rating) if games else player.rating
        k = k_factor(player.rating, player.career_games) if player.is_rated else None
        wins = sum(won for _, _, won in line.games)
        changes[player.id] = RatingChange(
            player.id, player.rating, after, games, wins, expected[player.id], k
        )
    return changes
