"""The one path that changes a game.

Every entry point (the JSON API, the pages, management commands) calls ``create_game`` or
``act``. ``act`` runs in one transaction that locks the game row and checks the expected turn
number, so a double tap or a second device can never apply a turn twice, and a refused action
changes nothing: the engine checks everything before it changes its state, and the transaction
rolls back whatever else happened.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from django.db import transaction
from django.utils import timezone

from referee.apps import get_library
from referee.board import square_name
from referee.errors import IllegalAction, InputError, RefereeError
from referee.game import FINISHED, MAX_PLAYERS, GameState
from referee.lexicon import HONOUR_ID, HonourSystem, Lexicon, UnknownLexicon
from referee.play import Placement, Play
from referee.rulesets import RuleOptions, get_ruleset
from scorekeeper.models import Game, Player, Seat, Turn, name_key

ACTIONS = ("play", "pass", "exchange", "challenge", "undo", "finish")
NAME_MAX = 40


class StaleTurn(IllegalAction):
    """Another turn was entered first (a double tap, or a second device)."""


class GameNotFound(LookupError):
    pass


@dataclass(frozen=True)
class Applied:
    """What ``act`` did: the logged turn and the game's new state, rows and engine alike."""

    turn: Turn
    game: Game
    seats: list[Seat]
    state: GameState


# Creating a game -------------------------------------------------------------------------------
def create_game(
    *,
    ruleset: str,
    lexicon: str,
    players: Sequence[str],
    challenge_mode: str = Game.ChallengeMode.AUTO,
    options: Mapping[str, Any] | None = None,
    first: int = 0,
    turn_clock: int | None = None,
) -> Game:
    """Start a game: every player has drawn a full rack and ``first`` is to move."""
    rules = get_ruleset(ruleset)
    rule_options = RuleOptions.from_dict(options)
    names = clean_player_names(players)
    if challenge_mode not in Game.ChallengeMode.values:
        raise InputError(
            "bad_challenge_mode", "challenge_mode must be auto (checked as played) or manual."
        )
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < len(names):
        raise InputError("bad_first", "The first player must be one of the players.")
    if turn_clock is not None and (
        isinstance(turn_clock, bool)
        or not isinstance(turn_clock, int)
        or not 10 <= turn_clock <= 3600
    ):
        raise InputError("bad_turn_clock", "A turn clock runs from 10 to 3600 seconds.")
    lexicon_id, checksum = resolve_lexicon(lexicon)
    state = GameState.new(rules, len(names), rule_options, first)
    with transaction.atomic():
        game = Game.objects.create(
            ruleset=rules.id,
            options=rule_options.to_dict(),
            lexicon=lexicon_id,
            lexicon_checksum=checksum,
            challenge_mode=challenge_mode,
            first_seat=first,
            turn_clock=turn_clock,
        )
        seats = [
            Seat.objects.create(game=game, player=player_named(name), order=order)
            for order, name in enumerate(names)
        ]
        store_state(game, seats, state)
    return game


def clean_player_names(players: object) -> list[str]:
    if not isinstance(players, list | tuple) or not 1 <= len(players) <= MAX_PLAYERS:
        raise InputError("bad_players", f"A game has 1 to {MAX_PLAYERS} players, given by name.")
    names = []
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise InputError("bad_players", "Every player needs a name.")
        name = " ".join(name.split())
        if len(name) > NAME_MAX:
            raise InputError("bad_players", f"A player's name has at most {NAME_MAX} characters.")
        names.append(name)
    if len({name_key(n) for n in names}) < len(names):
        raise InputError("bad_players", "Two players in one game can't have the same name.")
    return names


def player_named(name: str) -> Player:
    """The known player with this name (in any case), or a new one."""
    player, _ = Player.objects.get_or_create(name_key=name_key(name), defaults={"name": name})
    return player


def resolve_lexicon(lexicon_id: object) -> tuple[str, str]:
    """The lexicon's canonical id and checksum; ``InputError`` for an unknown one."""
    if not isinstance(lexicon_id, str) or not lexicon_id.strip():
        raise InputError("unknown_lexicon", "Choose a lexicon, or honour for no word check.")
    if lexicon_id.strip().lower() == HONOUR_ID:
        return HONOUR_ID, ""
    library = get_library()
    try:
        lexicon = library.get(lexicon_id.strip())
    except UnknownLexicon as error:
        raise InputError("unknown_lexicon", str(error)) from None
    return lexicon.id, lexicon.checksum


