"""The moment a clocked game's clocks read as a test wants them to: a phone sends the readings
of the running clock less the time since the last ones, so a test sets the server's time (and
the moment it sends) to when they read so."""

from __future__ import annotations

from collections.abc import Sequence

from scorekeeper.models import Game


def when_read(game_id: object, readings: Sequence[int]) -> int:
    """When the game's running clock reads its part of ``readings`` (the others must be as
    they were: a clock that isn't running doesn't move)."""
    clock = Game.objects.get(pk=game_id).clock
    assert clock is not None
    running, before, at = clock["running"], clock["readings"], clock["at"]
    for seat, (now, then) in enumerate(zip(readings, before, strict=True)):
        assert seat == running or now == then, f"seat {seat}'s clock isn't running"
    if running is None or clock["paused"]:
        return int(at)
    return int(at) + max(0, before[running] - readings[running])


def run_clocks_to(game_id: object, readings: Sequence[int]) -> int:
    """Clock taps that leave the game's clocks reading ``readings``, then a pause: each clock
    runs in turn from the running one, for as long as it takes (the game must have started
    that long ago). The number of log entries made."""
    from scorekeeper.games import domain  # the domain loads Django's apps

    clock = Game.objects.get(pk=game_id).clock
    assert clock is not None and clock["running"] is not None
    current, at, seats = list(clock["readings"]), int(clock["at"]), len(readings)
    order = [(clock["running"] + i) % seats for i in range(seats)]
    last = max(i for i, seat in enumerate(order) if readings[seat] != current[seat])
    for i, seat in enumerate(order[: last + 1]):
        at += current[seat] - readings[seat]
        current[seat] = readings[seat]
        action = "pause" if i == last else "switch"
        domain.act(
            game_id, domain.TurnCommand("clock", clock=action, clock_ms=list(current), clock_at=at)
        )
    return last + 1


def time_to_run(full: int, readings: Sequence[int]) -> int:
    """How long the clocks must run, from ``full`` each, to read ``readings``."""
    return sum(full - reading for reading in readings)
