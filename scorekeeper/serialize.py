"""A game as JSON: the API's view of its state and its turn log."""

from __future__ import annotations

from typing import Any

from referee.game import GameState
from scorekeeper.domain import load_state
from scorekeeper.models import Game, Seat, Turn


def game_state(
    game: Game,
    *,
    with_turns: bool = True,
    seats: list[Seat] | None = None,
    state: GameState | None = None,
) -> dict[str, Any]:
    """The API's view of a game; pass the seats and state already at hand to skip reloading."""
    if seats is None or state is None:
        seats = list(game.seats.select_related("player").order_by("order"))
        state = load_state(game, seats)
    to_move = seats[state.to_move].player.name if game.status == Game.Status.IN_PROGRESS else None
    data: dict[str, Any] = {
        "id": str(game.id),
        "ruleset": game.ruleset,
        "lexicon": game.lexicon,
        "lexicon_checksum": game.lexicon_checksum,
        "challenge_mode": game.challenge_mode,
        "options": game.options,
        "turn_clock": game.turn_clock,
        "status": game.status,
        "turn_number": game.turn_number,
        "to_move": to_move,
        "players": [player(seat) for seat in seats],
        "bag_count": game.bag_count,
        "board": game.board,
        "unseen": unseen(state),
        "can_challenge": state.last_play is not None and game.challenge_mode == "manual",
        "created_at": game.created_at.isoformat(),
        "updated_at": game.updated_at.isoformat(),
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
    }
    if with_turns:
        turns = game.turns.select_related("seat__player", "target").order_by("number")
        data["turns"] = [turn_data(t) for t in turns]
    return data


def player(seat: Seat) -> dict[str, Any]:
    return {
        "name": seat.player.name,
        "score": seat.score,
        "final_score": seat.final_score,
        "rack_count": seat.rack_count,
        "adjustment": seat.adjustment,
    }


def unseen(state: GameState) -> dict[str, int]:
    """Tiles off the board (bag and racks), in the set's order: the tile tracker."""
    counts = state.unseen()
    return {tile: counts[tile] for tile in state.ruleset.tiles}


def turn_data(turn: Turn) -> dict[str, Any]:
    return {
        "number": turn.number,
        "player": turn.seat.player.name,
        "action": turn.action,
        "score": turn.score,
        "words": [{"word": w["word"], "score": w["score"]} for w in turn.words],
        "result": turn.result or None,
        "notation": turn.notation,
        "tiles": [{"row": r, "col": c, "letter": t} for r, c, t in turn.tiles],
        "count": turn.count,
        "target": turn.target.number if turn.target else None,
        "undone": turn.undone,
        "undone_at": turn.undone_at.isoformat() if turn.undone_at else None,
        "undone_by": turn.undone_by or None,
        "created_at": turn.created_at.isoformat(),
    }
