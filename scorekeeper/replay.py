"""A game's stored state, and the one replay of its log.

The state (board, scores, bag and rack sizes, whose turn) is stored on ``Game`` and ``Seat``
as first-class data; ``load_state`` and ``store_state`` move it between the rows and the
engine. ``steps`` replays the log through the engine, kind by kind from the action table; the
domain, the history pages, the GCG export and ``check_games`` all call it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from referee.board import square_name
from referee.errors import RefereeError
from referee.game import FINISHED, GameState, Outcome
from referee.rulesets import RuleOptions, get_ruleset
from scorekeeper.actions import KINDS, Before, kind_of
from scorekeeper.models import Game, Seat, Turn

WIN, LOSS, TIE = "win", "loss", "tie"


# Who won ---------------------------------------------------------------------------------------
def results(final_scores: Sequence[int] | None) -> list[str] | None:
    """Each seat's result: the highest final score wins, sharing it is a tie, the rest lose.

    Blank for every seat while the game goes on, and in a solo game, which has no winner.

    >>> results([310, 290]), results([300, 300, 12]), results([250]), results(None)
    (['win', 'loss'], ['tie', 'tie', 'loss'], [''], None)
    """
    if final_scores is None:
        return None
    if len(final_scores) < 2:
        return [""] * len(final_scores)
    best = max(final_scores)
    top = final_scores.count(best)
    return [(TIE if top > 1 else WIN) if s == best else LOSS for s in final_scores]


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
    changed = set_state(game, seats, state)
    game.save(update_fields=GAME_STATE)
    for seat, fields in changed:
        seat.save(update_fields=fields)


def set_state(game: Game, seats: Sequence[Seat], state: GameState) -> list[tuple[Seat, list[str]]]:
    """Put the engine's state on the game and its seats, without saving them; each seat whose
    numbers changed, with the fields that did."""
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
    finals = state.final_scores
    outcome = results(finals) or [""] * len(seats)
    changed = []
    for seat in seats:
        now = {
            "score": state.scores[seat.order],
            "rack_count": state.racks[seat.order],
            "skip_turns": state.skips[seat.order],
            "adjustment": state.adjustments[seat.order] if state.adjustments else None,
            "final_score": finals[seat.order] if finals else None,
            "result": outcome[seat.order],
        }
        fields = [name for name, value in now.items() if getattr(seat, name) != value]
        if fields:
            for name in fields:
                setattr(seat, name, now[name])
            changed.append((seat, fields))
    return changed


def totals(state: GameState) -> list[int]:
    """Every seat's score as the log records it after a turn: final scores once it ends."""
    return list(state.final_scores or state.scores)


# The replay ------------------------------------------------------------------------------------
@dataclass
class Step:
    """One turn of the log applied again: the moment before it, what it did, the state after.

    ``state`` is the one state the replay moves forward: read it before the next step.
    """

    turn: Turn
    before: Before
    outcome: Outcome
    state: GameState


def new_state(game: Game, players: int) -> GameState:
    ruleset = get_ruleset(game.ruleset)
    return GameState.new(
        game.ruleset, players, RuleOptions.from_dict(game.options, ruleset), game.first_seat
    )


def effective_turns(game: Game) -> list[Turn]:
    """The turns in effect in the order of play, with what describing them needs."""
    return play_order(list(game.turns.select_related("seat__player", "target__seat__player")))


def play_order(turns: Sequence[Turn]) -> list[Turn]:
    """The turns in effect among a game's log entries (all of them, by number), in the order
    of play: a correction stands where the turn it corrected stood, not at its own number."""
    position: dict[int, int] = {}
    for turn in turns:  # by number: a correction comes after the turn it corrects
        root = position.get(turn.target_id or 0) if turn.action == "correct" else None
        position[turn.pk] = root if root is not None else turn.number
    alive = [t for t in turns if not t.undone and not t.corrected and t.action != "undo"]
    return sorted(alive, key=lambda t: position[t.pk])


# Turn numbers as players count them ------------------------------------------------------------
# "Turn 11" is the eleventh turn in effect in the order of play: undone turns, undo entries and
# the turns a correction replaced don't count, a correction counts where the turn it replaced
# stood, and the entries that only end the game (``ActionKind.counted``) are no turn. The log
# numbers its *entries* apart (``Turn.number``, "#12"), all of them, in the order entered.
UNCOUNTED = ("undo", *(name for name, kind in KINDS.items() if not kind.counted))
COUNTED = Q(undone_at__isnull=True, corrected_at__isnull=True) & ~Q(action__in=UNCOUNTED)


