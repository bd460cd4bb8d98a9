"""Who won, and the totals the log records: a finished game's results as the record keeps them.

``results`` turns final scores into each seat's win, loss or tie (stored on ``Seat.result``,
read by the rankings and club standings); ``totals`` is every seat's running score after a
turn, as the log stores it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from referee import GameState

WIN, LOSS, TIE = "win", "loss", "tie"


def results(
    final_scores: Sequence[int] | None, lost_on_time: Collection[int] = ()
) -> list[str] | None:
    """Each seat's result: the highest final score wins, sharing it is a tie, the rest lose.

    A seat in ``lost_on_time`` (past a clock's maximum overtime, where that loses) loses
    whatever its score; the others are ranked among themselves, and if every seat lost on
    time, every seat loses. Blank for every seat while the game goes on, and in a solo game,
    which has no winner.

    >>> results([310, 290]), results([300, 300, 12]), results([250]), results(None)
    (['win', 'loss'], ['tie', 'tie', 'loss'], [''], None)
    >>> results([310, 290], lost_on_time=[0]), results([300, 300, 12], lost_on_time=[1])
    (['loss', 'win'], ['win', 'loss', 'loss'])
    """
    if final_scores is None:
        return None
    if len(final_scores) < 2:
        return [""] * len(final_scores)
    standing = [s for seat, s in enumerate(final_scores) if seat not in lost_on_time]
    if not standing:
        return [LOSS] * len(final_scores)
    best = max(standing)
    top = standing.count(best)
    return [
        LOSS if seat in lost_on_time else (TIE if top > 1 else WIN) if s == best else LOSS
        for seat, s in enumerate(final_scores)
    ]


def totals(state: GameState) -> list[int]:
    """Every seat's score as the log records it after a turn: final scores once it ends."""
    return list(state.final_scores or state.scores)
