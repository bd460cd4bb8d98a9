"""The game clock's rules: each player's time bank, overtime penalties, a turn timer.

The phone at the table is the authority of the time used, as a chess clock on the table is:
every turn and clock action carries the readings of every clock (milliseconds remaining, by
seat order, negative in overtime) with the moment they were taken. This module checks those
readings, works out what a screen shows at any moment from the last of them, and what the
time costs at the end. It knows nothing of games or storage.

>>> rule = ClockRule.from_json({"kind": "player", "minutes": 25})
>>> rule.penalty(-64_000), format_ms(-64_000)
(20, '−1:04')
>>> state = ClockState.start(rule, seats=2, first=0, at=0)
>>> state = state.switch((1_380_000, 1_500_000), at=120_000, to=1)
>>> state.now(150_000)
(1380000, 1470000)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from referee.errors import IllegalAction, InputError

PLAYER = "player"
TURN = "turn"
CAPPED = "capped"
LOSES = "loses"
MINUTE_MS = 60_000
# Readings further than a day from zero are no clock's: refused as malformed.
LIMIT_MS = 24 * 60 * MINUTE_MS
# How far a phone's readings may stray from the time since the last ones (its rounding, a page
# a moment behind), and how far ahead of the server's time its moment may be (its clock set a
# little ahead): more than either is no phone reading its own clocks.
TOLERANCE_MS = 2_000
WINDOW_MS = 30_000

# Each setting's default and the range a director may choose, in the setting's own unit.
SETTINGS: dict[str, tuple[int, int, int]] = {
    "minutes": (25, 1, 180),
    "overtime_penalty": (10, 0, 100),
    "max_overtime_minutes": (10, 0, 60),
    "seconds": (75, 10, 600),
}


def _shape(message: str) -> InputError:
    return InputError("clock_shape", message)


@dataclass(frozen=True)
class ClockRule:
    """How a game is timed: a time bank for each player, or a timer for each turn."""

    kind: str = PLAYER
    minutes: int = 25
    overtime_penalty: int = 10
    max_overtime_minutes: int = 10
    # Past the maximum overtime the player loses on time, or keeps the capped penalty.
    over_max: str = CAPPED
    seconds: int = 75

    @classmethod
    def from_json(cls, data: object) -> ClockRule:
        """Read a clock as the API states it, refusing what no clock could be.

        >>> ClockRule.from_json({"kind": "turn"}).seconds
        75
        >>> ClockRule.from_json({"kind": "player", "minutes": 0})
        Traceback (most recent call last):
        ...
        referee.errors.InputError: A clock's minutes must be a whole number from 1 to 180.
        """
        if not isinstance(data, dict):
            raise _shape('A clock is an object such as {"kind": "player", "minutes": 25}.')
        kind = data.get("kind")
        if kind not in (PLAYER, TURN):
            raise _shape('A clock\'s kind is "player" (a time bank each) or "turn" (a timer).')
        allowed = {"kind", "seconds"} if kind == TURN else set(SETTINGS) - {"seconds"}
        allowed |= {"kind"} | ({"over_max"} if kind == PLAYER else set())
        unknown = sorted(set(data) - allowed)
        if unknown:
            raise _shape(f"A {kind} clock has no setting {unknown[0]!r}.")
        values: dict[str, object] = {"kind": kind}
        for name in allowed & set(SETTINGS):
            default, low, high = SETTINGS[name]
            value = data.get(name, default)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                words = name.replace("_", " ")
                raise _shape(f"A clock's {words} must be a whole number from {low} to {high}.")
            values[name] = value
        over_max = data.get("over_max", CAPPED)
        if kind == PLAYER and over_max not in (CAPPED, LOSES):
            raise _shape('Past the maximum overtime a player "loses" or is "capped".')
        return cls(**values, over_max=over_max if kind == PLAYER else CAPPED)  # type: ignore[arg-type]

    def to_json(self) -> dict[str, object]:
        if self.kind == TURN:
            return {"kind": TURN, "seconds": self.seconds}
        return {
            "kind": PLAYER,
            "minutes": self.minutes,
            "overtime_penalty": self.overtime_penalty,
            "max_overtime_minutes": self.max_overtime_minutes,
            "over_max": self.over_max,
        }

    @property
    def full_ms(self) -> int:
        """What each clock reads at its start: the whole bank, or a whole turn."""
        return (self.seconds * 1000) if self.kind == TURN else self.minutes * MINUTE_MS

    def penalty(self, remaining_ms: int) -> int:
        """Points a player's final reading costs: each started minute over, up to the maximum.

        >>> rule = ClockRule()
        >>> [rule.penalty(-s * 1000) for s in (0, 1, 60, 61, 599, 600, 601)]
        [0, 10, 10, 20, 100, 100, 100]
        """
        if self.kind != PLAYER:
            return 0
        return (
            min(overtime_minutes(remaining_ms), self.max_overtime_minutes) * self.overtime_penalty
        )

    def lost_on_time(self, remaining_ms: int) -> bool:
        """Whether the reading is past the maximum overtime for a clock where that loses.

        >>> rule = ClockRule(over_max=LOSES)
        >>> rule.lost_on_time(-600_000), rule.lost_on_time(-601_000)
        (False, True)
        """
        over = self.kind == PLAYER and -remaining_ms > self.max_overtime_minutes * MINUTE_MS
        return over and self.over_max == LOSES


def overtime_minutes(remaining_ms: int) -> int:
    """Minutes begun past zero: a part of a minute counts as a whole one.

    >>> [overtime_minutes(ms) for ms in (5_000, 0, -1, -60_000, -60_001)]
    [0, 0, 1, 1, 2]
    """
    return math.ceil(-remaining_ms / MINUTE_MS) if remaining_ms < 0 else 0


def format_ms(ms: int) -> str:
    """A reading as a clock shows it, whole seconds rounded away from zero, overtime with −.

    >>> format_ms(1_500_000), format_ms(59_001), format_ms(0), format_ms(-1), format_ms(-64_000)
    ('25:00', '1:00', '0:00', '−0:01', '−1:04')
    """
    seconds = math.ceil(abs(ms) / 1000)
    return f"{'−' if ms < 0 else ''}{seconds // 60}:{seconds % 60:02d}"


def check_readings(
    readings: object,
    names: Sequence[str],
    before: ClockState | None = None,
    at: int | None = None,
) -> tuple[int, ...]:
    """The readings sent with a turn or a clock action, refused with a sentence when wrong.

    ``before`` is the clocks' last state and ``at`` the moment of these readings: only the
    clock that was running has moved, by the time since (within ``TOLERANCE_MS``), as a
    phone reading its own clocks sends them.

    >>> before = ClockState((1_500, -2_000), running=0, paused=False, at=0)
    >>> check_readings([1_000, -2_000], ["Ann", "Bo"], before, at=500)
    (1000, -2000)
    """
    seats = len(names)
    if (
        not isinstance(readings, (list, tuple))
        or len(readings) != seats
        or any(isinstance(r, bool) or not isinstance(r, int) for r in readings)
        or any(abs(r) > LIMIT_MS for r in readings)
    ):
        raise InputError(
            "clock_readings",
            f"The clock readings are one whole number of milliseconds for each of the "
            f"{seats} players, in seat order.",
        )
    if before is not None:
        expected = before.now(before.at if at is None else at)
        for seat, (name, now, then) in enumerate(zip(names, readings, expected, strict=True)):
            if now > before.readings[seat]:
                raise IllegalAction(
                    "clock_ran_up",
                    f"{name}'s clock reads {format_ms(now)}, more than the "
                    f"{format_ms(before.readings[seat])} it read before: a clock only runs down.",
                )
            if abs(now - then) > TOLERANCE_MS:
                ran = seat == before.running and not before.paused
                raise IllegalAction(
                    "clock_reading",
                    f"{name}'s clock reads {format_ms(now)}, but "
                    + (
                        f"it ran from {format_ms(before.readings[seat])} for "
                        f"{format_ms(max(0, (at or before.at) - before.at))} since the last "
                        f"reading, so it reads {format_ms(then)}."
                        if ran
                        else f"it has not run since it read {format_ms(then)}."
                    ),
                )
    return tuple(readings)


def check_moment(at: int, last: int, server: int) -> int:
    """The moment of a turn's readings (epoch milliseconds, the phone's), refused when no
    phone could have taken them: before the game's last recorded moment, or later than the
    server's time by more than ``WINDOW_MS``. An earlier moment than the server's time is
    fine, as long as it follows the log: a turn kept on a phone offline is sent later. A
    moment just before the last one (a phone's clock a little behind the server's) counts
    as the last one.

    >>> last, server = 500_000, 900_000
    >>> check_moment(600_000, last, server), check_moment(499_000, last, server)
    (600000, 500000)
    >>> check_moment(1, last, server)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    referee.errors.IllegalAction: The clock readings' moment (clock_at 1) is before the ...
    """
    if at < last - TOLERANCE_MS:
        raise IllegalAction(
            "clock_at_before",
            f"The clock readings' moment (clock_at {at}) is before the game's last recorded "
            f"moment ({last}): a phone sends the moment it read its clocks.",
        )
    if at > server + WINDOW_MS:
        raise IllegalAction(
            "clock_at_ahead",
            f"The clock readings' moment (clock_at {at}) is {format_ms(at - server)} ahead of "
            f"the server's time ({server}): set the phone's date and time to automatic.",
        )
    return max(at, last)


@dataclass(frozen=True)
class ClockState:
    """The last readings, when they were taken, whose clock runs and whether it is paused.

    ``at`` is the moment of the readings in milliseconds (the phone's, when it took them);
    a screen works out what the clocks read now from it and the time since.
    """

    readings: tuple[int, ...]
    running: int | None
    paused: bool
    at: int
    kind: str = PLAYER
    full_ms: int = 25 * MINUTE_MS

    @classmethod
    def start(cls, rule: ClockRule, seats: int, first: int, at: int) -> ClockState:
        return cls((rule.full_ms,) * seats, first, False, at, rule.kind, rule.full_ms)

    @classmethod
    def from_json(cls, data: dict[str, object], rule: ClockRule) -> ClockState:
        """The state ``to_json`` wrote, under the game's ``rule``.

        >>> rule = ClockRule()
        >>> state = ClockState.start(rule, seats=2, first=1, at=5)
        >>> ClockState.from_json(state.to_json(), rule) == state
        True
        """
        readings = data["readings"]
        running = data["running"]
        at = data["at"]
        assert isinstance(readings, list) and isinstance(at, int)
        assert running is None or isinstance(running, int)
        return cls(tuple(readings), running, bool(data["paused"]), at, rule.kind, rule.full_ms)

    def now(self, at: int) -> tuple[int, ...]:
        """The readings at the moment ``at``: the running clock less the time since, down to
        a day over at most (past any maximum overtime, so it costs and loses the same), so
        that what is worked out from a moment long before is still a reading a clock can send.

        >>> state = ClockState.start(ClockRule(), seats=2, first=0, at=0)
        >>> state.now(60_000), state.now(10**12)[0] == -LIMIT_MS
        ((1440000, 1500000), True)
        """
        if self.running is None or self.paused:
            return self.readings
        readings = list(self.readings)
        readings[self.running] = max(readings[self.running] - max(0, at - self.at), -LIMIT_MS)
        return tuple(readings)

    def switch(self, readings: Sequence[int], at: int, to: int | None) -> ClockState:
        """A turn entered, or the clock tapped: these readings, and ``to``'s clock runs.

        A turn timer starts the next player's turn whole.

        >>> timer = ClockState.start(ClockRule(kind=TURN), seats=2, first=0, at=0)
        >>> timer.switch((40_000, 75_000), at=35_000, to=1).readings
        (40000, 75000)
        """
        readings = list(readings)
        if self.kind == TURN and to is not None:
            readings[to] = self.full_ms
        return replace(self, readings=tuple(readings), running=to, paused=False, at=at)

    def pause(self, readings: Sequence[int], at: int) -> ClockState:
        return replace(self, readings=tuple(readings), paused=True, at=at)

    def resume(self, at: int) -> ClockState:
        return replace(self, paused=False, at=at)

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "readings": list(self.readings),
            "running": self.running,
            "paused": self.paused,
            "at": self.at,
        }