def number_turns(in_play: Sequence[Turn]) -> dict[int, int]:
    """The one count of turns: each turn's number as players count it, by log entry (pk),
    from the turns in effect in the order of play (``play_order``). Entries that are not a
    turn (the end of the game, abandoning, voiding) have none."""
    numbers: dict[int, int] = {}
    for turn in in_play:
        if kind_of(turn).counted:
            numbers[turn.pk] = len(numbers) + 1
    return numbers


def turn_numbers(game: Game) -> dict[int, int]:
    """Every turn in effect of ``game``, by log entry (pk): its number as players count it."""
    fields = ("pk", "game", "number", "action", "target", "undone_at", "corrected_at")
    return number_turns(play_order(list(game.turns.only(*fields).order_by("number"))))


def turns_played(game: Game) -> int:
    """How many turns players count in ``game`` so far: the number of its latest turn."""
    return game.turns.filter(COUNTED).count()


def with_turns_played(games: QuerySet[Game]) -> QuerySet[Game]:
    """``games``, each with ``turns_played`` read in the same query (for lists of games)."""
    counted = Q(turns__undone_at__isnull=True, turns__corrected_at__isnull=True) & ~Q(
        turns__action__in=UNCOUNTED
    )
    return games.annotate(turns_played=Count("turns", filter=counted))


def turn_phrase(game: Game) -> str:
    """Where a game stands as players count it: "turn 12" in play, else "after turn 11"
    (read from ``with_turns_played`` where the game came from it)."""
    played = getattr(game, "turns_played", None)
    played = turns_played(game) if played is None else played
    if game.status == Game.Status.IN_PROGRESS:
        return f"turn {played + 1}"
    return f"after turn {played}"


def steps(
    game: Game, *, players: int | None = None, turns: Sequence[Turn] | None = None
) -> Iterator[Step]:
    """Replay the log's turns in effect (or ``turns``) from a new game, one step at a time."""
    players = players if players is not None else game.seats.count()
    turns = turns if turns is not None else effective_turns(game)
    state = new_state(game, players)
    for turn in turns:
        apply = kind_of(turn).replay
        if apply is None:
            raise RefereeError("bad_log", f"Turn {turn.number} ({turn.action}) is not a move.")
        before = Before(state.to_move, list(state.scores), list(state.racks))
        yield Step(turn, before, apply(state, turn), state)


def state_before(game: Game, target: Turn) -> GameState:
    """The state just before ``target`` (a turn in effect) was played: the board it was played
    on, for correcting it."""
    in_play = effective_turns(game)
    earlier = in_play[: next(i for i, t in enumerate(in_play) if t.pk == target.pk)]
    state = new_state(game, game.seats.count())
    for step in steps(game, turns=earlier):
        state = step.state
    return state


def replay(game: Game, *, players: int | None = None) -> GameState:
    """Rebuild a game's state from its log alone, through the engine."""
    state = new_state(game, players if players is not None else game.seats.count())
    for step in steps(game, players=players):
        state = step.state
    return state


# The consistency check -------------------------------------------------------------------------
def check_game(game: Game) -> list[str]:
    """Replay a game's log and list every way the stored state disagrees with it."""
    seats = list(game.seats.select_related("player").order_by("order"))
    try:
        replayed = replay(game, players=len(seats))
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
    outcome = results(finals) or [""] * len(seats)
    for seat in seats:
        expected = finals[seat.order] if finals else None
        if seat.final_score != expected:
            problems.append(
                f"final_score of {seat.player.name}: stored {seat.final_score!r}, "
                f"the log gives {expected!r}"
            )
        if seat.result != outcome[seat.order]:
            problems.append(
                f"result of {seat.player.name}: stored {seat.result!r}, "
                f"the log gives {outcome[seat.order]!r}"
            )
    latest = game.turns.order_by("-number").values_list("number", flat=True).first() or 0
    if game.turn_number != latest:
        problems.append(f"turn_number: stored {game.turn_number}, the log ends at {latest}")
    return problems or turn_problems(game, seats)


