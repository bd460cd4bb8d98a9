"""The one path that changes a game.

Every entry point (the JSON API, the pages, management commands) calls ``check_create_game``
(which checks a new game, then has ``do_create_game`` store it) or ``act``. ``act`` runs in
one transaction that locks the game row and checks the expected turn number, so a double tap
or a second device can never apply a turn twice, and a refused action changes nothing: the
engine checks everything before it changes its state, and the transaction rolls back whatever
else happened.

A game's record (an imported file) is entered through ``draft_game``: its turns go through the
same handlers as ``act``'s, in memory, and ``Draft.save`` stores the game and its whole log in
one short transaction, so an import never holds the database while it is read and checked.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple
from uuid import UUID

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import connection, transaction
from django.utils import timezone

from referee import (
    MAX_PLAYERS,
    TURN_TIMER,
    Evaluation,
    GameState,
    IllegalAction,
    IllegalPlay,
    InputError,
    Play,
    RefereeError,
    RuleOptions,
    Violation,
    get_ruleset,
)
from scorekeeper.events.version import do_bump_for_game
from scorekeeper.game import checkpoints, clocks, rows
from scorekeeper.game.checkpoints import Kept
from scorekeeper.game.consistency import log_problems
from scorekeeper.game.entries import Change, Context, Entry
from scorekeeper.game.in_play import InPlay, StoredInPlay
from scorekeeper.game.results import totals
from scorekeeper.game.state import GAME_STATE, load_state, new_state, set_state, store_state
from scorekeeper.game.turn_kinds import KINDS, ActionKind
from scorekeeper.game.word_policy import AUTO, MANUAL, lexicon_for, policy_for, resolve_lexicon
from scorekeeper.invisible import visible
from scorekeeper.live.news import announce
from scorekeeper.models import (
    NAME_MAX,
    Club,
    Game,
    Player,
    Seat,
    Turn,
    name_key,
    name_problem,
    new_token,
)

TURN_CLOCK = (10, 3600)  # seconds a turn clock may be set to
TABLE_MOST = 999  # the highest table number a club game may be given
# A game's log is long enough for any real game, undos and all; a runaway script stops here.
LOG_CAP = 2000
# The most entries a log can hold: the cap, then one of each kind that ends a game (finish,
# void), which a full log still takes.
LOG_MAX = LOG_CAP + sum(1 for kind in KINDS.values() if kind.always)

log = logging.getLogger(__name__)


class StaleTurn(IllegalAction):
    """Another turn was entered first (a double tap, or a second device)."""


class GameNotFound(LookupError):
    """No game has this id (or what was given is not a game's id at all)."""


class GameHere(InputError):
    """A game's record that is already here, as ``game``: stored again, it would count twice."""

    def __init__(self, game: Game, message: str) -> None:
        super().__init__("game_exists", message)
        self.game = game


def fetch_game(game_id: object, *, lock: bool = False) -> Game:
    """The game with this id, or ``GameNotFound``: every entry point finds a game here. It
    fetches only and checks no permission: who may change the game is the caller's to check
    (the scorer's link, the API's token, a club director's account).

    With ``lock=True`` (inside a transaction) the game's row is locked until it commits, as
    every change to a game holds it: two changes to one game never interleave.
    """
    try:
        pk = game_id if isinstance(game_id, UUID) else UUID(str(game_id))
    except ValueError:
        raise GameNotFound(game_id) from None
    games = Game.objects.select_for_update() if lock else Game.objects.all()
    try:
        return games.get(pk=pk)
    except Game.DoesNotExist:
        raise GameNotFound(game_id) from None


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


# Creating a game -------------------------------------------------------------------------------
def check_create_game(
    *,
    ruleset: str,
    players: Sequence[str],
    lexicon: str | None = None,
    challenge_mode: str = AUTO,
    options: Mapping[str, Any] | None = None,
    first: str | None = None,
    turn_clock: int | None = None,
    clock: object = None,
    club: Club | None = None,
    table_number: int | None = None,
    retry_slot: str | None = None,
    clock_waits: bool = False,
) -> Game:
    """Check a game as asked for, then start it (``do_create_game``): every player has drawn a
    full rack and ``first`` (a player's name; by default the first named) is to move.
    ``lexicon`` defaults to ``settings.DEFAULT_LEXICON``. A refusal writes nothing.
    ``clock_waits``: the clock stays stopped at full time until the table starts it (a game
    paired before its players sit down).

    A game for a ``club`` counts in its standings, played at its table ``table_number`` if
    given (the director's screen lists the tables by it). ``retry_slot`` (``act``'s) is stored
    with the game: a game made under it already is returned, before anything is checked, and
    no other made."""
    if retry_slot is not None and (made := made_under(retry_slot)) is not None:
        return made
    new = _new_game(
        ruleset=ruleset,
        players=players,
        lexicon=lexicon,
        challenge_mode=challenge_mode,
        options=options,
        first=first,
        turn_clock=turn_clock,
        clock=clock,
    )
    if table_number is not None:
        if club is None:
            raise InputError("table_without_club", "A table number is for a club game.")
        if not 1 <= table_number <= TABLE_MOST:
            raise InputError("bad_table", f"A table number is 1 to {TABLE_MOST}.")
        new.game.table_number = table_number
    if clock_waits and new.game.clock is not None:
        new.game.clock = clocks.waiting(new.game.clock["rule"], len(new.names), new.game.first_seat)
    return do_create_game(new, club=club, retry_slot=retry_slot)


class NewGame(NamedTuple):
    """A game as asked for, checked and not yet saved: its row, its players' names, and the
    engine's state before the first turn."""

    game: Game
    names: list[str]
    state: GameState


def do_create_game(
    new: NewGame, *, club: Club | None = None, retry_slot: str | None = None
) -> Game:
    """Store a game ``check_create_game`` checked, with its seats and its state, in one
    transaction. Every player of a ``club`` game must be on its roster: checked under the
    club's row lock, so a player taken off the roster meanwhile is refused."""
    game, names, state = new
    game.retry_slot = retry_slot
    with transaction.atomic():
        if club is not None:
            game.club = check_roster(club, names)
        game.save(force_insert=True)
        seats = [
            Seat.objects.create(game=game, player=player_named(name), order=order)
            for order, name in enumerate(names)
        ]
        store_state(game, seats, state)
        if game.club_id is not None:
            announce(game, None, seats)  # the director's screen shows the new table
    return game


def made_under(retry_slot: str) -> Game | None:
    """The game made under ``retry_slot``, if any (the slot is unique: never two)."""
    return Game.objects.filter(retry_slot=retry_slot).order_by("pk").first()


def _new_game(
    *,
    ruleset: str,
    players: Sequence[str],
    lexicon: str | None,
    challenge_mode: str,
    options: Mapping[str, Any] | None,
    first: str | None,
    turn_clock: int | None,
    clock: object = None,
) -> NewGame:
    """A game as asked for, checked and not yet saved (``NewGame``)."""
    rules = get_ruleset(ruleset)
    rule_options = RuleOptions.from_dict(options, rules)
    names = check_player_names(players)
    if challenge_mode not in (AUTO, MANUAL):
        raise InputError(
            "bad_challenge_mode", "challenge_mode must be auto (checked as played) or manual."
        )
    first_seat = seat_named(names, first)
    low, high = TURN_CLOCK
    if turn_clock is not None and (
        isinstance(turn_clock, bool)
        or not isinstance(turn_clock, int)
        or not low <= turn_clock <= high
    ):
        raise InputError("bad_turn_clock", f"A turn clock runs from {low} to {high} seconds.")
    started = clocks.started(clock, len(names), first_seat)
    if started is not None and started["rule"]["kind"] == TURN_TIMER:
        # A turn timer is the countdown the table shows: turn_clock says the same or nothing.
        seconds = started["rule"]["seconds"]
        if turn_clock is not None and turn_clock != seconds:
            raise InputError(
                "bad_turn_clock",
                f"turn_clock ({turn_clock}) and the clock's seconds ({seconds}) disagree: "
                "give one.",
            )
        turn_clock = seconds
    lexicon_id, checksum = resolve_lexicon(settings.DEFAULT_LEXICON if lexicon is None else lexicon)
    state = GameState.new(rules, len(names), rule_options, first_seat)
    game = Game(
        ruleset=rules.id,
        options=rule_options.to_dict(),
        lexicon=lexicon_id,
        lexicon_checksum=checksum,
        challenge_mode=challenge_mode,
        first_seat=first_seat,
        turn_clock=turn_clock,
        clock=started,
    )
    return NewGame(game, names, state)


def check_roster(club: Club, names: Sequence[str]) -> Club:
    """The club, locked, if every name is a player on its roster; else the refusal naming the
    first player who is not."""
    try:
        club = Club.objects.select_for_update().get(pk=club.pk)
    except Club.DoesNotExist:
        raise InputError("unknown_club", "There is no such club.") from None
    on_roster = set(club.roster.values_list("name_key", flat=True))
    for name in names:
        if name_key(name) not in on_roster:
            raise IllegalAction("not_on_roster", f"{name} is not on {club.name}'s roster.")
    return club


def seat_named(names: Sequence[str], first: object) -> int:
    """The seat of the player called ``first`` (in any case); seat 0 for ``None``."""
    if first is None:
        return 0
    keys = [name_key(n) for n in names]
    if not isinstance(first, str) or name_key(first) not in keys:
        raise InputError("bad_first", "The first player must be one of the players, by name.")
    return keys.index(name_key(first))


def check_player_names(players: object) -> list[str]:
    if not isinstance(players, list | tuple) or not 1 <= len(players) <= MAX_PLAYERS:
        raise InputError("bad_players", f"A game has 1 to {MAX_PLAYERS} players, given by name.")
    names = []
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise InputError("bad_players", "Every player needs a name.")
        problem = name_problem(name)
        if problem:
            raise InputError("bad_players", f"{problem} ({name!a})")
        name = " ".join(name.split())
        if len(name) > NAME_MAX:
            raise InputError("bad_players", f"A player's name has at most {NAME_MAX} characters.")
        names.append(name)
    if len({name_key(n) for n in names}) < len(names):
        raise InputError("bad_players", "Two players in one game can't have the same name.")
    return names


def player_named(name: str) -> Player:
    """The known player with this name (in any case), or a new one."""
    player, _ = Player.objects.get_or_create(
        name_key=name_key(name), from_record=False, defaults={"name": name}
    )
    return player


def known_player(name: str) -> Player | None:
    """The player known by this name (in any case), if any: never a record's unlinked name."""
    return Player.objects.filter(name_key=name_key(name), from_record=False).first()


# Acting on a game ------------------------------------------------------------------------------
def act(
    game_id: UUID | str,
    action: str,
    *,
    expected_turn: int | None = None,
    by: str = "",
    notation: str | None = None,
    tiles: Iterable[tuple[int, int, str]] | None = None,
    count: object = None,
    racks: Mapping[int, str] | None = None,
    verdict: str | None = None,
    seat: int | None = None,
    points: int | None = None,
    rack: str = "",
    note: str = "",
    target: object = None,
    best: int | None = None,
    director: AbstractBaseUser | None = None,
    allowed: Callable[[Game], None] | None = None,
    retry_slot: str | None = None,
    clock_ms: object = None,
    clock_at: object = None,
    clock: object = None,
) -> Applied:
    """Apply one action to a game for the player whose turn it is, and log it.

    Runs in one transaction holding the game's row lock, so everything it reads (the board a
    play's notation is read against, the last play a challenge judges) is the state it
    changes. Where the lock is the whole database's (SQLite), a turn that reads nothing but
    the game's rows (``ActionKind.worked_out_ahead``: a play, a pass, an exchange...) is
    worked out first on an unlocked read of them, and the transaction stores it only if the game is
    unchanged since (its latest entry's number and its last change's time, which every change
    to a game sets; else it works the turn out again), so the lock is held for the writes.

    ``expected_turn`` is the number this turn will get; if another turn took it first,
    ``StaleTurn`` is raised before anything else is looked at, and nothing changes.
    ``target`` is the number of the turn a correction replaces. ``director`` is the signed-in
    account acting as a club's director: only it can void a club game, or undo a void.
    ``allowed`` is the caller's own check of who may change the game (the API's token), run
    on the game's row as read, before anything else, so the game is read once.
    ``retry_slot`` is the slot of the request's Idempotency-Key (``scorekeeper.retries``),
    recorded with the log entry: if an entry was committed under it already (the request is
    sent again after its first answer was lost), that entry is answered and nothing changes.
    """
    kind = KINDS.get(action)
    if kind is None and allowed is None:
        raise InputError("unknown_action", f"Unknown action {action!r}; use one of {tuple(KINDS)}.")
    try:
        pk = game_id if isinstance(game_id, UUID) else UUID(str(game_id))
    except ValueError:
        raise GameNotFound(game_id) from None
    tiles = None if tiles is None else list(tiles)

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
        entry = Entry(
            by=by, notation=notation, tiles=tiles, count=count, racks=racks, verdict=verdict,
            seat=seat, points=points, rack=rack, note=note, target=target, best=best,
            director=director, clock_ms=clock_ms, clock_at=clock_at, clock=clock,
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
        return _Worked(read, kind, context, _enter(kind, context))

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
        last = act(applied.game.pk, "penalty", by=by, seat=seat, points=points)
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
    kept: Kept | None = None  # the checkpoints to write with it

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
            checkpoints.forget_from(game, _taken(turn).place)
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


def _due(game: Game, turn: Turn, state: GameState) -> Kept | None:
    """The checkpoint to keep after a new entry at the end of the order of play, if the last
    one is ``checkpoints.EVERY`` places behind it (then the turns in effect before it are
    counted, for its step)."""
    if turn.place - game.checkpoint_place < checkpoints.EVERY:
        return None
    step = checkpoints.in_effect(game).filter(place__lt=turn.place).count() + 1
    kept = Kept(game.checkpoint_place)
    kept.after(game, turn.place, step, state)
    return kept


def _taken(turn: Turn) -> Turn:
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


def _enter(kind: ActionKind, context: Context) -> GameState:
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
    state = context.log.state_before(_taken(turn).place) if kind.rebuilds else context.state
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
    game, names, state = _new_game(
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
        self.kept = Kept()  # the checkpoints of its log, stored with it

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
            number = len(self.turns) + 1
            turn = Turn(
                game=self.game, number=number, place=number, action=action, entered_by=self.by[:80]
            )
            entry = Entry(
                by=self.by, tiles=None if tiles is None else list(tiles), count=count,
                racks=racks, verdict=verdict, seat=seat, points=points, rack=rack, note=note,
            )  # fmt: skip
            context = Context(
                self.game, self.seats, self.state, turn, entry, self.policy, self.in_play
            )
            self.state = _enter(kind, context)
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
        and that every entry agrees with the engine (``check_game``'s checks, in memory), and
        the log's rows prepared as the database takes them. The transaction (on SQLite, the
        database's write lock) holds only the inserts: the log's rows by one statement run
        for each (``executemany``), then the plays each challenge judged linked by id.
        """
        if retry_slot is not None and (made := made_under(retry_slot)) is not None:
            return made
        game, seats, turns = self.game, self.seats, self.turns
        game.retry_slot = retry_slot
        problems = log_problems(game, seats, turns, self.state)
        if problems:  # the handlers and the replay disagree: never store such a game
            raise InputError("inconsistent_log", "; ".join(problems))
        set_state(game, seats, self.state)
        game.checkpoint_place = self.kept.place
        game.last_entry_number = len(turns)
        game.turns_played = self.turns_played
        values = [rows.turn_values(turn) for turn in turns]
        with transaction.atomic():
            game.save(force_insert=True)
            for seat in seats:
                seat.player = _seat_player(seat.player.name, linked)
                seat.save(force_insert=True)
            _insert_log(game, turns, values)
            self.kept.write()
        return game


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


def named(error: RefereeError, seats: Sequence[Seat]) -> RefereeError:
    """The refusal with players named: the engine knows seats only ("Player 2 has 7 tiles")."""
    ordered = sorted(seats, key=lambda seat: seat.order)
    error.message = name_players(error.message, [seat.player.name for seat in ordered])
    return error


_NUMBERED = re.compile(r"\b[Pp]layer (\d+)\b")


def name_players(message: str, names: Sequence[str]) -> str:
    """The engine numbers players ("Player 2 has 7 tiles"); people at the table have names.

    >>> name_players("Player 2 has 7 tiles on the rack, not 2.", ["Ann", "Ben"])
    'Ben has 7 tiles on the rack, not 2.'
    """

    def named(match: re.Match[str]) -> str:
        seat = int(match.group(1)) - 1
        return names[seat] if 0 <= seat < len(names) else match.group(0)

    return _NUMBERED.sub(named, message)


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


# Previewing a play -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Preview:
    """What the scorer sees while placing tiles: the play's words and score, or why not."""

    text: str
    note: str = ""  # what the policy says of the words shown
    evaluation: Evaluation | None = None
    notation: str = ""
    violations: tuple[Violation, ...] = ()
    problem: str = ""
    problem_code: str = ""
    placed: bool = True  # the play puts a tile down (else it only reads through letters)
    lexicon: str = ""  # the word list the play was checked against, if any

    @property
    def squares(self) -> list[str]:
        """The squares the refusal is about, to mark on the board."""
        return sorted({sq for v in self.violations for sq in v.squares})

    @property
    def missing(self) -> tuple[str, ...]:
        """What a play still being entered lacks, said neutrally, when more letters along its
        line could still make it legal (one letter so far, not yet touching the board, a word
        not yet in the list); empty when it breaks a rule no further letter mends."""
        if self.problem:
            return (self.problem,) if self.problem_code in _UNFINISHED_INPUT else ()
        mendable = _UNFINISHED.keys() | {"invalid_word"}
        if not self.violations or any(v.code not in mendable for v in self.violations):
            return ()
        if self.placed and any(v.code == "same_letter" for v in self.violations):
            return ()  # a tile put on its own letter: no further letter mends that
        said = [_UNFINISHED[v.code](v) for v in self.violations if v.code != "invalid_word"]
        if words := [w for v in self.violations if v.code == "invalid_word" for w in v.words]:
            said.append(f"So far, not in {self.lexicon or 'the word list'}: {', '.join(words)}.")
        return tuple(dict.fromkeys(said))


# The rules a play being entered may not meet yet, each with what to say meanwhile (a word
# not in the list is said with the others). A play that only reads through letters already
# there (Upwords' "5E O") places no tile yet.
_UNFINISHED: dict[str, Callable[[Violation], str]] = {
    "first_play_too_short": lambda v: "A word needs two letters or more: type the next one.",
    "no_word": lambda v: "A word needs two letters or more: type the next one.",
    "first_play_off_start": lambda v: v.message,
    "not_connected": lambda v: "Go on until the word reaches a tile already on the board.",
    "gap": lambda v: f"Still empty between the tiles: {', '.join(v.squares)}.",
    "same_letter": lambda v: f"The play reads through {v.squares[0]}: type the next letter.",
}
_UNFINISHED_INPUT = {"no_tiles", "bad_notation"}


def preview(
    game: Game, text: str, *, before: Turn | None = None, on: GameState | None = None
) -> Preview:
    """Check and score ``text`` (a play in notation) for the player to move; changes nothing.
    With ``before`` (a turn in effect), on the board that turn was played on, for its player:
    what a correction of it would be; ``on`` is that state, where the caller has it."""
    text = text.strip()
    if not text:
        return Preview(text)
    policy = policy_for(game)
    seats = list(game.seats.order_by("order"))
    play = lexicon = None
    try:
        if on is not None:
            state = on
        elif before is None:
            state = load_state(game, seats)
        else:
            state = checkpoints.state_before(game, before.place, len(seats))
        play = Play.parse(text, state.ruleset, state.board)
        lexicon = lexicon_for(game) if policy.checks_as_played else None
        evaluation = state.evaluate(play, lexicon)
    except IllegalPlay as error:
        return Preview(
            text,
            violations=tuple(error.violations),
            placed=play is not None,
            lexicon=lexicon.id if lexicon else "",
        )
    except RefereeError as error:
        return Preview(text, problem=error.message, problem_code=error.code)
    return Preview(
        text,
        note=policy.preview_note,
        evaluation=evaluation,
        notation=play.notation(state.board, state.ruleset),
    )
