"""Games, players, seats and the turn log.

A game's current state (board stacks, scores, bag and rack sizes, whose turn, status) is
stored as first-class data on ``Game`` and ``Seat``; the turn log sits beside it. Every change
goes through ``scorekeeper.game.domain``, which keeps the two in step, and ``manage.py check_games``
replays every log to prove it.
"""

from __future__ import annotations

import secrets
import unicodedata
import uuid
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone

from referee import RULESETS
from scorekeeper.invisible import visible

NAME_MAX = 40  # characters in a player's name


def known_ruleset(value: str) -> None:
    # Validated against the registry, not stored as DB choices: a new ruleset is an entry in
    # referee.rulesets, never a migration.
    if value not in RULESETS:
        raise ValidationError(f"Unknown ruleset {value!r}; choose one of {', '.join(RULESETS)}.")


def new_token() -> str:
    return secrets.token_urlsafe(24)


def name_key(name: str) -> str:
    """What makes two names one player: what can be seen of it, Unicode-normalised, spaces
    collapsed, case folded ("A\u200bnn" is Ann).

    Computed here rather than by the database, whose LOWER/UPPER differ between SQLite and
    PostgreSQL and from Python's case rules (for İ, ı and the Kelvin sign, say).
    """
    return unicodedata.normalize("NFKC", " ".join(visible(name).split())).casefold()


COMBINING_RUN = 3  # accents stacked on one letter: more than this is not a name


def name_problem(name: str) -> str | None:
    """Why a name (a player's, a club's) can't be used, or None: nothing to see, invisible or
    control characters (``scorekeeper.invisible``), accents stacked beyond reading."""
    if not visible(name).strip():
        return "A name needs at least one letter or sign that can be seen."
    if visible(name) != name:
        return (
            "A name can't hold invisible or control characters (zero-width spaces, "
            "blank fillers or bidi marks)."
        )
    run = 0
    for ch in name:
        run = run + 1 if unicodedata.combining(ch) else 0
        if run > COMBINING_RUN:
            return "A name can't stack more than three accents on one letter."
    return None


class Player(models.Model):
    """A player, known by name: one player to a name (``name_key``), except the names of an
    imported record that no one with the right to speak for the players of those names
    linked to them (``from_record``): each of those is a player of its own, nobody's."""

    name = models.CharField(max_length=NAME_MAX)
    name_key = models.CharField(max_length=160, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    # A name no lookup by name finds and no ranking counts: an upload can't add to the record
    # of the player whose name it uses.
    from_record = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            # An account is one player: two answers at the same moment can't both link it.
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(user__isnull=False),
                name="one_player_per_account",
                violation_error_message="This account is another player already.",
            ),
            models.UniqueConstraint(
                fields=["name_key"],
                condition=models.Q(from_record=False),
                name="one_player_per_name",
            ),
        ]
        indexes = [models.Index(fields=["name_key"], name="player_name_key")]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name_key = name_key(self.name)
        super().save(*args, **kwargs)


class Club(models.Model):
    """A club: its directors (accounts) and its roster of players. Its games count in its
    standings; a *member* is a director or an account linked to a player on the roster."""

    name = models.CharField(max_length=80)
    slug = models.SlugField(max_length=80, unique=True)
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="directed_clubs", blank=True
    )
    roster = models.ManyToManyField(Player, related_name="clubs", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The club's usual rules, which pre-fill its new games and events ("": none kept; the
    # form's own default). ``default_clock`` is a clock rule as ``Game.clock`` states it.
    default_ruleset = models.CharField(max_length=32, blank=True)
    default_lexicon = models.CharField(max_length=64, blank=True)
    default_challenge_mode = models.CharField(max_length=8, blank=True)
    default_rejected_challenge = models.CharField(max_length=16, blank=True)
    default_clock = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Invitation(models.Model):
    """A club director's invitation to the holder of the account called ``username`` to be
    ``player``: the player is linked to that account only when its holder accepts.

    Kept by username, not by account: inviting a name no account has is stored, and answered,
    exactly as inviting one that exists, so nothing tells a director which usernames exist.
    One invitation per player and club; a new one replaces the last."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="invitations")
    username = models.CharField(max_length=150, db_index=True)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="one_invitation_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.username} to be {self.player.name} ({self.club.name})"


class DirectorInvitation(models.Model):
    """A club director's invitation to a member's account to direct the club too: the account
    directs it only when its holder accepts. One per club and account."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="director_invitations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="director_invitations"
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="one_director_invitation"),
        ]

    def __str__(self) -> str:
        return f"{self.user} to direct {self.club.name}"


