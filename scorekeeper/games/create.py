"""Creating a game: ``check_create_game`` checks a new one, then has ``do_create_game``
store it; the players it names are found or made here."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from django.conf import settings
from django.db import transaction

from referee import (
    MAX_PLAYERS,
    TURN_TIMER,
    GameState,
    IllegalAction,
    InputError,
    RuleOptions,
    get_ruleset,
)
from scorekeeper.games import clocks
from scorekeeper.games.state import store_state
from scorekeeper.games.word_policy import AUTO, MANUAL, resolve_lexicon
from scorekeeper.live.news import announce
from scorekeeper.models import (
    NAME_MAX,
    Club,
    Game,
    Player,
    Seat,
    name_key,
    name_problem,
)

TURN_CLOCK = (10, 3600)  # seconds a turn clock may be set to
TABLE_MOST = 999  # the highest table number a club game may be given

log = logging.getLogger(__name__)


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
    new = unsaved_game(
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
            game.club = access_club_for_players(club, names)
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


def unsaved_game(
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


def access_club_for_players(club: Club, names: Sequence[str]) -> Club:
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
