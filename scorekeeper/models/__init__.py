"""The app's tables, by subject: ``people`` (players, accounts' API tokens), ``clubs`` (clubs and
their invitations), ``games`` (games, seats, the turn log, checkpoints), ``events`` (a club's
events: entrants, rounds, pairings) and ``http`` (rate-limit counts and kept answers, not game
state). One app label, ``scorekeeper``: every model is named here, so
``from scorekeeper.models import Game`` is the one way in.
"""

from scorekeeper.models.clubs import Club, DirectorInvitation, Invitation, clubs_of
from scorekeeper.models.events import (
    Entrant,
    Pairing,
    ReplacedGame,
    ResultCorrection,
    Tournament,
    TournamentRound,
)
from scorekeeper.models.games import (
    TAKING_BACK,
    Checkpoint,
    Game,
    Seat,
    Turn,
    TurnQuerySet,
    known_ruleset,
    new_token,
)
from scorekeeper.models.http import KeptAnswer, RateCount
from scorekeeper.models.people import (
    COMBINING_RUN,
    NAME_MAX,
    AccountToken,
    Player,
    name_key,
    name_problem,
)

__all__ = [
    "COMBINING_RUN",
    "NAME_MAX",
    "TAKING_BACK",
    "AccountToken",
    "Checkpoint",
    "Club",
    "DirectorInvitation",
    "Entrant",
    "Game",
    "Invitation",
    "KeptAnswer",
    "Pairing",
    "Player",
    "RateCount",
    "ReplacedGame",
    "ResultCorrection",
    "Seat",
    "Tournament",
    "TournamentRound",
    "Turn",
    "TurnQuerySet",
    "clubs_of",
    "known_ruleset",
    "name_key",
    "name_problem",
    "new_token",
]
