"""A game's record (an imported file), entered through ``draft_game``: its turns go through the
same handlers as ``act``'s, in memory, and ``Draft.save`` stores the game and its whole log in
one short transaction, so an import never holds the database while it is read and checked.
Then ``do_link_players`` links its names to the players the importer speaks for."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any
from uuid import UUID

from django.db import connection, transaction

from referee import (
    GameState,
    InputError,
    RefereeError,
)
from scorekeeper.games import rows
from scorekeeper.games.access import fetch_game
from scorekeeper.games.checkpoints import CheckpointsDue
from scorekeeper.games.consistency import log_problems
from scorekeeper.games.create import known_player, made_under, player_named, unsaved_game
from scorekeeper.games.entering import check_room, enter_turn
from scorekeeper.games.entries import Context, TurnEntry
from scorekeeper.games.in_play import InPlay
from scorekeeper.games.state import new_state, set_state
from scorekeeper.games.turn_kinds import KINDS
from scorekeeper.games.word_policy import AUTO, policy_for
from scorekeeper.models import (
    Game,
    Player,
    Seat,
    Turn,
)


# A game's record -------------------------------------------------------------------------------
def draft_game(
    *,
    ruleset: str,
    players: Sequence[str],
    lexicon: str | None = None,
    challenge_mode: str = AUTO,
    options: Mapping[str, Any] | None = None,
    first: str | None = None,
    title: str = "",
    description: str = "",
    by: str = "",
) -> Draft:
    """A game to enter from its record: checked as ``check_create_game`` checks one, held in memory
    until ``Draft.save``. Writes nothing. ``title`` and ``description`` are the record's."""
    game, names, state = unsaved_game(
        ruleset=ruleset,
        players=players,
        lexicon=lexicon,
        challenge_mode=challenge_mode,
        options=options,
        first=first,
        turn_clock=None,
    )
    game.title, game.description = title[:200], description
    return Draft(game, names, state, by)


class Draft:
    """A game entered turn by turn in memory, then stored at once (an imported record).

    Each turn goes through the action table's handlers as ``act``'s do, so the log and the
    state come out as they would at the table; nothing is written until ``save``.
    """

    def __init__(self, game: Game, names: Sequence[str], state: GameState, by: str) -> None:
        self.game = game
        # The players are found or made when the draft is saved; until then, by name.
        self.seats = [
            Seat(game=game, player=Player(name=name), order=order)
            for order, name in enumerate(names)
        ]
        self.state = state  # the game as the turns entered so far leave it: read, don't change
        self.turns: list[Turn] = []
        self.by = by
        self.policy = policy_for(game)
        self.in_play = InPlay(self.effective, lambda: new_state(game, len(self.seats)))
        self.kept = CheckpointsDue()  # the checkpoints of its log, stored with it
        self._values: list[list[Any]] | None = None  # the log's rows, once prepared

    def enter(
        self,
        action: str,
        *,
        source: str = "",
        tiles: Iterable[tuple[int, int, str]] | None = None,
        count: object = None,
        racks: Mapping[int, str] | None = None,
        verdict: str | None = None,
        seat: int | None = None,
        points: int | None = None,
        rack: str = "",
        note: str = "",
    ) -> Turn:
        """Enter one turn, as ``act`` would; ``source`` (where the record says it: "Line 12")
        begins the sentence of a refusal. Only the kinds a record can hold (``recorded``)."""
        kind = KINDS.get(action)
        try:
            if kind is None or not kind.recorded:
                recorded = ", ".join(k.name for k in KINDS.values() if k.recorded)
                raise InputError(
                    "not_recorded", f"A game's record holds {recorded}; not {action!r}."
                )
            check_room(len(self.turns), kind)
            self._values = None
            number = len(self.turns) + 1
            turn = Turn(
                game=self.game, number=number, place=number, action=action, entered_by=self.by[:80]
            )
            entry = TurnEntry(
                by=self.by, tiles=None if tiles is None else list(tiles), count=count,
                racks=racks, verdict=verdict, seat=seat, points=points, rack=rack, note=note,
            )  # fmt: skip
            context = Context(
                self.game, self.seats, self.state, turn, entry, self.policy, self.in_play
            )
            self.state = enter_turn(kind, context)
        except RefereeError as error:
            if source:
                error.message = f"{source}: {error.message}"
            raise
        self.turns.append(turn)
        self.kept.after(self.game, turn.place, number, self.state)
        return turn

    def effective(self) -> list[Turn]:
        """The turns in effect: all of them, as a record has no undo or correction."""
        return list(self.turns)

    @property
    def turns_played(self) -> int:
        """The turns players count, as ``Game.turns_played`` will keep them."""
        options = self.state.options
        return sum(KINDS[turn.action].turns(turn.result, options) for turn in self.turns)

    def save(
        self, linked: Callable[[Player], bool] | None = None, retry_slot: str | None = None
    ) -> Game:
        """Store the game, its players, seats and whole log in one short transaction; with a
        ``retry_slot`` (``check_create_game``'s) under which a game was made already, that game.

        With ``linked``, a seat is the player known by its name only when ``linked`` says so
        of that player; every other seat gets a new player of that name, ``from_record``. With
        none (an operator's import), every seat is the player of its name, found or made.

        Everything slow happens before it: the check that the log replays to the state reached
        and that every entry agrees with the engine (``audit_game``'s checks, in memory), and
        the log's rows prepared as the database takes them. The transaction (on SQLite, the
        database's write lock) holds only the inserts: the log's rows by one statement run
        for each (``executemany``), then the plays each challenge judged linked by id.
        """
        if retry_slot is not None and (made := made_under(retry_slot)) is not None:
            return made
        game, seats, turns = self.game, self.seats, self.turns
        game.retry_slot = retry_slot
        values = self.prepare()
        with transaction.atomic():
            game.save(force_insert=True)
            for seat in seats:
                seat.player = _seat_player(seat.player.name, linked)
                seat.save(force_insert=True)
            _insert_log(game, turns, values)
            self.kept.write()
        return game

    def prepare(self) -> list[list[Any]]:
        """Check the log against the state reached and prepare its rows as the database takes
        them, once: a caller that holds a transaction around ``save`` (an import's duplicate
        check) calls it first, so the write lock is not held for it."""
        if self._values is None:
            game, seats, turns = self.game, self.seats, self.turns
            problems = log_problems(game, seats, turns, self.state)
            if problems:  # the handlers and the replay disagree: never store such a game
                raise InputError("inconsistent_log", "; ".join(problems))
            set_state(game, seats, self.state)
            game.checkpoint_place = self.kept.place
            game.last_entry_number = len(turns)
            game.turns_played = self.turns_played
            self._values = [rows.turn_values(turn) for turn in turns]
        return self._values


