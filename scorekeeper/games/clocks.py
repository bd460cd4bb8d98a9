"""A game's clock in its log: the rule chosen at the start, the readings each entry stores.

``Game.clock`` holds the rule and the clocks after the latest entry, in the API's shape
(``{"rule", "readings", "running", "paused", "at"}``); each log entry stores the clocks after
it (``Turn.clock``). The readings come from the phone at the table with the moment it took
them; an entry sent without them is read off the last state and the server's time. The
rules themselves (penalties, readings and moments refused) are ``referee.clock``'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from django.utils import timezone

from referee import (
    FINISHED,
    IN_PROGRESS,
    PLAYER_CLOCK,
    ClockRule,
    ClockState,
    IllegalAction,
    InputError,
    check_moment,
    check_readings,
)
from scorekeeper.models import Game, Seat

# What a clock action does, without a turn: the tap that switches it, pausing, and the table's
# start of a clock that waits for it.
SWITCH, PAUSE, RESUME, START = "switch", "pause", "resume", "start"
CLOCK_ACTIONS = (SWITCH, PAUSE, RESUME, START)
# A moment is epoch milliseconds: anything past the year 2286 or before 1970 is no phone's.
_MOMENT_MAX = 10**13


def now_ms() -> int:
    return int(timezone.now().timestamp() * 1000)


def started(data: object, seats: int, first: int) -> dict[str, Any] | None:
    """The ``Game.clock`` of a new game with this clock (``None``: no clock), the first
    player's running from now; refused with ``ClockRule.from_json``'s sentence."""
    if data is None:
        return None
    rule = ClockRule.from_json(data)
    return stored(rule, ClockState.start(rule, seats, first, now_ms()))


def waiting(data: object, seats: int, first: int) -> dict[str, Any] | None:
    """The ``Game.clock`` of a game paired before its table sits down: full time for everyone,
    stopped, until the table starts it (a ``start`` or its first entry, which clears
    ``waiting``)."""
    if data is None:
        return None
    rule = ClockRule.from_json(data)
    state = ClockState.start(rule, seats, first, now_ms())
    return {**stored(rule, replace(state, paused=True)), "waiting": True}


def is_waiting(game: Game) -> bool:
    """Whether the game's clock has not been started by its table yet."""
    return game.clock is not None and bool(game.clock.get("waiting"))


def stored(rule: ClockRule, state: ClockState) -> dict[str, Any]:
    """The clocks as ``Game.clock`` keeps them and the API shows them."""
    shown = state.to_json()
    del shown["kind"]  # the rule says it
    return {"rule": rule.to_json(), **shown}


def rule_of(game: Game) -> ClockRule | None:
    return None if game.clock is None else ClockRule.from_json(game.clock["rule"])


def state_of(game: Game) -> ClockState | None:
    rule = rule_of(game)
    return None if rule is None or game.clock is None else ClockState.from_json(game.clock, rule)


def moment(clock_at: object, last: int) -> int:
    """When the readings were taken (epoch milliseconds from the phone), else now: a phone's
    moment follows the game's ``last`` and is not ahead of the server's time
    (``referee.check_moment``)."""
    if clock_at is None:
        return max(now_ms(), last)
    if (
        isinstance(clock_at, bool)
        or not isinstance(clock_at, int)
        or not 0 < clock_at < _MOMENT_MAX
    ):
        raise InputError(
            "clock_at", "clock_at is the moment of the readings, in milliseconds since 1970."
        )
    return check_moment(clock_at, last, now_ms())


def after_entry(
    game: Game,
    seats: Sequence[Seat],
    *,
    to_move: int,
    status: str,
    readings: object,
    clock_at: object,
    action: object = None,
) -> tuple[dict[str, Any] | None, list[tuple[int, int]]]:
    """The clocks after a log entry (``Turn.clock``), set on ``game`` as its latest; and the
    time penalties due, by seat, when this entry ended the game (a player clock).

    Any entry but a clock action switches the clocks to whoever is to move after it (none once
    the game is over); ``action`` is a clock action's (switch, pause, resume).
    """
    rule, before = rule_of(game), state_of(game)
    if rule is None or before is None:
        if readings is not None or clock_at is not None or action is not None:
            raise InputError("no_clock", "This game has no clock: send no clock readings.")
        return None, []
    at = moment(clock_at, before.at)
    names = [seat.player.name for seat in sorted(seats, key=lambda seat: seat.order)]
    now = before.now(at) if readings is None else check_readings(readings, names, before, at)
    if action is None:
        running = to_move if status == IN_PROGRESS else None
        after = before.switch(now, at, running)
    elif action == PAUSE:
        after = before.pause(now, at)
    elif action in (RESUME, START):
        after = replace(before.resume(at), readings=now)
    else:
        after = before.switch(
            now, at, (to_move if before.running is None else before.running + 1) % len(names)
        )
    ended = status == FINISHED and game.status != FINISHED  # the game's row is as it was
    due: list[tuple[int, int]] = []
    if ended and rule.kind == PLAYER_CLOCK:
        due = [(seat, -rule.penalty(r)) for seat, r in enumerate(after.readings) if rule.penalty(r)]
    game.clock = stored(rule, after)
    return {**after.to_json(), **({"action": action} if action else {})}, due


def check_clock_action(action: object, status: str, *, waits: bool = False) -> str:
    """A clock action without a turn, refused when it is none, when the game is over, and a
    start when the clock is not waiting for the table (``waits``)."""
    if action not in CLOCK_ACTIONS:
        raise InputError(
            "bad_clock_action", 'A clock action is "switch", "pause", "resume" or "start".'
        )
    if status != IN_PROGRESS:
        raise IllegalAction("game_over", "The game is over: its clock has stopped.")
    if action == START and not waits:
        raise IllegalAction("clock_started", "The clock has started already.")
    assert isinstance(action, str)
    return action


def lost_on_time(game: Game) -> list[int]:
    """The seats past the maximum overtime in a game whose clock says that loses, once over."""
    rule, state = rule_of(game), state_of(game)
    if rule is None or state is None or state.running is not None:
        return []
    return [seat for seat, r in enumerate(state.readings) if rule.lost_on_time(r)]
