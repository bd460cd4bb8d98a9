"""The club's event on the director's screen (``/clubs/<slug>/live`` and its projector view)
while it runs: the current round's tables, each with its live game, and each division's
standings. The screen's own refresh (``scorekeeper.web.director``) brings it up to date as
each game moves and ends."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorekeeper.events.reads import Row, division_standings, rounds_of, running_event
from scorekeeper.games.clocks import is_waiting
from scorekeeper.games.replay import turn_phrase
from scorekeeper.models import Club, Game, Pairing, Tournament
from scorekeeper.web.clock_faces import clock_faces


@dataclass(frozen=True)
class Side:
    """A player at an event's table: their name, the score shown (None: none yet, or a
    forfeit), and whether it is their move."""

    name: str
    score: int | None
    to_move: bool = False
    absent: bool = False


@dataclass(frozen=True)
class EventTable:
    """One table of the current round: its number (None for a bye), its players, and where
    its game stands in words ("turn 7", "final", "forfeit", "typed in", "bye"), and the
    clocks of a clocked game in play (``clock_faces``)."""

    pairing: Pairing
    number: int | None
    division: str
    sides: list[Side]
    state: str
    in_play: bool
    clock: dict[str, Any] | None = None


@dataclass(frozen=True)
class EventScreen:
    tournament: Tournament
    round: int
    tables: list[EventTable]
    divisions: list[tuple[str, list[Row]]]

    @property
    def game_ids(self) -> set[object]:
        return {table.pairing.game_id for table in self.tables if table.pairing.game_id}

    @property
    def several_divisions(self) -> bool:
        return len(self.divisions) > 1


def _table(pairing: Pairing, division: str) -> EventTable:
    first = pairing.first.player.name
    if pairing.second is None:
        return EventTable(pairing, None, division, [Side(first, None)], "bye", False)
    second = pairing.second.player.name
    if pairing.absent_id is not None:
        sides = [
            Side(first, None, absent=pairing.absent_id == pairing.first_id),
            Side(second, None, absent=pairing.absent_id == pairing.second_id),
        ]
        return EventTable(pairing, pairing.table, division, sides, "forfeit", False)
    if pairing.first_score is not None and pairing.second_score is not None:
        sides = [Side(first, pairing.first_score), Side(second, pairing.second_score)]
        return EventTable(pairing, pairing.table, division, sides, "typed in", False)
    game = pairing.game
    if game is None:
        sides = [Side(first, None), Side(second, None)]
        return EventTable(pairing, pairing.table, division, sides, "no game", False)
    seats = {seat.player_id: seat for seat in game.seats.all()}
    one, two = seats.get(pairing.first.player_id), seats.get(pairing.second.player_id)
    finished = game.status == Game.Status.FINISHED
    in_play = game.status == Game.Status.IN_PROGRESS
    sides = []
    for name, seat in ((first, one), (second, two)):
        score = None if seat is None else (seat.final_score if finished else seat.score)
        moving = in_play and seat is not None and seat.order == game.to_move
        sides.append(Side(name, score, to_move=moving))
    if finished:
        state = "final"
    elif game.status == Game.Status.AWAITING_RACKS:
        state = "waiting for the racks"
    elif in_play and is_waiting(game):
        state = "waiting for the table"
    elif in_play:
        state = turn_phrase(game)
    else:
        state = game.get_status_display().lower()
    clock = None
    if in_play:  # the seats' names from the pairing, so no query a table
        names = {pairing.first.player_id: first, pairing.second.player_id: second}
        order = sorted(seats.values(), key=lambda seat: seat.order)
        clock = clock_faces(game, [names.get(seat.player_id, "") for seat in order])
    return EventTable(pairing, pairing.table, division, sides, state, in_play, clock)


def event_screen(club: Club) -> EventScreen | None:
    """The club's running event as the director's screen shows it; None when none runs."""
    tournament = running_event(club)
    if tournament is None:
        return None
    rounds = rounds_of(tournament)
    number = max(rounds)
    divided = division_standings(tournament)
    division_of = {row.entrant.pk: name for name, rows in divided for row in rows}
    tables = [_table(p, division_of.get(p.first_id, "")) for p in rounds[number]]
    return EventScreen(tournament, number, tables, divided)
