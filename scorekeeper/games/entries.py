"""A turn being entered: what a caller asks of ``act`` (``TurnCommand``), what the scorer entered
(``TurnEntry``), what a kind's handler works on
(``Context``), a score a correction changed (``Change``) and the moment before a turn as its GCG
line reads it (``Before``). Below the table of turn kinds and every handler of it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.contrib.auth.base_user import AbstractBaseUser

from referee import GameState
from scorekeeper.games.word_policy import WordPolicy
from scorekeeper.models import Game, Seat, Turn

if TYPE_CHECKING:
    from scorekeeper.games.checkpoints import CheckpointsDue
    from scorekeeper.games.in_play import InPlay


@dataclass(frozen=True)
class TurnCommand:
    """One turn asked of ``domain.act``: the kind (``action``) and what the scorer entered for
    it, each kind reading the parts it needs, with how the request is to be taken.

    ``expected_turn`` is the number this turn will get (else ``StaleTurn``); ``target`` the
    number of the turn a correction replaces; ``director`` the signed-in account acting as a
    club's director (only it voids a club game, or undoes a void); ``allowed`` the caller's own
    check of who may change the game (the API's token), run on the game's row as read;
    ``retry_slot`` the slot of the request's Idempotency-Key (``scorekeeper.http.retries``)."""

    action: str
    expected_turn: int | None = field(default=None, kw_only=True)
    by: str = field(default="", kw_only=True)
    notation: str | None = field(default=None, kw_only=True)
    tiles: Iterable[tuple[int, int, str]] | None = field(default=None, kw_only=True)
    count: object = field(default=None, kw_only=True)
    racks: Mapping[int, str] | None = field(default=None, kw_only=True)
    verdict: str | None = field(default=None, kw_only=True)
    seat: int | None = field(default=None, kw_only=True)
    points: int | None = field(default=None, kw_only=True)
    rack: str = field(default="", kw_only=True)
    note: str = field(default="", kw_only=True)
    target: object = field(default=None, kw_only=True)
    best: int | None = field(default=None, kw_only=True)
    director: AbstractBaseUser | None = field(default=None, kw_only=True)
    allowed: Callable[[Game], None] | None = field(default=None, kw_only=True)
    retry_slot: str | None = field(default=None, kw_only=True)
    clock_ms: object = field(default=None, kw_only=True)
    clock_at: object = field(default=None, kw_only=True)
    clock: object = field(default=None, kw_only=True)


@dataclass(kw_only=True)
class TurnEntry:
    """What the scorer entered for one turn; each kind reads the parts it needs. Made by
    keyword only: its parts are many, and several of one type."""

    by: str = ""
    notation: str | None = None  # a play as people write it: "5D WOOD", "E5=A F5=T"
    tiles: Sequence[tuple[int, int, str]] | None = None  # or as (row, col, tile)
    count: object = None  # tiles exchanged
    racks: Mapping[int, str] | None = None  # letters left, by seat order
    # A game record's own account (an imported GCG file): the verdict the table gave a
    # challenge (not judged again), the seat and points of a penalty, the mover's rack, a note.
    verdict: str | None = None
    seat: int | None = None
    points: int | None = None
    rack: str = ""
    note: str = ""
    target: object = None  # correct: the number of the turn to correct
    best: int | None = None  # solo: the best score the rack allowed
    # The signed-in account acting as a club's director (void, and undoing a void); None from
    # the scorer page and the API, which can do neither.
    director: AbstractBaseUser | None = None
    # A clocked game's readings (remaining ms by seat order) and when the phone took them
    # (epoch ms); ``clock`` is a clock action's: switch, pause or resume.
    clock_ms: object = None
    clock_at: object = None
    clock: object = None


@dataclass
class Context:
    """A live turn being entered: the locked game, its engine state and the new log entry."""

    game: Game
    seats: list[Seat]
    state: GameState
    turn: Turn
    entry: TurnEntry
    policy: WordPolicy
    log: InPlay  # the log's turns in effect
    changes: list[Change] = field(default_factory=list)  # scores a correction changed
    # What the entry changes in the log besides adding itself (an undo's mark on the turn it
    # took back, a correction's later turns scored again): written with it, under the lock.
    writes: list[Callable[[], None]] = field(default_factory=list)
    # Time penalties by seat that the entry's end of the game makes due (a player clock).
    time_penalties: list[tuple[int, int]] = field(default_factory=list)
    uncounted: int = 0  # turns players count that the entry took out of effect
    kept: CheckpointsDue | None = None  # the checkpoints a correction made again as it replayed
    rescored: int = 0  # the later turns a correction scored again


@dataclass(frozen=True)
class Change:
    """A score a correction changed: a turn's (``turn`` is its number as players count it) or a
    player's total."""

    player: str
    was: int
    now: int
    turn: int | None = None


@dataclass(frozen=True)
class Before:
    """The moment before a turn: what its GCG line and the log's checks read."""

    to_move: int
    scores: list[int]
    racks: list[int]
