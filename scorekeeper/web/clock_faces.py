"""A game's clocks as the pages show them: each player's time now, whose runs, overtime and
what it costs, read off the last readings (``scorekeeper.games.clocks``) and the time since.

The pages' script (static/js/clock.js) keeps them running from the same readings; what is
worked out here is what a page shows before it (and without it). The readings the scorer's
phone sends with a turn are read by ``posted_clock``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.http import QueryDict

from referee import TURN_TIMER, InputError, format_ms
from scorekeeper.games.clocks import is_waiting, lost_on_time, now_ms, rule_of, state_of
from scorekeeper.games.turn_kinds import TIMING
from scorekeeper.models import Game, Seat


def clock_faces(game: Game, names: Sequence[str], at: int | None = None) -> dict[str, Any] | None:
    """The clocks of ``game`` at the moment ``at`` (epoch ms; now by default), or None for a
    game without a clock: ``{"kind", "paused", "waiting", "rule", "players": [{"seat", "name",
    "reading", "at", "running", "waiting", "shown", "over", "penalty", "lost"}]}``. ``reading``
    and ``at`` are the last reading and its moment, for the script to run on from; ``waiting``:
    the clock waits for the table to start it (a paired game before its first entry)."""
    rule, state = rule_of(game), state_of(game)
    if rule is None or state is None:
        return None
    at = now_ms() if at is None else at
    now = state.now(at)
    running = state.running
    waits = is_waiting(game)
    players = []
    for seat, name in enumerate(names):
        runs = running == seat
        players.append(
            {
                "seat": seat,
                "name": name,
                "reading": state.readings[seat],
                "at": state.at,
                "running": runs and not state.paused,
                "to_run": runs,
                "waiting": waits,
                # A turn timer shows only the turn that runs.
                "shown": format_ms(now[seat]) if runs or rule.kind != TURN_TIMER else "",
                "over": now[seat] < 0,
                "penalty": rule.penalty(now[seat]),
                "lost": rule.lost_on_time(now[seat]),
            }
        )
    return {
        "kind": rule.kind,
        "paused": state.paused,
        "waiting": waits,
        "running": state.running,
        "rule": rule.to_json(),
        "full_ms": rule.full_ms,
        "players": players,
        "time_up": rule.kind == TURN_TIMER and running is not None and now[running] <= 0,
    }


def time_points(game: Game, seats: Sequence[Seat]) -> list[int]:
    """The points time penalties took off each player, by seat order (the log's penalty
    entries in effect: the clock's at the end, or an imported record's ``(time)`` lines)."""
    order = {seat.pk: seat.order for seat in seats}
    points = [0] * len(seats)
    taken = game.turns.effective().filter(action__in=TIMING)
    for seat, score in taken.values_list("seat_id", "score"):
        points[order[seat]] += score
    return points


def time_penalties(game: Game, names: Sequence[str]) -> list[str]:
    """What the clock cost at the end of a finished game, a line for each player it cost:
    "Ann: −20 for 1:04 over", "Ann lost on time (10:05 over)"."""
    rule, state = rule_of(game), state_of(game)
    if rule is None or state is None or game.status != Game.Status.FINISHED:
        return []
    lost = set(lost_on_time(game))
    said = []
    for seat, (name, reading) in enumerate(zip(names, state.readings, strict=True)):
        over = format_ms(-reading)
        if seat in lost:
            said.append(f"{name} lost on time ({over} over)")
        elif cost := rule.penalty(reading):
            said.append(f"{name}: −{cost} for {over} over")
    return said


def posted_clock(data: QueryDict) -> dict[str, Any]:
    """The clock readings a turn's form sends (``clock_ms``: whole milliseconds by seat order,
    comma-separated; ``clock_at``: their moment), and a clock action (``clock``), as
    ``domain.act`` takes them; nothing for a form sent without them."""
    raw_ms = data.get("clock_ms", "").strip()
    raw_at = data.get("clock_at", "").strip()
    readings: list[int] | None = None
    if raw_ms:
        try:
            readings = [int(part) for part in raw_ms.split(",")]
        except ValueError:
            raise InputError(
                "clock_readings",
                "The clock readings are whole numbers of milliseconds, one for each player.",
            ) from None
    moment: int | None = None
    if raw_at:
        if not (raw_at.isascii() and raw_at.isdigit() and len(raw_at) <= 14):
            raise InputError(
                "clock_at", "clock_at is the moment of the readings, in milliseconds since 1970."
            )
        moment = int(raw_at)
    sent: dict[str, Any] = {"clock_ms": readings, "clock_at": moment}
    if data.get("clock"):
        sent["clock"] = data.get("clock")
    return sent
