"""Gibsonization as tsh's current pairing code (``COP.pm``, John Chew's tsh, by Joshua
Castellano) decides it: who has clinched a prize place, and who can still cash.

Let ``G`` be the rounds left after the standings used for pairing (the event's rounds less
the round those standings run to) and ``m`` the director's margin (``Rules.gibson_spread``,
500 a game by default). With ``G = 0`` nobody is gibsonized.

* **Gibsonized** (tsh's ``get_lowest_gibson_rank``): going down the standings from first
  place, and no further than the prize places (``Rules.prize_places``), a player is
  gibsonized while they are out of reach of the player ranked just below: more than ``G``
  wins ahead, or exactly ``G`` wins ahead and more than ``2 × G × m`` spread ahead (the
  chaser winning every game by ``m`` while they lose each by ``m``). The first player not out
  of reach ends the list.
* **Can still cash** (tsh's ``can_player_reach_rank``): a player who is not gibsonized and
  whose wins plus ``G`` reach the wins of the player now in the last prize place. When every
  prize place is gibsonized, nobody else can cash.

tsh never pairs a gibsonized player with one who can still cash. Pairing (``pairing`` does
this before its method pairs the rest): the gibsonized players play each other in standings
order, 1 v 2, 3 v 4; with an odd number of them the lowest is left over. In an odd field the
leftover takes the bye; otherwise they play the highest-ranked player who can no longer cash,
among those they have met least. When everyone left can still cash, the leftover is paired
by the round's method like everyone else (and still shown as gibsonized).
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.events.standings import Standing


def _out_of_reach(above: Standing, below: Standing, left: int, margin: int) -> bool:
    ahead = above.wins - below.wins
    if ahead > left:
        return True
    return ahead == left and above.spread - below.spread > 2 * left * margin


def gibsonized(
    standings: Sequence[Standing], left: int, margin: int, prize_places: int
) -> list[Standing]:
    """The gibsonized players in standings order (``left``: rounds still to play)."""
    if left <= 0:
        return []
    found: list[Standing] = []
    for index in range(min(prize_places, len(standings) - 1)):
        if not _out_of_reach(standings[index], standings[index + 1], left, margin):
            break
        found.append(standings[index])
    return found


def can_cash(
    standings: Sequence[Standing], left: int, prize_places: int, clinched: int
) -> list[Standing]:
    """Those not gibsonized (the top ``clinched``) who can still reach a prize place."""
    if prize_places <= clinched or not standings:
        return []
    last_prize = standings[min(prize_places, len(standings)) - 1]
    return [row for row in standings[clinched:] if row.wins + left >= last_prize.wins]
