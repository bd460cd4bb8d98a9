"""A club's events: entrants, rounds, pairings, corrected results and replaced games."""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from scorekeeper.models.clubs import Club
from scorekeeper.models.games import Game, known_ruleset
from scorekeeper.models.people import Player


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
