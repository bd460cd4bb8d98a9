"""Gibsonization: who has clinched the lead, and who can no longer reach a prize.

The rule as built. Let ``G`` be the rounds left after the standings used for pairing (the
event's rounds less the round those standings run to) and ``m`` the director's margin
(``Rules.gibson_spread``, 500 by default).

* A player's *worst finish* is their record losing every one of the ``G`` games by ``m``:
  the same wins, spread less ``G × m``. Their *best finish* is winning all ``G`` by ``m``:
  ``G`` more wins, spread plus ``G × m``.
* The top ``k`` of the standings are *out of reach* when the best finish of every player
  ranked below them is behind the worst finish of each of the top ``k`` (fewer wins, or as
  many wins and less spread; level counts as caught).
* The *leaders* are the top ``k`` for the smallest ``k`` that is out of reach, when that ``k``
  is less than the whole field; with no such ``k``, or ``G = 0``, nobody is gibsonized.
* A player *can no longer reach the prize places* (``Rules.prize_places``) when they rank
  below them and their best finish is behind the worst finish of the player now placed last
  among the prize places.

Pairing the leaders (``pairing`` does this before its method pairs the rest): the leaders are
paired with each other in standings order, 1 v 2, 3 v 4; with an odd number of leaders the
lowest is left over. In an odd field the leftover leader takes the bye; otherwise they are
paired with the highest-ranked player who can no longer reach the prize places, among those
the leader has met least. When no such player exists the leftover leader is paired by the
round's method like everyone else.
"""

from __future__ import annotations

from collections.abc import Sequence

from scorekeeper.tournaments.standings import Standing


def _worst(row: Standing, left: int, margin: int) -> tuple[float, int]:
    return (row.wins, row.spread - left * margin)


def _best(row: Standing, left: int, margin: int) -> tuple[float, int]:
    return (row.wins + left, row.spread + left * margin)


def leaders(standings: Sequence[Standing], left: int, margin: int) -> list[Standing]:
    """The gibsonized leaders in standings order (empty when the lead can still change hands).

    ``left`` is the number of rounds still to play, ``margin`` the spread a game assumed.
    """
    if left <= 0:
        return []
    for k in range(1, len(standings)):
        top, below = standings[:k], standings[k:]
        best_below = max(_best(row, left, margin) for row in below)
        if all(best_below < _worst(row, left, margin) for row in top):
            return list(top)
    return []


def out_of_prizes(
    standings: Sequence[Standing], left: int, margin: int, prize_places: int
) -> list[Standing]:
    """Those who can no longer finish in the prize places, in standings order."""
    if prize_places <= 0 or prize_places >= len(standings):
        return []
    last_prize = _worst(standings[prize_places - 1], left, margin)
    return [row for row in standings[prize_places:] if _best(row, left, margin) < last_prize]