def clubs_of(user: Any) -> models.QuerySet[Club]:
    """The clubs ``user`` is a member of: directs, or plays for through a linked player."""
    if user is None or not user.is_authenticated:
        return Club.objects.none()
    member = models.Q(directors=user) | models.Q(roster__user=user)
    return Club.objects.filter(pk__in=Club.objects.filter(member).values("pk"))


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
    # The game's clock (``scorekeeper.game.clocks``): its rule and the last readings; None: none.
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
    # The retry slot (``scorekeeper.retries``) of the request that made it, so that the same
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
    # Decided once, when the game finishes (scorekeeper.game.results.results): win, loss or tie;
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
        ``scorekeeper.game.replay.play_order`` puts them in the order of play."""
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
    # A kind from scorekeeper.game.turn_kinds.KINDS: the table, not DB choices, says which exist.
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
    # The retry slot (``scorekeeper.retries``) of the request that entered it, so that the same
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
    ``check_games`` and rebuilt from it (``scorekeeper.game.checkpoints``); never the record."""

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


class RateCount(models.Model):
    """One client's requests of one kind in one window of a rate limit (``scorekeeper.limits``),
    shared by every worker and server that uses this database. Not game state."""

    name = models.CharField(max_length=200, primary_key=True)  # rate:<limit>:<client>:<window>
    count = models.PositiveIntegerField(default=0)
    expires = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.name} = {self.count}"


class KeptAnswer(models.Model):
    """The answer to a request sent with an Idempotency-Key, kept for its retries for a day
    (``scorekeeper.retries``); ``status`` is null while the request is being answered. Not
    game state."""

    slot = models.CharField(max_length=64, primary_key=True)  # key, path and caller, digested
    caller = models.CharField(max_length=64)  # whose bounds it counts against, digested
    body = models.CharField(max_length=64)  # the request body's digest
    status = models.PositiveSmallIntegerField(null=True)
    content = models.BinaryField(default=b"")
    headers = models.TextField(default="{}")  # JSON: the replayed headers, and cookies by name
    size = models.PositiveIntegerField(default=0)  # bytes the answer takes, counted per caller
    started = models.DateTimeField()  # when the request holding the slot began
    expires = models.DateTimeField(db_index=True)

    class Meta:
        indexes = [models.Index(fields=["caller", "expires"], name="kept_answer_caller")]

    def __str__(self) -> str:
        return f"{self.slot[:12]} {self.status or 'in progress'}"


class AccountToken(models.Model):
    """A personal token of an account for the JSON API (``Authorization: Bearer <token>``),
    made by ``manage.py account token USERNAME``; only its digest is kept, so a copy of the
    database opens no account."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_token"
    )
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"token of {self.user}"


class Tournament(models.Model):
    """A club's event: its games' rules, its rounds and the director's tournament rules (the
    plain core, ``referee.events``, reads them as its ``Rules``). Its players are in
    one or more divisions (``Entrant.division``), each paired and ranked on its own."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="tournaments")
    name = models.CharField(max_length=120)
    date = models.DateField(default=timezone.localdate)
    ruleset = models.CharField(max_length=32, validators=[known_ruleset])
    lexicon = models.CharField(max_length=64)
    challenge_mode = models.CharField(max_length=8, choices=Game.ChallengeMode.choices)
    rounds = models.PositiveSmallIntegerField()
    bye_spread = models.PositiveSmallIntegerField(default=50)
    forfeit_spread = models.PositiveSmallIntegerField(default=50)
    gibson = models.BooleanField(default=True)
    gibson_spread = models.PositiveSmallIntegerField(default=500)
    prize_places = models.PositiveSmallIntegerField(default=1)
    repeats_allowed = models.PositiveSmallIntegerField(default=1)
    fontes_rounds = models.PositiveSmallIntegerField(default=3)  # Initial Fontes: odd
    seed = models.PositiveIntegerField(default=0)  # the draws for who goes first
    # A failed challenge's cost in the event's games ("": the ruleset's own rule) and their
    # clock rule (``referee.ClockRule.to_json``; None: no clock).
    rejected_challenge = models.CharField(max_length=16, blank=True)
    clock = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Archived: kept and read, off the club's list of events. ``tonight``: the day the director
    # marked it as the event the club's director's screen shows (None: never).
    archived = models.BooleanField(default=False)
    tonight = models.DateField(null=True, blank=True)
    # One more with every change to what the event's pages show (``events.version``):
    # their ETag and the key of the part drawn once for every phone.
    version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-date", "-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.club.name})"