def _seat_player(name: str, linked: Callable[[Player], bool] | None) -> Player:
    if linked is None:
        return player_named(name)
    known = known_player(name)
    if known is not None and linked(known):
        return known
    return Player.objects.create(name=name, from_record=True)


def do_link_players(game_id: UUID | str, linked: Callable[[Player], bool] | None) -> list[Seat]:
    """Give the seats of an imported game that hold a record's unlinked names the players
    known by those names, where ``linked`` allows it (None: every one), under the game's lock;
    the seats it changed. The unlinked names it replaced, now in no game, are deleted."""
    with transaction.atomic():
        game = fetch_game(game_id, lock=True)
        seats = list(game.seats.select_related("player").order_by("order"))
        changed = []
        for seat in seats:
            if not seat.player.from_record:
                continue
            name = seat.player.name
            known = player_named(name) if linked is None else known_player(name)
            if known is None or (linked is not None and not linked(known)):
                continue
            if any(other.player_id == known.pk for other in seats):
                continue  # a game seats a player once
            unlinked, seat.player = seat.player, known
            seat.save(update_fields=["player"])
            unlinked.delete()
            changed.append(seat)
        if changed:  # the pages that show its players are out of date
            game.save(update_fields=["updated_at"])
    return changed


# A log's columns: each turn's seat is known by id only once the seats are stored.
_SEAT_COLUMN = next(i for i, f in enumerate(rows.TURN_FIELDS) if f.name == "seat")


def _insert_log(game: Game, turns: Sequence[Turn], values: list[list[Any]]) -> None:
    """Insert the prepared rows of a new game's log (``rows.turn_values``, made before the
    transaction), then link each challenge to the play it judged (an earlier row of the same
    insert)."""
    for row, turn in zip(values, turns, strict=True):
        row[_SEAT_COLUMN] = turn.seat.pk
    rows.insert_turns(values)
    ids = dict(game.turns.values_list("number", "pk"))
    for turn in turns:
        turn.pk = ids[turn.number]
        turn._state.adding, turn._state.db = False, connection.alias
    challenges = [turn for turn in turns if turn.target is not None]
    for turn in challenges:
        turn.target = turn.target  # its id, known now
    rows.update_each(challenges, ["target"])
