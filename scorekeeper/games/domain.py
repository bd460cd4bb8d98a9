"""The one path that changes a game.

Every entry point (the JSON API, the pages, management commands) calls ``check_create_game``
(which checks a new game, then has ``do_create_game`` store it) or ``act``. ``act`` runs in
one transaction that locks the game row and checks the expected turn number, so a double tap
or a second device can never apply a turn twice, and a refused action changes nothing: the
engine checks everything before it changes its state, and the transaction rolls back whatever
else happened.

A game's record (an imported file) is entered through ``draft_game`` (``drafts``). The
other parts of the game's one door live beside this module and are named here too, so
``domain.X`` reaches each: ``create`` (a new game), ``drafts`` (a record, its players
linked), ``preview`` (a play before it is entered), ``entering`` (one turn entered, the step
``act`` and a draft share), ``access`` (finding a game) and ``errors`` (what it refuses).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from typing import Any
from uuid import UUID

from django.db import connection, transaction
from django.utils import timezone

from referee import (
    GameState,
    IllegalAction,
    InputError,
)
from scorekeeper.events.version import do_bump_for_game
from scorekeeper.games import checkpoints, clocks, rows
from scorekeeper.games.access import fetch_game
from scorekeeper.games.checkpoints import CheckpointsDue
from scorekeeper.games.create import (
    TABLE_MOST,
    TURN_CLOCK,
    NewGame,
    access_club_for_players,
    check_create_game,
    check_player_names,
    do_create_game,
    known_player,
    made_under,
    player_named,
    seat_named,
)
from scorekeeper.games.drafts import Draft, do_link_players, draft_game
from scorekeeper.games.entering import LOG_CAP, LOG_MAX, check_room, enter_turn, taken
from scorekeeper.games.entries import Change, Context, TurnCommand, TurnEntry
from scorekeeper.games.errors import GameHere, GameNotFound, StaleTurn, name_players, named
from scorekeeper.games.in_play import StoredInPlay
from scorekeeper.games.preview import Preview, preview
from scorekeeper.games.state import GAME_STATE, load_state, new_state, set_state, store_state
from scorekeeper.games.turn_kinds import KINDS, ActionKind
from scorekeeper.games.word_policy import policy_for
from scorekeeper.live.news import announce
from scorekeeper.models import (
    Game,
    Seat,
    Turn,
    new_token,
)

# The names of the one door, wherever they are written.
__all__ = [
    "LOG_CAP",
    "LOG_MAX",
    "TABLE_MOST",
    "TURN_CLOCK",
    "Applied",
    "Draft",
    "GameHere",
    "GameNotFound",
    "NewGame",
    "Preview",
    "StaleTurn",
    "TurnCommand",
    "act",
    "check_create_game",
    "check_player_names",
    "access_club_for_players",
    "check_room",
    "do_create_game",
    "do_link_players",
    "do_new_scorer_link",
    "do_remove_game",
    "do_set_first",
    "draft_game",
    "fetch_game",
    "known_player",
    "made_under",
    "name_players",
    "named",
    "player_named",
    "preview",
    "seat_named",
]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Applied:
    """What ``act`` did: the logged turn and the game's new state, rows and engine alike."""

    turn: Turn
    game: Game
    seats: list[Seat]
    state: GameState
    changes: list[Change] = field(default_factory=list)  # the scores a correction changed
    rescored: int = 0  # the later turns a correction scored again: what it cost
    time_penalties: list[tuple[int, int]] = field(default_factory=list)  # due by seat, at the end


