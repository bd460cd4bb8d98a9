"""Checkpoints: the engine's state after every few turns in effect, stored beside the log, so
that the state at any point of a game is a checkpoint and a few steps away, however long it is.

They are a cache of the replay: made from the log alone, written in the transaction that
changes the log (``domain``), deleted from a turn on when that turn leaves the game (undo) or
is corrected, checked against a replay from the start by ``consistency.audit_game`` and made
again from the log by ``rebuild``. The record is the log: a game without checkpoints (one
stored before they were kept) replays from its start, as every game once did.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from referee import GameState, RefereeError
from scorekeeper.games.state import new_state
from scorekeeper.games.turn_kinds import kind_of
from scorekeeper.models import Checkpoint, Game, Turn, TurnQuerySet

# Places in the order of play between two checkpoints: a state is never more than this many
# turns from one (the replay of 50 turns takes about a millisecond; a checkpoint is 1-3 kB).
EVERY = 50


def in_effect(game: Game) -> TurnQuerySet:
    """The game's turns in effect, in the order of play (``Turn.place``)."""
    return Turn.objects.filter(game=game).effective().order_by("place")


def _apply(state: GameState, turns: Iterable[Turn]) -> GameState:
    for turn in turns:
        apply = kind_of(turn).replay
        if apply is None:
            raise RefereeError("bad_log", f"Turn {turn.number} ({turn.action}) is not a move.")
        apply(state, turn)
    return state


def _start(game: Game, players: int, found: Checkpoint | None) -> tuple[GameState, int]:
    if found is None:
        return new_state(game, players), 0
    return GameState.from_dict(found.state), found.place


def state_before(game: Game, place: int, players: int) -> GameState:
    """The state just before the turn in effect at ``place`` (or, past the last, the state at
    the end): the nearest checkpoint before it, and the turns in effect from there."""
    found = game.checkpoints.filter(place__lt=place).order_by("-place").first()
    state, since = _start(game, players, found)
    turns = in_effect(game).filter(place__gt=since, place__lt=place).select_related("seat")
    return _apply(state, turns)


def state_at(game: Game, step: int, players: int) -> GameState:
    """The state after the first ``step`` turns in effect (the replay's ``?turn=``)."""
    found = game.checkpoints.filter(step__lte=step).order_by("-step").first()
    state, since = _start(game, players, found)
    done = found.step if found is not None else 0
    turns = in_effect(game).filter(place__gt=since).select_related("seat")[: step - done]
    return _apply(state, turns)


@dataclass
class CheckpointsDue:
    """Checkpoints to write while the turns in effect are gone through in order from some
    place on (a correction's replay, an import): one whenever ``EVERY`` places have passed
    since the last."""

    place: int = 0  # the last checkpoint's place and step
    step: int = 0
    made: list[Checkpoint] = field(default_factory=list)

    def after(self, game: Game, place: int, step: int, state: GameState) -> None:
        """The turn in effect at ``place``, the ``step``-th, left the game in ``state``."""
        if place - self.place >= EVERY:
            self.made.append(Checkpoint(game=game, place=place, step=step, state=state.to_dict()))
            self.place, self.step = place, step

    def write(self) -> None:
        Checkpoint.objects.bulk_create(self.made)


def forget_from(game: Game, place: int) -> None:
    """Delete the checkpoints from ``place`` on: the turn there left the game or changed."""
    Checkpoint.objects.filter(game=game, place__gte=place).delete()


def replayed(game: Game, players: int) -> Iterator[tuple[Turn, int, GameState]]:
    """Every turn in effect replayed from a new game: the turn, its step, the state after it."""
    state = new_state(game, players)
    turns = in_effect(game).select_related("seat")
    for step, turn in enumerate(turns, 1):
        _apply(state, [turn])
        yield turn, step, state


def rebuild(game: Game, players: int) -> int:
    """Make the game's checkpoints again from its log; how many."""
    kept = CheckpointsDue()
    for turn, step, state in replayed(game, players):
        kept.after(game, turn.place, step, state)
    Checkpoint.objects.filter(game=game).delete()
    kept.write()
    game.checkpoint_place = kept.place
    game.save(update_fields=["checkpoint_place"])
    return len(kept.made)
