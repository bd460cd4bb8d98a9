"""A game as JSON: the API's view of its state, of one turn, and of a page of its log.

A game's answer never carries its log: it is the state plus the last turn, the same size at
turn 300 as at turn 10. The log is read a page at a time (``log_page``).

Two numbers, never to be confused: ``number`` is a log entry's number (every entry, undos
and undone turns included; the game's ``turn_number`` is its latest, and ``expected_turn``
names the next); ``turn`` is the turn as players count it (``game.replay.turn_numbers``),
what every page shows as "Turn 11", and null on an entry that is no turn in effect.

Each answer is built as the TypedDict ``scorekeeper.api.schemas`` declares for it (the types
``/api/docs`` shows), key by key in that order.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from referee import GameState, Move, RuleOptions
from scorekeeper.api.schemas import (
    ChangeOut,
    GameOut,
    LogPage,
    PlayerOut,
    PlayOut,
    TurnAnswer,
    TurnOut,
)
from scorekeeper.games import clocks
from scorekeeper.games.entries import Change
from scorekeeper.games.replay import turn_numbers
from scorekeeper.games.state import load_state
from scorekeeper.games.turn_kinds import kind_of, number_of, turns_of
from scorekeeper.games.word_policy import policy_for
from scorekeeper.models import Game, Seat, Turn

LOG_PAGE = 200  # entries in one page of the log


def game_state(
    game: Game,
    *,
    seats: list[Seat] | None = None,
    state: GameState | None = None,
    last_turn: Turn | None = None,
) -> GameOut:
    """The API's view of a game; pass what is already at hand to skip reading it again."""
    if seats is None or state is None:
        seats = list(game.seats.select_related("player").order_by("order"))
        state = load_state(game, seats)
    if last_turn is None and game.last_entry_number:
        last_turn = game.turns.select_related("seat__player", "target").order_by("-number").first()
    last = turn_data(last_turn, number_of(last_turn)) if last_turn else None
    return _game(game, seats, state, last)


def turn_answer(
    game: Game, seats: list[Seat], state: GameState, turn: Turn, changes: Sequence[Change] = ()
) -> TurnAnswer:
    """The answer to a turn just entered: its log entry and the game's state after it (which
    is at hand: nothing is read again), with every score a correction changed. An entry
    answered again after later ones (a retry whose first answer was lost) is counted as the
    log says, beside the game as it stands."""
    if turn.number != game.last_entry_number:
        entry = turn_data(turn, turn_numbers(game).get(turn.pk))
        return {"turn": entry, "game": game_state(game, seats=seats, state=state)}
    entry = turn_data(turn, _number_of_new(turn, game.turns_played, state.options))
    answer: TurnAnswer = {"turn": entry, "game": _game(game, seats, state, entry)}
    if changes:
        answer["changes"] = [_change(change) for change in changes]
    return answer


def _number_of_new(turn: Turn, played: int, options: RuleOptions) -> int | None:
    """The turn just entered, as players count it, without reading the log: an entry that is
    a turn comes last in the order of play, so it is the ``played``-th; only a correction
    stands where the turn it replaced stood, which the log says (``number_of``)."""
    if kind_of(turn).replaces:
        return number_of(turn)
    return played if turns_of(turn, options) > 0 else None


def _change(change: Change) -> ChangeOut:
    return {"player": change.player, "was": change.was, "now": change.now, "turn": change.turn}


def _game(
    game: Game,
    seats: list[Seat],
    state: GameState,
    last_turn: TurnOut | None,
) -> GameOut:
    to_move = seats[state.to_move].player.name if game.status == Game.Status.IN_PROGRESS else None
    out: GameOut = {
        "id": str(game.id),
        "ruleset": game.ruleset,
        "lexicon": game.lexicon,
        "lexicon_checksum": game.lexicon_checksum,
        "challenge_mode": game.challenge_mode,
        "options": game.options,
        "turn_clock": game.turn_clock,
        "status": game.status,
        "turn_number": game.last_entry_number,
        "turn": game.turns_played,
        "to_move": to_move,
        "players": [player(seat) for seat in seats],
        "bag_count": game.bag_count,
        "board": game.board,
        "unseen": unseen(state),
        "can_challenge": policy_for(game).can_challenge(state),
        "last_turn": last_turn,
        "created_at": game.created_at.isoformat(),
        "updated_at": game.updated_at.isoformat(),
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
    }
    if game.clock is not None:  # a clocked game's only: the others answer as before
        out["clock"] = game.clock
        if game.status == Game.Status.FINISHED:  # who lost on time, by seat order
            out["clock"] = {**game.clock, "lost_on_time": clocks.lost_on_time(game)}
    return out


def player(seat: Seat) -> PlayerOut:
    return {
        "name": seat.player.name,
        "score": seat.score,
        "final_score": seat.final_score,
        "result": seat.result or None,
        "rack_count": seat.rack_count,
        "adjustment": seat.adjustment,
    }


def unseen(state: GameState) -> dict[str, int]:
    """Tiles off the board (bag and racks), in the set's order: the tile tracker."""
    counts = state.unseen()
    return {tile: counts[tile] for tile in state.ruleset.tiles}


def log_page(game: Game, after: int = 0, limit: int = LOG_PAGE) -> LogPage:
    """Log entries numbered above ``after``, ascending, at most ``limit``; ``next`` is the
    ``after`` of the following page, or None at the end."""
    limit = max(1, min(limit, LOG_PAGE))
    rows = list(
        game.turns.filter(number__gt=after)
        .order_by("number")
        .values_list(*_TURN_COLUMNS)[: limit + 1]
    )
    more = len(rows) > limit
    numbers = turn_numbers(game) if rows else {}
    turns = [_turn_dict(numbers.get(pk), *row) for pk, *row in rows[:limit]]
    return {"turns": turns, "next": turns[-1]["number"] if more else None}


_TURN_COLUMNS = (
    "pk", "number", "seat__player__name", "action", "score", "words", "result", "notation", "tiles",
    "count", "target__number", "undone_at", "undone_by", "created_at", "corrected_at",
    "corrected_by", "clock",
)  # fmt: skip


def turn_data(turn: Turn, number: int | None) -> TurnOut:
    """One log entry; ``number`` is its turn as players count it (None: no turn in effect)."""
    return _turn_dict(
        number,
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
        turn.corrected_at,
        turn.corrected_by,
        turn.clock,
    )


def _turn_dict(
    turn: int | None,
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
    corrected_at: datetime | None = None,
    corrected_by: str = "",
    clock: dict[str, Any] | None = None,
) -> TurnOut:
    out: TurnOut = {
        "number": number,
        "turn": turn,
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
        "corrected": corrected_at is not None,
        "corrected_at": corrected_at.isoformat() if corrected_at else None,
        "corrected_by": corrected_by or None,
        "created_at": created_at.isoformat(),
    }
    if clock is not None:  # a clocked game's entries only: the others answer as before
        out["clock"] = clock
    return out


def play_out(move: Move) -> PlayOut:
    """A play found by the analysis, as the API gives it: blanks as lowercase letters."""
    return {
        "notation": move.notation,
        "score": move.score,
        "tiles": [{"row": p.row, "col": p.col, "letter": p.tile} for p in move.play.placements],
        "words": [{"word": w.word, "score": w.score, "breakdown": w.breakdown} for w in move.words],
    }