# Acting on a game ------------------------------------------------------------------------------
def act(game_id: UUID | str, command: TurnCommand) -> Applied:
    """Apply one turn (``command``: its kind and what was entered) to a game for the player
    whose turn it is, and log it.

    Runs in one transaction holding the game's row lock, so everything it reads (the board a
    play's notation is read against, the last play a challenge judges) is the state it
    changes. Where the lock is the whole database's (SQLite), a turn that reads nothing but
    the game's rows (``ActionKind.worked_out_ahead``: a play, a pass, an exchange...) is
    worked out first on an unlocked read of them, and the transaction stores it only if the game is
    unchanged since (its latest entry's number and its last change's time, which every change
    to a game sets; else it works the turn out again), so the lock is held for the writes.

    ``command.expected_turn`` is the number this turn will get; if another turn took it first,
    ``StaleTurn`` is raised before anything else is looked at, and nothing changes.
    ``command.allowed`` runs on the game's row as read, before anything else, so the game is
    read once. ``command.retry_slot`` is recorded with the log entry: if an entry was committed
    under it already (the request is sent again after its first answer was lost), that entry is
    answered and nothing changes.
    """
    action, by, allowed = command.action, command.by, command.allowed
    retry_slot, expected_turn = command.retry_slot, command.expected_turn
    kind = KINDS.get(action)
    if kind is None and allowed is None:
        raise InputError("unknown_action", f"Unknown action {action!r}; use one of {tuple(KINDS)}.")
    try:
        pk = game_id if isinstance(game_id, UUID) else UUID(str(game_id))
    except ValueError:
        raise GameNotFound(game_id) from None
    tiles = None if command.tiles is None else list(command.tiles)

    def worked_out(read: list[tuple[Any, ...]]) -> _Worked | Applied:
        found = rows.game_of(read)
        if found is None:
            raise GameNotFound(game_id)
        game, seats = found
        if allowed is not None:
            allowed(game)
        # Read after the game's rows: an entry committed since they were read changed the
        # game's version, so what is worked out here will not be stored.
        if retry_slot is not None and (entered := _entered_under(game, retry_slot)) is not None:
            return Applied(entered, game, seats, load_state(game, seats))
        if kind is None:
            raise InputError(
                "unknown_action", f"Unknown action {action!r}; use one of {tuple(KINDS)}."
            )
        if expected_turn is not None and expected_turn != game.last_entry_number + 1:
            raise StaleTurn(
                "stale_turn",
                f"Log entry #{expected_turn} can't be next: the log is at entry "
                f"#{game.last_entry_number}, perhaps from another device. Reload to see it.",
            )
        check_room(game.last_entry_number, kind)
        number = game.last_entry_number + 1
        turn = Turn(
            game=game,
            number=number,
            place=number,
            action=action,
            entered_by=by[:80],
            retry_slot=retry_slot,
        )
        c = command
        entry = TurnEntry(
            by=by, notation=c.notation, tiles=tiles, count=c.count, racks=c.racks,
            verdict=c.verdict, seat=c.seat, points=c.points, rack=c.rack, note=c.note,
            target=c.target, best=c.best, director=c.director, clock_ms=c.clock_ms,
            clock_at=c.clock_at, clock=c.clock,
        )  # fmt: skip
        context = Context(
            game,
            seats,
            load_state(game, seats),
            turn,
            entry,
            policy_for(game),
            StoredInPlay(game, seats, lambda: new_state(game, len(seats))),
        )
        return _Worked(read, kind, context, enter_turn(kind, context))

    # Where a write locks the whole database (SQLite), the other games' turns wait while this
    # one holds it: a turn that reads nothing but the game's rows is worked out before the
    # lock, and stored under it if the game is unchanged since (its version, ``rows``, checked
    # by the update of its row: else it is worked out again there).
    ahead: _Worked | None = None
    if (
        kind is not None
        and kind.worked_out_ahead
        and not connection.features.has_select_for_update
        and not connection.in_atomic_block
    ):
        early = worked_out(rows.game_rows(pk, lock=False))
        if isinstance(early, Applied):
            return early
        ahead = early
        ahead.settle(if_unchanged=True)
    with transaction.atomic():
        if ahead is not None and (applied := ahead.store()) is not None:
            return _time_penalties(applied, by)
        worked = worked_out(rows.game_rows(pk, lock=True))  # the game, seats, players, locked
        if isinstance(worked, Applied):
            return worked
        worked.settle()
        applied = worked.store()
        assert applied is not None, "a game changed under its own lock"
        return _time_penalties(applied, by)


def _time_penalties(applied: Applied, by: str) -> Applied:
    """Enter each time penalty the entry's end of the game made due, as its own log entry,
    in the entry's transaction: the answer is the entry, with the game as they leave it."""
    last = applied
    for seat, points in applied.time_penalties:
        last = act(applied.game.pk, TurnCommand("penalty", by=by, seat=seat, points=points))
    return replace(last, turn=applied.turn, changes=applied.changes, rescored=applied.rescored)


def _entered_under(game: Game, retry_slot: str) -> Turn | None:
    """The log entry of ``game`` committed under ``retry_slot``, if any."""
    found = rows.turn_under(game.pk, retry_slot)  # a statement built once: every keyed turn
    if found is None:
        return None
    entered = Turn.objects.select_related("seat__player", "target").get(pk=found)
    entered.game = game
    return entered


