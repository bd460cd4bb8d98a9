"""The API's answers about a club's events: the event, its rounds and pairings, forfeits,
entrants, results and their corrections, its state and standings."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, with_config
from typing_extensions import TypedDict  # pydantic reads TypedDicts from here before 3.12

from scorekeeper.api.schemas.base import TOKEN_EXAMPLE as _TOKEN
from scorekeeper.api.schemas.base import example

_EVENT = {
    "id": 7,
    "name": "Friday night",
    "date": "2026-01-30",
    "ruleset": "upwords-10",
    "lexicon": "TWL06",
    "challenge_mode": "auto",
    "rounds": 3,
    "rounds_paired": 1,
    "players": 8,
    "rejected_challenge": "",
    "clock": {
        "kind": "player", "minutes": 25, "overtime_penalty": 10, "max_overtime_minutes": 10,
        "over_max": "capped",
    },
}  # fmt: skip


@with_config(example(_EVENT))
class TournamentOut(TypedDict):
    """A club's tournament: its games' rules, its rounds, how many are paired, its players."""

    id: int
    name: str
    date: Annotated[str, Field(description="YYYY-MM-DD")]
    ruleset: str
    lexicon: str
    challenge_mode: Annotated[str, Field(description="auto (checked as played) or manual")]
    rounds: int
    rounds_paired: int
    players: Annotated[int, Field(description="how many are entered")]
    rejected_challenge: Annotated[
        str, Field(description="a failed challenge's rule in its games; empty: the ruleset's")
    ]
    clock: Annotated[
        dict[str, Any] | None,
        Field(description="its games' clock rule, as POST /api/games/ takes it; null: none"),
    ]


_PAIRED_GAME = {"id": "0b0a3c3e-7f4c-4b8e-9d7e-2f1d6a1c9b11", "token": _TOKEN}


@with_config(example(_PAIRED_GAME))
class PairedGameOut(TypedDict):
    """A table's game, played through ``/api/games/{id}/`` as any other."""

    id: str
    token: Annotated[str, Field(description="for the director: Authorization: Bearer <token>")]


_PAIRING = {"table": 1, "first": "Ann Archer", "second": "Ben Baker", "game": _PAIRED_GAME}


@with_config(example(_PAIRING))
class PairingOut(TypedDict):
    """One table: who goes first, who second, and the game made for it."""

    table: int
    first: str
    second: str
    game: PairedGameOut | None


@with_config(example({"round": 1, "method": "swiss", "pairings": [_PAIRING], "byes": ["Cy"]}))
class RoundOut(TypedDict):
    """A round just paired: its tables in order, and who has the bye."""

    round: int
    method: str
    pairings: list[PairingOut]
    byes: list[str]


@with_config(example({"round": 2, "games_removed": 4}))
class UnpairedOut(TypedDict):
    """A round taken back before its first turn: its number, and how many games went."""

    round: int
    games_removed: int


_FORFEIT = {"round": 2, "table": 3, "absent": "Ben Baker", "present": "Ann Archer", "spread": 50}


@with_config(example(_FORFEIT))
class ForfeitOut(TypedDict):
    """A forfeit: the absent player loses by ``spread``, the present one wins by it."""

    round: int
    table: int | None
    absent: str
    present: str
    spread: int


_ENTRANT = {"name": "Eve Evans", "rating": 1550, "career_games": 40, "division": "",
            "joined_round": 3, "active": True}  # fmt: skip


@with_config(example(_ENTRANT))
class EntrantOut(TypedDict):
    """A player entered in the event, with the rating and career games they came with."""

    name: str
    rating: Annotated[
        int, Field(description="0: unrated; entered as 0, the one their last event here left")
    ]
    career_games: int
    division: Annotated[str, Field(description="empty in an event of one division")]
    joined_round: Annotated[
        int, Field(description="the first round they are paired in; each before is a loss")
    ]
    active: Annotated[bool, Field(description="false once withdrawn")]


@with_config(example({"name": "Ben Baker", "from_round": 3, "forfeits": [_FORFEIT]}))
class WithdrawalOut(TypedDict):
    """A player withdrawn: not paired from ``from_round`` on; each game of theirs already
    paired and not over became a forfeit win for the opponent."""

    name: str
    from_round: Annotated[int, Field(description="the first round they are not paired in")]
    forfeits: list[ForfeitOut]


_RESULT = {"round": 1, "table": 1, "player1": "Ann Archer", "score1": 412, "player2": "Ben Baker",
           "score2": 377}  # fmt: skip


@with_config(example(_RESULT))
class ResultOut(TypedDict):
    """A result typed in, as stored."""

    round: int
    table: int | None
    player1: str
    score1: int
    player2: str
    score2: int


_CORRECTION = {"by": "dora", "at": "2026-11-27T20:14:05+00:00",
               "before": {"score1": 412, "score2": 377, "absent": None},
               "after": {"score1": 402, "score2": 377, "absent": None}}  # fmt: skip


@with_config(example({"score1": 412, "score2": 377, "absent": None}))
class KeptResultOut(TypedDict):
    """A result kept on a table: the first seat's and second seat's scores, or who was
    absent (a forfeit); all null: no result."""

    score1: int | None
    score2: int | None
    absent: str | None


@with_config(example(_CORRECTION))
class CorrectionOut(TypedDict):
    """A director's correction of a result: who, when, and the result before and after."""

    by: Annotated[str, Field(description="the director's username")]
    at: Annotated[str, Field(description="ISO 8601, UTC")]
    before: KeptResultOut
    after: KeptResultOut


_RESULT_LINE = {"round": 1, "table": 1, "kind": "typed", "player1": "Ann Archer", "score1": 402,
                "player2": "Ben Baker", "score2": 377, "absent": None,
                "corrections": [_CORRECTION]}  # fmt: skip


@with_config(example(_RESULT_LINE))
class ResultLineOut(TypedDict):
    """A table or bye of a round and its result, with the corrections made to it."""

    round: int
    table: int | None
    kind: Annotated[
        str,
        Field(
            description="game (played in the app), typed (scores typed in), forfeit, bye, "
            "absence (a late entry's round before joining), waiting (no result yet)"
        ),
    ]
    player1: Annotated[str, Field(description="seated first; the bye's or absence's player")]
    score1: int | None
    player2: str | None
    score2: int | None
    absent: str | None
    corrections: list[CorrectionOut]


_EVENT_STATE = {"id": 7, "name": "Friday night", "date": "2026-11-27", "archived": False,
                "tonight": True}  # fmt: skip


@with_config(example(_EVENT_STATE))
class EventStateOut(TypedDict):
    """An event's date, whether it is archived, and whether it is tonight's on the club's
    director's screen."""

    id: int
    name: str
    date: Annotated[str, Field(description="YYYY-MM-DD")]
    archived: bool
    tonight: bool


_STANDING = {
    "rank": "1=",
    "name": "Ann Archer",
    "wins": 2.5,
    "losses": 0.5,
    "spread": 212,
    "gibsonized": False,
    "rating_before": 1700,
    "rating_change": 14,
}


@with_config(example(_STANDING))
class StandingOut(TypedDict):
    """One line of the standings, in order: a place shared is shown with "=" ("1=")."""

    rank: str
    name: str
    wins: Annotated[float, Field(description="a draw counts \u00bd")]
    losses: float
    spread: int
    gibsonized: Annotated[bool, Field(description="paired as a clinched leader this round")]
    rating_before: Annotated[int, Field(description="0: unrated")]
    rating_change: int
