"""The consistency check: replay a game's log and list every way the stored record disagrees.

``audit_game`` (used by ``manage.py check_games`` and the tests) compares the stored state
with a replay of the log from the start; ``turn_problems`` checks each log entry's own fields;
``checkpoint_problems`` the stored checkpoints (a cache of the replay) against the replay;
``log_problems`` does the first two for a game not stored yet (an import's ``Draft``).
"""

from __future__ import annotations

from collections.abc import Sequence

from referee import GameState, RefereeError, square_name
from scorekeeper.games import checkpoints, clocks
from scorekeeper.games.replay import count_turns_played, replay, steps
from scorekeeper.games.results import results, totals
from scorekeeper.games.state import load_state, new_state
from scorekeeper.games.turn_kinds import KINDS, kind_of
from scorekeeper.models import Game, Seat, Turn


def audit_game(game: Game) -> list[str]:
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
    outcome = results(finals, clocks.lost_on_time(game)) or [""] * len(seats)
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
    if game.last_entry_number != latest:
        problems.append(f"turn_number: stored {game.last_entry_number}, the log ends at {latest}")
    played = count_turns_played(game)
    if game.turns_played != played:
        problems.append(f"turns_played: stored {game.turns_played}, the log counts {played}")
    return problems or turn_problems(game, seats) or checkpoint_problems(game, len(seats))


def checkpoint_problems(game: Game, players: int) -> list[str]:
    """Every stored checkpoint that is not the state a replay of the log from the start reaches
    after the turn in effect at its place, as its step."""
    stored = {found.place: found for found in game.checkpoints.all()}
    problems = []
    latest = max(stored, default=0)
    if game.checkpoint_place != latest:  # the next checkpoint is kept from there on
        problems.append(
            f"checkpoint_place: stored {game.checkpoint_place}, the last is at {latest}"
        )
    if not stored:
        return problems
    for turn, step, state in checkpoints.replayed(game, players):
        found = stored.pop(turn.place, None)
        if found is None:
            continue
        where = f"the checkpoint after turn {turn.number}"
        if found.step != step:
            problems.append(f"{where} says step {found.step}; it is step {step} of the replay")
        elif GameState.from_dict(found.state).to_dict() != state.to_dict():
            problems.append(f"{where} is not the state the log's replay reaches there")
    problems += [
        f"a checkpoint at place {place} follows no turn in effect" for place in sorted(stored)
    ]
    return problems


def turn_problems(game: Game, seats: Sequence[Seat] | None = None) -> list[str]:
    """What replaying the state can't see: every logged turn's own fields against the engine.

    ``audit_game`` proves the stored state follows from the log's tiles and verdicts; this
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
    """``audit_game`` for a game not stored yet (``scorekeeper.games.domain.Draft``): every way its
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
        elif KINDS[turn.action].replaces:
            places = [i for i, t in enumerate(alive) if t.pk == turn.target_id]
            if not places:
                problems.append(f"turn {turn.number} corrects a turn that was not in effect")
            else:
                replaced.add(alive[places[0]].number)
                alive[places[0]] = turn
        elif KINDS[turn.action].aside:
            continue  # a clock action changes nothing in the game: no undo takes it back
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
        kind = kind_of(turn)
        if turn.seat.order != step.before.to_move and not kind.any_seat:
            problems.append(
                f"{where} is logged for seat {turn.seat.order}, not {step.before.to_move}"
            )
        if kind.places_tiles or kind.replaces and turn.tiles:
            words = [w.to_dict() for w in outcome.words]
            if (turn.notation, turn.words, turn.score) != (outcome.notation, words, outcome.score):
                problems.append(
                    f"{where} is logged as {turn.notation} for {turn.score}; "
                    f"the play is {outcome.notation} for {outcome.score}"
                )
            last_play = turn
        elif kind.judges_play:
            if turn.target is None or turn.target != last_play:
                judged = last_play.number if last_play else None
                problems.append(f"{where} names the wrong play: the last play was {judged}")
            if turn.result not in (Turn.Result.UPHELD, Turn.Result.REJECTED):
                problems.append(f"{where} has no verdict")
            if turn.score != outcome.score:
                problems.append(f"{where} is logged for {turn.score}, not {outcome.score}")
        elif (kind.scoreless or kind.replaces) and turn.score:
            problems.append(f"{where} is logged for {turn.score} points, not 0")
        # Entries made before the totals were recorded have none; any recorded must be right.
        if turn.totals is not None and turn.totals != totals(step.state):
            problems.append(
                f"{where} records totals {turn.totals}, the log gives {totals(step.state)}"
            )
    return problems, state
