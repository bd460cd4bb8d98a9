"""A game as JSON: the API's view of its state and its turn log."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from referee.game import GameState
from scorekeeper.domain import load_state
from scorekeeper.models import Game, Seat, Turn


def game_state(
    game: Game,
    *,
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
    # Plain rows, not model instances: the log is read on every turn's answer.
    rows = game.turns.order_by("number").values_list(*_TURN_COLUMNS)
    data["turns"] = [_turn_dict(*row) for row in rows]
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


_TURN_COLUMNS = (
    "number", "seat__player__name", "action", "score", "words", "result", "notation", "tiles",
    "count", "target__number", "undone_at", "undone_by", "created_at",
)  # fmt: skip


def turn_data(turn: Turn) -> dict[str, Any]:
    return _turn_dict(
        turn.number,
        turn.seat.player.name,
        turn.action,
        turn.score,
        turn.words,
        turn.result,
        turn.notation,
        turn.tiles,
        turn.count,
        turn.target.number if turn.target else None,
        turn.undone_at,
        turn.undone_by,
        turn.created_at,
    )


def _turn_dict(
    number: int,
    player: str,
    action: str,
    score: int,
    words: list[dict[str, Any]],
    result: str,
    notation: str,
    tiles: list[list[Any]],
    count: int,
    target: int | None,
    undone_at: datetime | None,
    undone_by: str,
    created_at: datetime,
) -> dict[str, Any]:
    return {
        "number": number,
        "player": player,
        "action": action,
        "score": score,
        "words": [{"word": w["word"], "score": w["score"]} for w in words],
        "result": result or None,
        "notation": notation,
        "tiles": [{"row": r, "col": c, "letter": t} for r, c, t in tiles],
        "count": count,
        "target": target,
        "undone": undone_at is not None,
        "undone_at": undone_at.isoformat() if undone_at else None,
        "undone_by": undone_by or None,
        "created_at": created_at.isoformat(),
    }