def turn_problems(game: Game, seats: Sequence[Seat] | None = None) -> list[str]:
    """What replaying the state can't see: every logged turn's own fields against the engine.

    ``check_game`` proves the stored state follows from the log's tiles and verdicts; this
    checks the rest of each entry, which the GCG and the log shown to players read: who moved,
    the notation, words and score of a play, the play a challenge judged, the turn an undo
    took back, and the running totals the chart reads.
    """
    seats = seats if seats is not None else list(game.seats.order_by("order"))
    turns = list(game.turns.select_related("seat__player", "target__seat__player"))
    return _log_problems(game, seats, turns)[0]


def log_problems(
    game: Game, seats: Sequence[Seat], turns: Sequence[Turn], state: GameState
) -> list[str]:
    """``check_game`` for a game not stored yet (``scorekeeper.domain.Draft``): every way its
    log (all its turns, by number) and the state it reached disagree with a replay."""
    try:
        problems, replayed = _log_problems(game, seats, turns)
    except RefereeError as error:
        return [f"the log does not replay: {error.message}"]
    if replayed is None:
        return problems
    again = replayed.to_dict()
    problems += [
        f"{key}: reached {value!r}, the log gives {again[key]!r}"
        for key, value in state.to_dict().items()
        if value != again[key]
    ]
    return problems


def _log_problems(
    game: Game, seats: Sequence[Seat], turns: Sequence[Turn]
) -> tuple[list[str], GameState | None]:
    """Each turn's own fields against the engine, and the state the turns in effect reach
    (None when the log's undos and corrections don't add up)."""
    problems: list[str] = []
    # The turns in effect so far, in the order of play: an undo takes back the last of them, a
    # correction takes the place of the turn it corrects.
    alive: list[Turn] = []
    taken_back: set[int] = set()
    replaced: set[int] = set()
    for turn in turns:
        if turn.action not in KINDS:
            problems.append(f"turn {turn.number} has an unknown action {turn.action!r}")
        elif turn.action == "correct":
            places = [i for i, t in enumerate(alive) if t.pk == turn.target_id]
            if not places:
                problems.append(f"turn {turn.number} corrects a turn that was not in effect")
            else:
                replaced.add(alive[places[0]].number)
                alive[places[0]] = turn
        elif KINDS[turn.action].replay is not None:
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
    corrected = {t.number for t in turns if t.corrected}
    if corrected != replaced:
        problems.append(
            f"turns marked corrected {sorted(corrected)} are not the turns corrected "
            f"{sorted(replaced)}"
        )
    if problems:
        return problems, None
    last_play: Turn | None = None
    state = new_state(game, len(seats))
    for step in steps(game, players=len(seats), turns=alive):
        turn, outcome, where = step.turn, step.outcome, f"turn {step.turn.number}"
        state = step.state
        if turn.seat.order != step.before.to_move and not kind_of(turn).any_seat:
            problems.append(
                f"{where} is logged for seat {turn.seat.order}, not {step.before.to_move}"
            )
        if turn.action == "play" or turn.action == "correct" and turn.tiles:
            words = [w.to_dict() for w in outcome.words]
            if (turn.notation, turn.words, turn.score) != (outcome.notation, words, outcome.score):
                problems.append(
                    f"{where} is logged as {turn.notation} for {turn.score}; "
                    f"the play is {outcome.notation} for {outcome.score}"
                )
            last_play = turn
        elif turn.action == "challenge":
            if turn.target is None or turn.target != last_play:
                judged = last_play.number if last_play else None
                problems.append(f"{where} names the wrong play: the last play was {judged}")
            if turn.result not in (Turn.Result.UPHELD, Turn.Result.REJECTED):
                problems.append(f"{where} has no verdict")
            if turn.score != outcome.score:
                problems.append(f"{where} is logged for {turn.score}, not {outcome.score}")
        elif turn.action in ("pass", "exchange", "correct", "abandon") and turn.score:
            problems.append(f"{where} is logged for {turn.score} points, not 0")
        # Entries made before the totals were recorded have none; any recorded must be right.
        if turn.totals is not None and turn.totals != totals(step.state):
            problems.append(
                f"{where} records totals {turn.totals}, the log gives {totals(step.state)}"
            )
    return problems, state
