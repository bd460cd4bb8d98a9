"""A game's stored state: the engine's state moved to and from the ``Game`` and ``Seat`` rows.

The state (board, scores, bag and rack sizes, whose turn) is stored on ``Game`` and ``Seat``
as first-class data; ``load_state`` and ``store_state`` move it between the rows and the
engine, and ``new_state`` deals a game afresh, as the replay starts it.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils import timezone

from referee import FINISHED, GameState, RuleOptions, get_ruleset
from scorekeeper.games import clocks, rows
from scorekeeper.games.results import results
from scorekeeper.models import Game, Seat


def load_state(game: Game, seats: Sequence[Seat]) -> GameState:
    return GameState.from_dict(
        {
            "ruleset": game.ruleset,
            "options": game.options,
            "board": game.board,
            "scores": [s.score for s in seats],
            "racks": [s.rack_count for s in seats],
            "bag": game.bag_count,
            "to_move": game.to_move,
            "passes": game.passes,
            "status": game.status,
            "adjustments": None
            if any(s.adjustment is None for s in seats)
            else [s.adjustment for s in seats],
            "exchanges": game.exchanges,
            "skips": [s.skip_turns for s in seats],
            "last_play": game.last_play,
        }
    )


GAME_STATE = [
    "board", "bag_count", "to_move", "passes", "exchanges", "last_play", "status",
    "finished_at", "last_entry_number", "turns_played", "checkpoint_place", "updated_at",
    "clock",
]  # fmt: skip


def store_state(game: Game, seats: Sequence[Seat], state: GameState) -> None:
    """Write the engine's state to the game's row and to each seat whose numbers changed
    (``rows.update``: ``save(update_fields=...)`` by statements built once)."""
    changed = set_state(game, seats, state)
    rows.update(game, GAME_STATE)
    for seat, fields in changed:
        rows.update(seat, fields)


def set_state(game: Game, seats: Sequence[Seat], state: GameState) -> list[tuple[Seat, list[str]]]:
    """Put the engine's state on the game and its seats, without saving them; each seat whose
    numbers changed, with the fields that did."""
    record = state.to_dict()
    game.board = record["board"]
    game.bag_count = state.bag
    game.to_move = state.to_move
    game.passes = state.passes
    game.exchanges = state.exchanges
    game.last_play = record["last_play"]
    if state.status == FINISHED and game.status != FINISHED:
        game.finished_at = timezone.now()
    elif state.status != FINISHED:
        game.finished_at = None
    game.status = state.status
    finals = state.final_scores
    outcome = results(finals, clocks.lost_on_time(game)) or [""] * len(seats)
    changed = []
    for seat in seats:
        now = {
            "score": state.scores[seat.order],
            "rack_count": state.racks[seat.order],
            "skip_turns": state.skips[seat.order],
            "adjustment": state.adjustments[seat.order] if state.adjustments else None,
            "final_score": finals[seat.order] if finals else None,
            "result": outcome[seat.order],
        }
        fields = [name for name, value in now.items() if getattr(seat, name) != value]
        if fields:
            for name in fields:
                setattr(seat, name, now[name])
            changed.append((seat, fields))
    return changed


def new_state(game: Game, players: int) -> GameState:
    ruleset = get_ruleset(game.ruleset)
    return GameState.new(
        game.ruleset, players, RuleOptions.from_dict(game.options, ruleset), game.first_seat
    )
