"""Who won, and the totals the log records: a finished game's results as the record keeps them.

``results`` turns final scores into each seat's win, loss or tie (stored on ``Seat.result``,
read by the rankings and club standings); ``totals`` is every seat's running score after a
turn, as the log stores it.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee import GameState

WIN, LOSS, TIE = "win", "loss", "tie"


def results(final_scores: Sequence[int] | None) -> list[str] | None:
    """Each seat's result: the highest final score wins, sharing it is a tie, the rest lose.

    Blank for every seat while the game goes on, and in a solo game, which has no winner.

    >>> results([310, 290]), results([300, 300, 12]), results([250]), results(None)
    (['win', 'loss'], ['tie', 'tie', 'loss'], [''], None)
    """
    if final_scores is None:
        return None
    if len(final_scores) < 2:
        return [""] * len(final_scores)
    best = max(final_scores)
    top = final_scores.count(best)
    return [(TIE if top > 1 else WIN) if s == best else LOSS for s in final_scores]


def totals(state: GameState) -> list[int]:
    """Every seat's score as the log records it after a turn: final scores once it ends."""
    return list(state.final_scores or state.scores)