@dataclass
class _Worked:
    """A turn worked out on the game's rows as ``read``: the entry and the state after it,
    then (``settle``) the rows that store them, made ready to be written (``store``)."""

    read: list[tuple[Any, ...]]
    kind: ActionKind
    context: Context
    state: GameState
    entry_write: rows.Write | None = None  # the log entry's insert
    updates: list[rows.Write] = field(default_factory=list)  # the game's, the seats'
    kept: CheckpointsDue | None = None  # the checkpoints to write with it

    def settle(self, *, if_unchanged: bool = False) -> None:
        """Put the turn's number and the state after it on the game and its seats, and make
        the log entry's row and the statements that update the game and the seats changed;
        ``if_unchanged``, the game's only if its version is still the one read."""
        kind, turn = self.kind, self.context.turn
        game, seats = self.context.game, self.context.seats
        game.last_entry_number = turn.number
        if kind.retakes:  # it took an earlier entry out of effect
            game.turns_played -= self.context.uncounted
            self.kept = self.context.kept
        else:
            game.turns_played += kind.turns(turn.result, self.state.options)
            self.kept = _due(game, turn, self.state)
        if self.kept is not None:
            game.checkpoint_place = self.kept.place
        changed = set_state(game, seats, self.state)
        self.entry_write = rows.turn_write(turn)
        if if_unchanged:
            version = rows.version_of(self.read)
            assert version is not None
            self.updates = [rows.game_update_of(game, GAME_STATE, version)]
        else:
            self.updates = [rows.update_of(game, GAME_STATE)]
        self.updates += [rows.update_of(seat, fields) for seat, fields in changed]

    def store(self) -> Applied | None:
        """Write the settled turn (the game's row, the log entry, the seats that changed),
        stamped with the time it is written; None, and nothing written, if it was settled
        ``if_unchanged`` and the game has changed since it was read."""
        game, seats, turn = self.context.game, self.context.seats, self.context.turn
        now = timezone.now()
        for write in [self.entry_write, *self.updates]:
            if write is not None:
                write.stamp(now)
        game_update, *seat_updates = self.updates
        if not rows.run([game_update]):
            return None
        rows.insert_turn(turn, self.entry_write)
        for change in self.context.writes:
            change()
        if self.kind.retakes:  # the states from the entry it took out of effect on are gone
            checkpoints.forget_from(game, taken(turn).place)
        if self.kept is not None:
            self.kept.write()
        rows.run(seat_updates)
        # To every screen of the game, once this commits, with the part drawn from what it stores.
        announce(game, turn, seats, self.state)
        if game.club_id is not None and (
            game.status == Game.Status.FINISHED or self.kind.retakes
        ):  # a result an event's standings may count (a game's end, or one taken back)
            do_bump_for_game(game.pk)
        context = self.context
        return Applied(
            turn, game, seats, self.state, context.changes, context.rescored,
            context.time_penalties,
        )  # fmt: skip


def _due(game: Game, turn: Turn, state: GameState) -> CheckpointsDue | None:
    """The checkpoint to keep after a new entry at the end of the order of play, if the last
    one is ``checkpoints.EVERY`` places behind it (then the turns in effect before it are
    counted, for its step)."""
    if turn.place - game.checkpoint_place < checkpoints.EVERY:
        return None
    step = checkpoints.in_effect(game).filter(place__lt=turn.place).count() + 1
    kept = CheckpointsDue(game.checkpoint_place)
    kept.after(game, turn.place, step, state)
    return kept


# Who starts ------------------------------------------------------------------------------------
def do_set_first(game_id: UUID | str, first: str) -> Game:
    """Change who starts (a player's name), under the game's lock; only before the first turn.

    The game is dealt again from the start with the new first player, as the replay will do:
    ``Game.first_seat`` is where the replay begins.
    """
    with transaction.atomic():
        game = fetch_game(game_id, lock=True)
        seats = list(game.seats.select_related("player").order_by("order"))
        if game.turns.exists():
            raise IllegalAction(
                "first_turn_entered",
                f"{seats[game.first_seat].player.name} started: who starts can be changed only "
                "before the first turn is entered (undo doesn't change that).",
            )
        game.first_seat = seat_named([s.player.name for s in seats], first)
        game.save(update_fields=["first_seat"])
        if game.clock is not None:  # the new first player's clock runs, or waits to
            start = clocks.waiting if clocks.is_waiting(game) else clocks.started
            game.clock = start(game.clock["rule"], len(seats), game.first_seat)
        store_state(game, seats, new_state(game, len(seats)))
        return game


def do_remove_game(game_id: UUID | str) -> None:
    """Take away a game no turn was entered in (a tournament round paired again), under its
    lock: its seats and state go with it. Refused once it has a turn: a game that began is
    kept, and ended through ``act`` (abandon, void)."""
    with transaction.atomic():
        game = fetch_game(game_id, lock=True)
        if game.turns.exists():
            raise IllegalAction(
                "game_begun",
                "This game has begun: it can be taken away only before its first turn.",
            )
        game.delete()


# The scorer's link -----------------------------------------------------------------------------
def do_new_scorer_link(game_id: UUID | str, by: str = "") -> Game:
    """Give the game a new secret, under its lock: the old scorer link, and every browser
    holding it, can no longer change the game. Logged without either secret."""
    with transaction.atomic():
        game = fetch_game(game_id, lock=True)
        game.token = new_token()
        game.save(update_fields=["token", "updated_at"])
    log.info(
        "New scorer link for game %s%s; the old one no longer works.", game.pk, by and f" ({by})"
    )
    return game