def lexicon_for(game: Game) -> Lexicon:
    """The exact list that judges this game; refuses to judge with a list that has changed."""
    if game.lexicon == HONOUR_ID:
        return HonourSystem()
    try:
        lexicon = get_library().get(game.lexicon)
    except UnknownLexicon:
        raise IllegalAction(
            "lexicon_missing",
            f"This game is judged by {game.lexicon}, which is not installed here.",
        ) from None
    if game.lexicon_checksum and lexicon.checksum != game.lexicon_checksum:
        raise IllegalAction(
            "lexicon_changed",
            f"The {game.lexicon} list installed here is not the one this game started with.",
        )
    return lexicon


# State <-> rows --------------------------------------------------------------------------------
def load_state(game: Game, seats: Sequence[Seat]) -> GameState:
    return GameState.from_dict(
        {
            "ruleset": game.ruleset,
            "options": game.options,
            "board": game.board,
            "scores": [s.score for s in seats],
            "racks": [s.rack_count for s in seats],
            "bag": game.bag_count,
            "to_move": game.to_move,
            "passes": game.passes,
            "status": game.status,
            "adjustments": None
            if any(s.adjustment is None for s in seats)
            else [s.adjustment for s in seats],
            "exchanges": game.exchanges,
            "skips": [s.skip_turns for s in seats],
            "last_play": game.last_play,
        }
    )


GAME_STATE = [
    "board", "bag_count", "to_move", "passes", "exchanges", "last_play", "status",
    "finished_at", "turn_number", "updated_at",
]  # fmt: skip


def store_state(game: Game, seats: Sequence[Seat], state: GameState) -> None:
    """Write the engine's state to the game's row and to each seat whose numbers changed."""
    record = state.to_dict()
    game.board = record["board"]
    game.bag_count = state.bag
    game.to_move = state.to_move
    game.passes = state.passes
    game.exchanges = state.exchanges
    game.last_play = record["last_play"]
    if state.status == FINISHED and game.status != FINISHED:
        game.finished_at = timezone.now()
    elif state.status != FINISHED:
        game.finished_at = None
    game.status = state.status
    game.save(update_fields=GAME_STATE)
    finals = state.final_scores
    for seat in seats:
        now = {
            "score": state.scores[seat.order],
            "rack_count": state.racks[seat.order],
            "skip_turns": state.skips[seat.order],
            "adjustment": state.adjustments[seat.order] if state.adjustments else None,
            "final_score": finals[seat.order] if finals else None,
        }
        changed = [name for name, value in now.items() if getattr(seat, name) != value]
        if changed:
            for name in changed:
                setattr(seat, name, now[name])
            seat.save(update_fields=changed)


# Acting on a game ------------------------------------------------------------------------------
def act(
    game_id: UUID | str,
    action: str,
    *,
    expected_turn: int | None = None,
    by: str = "",
    tiles: Iterable[tuple[int, int, str]] | None = None,
    count: int | None = None,
    racks: Mapping[int, str] | None = None,
) -> Applied:
    """Apply one action to a game for the player whose turn it is, and log it.

    ``expected_turn`` is the number this turn will get; if another turn took it first,
    ``StaleTurn`` is raised and nothing changes.
    """
    if action not in ACTIONS:
        raise InputError("unknown_action", f"Unknown action {action!r}; use one of {ACTIONS}.")
    with transaction.atomic():
        try:
            game = Game.objects.select_for_update().get(pk=game_id)
        except (Game.DoesNotExist, ValueError):
            raise GameNotFound(game_id) from None
        if expected_turn is not None and expected_turn != game.turn_number + 1:
            raise StaleTurn(
                "stale_turn",
                f"Turn {expected_turn} was already entered (the game is at turn "
                f"{game.turn_number}): reload to see it.",
            )
        seats = list(game.seats.select_related("player").order_by("order"))
        state = load_state(game, seats)
        turn = Turn(game=game, number=game.turn_number + 1, action=action, entered_by=by[:80])
        if action == "play":
            _play(game, seats, state, turn, tiles)
        elif action == "pass":
            turn.seat = seats[state.to_move]
            state.pass_turn()
        elif action == "exchange":
            turn.seat = seats[state.to_move]
            if count is None:
                raise InputError("bad_count", "Say how many tiles to exchange.")
            state.exchange(count)
            turn.count = count
        elif action == "challenge":
            _challenge(game, seats, state, turn)
        elif action == "undo":
            state = _undo(game, seats, turn, by)
        elif action == "finish":
            turn.seat = seats[state.to_move]
            state.finish(racks)
            turn.racks = {str(k): v for k, v in (racks or {}).items()}
        turn.save()
        game.turn_number = turn.number
        store_state(game, seats, state)
        return Applied(turn, game, seats, state)


