"""The one replay of a game's log, and how players count its turns.

``steps`` replays the log through the engine, kind by kind from the table of turn kinds; the
domain, the history pages, the GCG export and the consistency check all call it.
``number_turns`` is the one count of turns as players say them ("turn 11"), and ``stood``
the plays in effect that rankings and standings read.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from django.db.models import Exists, OuterRef, QuerySet

from referee import (
    GameState,
    Outcome,
    RefereeError,
    RuleOptions,
)
from scorekeeper.games import checkpoints, counting
from scorekeeper.games.counting import IN_EFFECT, Counted, options_of
from scorekeeper.games.entries import Before
from scorekeeper.games.state import new_state
from scorekeeper.games.turn_kinds import (
    JUDGING,
    PLAYS,
    REPLACING,
    TAKING_BACK,
    TURNS,
    kind_of,
)
from scorekeeper.models import Game, Turn


@dataclass
class Step:
    """One turn of the log applied again: the moment before it, what it did, the state after.

    ``state`` is the one state the replay moves forward: read it before the next step.
    """

    turn: Turn
    before: Before
    outcome: Outcome
    state: GameState


def effective_turns(game: Game) -> list[Turn]:
    """The turns in effect in the order of play, with what describing them needs."""
    return play_order(list(game.turns.select_related("seat__player", "target__seat__player")))


def play_order(turns: Sequence[Turn]) -> list[Turn]:
    """The turns in effect among a game's log entries (all of them, by number), in the order
    of play: a correction stands where the turn it corrected stood, not at its own number."""
    places = places_of(turns)
    alive = [t for t in turns if not t.undone and not t.corrected and t.action not in TAKING_BACK]
    return sorted(alive, key=lambda t: places[t.pk])


def places_of(turns: Sequence[Turn]) -> dict[int, int]:
    """Each entry's place in the order of play (what ``Turn.place`` stores), by entry (pk),
    from all of a game's log entries by number: a correction comes after the turn it
    corrects, and stands in its place."""
    places: dict[int, int] = {}
    for turn in turns:
        root = places.get(turn.target_id or 0) if turn.action in REPLACING else None
        places[turn.pk] = root if root is not None else turn.number
    return places


# Turn numbers as players count them ------------------------------------------------------------
# "Turn 11" is the eleventh turn in effect in the order of play, as a scoresheet counts it
# (``counting``): undone turns, undo entries and the turns a correction replaced don't count, a
# correction counts where the turn it replaced stood, a challenge is no turn of its own (a
# play it took off and the retry are one turn; a double challenge's lost turn is one), and the
# entries that only end the game are no turn. The log numbers its *entries* apart
# (``Turn.number``, "#12"), all of them, in the order entered.


class Logged(NamedTuple):
    """A log entry as counting reads it: a row, not a model (a long log has 2,000)."""

    pk: int
    action: str
    result: str


def number_turns(in_play: Sequence[Counted], options: RuleOptions) -> dict[int, int]:
    """The one count of turns: each turn's number as players count it, by log entry (pk),
    from the turns in effect in the order of play (``play_order``) and the game's rules
    (``options_of``). Entries that are no turn (a challenge, the end of the game) have none."""
    return counting.number(in_play, TURNS, options)[0]


def turn_numbers(game: Game) -> dict[int, int]:
    """Every turn in effect of ``game``, by log entry (pk): its number as players count it."""
    in_play = game.turns.effective().order_by("place").values_list("pk", "action", "result")
    return number_turns([Logged(*row) for row in in_play], options_of(game))


def count_turns_played(game: Game) -> int:
    """How many turns players count in ``game``'s log, counted there (``Game.turns_played``
    keeps the number: the domain counts again only when an entry takes another out of effect,
    and the consistency check compares the two)."""
    played: int = game.turns.filter(IN_EFFECT).aggregate(n=counting.total(TURNS, options_of(game)))[
        "n"
    ]
    return played


def turn_phrase(game: Game) -> str:
    """Where a game stands as players count it: "turn 12" in play, else "after turn 11"."""
    if game.status == Game.Status.IN_PROGRESS:
        return f"turn {game.turns_played + 1}"
    return f"after turn {game.turns_played}"


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
    on, for correcting it. From the checkpoint nearest before it (``checkpoints``)."""
    return checkpoints.state_before(game, target.place, game.seats.count())


def replay(game: Game, *, players: int | None = None) -> GameState:
    """Rebuild a game's state from its log alone, through the engine."""
    state = new_state(game, players if players is not None else game.seats.count())
    for step in steps(game, players=players):
        state = step.state
    return state


def stood(turns: QuerySet[Turn]) -> QuerySet[Turn]:
    """Plays in effect: neither undone nor corrected (a correction that is a play stands in
    the place of the play it replaced), and not taken off by an upheld challenge in effect."""
    taken_off = Turn.objects.filter(
        target=OuterRef("pk"),
        action__in=JUDGING,
        result=Turn.Result.UPHELD,
        undone_at__isnull=True,
    )
    plays = turns.filter(action__in=PLAYS, undone_at=None, corrected_at=None)
    # A correction to a pass or an exchange has no notation: it is not a play.
    return plays.exclude(notation="").exclude(Exists(taken_off))