class Entrant(models.Model):
    """A player entered in a tournament, with the rating and career games they came with, in
    a division of it (``""``: the event's one division)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    number = models.PositiveSmallIntegerField()  # the line of the .t file, in entry order
    rating = models.PositiveSmallIntegerField(default=0)  # 0: unrated, as in a .t file
    career_games = models.PositiveIntegerField(default=0)
    division = models.CharField(max_length=40, blank=True, default="")
    active = models.BooleanField(default=True)  # False once withdrawn
    joined_round = models.PositiveSmallIntegerField(default=1)
    # From a tsh .t file: the name as the file wrote it, and its other fields as written
    # ({"board": "1 2", "newr": "1512 1530"}), so the file is written back as it was read.
    t_name = models.CharField(max_length=200, blank=True, default="")
    t_fields = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="one_entry_per_player"),
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_entry_number"),
        ]

    def __str__(self) -> str:
        return self.player.name


class TournamentRound(models.Model):
    """A round as paired: by which method, from the standings after which round, and who was
    gibsonized in it."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    method = models.CharField(max_length=16)
    based_on = models.PositiveSmallIntegerField()
    gibsonized = models.JSONField(default=list, blank=True)  # entrants' ids
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_round_number"),
        ]

    def __str__(self) -> str:
        return f"round {self.number}"


class Pairing(models.Model):
    """One table of a round (``first`` seated first in its ``game``), or a bye (no
    ``second``, no table). A result typed in by the director (a game played without the app)
    is kept here, without a turn log; a withdrawal makes it a forfeit (``absent``)."""

    round = models.ForeignKey(TournamentRound, on_delete=models.CASCADE, related_name="pairings")
    table = models.PositiveSmallIntegerField(null=True, blank=True)
    first = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="pairing"
    )
    first_score = models.IntegerField(null=True, blank=True)  # typed in
    second_score = models.IntegerField(null=True, blank=True)
    absent = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    # A bye's, absence's or forfeit's own spread (a .t file can mix them); None: the event's.
    spread = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["round", "table"]

    def __str__(self) -> str:
        return f"table {self.table}" if self.table else "bye"


class ResultCorrection(models.Model):
    """A director's correction of a result kept on a pairing (typed in, or a forfeit): who
    made it, when, and the result before and after (scores by seat, or the absent player; all
    empty: no result, a voided forfeit). The pairing keeps the result in force."""

    pairing = models.ForeignKey(Pairing, on_delete=models.CASCADE, related_name="corrections")
    by = models.CharField(max_length=150, blank=True)
    at = models.DateTimeField(default=timezone.now)
    first_score_before = models.IntegerField(null=True, blank=True)
    second_score_before = models.IntegerField(null=True, blank=True)
    absent_before = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    first_score_after = models.IntegerField(null=True, blank=True)
    second_score_after = models.IntegerField(null=True, blank=True)
    absent_after = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"correction of {self.pairing} by {self.by or 'a director'}"


class ReplacedGame(models.Model):
    """A table's game taken away before it began (its round taken back, or two players
    swapped): its old scorer link and QR code then say what happened and where the table's
    game is now, instead of "no such game"."""

    class Reason(models.TextChoices):
        TAKEN_BACK = "taken_back", "taken back"
        SWAPPED = "swapped", "swapped"

    game_id = models.UUIDField(primary_key=True)
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="replaced_games"
    )
    round = models.PositiveSmallIntegerField()
    table = models.PositiveSmallIntegerField()
    players = models.JSONField(default=list)  # the names seated there, first first
    reason = models.CharField(max_length=16, choices=Reason.choices)
    at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"round {self.round} table {self.table} ({self.reason})"