def _play(
    game: Game,
    seats: list[Seat],
    state: GameState,
    turn: Turn,
    tiles: Iterable[tuple[int, int, str]] | None,
) -> None:
    if tiles is None:
        raise InputError("no_tiles", "A play needs its tiles.")
    play = Play.of(tiles, state.ruleset)
    checking = game.challenge_mode == Game.ChallengeMode.AUTO and game.lexicon != HONOUR_ID
    lexicon = lexicon_for(game) if checking else None
    turn.seat = seats[state.to_move]
    notation = play.notation(state.board, state.ruleset)
    outcome = state.play(play, lexicon)
    turn.tiles = [[p.row, p.col, p.tile] for p in play.placements]
    turn.notation = notation
    turn.words = [w.to_dict() for w in outcome.words]
    turn.score = outcome.score


def _challenge(game: Game, seats: list[Seat], state: GameState, turn: Turn) -> None:
    if game.lexicon == HONOUR_ID:
        raise IllegalAction(
            "no_dictionary",
            "An honour-system game has no dictionary to judge a challenge: "
            "undo the play if the table agrees it must come off.",
        )
    if game.challenge_mode == Game.ChallengeMode.AUTO:
        raise IllegalAction(
            "challenge_not_needed",
            f"Every word was checked against {game.lexicon} as it was played: "
            "there is nothing to challenge.",
        )
    target = effective_turns(game).filter(action=Turn.Action.PLAY).last()
    challenger = state.to_move
    outcome = state.challenge(lexicon_for(game))
    turn.seat = seats[challenger]
    turn.target = target
    turn.result = outcome.result or ""
    # Which word failed is not stored: a tournament verdict names none, and the log's words
    # with the game's exact lexicon tell it once the game is over.
    turn.score = outcome.score
    turn.words = [w.to_dict() for w in outcome.words]


def _undo(game: Game, seats: list[Seat], turn: Turn, by: str) -> GameState:
    target = effective_turns(game).select_related("seat").last()
    if target is None:
        raise IllegalAction("nothing_to_undo", "There is no turn to undo.")
    target.undone_at = timezone.now()
    target.undone_by = by[:80]
    target.save(update_fields=["undone_at", "undone_by"])
    turn.seat = target.seat
    turn.target = target
    turn.notation = target.notation
    return replay(game, seats)


# The log ---------------------------------------------------------------------------------------
def effective_turns(game: Game):  # type: ignore[no-untyped-def]
    """The turns that make the game: neither undone nor undo entries, in order."""
    return game.turns.filter(undone_at__isnull=True).exclude(action=Turn.Action.UNDO)


def replay(game: Game, seats: Sequence[Seat] | None = None) -> GameState:
    """Rebuild a game's state from its log alone, through the engine."""
    seats = seats if seats is not None else list(game.seats.order_by("order"))
    state = GameState.new(
        game.ruleset, len(seats), RuleOptions.from_dict(game.options), game.first_seat
    )
    for turn in effective_turns(game).select_related("seat").order_by("number"):
        apply_logged(state, turn)
    return state


def apply_logged(state: GameState, turn: Turn) -> None:
    """Apply a logged turn again, trusting the verdicts the log records."""
    if turn.action == Turn.Action.PLAY:
        play = Play(tuple(Placement(r, c, t) for r, c, t in turn.tiles))
        state.play(play)
    elif turn.action == Turn.Action.PASS:
        state.pass_turn()
    elif turn.action == Turn.Action.EXCHANGE:
        state.exchange(turn.count)
    elif turn.action == Turn.Action.CHALLENGE:
        upheld = turn.result == Turn.Result.UPHELD
        state.challenge(challenger=turn.seat.order, upheld=upheld)
    elif turn.action == Turn.Action.FINISH:
        state.finish({int(k): v for k, v in (turn.racks or {}).items()})


