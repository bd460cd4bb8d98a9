"""Entering one turn, the step ``act`` and a draft share: room in the log, the kind's handler,
then what the log entry keeps of it."""

from __future__ import annotations

from referee import (
    GameState,
    IllegalAction,
    RefereeError,
)
from scorekeeper.games import clocks
from scorekeeper.games.entries import Context
from scorekeeper.games.errors import named
from scorekeeper.games.results import totals
from scorekeeper.games.turn_kinds import KINDS, ActionKind
from scorekeeper.invisible import visible
from scorekeeper.models import (
    Turn,
)

# A game's log is long enough for any real game, undos and all; a runaway script stops here.
LOG_CAP = 2000
# The most entries a log can hold: the cap, then one of each kind that ends a game (finish,
# void), which a full log still takes.
LOG_MAX = LOG_CAP + sum(1 for kind in KINDS.values() if kind.always)


def taken(turn: Turn) -> Turn:
    """The entry an undo or a correction took out of effect."""
    assert turn.target is not None, "an undo or a correction names its turn"
    return turn.target


def check_room(entries: int, kind: ActionKind) -> None:
    """Refuse a new entry in a log that holds ``entries`` already, if that is the most one game
    keeps; the kinds that end a game are taken still."""
    if entries >= LOG_CAP and not kind.always:
        raise IllegalAction(
            "log_full",
            f"This game's log has reached {LOG_CAP:,} entries, the most one game keeps: "
            "finish the game.",
        )


def enter_turn(kind: ActionKind, context: Context) -> GameState:
    """Enter one turn on a context (``act``'s, or a draft's): the kind's handler checks it and
    applies it to the engine, and the log entry gets the rest of what was entered. Returns the
    state after it."""
    try:
        kind.enter(context)
    except RefereeError as error:
        raise named(error, context.seats) from None
    turn, entry = context.turn, context.entry
    # The note is shown on the game's pages: what can't be seen there goes.
    turn.rack, turn.note = entry.rack[:16], visible(entry.note, keep="\n")
    best = entry.best
    if kind.places_tiles and isinstance(best, int) and not isinstance(best, bool):
        turn.best = best
    # An undo leaves the state before the entry it took back; a correction replays the log
    # itself and leaves the state it reached in the context.
    state = context.log.state_before(taken(turn).place) if kind.rebuilds else context.state
    if turn.totals is None:  # a correction records the totals where it stands in play
        turn.totals = totals(state)
    turn.clock, context.time_penalties = clocks.after_entry(
        context.game,
        context.seats,
        to_move=state.to_move,
        status=state.status,
        readings=entry.clock_ms,
        clock_at=entry.clock_at,
        action=entry.clock if kind.aside else None,
    )
    return state
