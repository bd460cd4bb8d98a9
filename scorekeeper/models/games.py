"""Games, seats, the turn log and its checkpoints.

A game's current state (board stacks, scores, bag and rack sizes, whose turn, status) is
stored as first-class data on ``Game`` and ``Seat``; the turn log sits beside it. Every
change goes through ``scorekeeper.games.domain``, which keeps the two in step, and
``manage.py check_games`` replays every log to prove it.
"""

from __future__ import annotations

import secrets
import uuid

from django.core.exceptions import ValidationError
from django.db import models

from referee import RULESETS
from scorekeeper.models.clubs import Club
from scorekeeper.models.people import Player


def known_ruleset(value: str) -> None:
    # Validated against the registry, not stored as DB choices: a new ruleset is an entry in
    # referee.rulesets, never a migration.
    if value not in RULESETS:
        raise ValidationError(f"Unknown ruleset {value!r}; choose one of {', '.join(RULESETS)}.")


def new_token() -> str:
    return secrets.token_urlsafe(24)


def _unique_slot(name: str) -> models.UniqueConstraint:
    """A retry slot names one game or log entry at most: a partial unique index, which holds
    none of the rows made without one (NULL, not "": a nullable column is added on SQLite
    without copying the table)."""
    return models.UniqueConstraint(
        fields=["retry_slot"], condition=models.Q(retry_slot__isnull=False), name=name
    )