def check_game(game: Game) -> list[str]:
    """Replay a game's log and list every way the stored state disagrees with it."""
    seats = list(game.seats.select_related("player").order_by("order"))
    try:
        replayed = replay(game, seats)
    except RefereeError as error:
        return [f"the log does not replay: {error.message}"]
    try:
        stored = load_state(game, seats).to_dict()
    except (RefereeError, ValueError, IndexError, KeyError, TypeError, AssertionError) as error:
        return [f"the stored state can't be read: {error}"]
    again = replayed.to_dict()
    problems = []
    for key, value in stored.items():
        if value == again[key]:
            continue
        if key == "board" and len(value) == len(again[key]):
            size = len(value)
            squares = [
                square_name(r, c)
                for r in range(size)
                for c in range(size)
                if value[r][c] != again[key][r][c]
            ]
            problems.append(f"board differs from the log at {', '.join(squares)}")
        else:
            problems.append(f"{key}: stored {value!r}, the log gives {again[key]!r}")
    finals = replayed.final_scores
    for seat in seats:
        expected = finals[seat.order] if finals else None
        if seat.final_score != expected:
            problems.append(
                f"final_score of {seat.player.name}: stored {seat.final_score!r}, "
                f"the log gives {expected!r}"
            )
    latest = game.turns.order_by("-number").values_list("number", flat=True).first() or 0
    if game.turn_number != latest:
        problems.append(f"turn_number: stored {game.turn_number}, the log ends at {latest}")
    return problems or turn_problems(game)


def turn_problems(game: Game) -> list[str]:
    """What replaying the state can't see: every logged turn's own fields against the engine.

    ``check_game`` proves the stored state follows from the log's tiles and verdicts; this
    checks the rest of each entry, which the GCG and the log shown to players read: who moved,
    the notation, words and score of a play, the play a challenge judged and the turn an undo
    took back.
    """
    seats = list(game.seats.order_by("order"))
    turns = list(game.turns.select_related("seat", "target").order_by("number"))
    problems: list[str] = []
    alive: list[Turn] = []  # the turns in effect so far: an undo takes back the last of them
    taken_back: set[int] = set()
    for turn in turns:
        if turn.action != Turn.Action.UNDO:
            alive.append(turn)
        elif not alive or turn.target_id != alive[-1].pk:
            last = alive[-1].number if alive else None
            problems.append(
                f"turn {turn.number} undoes turn {turn.target.number if turn.target else None}, "
                f"but the last turn in effect was {last}"
            )
        else:
            taken_back.add(alive.pop().number)
    undone = {t.number for t in turns if t.undone}
    if undone != taken_back:
        problems.append(
            f"turns marked undone {sorted(undone)} are not the turns undone {sorted(taken_back)}"
        )
    if problems:
        return problems
    state = GameState.new(
        game.ruleset, len(seats), RuleOptions.from_dict(game.options), game.first_seat
    )
    last_play: Turn | None = None
    for turn in alive:
        where = f"turn {turn.number}"
        if turn.seat.order != state.to_move:
            problems.append(f"{where} is logged for seat {turn.seat.order}, not {state.to_move}")
        if turn.action == Turn.Action.PLAY:
            play = Play(tuple(Placement(r, c, t) for r, c, t in turn.tiles))
            notation = play.notation(state.board, state.ruleset)
            evaluation = state.evaluate(play)
            words = [w.to_dict() for w in evaluation.words]
            if (turn.notation, turn.words, turn.score) != (notation, words, evaluation.score):
                problems.append(
                    f"{where} is logged as {turn.notation} for {turn.score}; "
                    f"the play is {notation} for {evaluation.score}"
                )
        elif turn.action == Turn.Action.CHALLENGE:
            if turn.target is None or turn.target != last_play:
                judged = last_play.number if last_play else None
                problems.append(f"{where} names the wrong play: the last play was {judged}")
            if turn.result not in (Turn.Result.UPHELD, Turn.Result.REJECTED):
                problems.append(f"{where} has no verdict")
        elif turn.action not in Turn.Action.values:
            problems.append(f"{where} has an unknown action {turn.action!r}")
        before = list(state.scores)
        apply_logged(state, turn)
        if turn.action == Turn.Action.CHALLENGE:
            penalty = state.scores[turn.seat.order] - before[turn.seat.order]
            expected = 0 if turn.result == Turn.Result.UPHELD else penalty
            if turn.score != expected:
                problems.append(f"{where} is logged for {turn.score}, not {expected}")
        elif turn.action in (Turn.Action.PASS, Turn.Action.EXCHANGE) and turn.score:
            problems.append(f"{where} is logged for {turn.score} points, not 0")
        if turn.action == Turn.Action.PLAY:
            last_play = turn
    return problems
