"""The turns in effect of a game being entered, as the turn kinds read them.

An undo reads the last turn in effect, a challenge the last play, a correction the turn it
replaces, the state before it and the turns after it. ``InPlay`` answers from a list of turns
in memory (an import's draft); ``StoredInPlay`` from the database, each answer read near its
place in the order of play (``Turn.place``) and from the nearest checkpoint, so that what a
turn costs does not grow with the log.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from referee import GameState
from scorekeeper.games import checkpoints, counting
from scorekeeper.games.checkpoints import CheckpointsDue, in_effect
from scorekeeper.games.counting import IN_EFFECT, options_of
from scorekeeper.games.turn_kinds import ASIDE, PLAYS, TURNS, kind_of, turns_of
from scorekeeper.models import Game, Seat, Turn


class InPlay:
    """The turns in effect, in the order of play, from ``turns`` (a list made on demand);
    ``fresh`` is the game as it was before its first turn."""

    def __init__(self, turns: Callable[[], Sequence[Turn]], fresh: Callable[[], GameState]):
        self.turns = turns
        self.fresh = fresh

    def last(self) -> Turn | None:
        """The last turn in effect an undo can take back: a clock action is passed over."""
        turns = [t for t in self.turns() if not kind_of(t).aside]
        return turns[-1] if turns else None

    def last_play(self) -> Turn | None:
        plays = [t for t in self.turns() if t.tiles and t.action in PLAYS]
        return plays[-1] if plays else None

    def find(self, number: int) -> Turn | None:
        """The turn in effect that is log entry ``number``, if it is one."""
        return next((t for t in self.turns() if t.number == number), None)

    def after(self, place: int) -> list[Turn]:
        return [t for t in self.turns() if t.place > place]

    def state_before(self, place: int) -> GameState:
        state = self.fresh()
        for turn in self.turns():
            if turn.place >= place:
                break
            apply = kind_of(turn).replay
            assert apply is not None  # the turns in effect are all moves
            apply(state, turn)
        return state

    def number_of(self, turn: Turn) -> int:
        """A turn in effect's number as players count it (``replay.number_turns``)."""
        options = self.fresh().options
        return sum(turns_of(t, options) for t in self.turns() if t.place <= turn.place)

    def step_of(self, turn: Turn) -> int:
        """A turn in effect's step in the replay: how many turns in effect go up to it."""
        return sum(1 for t in self.turns() if t.place <= turn.place)

    def kept_before(self, place: int) -> CheckpointsDue:
        """The checkpoints to write from ``place`` on, after the last one before it."""
        return CheckpointsDue()


class StoredInPlay(InPlay):
    """``InPlay`` read from the database: a few rows near a place, whatever the log's length."""

    def __init__(self, game: Game, seats: Sequence[Seat], fresh: Callable[[], GameState]):
        super().__init__(lambda: list(in_effect(game)), fresh)
        self.game = game
        self.seats = {seat.pk: seat for seat in seats}  # with their players, read already
        self.players = len(seats)

    def last(self) -> Turn | None:
        found: Turn | None = (
            in_effect(self.game)
            .exclude(action__in=ASIDE)
            .select_related("seat__player", "target__seat__player")
            .order_by("-place")
            .first()
        )
        return found

    def last_play(self) -> Turn | None:
        # A play has its notation; a correction to a pass or an exchange has none.
        plays = in_effect(self.game).filter(action__in=PLAYS).exclude(notation="")
        found: Turn | None = plays.select_related("seat__player").order_by("-place").first()
        return found

    def find(self, number: int) -> Turn | None:
        found: Turn | None = (
            in_effect(self.game)
            .filter(number=number)
            .select_related("seat__player", "target__seat__player")
            .first()
        )
        return found

    def after(self, place: int) -> list[Turn]:
        turns = list(in_effect(self.game).filter(place__gt=place))
        for turn in turns:
            turn.seat = self.seats[turn.seat_id]
        return turns

    def state_before(self, place: int) -> GameState:
        return checkpoints.state_before(self.game, place, self.players)

    def number_of(self, turn: Turn) -> int:
        found = self.game.turns.filter(IN_EFFECT, place__lte=turn.place)
        number: int = found.aggregate(n=counting.total(TURNS, options_of(self.game)))["n"]
        return number

    def step_of(self, turn: Turn) -> int:
        count: int = in_effect(self.game).filter(place__lte=turn.place).count()
        return count

    def kept_before(self, place: int) -> CheckpointsDue:
        found = self.game.checkpoints.filter(place__lt=place).order_by("-place").first()
        return CheckpointsDue(found.place, found.step) if found is not None else CheckpointsDue()