class Game(models.Model):
    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", "In progress"
        AWAITING_RACKS = "awaiting_racks", "Awaiting racks"
        FINISHED = "finished", "Finished"
        ABANDONED = "abandoned", "Abandoned"
        VOID = "void", "Void"  # a club game a director declared void: it counts nowhere

    class ChallengeMode(models.TextChoices):
        AUTO = "auto", "Checked as played"
        MANUAL = "manual", "Tournament (stands until challenged)"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    token = models.CharField(max_length=64, default=new_token, editable=False)
    ruleset = models.CharField(max_length=32, validators=[known_ruleset])
    options = models.JSONField(default=dict, blank=True)
    lexicon = models.CharField(max_length=64)
    lexicon_checksum = models.CharField(max_length=80, blank=True)
    challenge_mode = models.CharField(max_length=8, choices=ChallengeMode.choices)
    first_seat = models.PositiveSmallIntegerField(default=0)
    # Seconds a turn may take, shown as a countdown at the table (Letter UP: 75); None: off.
    turn_clock = models.PositiveSmallIntegerField(null=True, blank=True)
    # The game's clock (``scorekeeper.games.clocks``): its rule and the last readings; None: none.
    clock = models.JSONField(null=True, blank=True)
    status = models.CharField(
        max_length=16, choices=Status.choices, default=Status.IN_PROGRESS, db_index=True
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    # The current state, kept in step with the turn log.
    # The number of the latest log entry (``Turn.number``; 0 before the first): the game's
    # version, and ``expected_turn`` - 1. The API and the JSON record call it turn_number, as
    # its column is named.
    last_entry_number = models.PositiveIntegerField(
        default=0, db_column="turn_number", verbose_name="turn number"
    )
    # The turns players count so far (the log's entries in effect, without the undos and the
    # entries that only end a game): "turn 12" is the next. Kept by the domain with the log.
    turns_played = models.PositiveIntegerField(default=0)
    board = models.JSONField(default=list)  # rows of squares, each a list of tiles bottom-up
    bag_count = models.PositiveSmallIntegerField(default=0)
    to_move = models.PositiveSmallIntegerField(default=0)  # seat order
    passes = models.PositiveSmallIntegerField(default=0)  # consecutive passes
    exchanges = models.PositiveSmallIntegerField(default=0)
    last_play = models.JSONField(null=True, blank=True)  # what a challenge would take back
    # The place of its latest checkpoint (``Checkpoint``; 0: none), read with the game: a new
    # entry knows whether one is due without another read.
    checkpoint_place = models.PositiveIntegerField(default=0)

    # A club game counts in the club's standings; None: a casual game.
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.PROTECT, related_name="games"
    )
    # The number of the club's table it is played at, as the director's screen lists them.
    table_number = models.PositiveSmallIntegerField(null=True, blank=True)

    # What a record imported from a file (GCG) says of the game beyond its turns.
    title = models.CharField(max_length=200, blank=True)
    description = models.TextField(blank=True)
    # The retry slot (``scorekeeper.http.retries``) of the request that made it, so that the same
    # request sent again after its first answer was lost gets this game, not a second one.
    retry_slot = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001 - see _unique_slot

    class Meta:
        ordering = ["-created_at"]
        # The games changed lately: what a process without a broker reads for its screens
        # (scorekeeper.live.news.changes), twice a second.
        indexes = [models.Index(fields=["updated_at"], name="game_updated_at")]
        constraints = [_unique_slot("game_retry_slot")]

    def __str__(self) -> str:
        names = " v ".join(s.player.name for s in self.seats.all())
        ruleset = RULESETS.get(self.ruleset)
        return f"{ruleset.name if ruleset else self.ruleset}: {names}"

    def get_ruleset_display(self) -> str:
        """The ruleset's name, as Django names a field's choice (rulesets are not DB choices)."""
        ruleset = RULESETS.get(self.ruleset)
        return ruleset.name if ruleset else self.ruleset


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    order = models.PositiveSmallIntegerField()
    score = models.IntegerField(default=0)  # running total of turn scores
    rack_count = models.PositiveSmallIntegerField(default=0)
    skip_turns = models.PositiveSmallIntegerField(default=0)
    adjustment = models.IntegerField(null=True, blank=True)  # end-of-game penalty
    final_score = models.IntegerField(null=True, blank=True)  # the authoritative result
    # Decided once, when the game finishes (scorekeeper.games.results.results): win, loss or tie;
    # blank while the game goes on, and in a solo game, which has no winner.
    result = models.CharField(max_length=4, blank=True, default="")

    class Meta:
        ordering = ["game", "order"]
        constraints = [
            models.UniqueConstraint(fields=["game", "order"], name="unique_seat_order"),
            models.UniqueConstraint(fields=["game", "player"], name="unique_seat_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player.name} (seat {self.order + 1})"

    @property
    def shown_score(self) -> int:
        """The score a list of games shows: the final one once the game has one (the end's
        penalties in it), the running total until then."""
        return self.final_score if self.final_score is not None else self.score


# The log entries that are no move in the order of play (an undo): the turn kinds' own
# ``TAKING_BACK``, copied here because the table sits above the models (the test of the table
# checks that the two agree).
TAKING_BACK = ("undo",)


class TurnQuerySet(models.QuerySet["Turn"]):
    def effective(self) -> TurnQuerySet:
        """The turns that make the game: neither undone, corrected nor undo entries, by number.

        A correction stands where the turn it corrected stood, not at its own number:
        ``scorekeeper.games.replay.play_order`` puts them in the order of play."""
        return (
            self.filter(undone_at__isnull=True, corrected_at__isnull=True)
            .exclude(action__in=TAKING_BACK)
            .order_by("number")
        )


class Turn(models.Model):
    class Result(models.TextChoices):
        NONE = "", "—"
        UPHELD = "upheld"
        REJECTED = "rejected"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="turns")
    number = models.PositiveIntegerField()
    # Its place in the order of play: its own number, or for a correction the place of the turn
    # it replaced; the turns in effect, ordered by it, are the game (``replay.play_order``).
    place = models.PositiveIntegerField()
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="turns")
    # A kind from scorekeeper.games.turn_kinds.KINDS: the table, not DB choices, says which exist.
    action = models.CharField(max_length=10)
    tiles = models.JSONField(default=list, blank=True)  # [[row, col, tile], ...]
    notation = models.CharField(max_length=64, blank=True)
    words = models.JSONField(default=list, blank=True)  # [{word, score, breakdown, ...}]
    score = models.IntegerField(default=0)
    count = models.PositiveSmallIntegerField(default=0)  # tiles exchanged
    racks = models.JSONField(null=True, blank=True)  # finish: letters left, by seat order
    rack = models.CharField(max_length=16, blank=True)  # the mover's rack, where a record says
    note = models.TextField(blank=True)  # a record's note on this turn
    # Solo games: the best score the rack allowed (the analysis), to compare the play with.
    best = models.IntegerField(null=True, blank=True)
    # A clocked game's clocks after this entry (``referee.clock.ClockState.to_json``).
    clock = models.JSONField(null=True, blank=True)
    result = models.CharField(max_length=8, choices=Result.choices, blank=True, default="")
    # The play a challenge judged, the turn an undo took back, or the turn a correction replaced.
    target = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    # Every seat's score once this turn was entered (final scores on the turn that ends the
    # game): the chart reads these instead of replaying the log. Checked by check_games.
    totals = models.JSONField(null=True, blank=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.CharField(max_length=80, blank=True)
    # Replaced by a later "correct" entry (which names this turn as its target).
    corrected_at = models.DateTimeField(null=True, blank=True)
    corrected_by = models.CharField(max_length=80, blank=True)
    entered_by = models.CharField(max_length=80, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The retry slot (``scorekeeper.http.retries``) of the request that entered it, so that the same
    # request sent again after its first answer was lost is answered, never entered twice.
    retry_slot = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001 - see _unique_slot

    objects = TurnQuerySet.as_manager()

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="unique_turn_number"),
            _unique_slot("turn_retry_slot"),
        ]
        # The turns in effect near a place (the last one, those after a corrected one) are
        # read by it, however long the log.
        indexes = [models.Index(fields=["game", "place"], name="turn_place")]

    def __str__(self) -> str:
        return f"#{self.number} {self.action} {self.notation}".strip()

    @property
    def undone(self) -> bool:
        return self.undone_at is not None

    @property
    def corrected(self) -> bool:
        return self.corrected_at is not None


class Checkpoint(models.Model):
    """The engine's state after a turn in effect (``place``), every few turns of a game: a
    cache of the replay, so that a correction, an undo or an earlier board replays a few turns
    from here rather than the whole log. Derived from the log, checked against it by
    ``check_games`` and rebuilt from it (``scorekeeper.games.checkpoints``); never the record."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="checkpoints")
    place = models.PositiveIntegerField()  # after the turn in effect at this place...
    step = models.PositiveIntegerField()  # ...which is the step-th turn in effect
    state = models.JSONField()  # ``GameState.to_dict()``

    class Meta:
        ordering = ["game", "place"]
        constraints = [
            models.UniqueConstraint(fields=["game", "place"], name="unique_checkpoint_place"),
        ]

    def __str__(self) -> str:
        return f"after step {self.step} (place {self.place})"
