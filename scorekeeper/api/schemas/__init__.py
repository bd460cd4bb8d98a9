"""The API's answers as types: each body the JSON API sends, with its fields described and an
example, for ``/api/docs`` and for the code that builds them (``serialize``, ``api``).

They are TypedDicts that pydantic reads: the server builds plain dicts, checked by mypy against
these types, and renders them as they are (a key in the order declared here, a missing
``NotRequired`` key left out, never sent as null). pydantic turns the same types into the
OpenAPI schemas ninja publishes, so what the docs show and what the code builds are one
definition. The package imports only pydantic.

The types are written by subject (``games``, ``clubs``, ``events``, ``errors``) and named here,
so ``from scorekeeper.api.schemas import GameOut`` is the one way in.
"""

from scorekeeper.api.schemas.clubs import (
    ClubOut,
    ClubRulesOut,
    ClubSettingsOut,
    DirectorInvitationOut,
    RenamedOut,
)
from scorekeeper.api.schemas.errors import (
    ERROR_EXAMPLES,
    ErrorBody,
    ErrorOut,
    ViolationOut,
)
from scorekeeper.api.schemas.events import (
    CorrectionOut,
    EntrantOut,
    EventStateOut,
    ForfeitOut,
    KeptResultOut,
    PairedGameOut,
    PairingOut,
    ResultLineOut,
    ResultOut,
    RoundOut,
    StandingOut,
    TournamentOut,
    UnpairedOut,
    WithdrawalOut,
)
from scorekeeper.api.schemas.games import (
    AnalysisOut,
    AnalysisWordOut,
    BoardReadingOut,
    ChangeOut,
    GameOut,
    ImportedPlayerOut,
    ImportOut,
    LexiconOut,
    LogPage,
    MismatchOut,
    NewGameOut,
    PhotoPlayOut,
    PhotoPlaysOut,
    PlayerOut,
    PlayOut,
    RulesetOut,
    TileOut,
    TurnAnswer,
    TurnOut,
    WordOut,
)

__all__ = [
    "ERROR_EXAMPLES",
    "AnalysisOut",
    "AnalysisWordOut",
    "BoardReadingOut",
    "ChangeOut",
    "ClubOut",
    "ClubRulesOut",
    "ClubSettingsOut",
    "CorrectionOut",
    "DirectorInvitationOut",
    "EntrantOut",
    "ErrorBody",
    "ErrorOut",
    "EventStateOut",
    "ForfeitOut",
    "GameOut",
    "ImportOut",
    "ImportedPlayerOut",
    "KeptResultOut",
    "LexiconOut",
    "LogPage",
    "MismatchOut",
    "NewGameOut",
    "PairedGameOut",
    "PairingOut",
    "PhotoPlayOut",
    "PhotoPlaysOut",
    "PlayOut",
    "PlayerOut",
    "RenamedOut",
    "ResultLineOut",
    "ResultOut",
    "RoundOut",
    "RulesetOut",
    "StandingOut",
    "TileOut",
    "TournamentOut",
    "TurnAnswer",
    "TurnOut",
    "UnpairedOut",
    "ViolationOut",
    "WithdrawalOut",
    "WordOut",
]
