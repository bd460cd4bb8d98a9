"""The API's answers as types: each body the JSON API sends, with its fields described and an
example, for ``/api/docs`` and for the code that builds them (``serialize``, ``api``).

They are TypedDicts that pydantic reads: the server builds plain dicts, checked by mypy against
these types, and renders them as they are (a key in the order declared here, a missing
``NotRequired`` key left out, never sent as null). pydantic turns the same types into the
OpenAPI schemas ninja publishes, so what the docs show and what the code builds are one
definition. This module imports only pydantic.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired

from pydantic import ConfigDict, Field, with_config
from typing_extensions import TypedDict  # pydantic reads TypedDicts from here before 3.12


def _example(*examples: Any) -> ConfigDict:
    return ConfigDict(json_schema_extra={"examples": list(examples)})


# Examples, shared by the schemas that nest them -------------------------------------------------
_TOKEN = "mT3o0Q7rX2l9hVb1yK8cZf4WnJ6uA5sD"
_TIME = "2026-01-31T12:00:00.123456+00:00"
_WORD = {"word": "MOOD", "score": 8}
_TILE = {"row": 4, "col": 3, "letter": "M"}
_TURN = {
    "number": 1,
    "turn": 1,
    "player": "Ann",
    "action": "play",
    "score": 8,
    "words": [_WORD],
    "result": None,
    "notation": "5D MOOD",
    "tiles": [
        _TILE,
        {"row": 4, "col": 4, "letter": "O"},
        {"row": 4, "col": 5, "letter": "O"},
        {"row": 4, "col": 6, "letter": "D"},
    ],  # fmt: skip
    "count": 0,
    "target": None,
    "undone": False,
    "undone_at": None,
    "undone_by": None,
    "corrected": False,
    "corrected_at": None,
    "corrected_by": None,
    "created_at": _TIME,
}
_PLAYER = {
    "name": "Ann",
    "score": 8,
    "final_score": None,
    "result": None,
    "rack_count": 7,
    "adjustment": None,
}
_BOARD = [[["MOOD"[c - 3]] if r == 4 and 3 <= c <= 6 else [] for c in range(10)] for r in range(10)]
_GAME = {
    "id": "3f0c6b1e-8d4a-4b7e-9a53-2c1d0e9f8a71",
    "ruleset": "upwords-10",
    "lexicon": "TWL06",
    "lexicon_checksum": "sha256:23d8a85b2ed23125ccc1f6be6f96912b69b38c403387ba8e024422b9bfc254cd",
    "challenge_mode": "auto",
    "options": {
        "plural_s_rule": True,
        "upheld_challenge": "retry",
        "rejected_challenge": "none",
        "solo_exchanges": 0,
        "out_bonus": "sum_of_others",
    },  # fmt: skip
    "turn_clock": None,
    "status": "in_progress",
    "turn_number": 1,
    "turn": 1,
    "to_move": "Ben",
    "players": [_PLAYER, {**_PLAYER, "name": "Ben", "score": 0}],
    "bag_count": 82,
    "board": _BOARD,
    "unseen": {"A": 7, "B": 2, "C": 2, "D": 2, "E": 8},
    "can_challenge": False,
    "last_turn": _TURN,
    "created_at": "2026-01-31T11:58:02.004817+00:00",
    "updated_at": _TIME,
    "finished_at": None,
}


# The lists ------------------------------------------------------------------------------------
@with_config(_example({"id": "upwords-10", "name": "Upwords (10×10)", "size": 10, "tiles": 100,
                       "scoring": "stacked", "bingo_bonus": 20}))  # fmt: skip
class RulesetOut(TypedDict):
    """A ruleset the referee knows: pass its ``id`` as a new game's ``ruleset``."""

    id: str
    name: str
    size: Annotated[int, Field(description="squares on a side of the board")]
    tiles: Annotated[int, Field(description="tiles in the set")]
    scoring: Annotated[str, Field(description="'stacked' (Upwords) or 'premium' (squares)")]
    bingo_bonus: Annotated[int, Field(description="points for playing a whole rack")]


@with_config(
    _example(
        {"id": "CSW21", "word_count": 279077, "checksum": "sha256:2bf71e79…"},
        {"id": "honour", "word_count": None, "checksum": None},
    )
)
class LexiconOut(TypedDict):
    """An installed dictionary; ``honour`` (the honour system, no word list) is always there."""

    id: str
    word_count: Annotated[int | None, Field(description="null for the honour system")]
    checksum: Annotated[str | None, Field(description="null for the honour system")]


# A game ---------------------------------------------------------------------------------------
@with_config(_example(_WORD))
class WordOut(TypedDict):
    """A word a play formed, with what it scored."""

    word: str
    score: int


@with_config(_example(_TILE, {"row": 5, "col": 6, "letter": "e"}))
class TileOut(TypedDict):
    """A tile placed on the board: 0-based row and column, a blank as its lowercase letter."""

    row: int
    col: int
    letter: str


@with_config(_example(_TURN))
class TurnOut(TypedDict):
    """One entry of a game's log."""

    number: Annotated[int, Field(description="the log entry's number: every entry counts")]
    turn: Annotated[
        int | None,
        Field(
            description="the turn as players count it on a scoresheet; null for an undo, an "
            "undone or corrected turn, a challenge (but a double challenge's lost turn), a time "
            "penalty and the end of the game (a correction has the turn it replaced; a play an "
            "upheld challenge took off and its retry have the same)"
        ),
    ]
    player: Annotated[str, Field(description="whose turn it was (a challenge: the challenger)")]
    action: Annotated[
        str,
        Field(
            description="play, pass, exchange, challenge, penalty, undo, finish, correct, "
            "abandon or void"
        ),
    ]
    score: int
    words: list[WordOut]
    result: Annotated[str | None, Field(description="a challenge's verdict: upheld or rejected")]
    notation: Annotated[str, Field(description="a play as people write it; '' for the rest")]
    tiles: list[TileOut]
    count: Annotated[int, Field(description="an exchange: how many tiles")]
    target: Annotated[
        int | None, Field(description="the entry an undo, challenge or correction is about")
    ]
    undone: bool
    undone_at: str | None
    undone_by: str | None
    corrected: bool
    corrected_at: str | None
    corrected_by: str | None
    created_at: Annotated[str, Field(description="ISO 8601, UTC")]
    clock: NotRequired[
        Annotated[
            dict[str, Any],
            Field(
                description="a clocked game only: the clocks after this entry (readings, "
                "running, paused, at; a clock action's action: switch, pause, resume or start)"
            ),
        ]
    ]


@with_config(_example(_PLAYER))
class PlayerOut(TypedDict):
    """A seat at the game, in playing order."""

    name: str
    score: int
    final_score: Annotated[
        int | None, Field(description="the score after the end-of-game adjustments, once over")
    ]
    result: Annotated[str | None, Field(description="win, loss or tie, once the game is over")]
    rack_count: Annotated[int, Field(description="tiles on the rack")]
    adjustment: Annotated[int | None, Field(description="the end-of-game adjustment")]


@with_config(_example(_GAME))
class GameOut(TypedDict):
    """A game's state and its last turn; the log is read a page at a time (``turns/``)."""

    id: str
    ruleset: str
    lexicon: Annotated[str, Field(description="a lexicon id, or 'honour'")]
    lexicon_checksum: Annotated[str, Field(description="the list's checksum; '' for 'honour'")]
    challenge_mode: Annotated[str, Field(description="auto (checked as played) or manual")]
    options: Annotated[dict[str, Any], Field(description="the ruleset's options for this game")]
    turn_clock: Annotated[int | None, Field(description="seconds per turn shown at the table")]
    status: Annotated[
        str, Field(description="in_progress, awaiting_racks, finished, abandoned or void")
    ]
    turn_number: Annotated[
        int,
        Field(description="the latest log entry's number: send expected_turn = turn_number + 1"),
    ]
    turn: Annotated[int, Field(description="turns played, as players count them")]
    to_move: Annotated[str | None, Field(description="whose turn it is; null once over")]
    players: list[PlayerOut]
    bag_count: Annotated[int, Field(description="tiles left in the bag")]
    board: Annotated[
        list[list[list[str]]],
        Field(description="rows of squares, each its tiles bottom to top; a blank in lowercase"),
    ]
    unseen: Annotated[
        dict[str, int], Field(description="tiles off the board (bag and racks), by tile")
    ]
    can_challenge: Annotated[bool, Field(description="whether the last play can be challenged")]
    last_turn: TurnOut | None
    created_at: str
    updated_at: str
    finished_at: str | None
    clock: NotRequired[
        Annotated[
            dict[str, Any],
            Field(
                description="a clocked game only: its rule, the readings (remaining ms by seat "
                "order, negative in overtime), the running seat (null: none), paused, and at "
                "(the readings' moment, epoch ms): a clock now reads its reading less the time "
                "since at, if it runs; waiting: true while a paired game's clock waits for its "
                "table (stopped at full time until a start or the first entry); once the game is "
                "over, lost_on_time: the seats past the maximum overtime where that loses the game"
            ),
        ]
    ]


@with_config(
    _example(
        {
            **_GAME,
            "token": _TOKEN,
            "scorer_url": f"/games/{_GAME['id']}/score/{_TOKEN}/",
        }
    )
)
class NewGameOut(GameOut):
    """A game just started: its state, and the secret that changes it."""

    token: Annotated[str, Field(description="send as Authorization: Bearer <token> to change it")]
    scorer_url: Annotated[str, Field(description="the scorer's page, to hand to another device")]


@with_config(_example({"player": "Ben", "was": 8, "now": 10, "turn": 2}))
class ChangeOut(TypedDict):
    """A score a correction changed: a turn's, or (``turn`` null) a player's total."""

    player: str
    was: int
    now: int
    turn: int | None


@with_config(
    _example(
        {"turn": _TURN, "game": _GAME},
        {
            "turn": {**_TURN, "number": 6, "action": "correct", "target": 2},
            "game": _GAME,
            "changes": [
                {"player": "Ben", "was": 8, "now": 10, "turn": 2},
                {"player": "Ben", "was": 13, "now": 15, "turn": None},
            ],
        },
    )
)
class TurnAnswer(TypedDict):
    """A turn entered: the log entry it made, and the game's state after it."""

    turn: TurnOut
    game: GameOut
    changes: NotRequired[
        Annotated[list[ChangeOut], Field(description="a correction only: every score it changed")]
    ]


@with_config(_example({"turns": [_TURN], "next": None}))
class LogPage(TypedDict):
    """A page of a game's log, ascending."""

    turns: list[TurnOut]
    next: Annotated[
        int | None, Field(description="the `after` of the next page; null on the last page")
    ]


# Analysis ---------------------------------------------------------------------------------------
@with_config(_example({"word": "EXAM", "score": 14, "breakdown": "(1+8+1+3) + DW… = 14"}))
class AnalysisWordOut(TypedDict):
    """A word a possible play forms, with how it scores."""

    word: str
    score: int
    breakdown: Annotated[str, Field(description="the score worked out, as people check it")]


_PLAY = {
    "notation": "H8 .XAM",
    "score": 14,
    "tiles": [
        {"row": 8, "col": 7, "letter": "X"},
        {"row": 9, "col": 7, "letter": "A"},
        {"row": 10, "col": 7, "letter": "M"},
    ],  # fmt: skip
    "words": [{"word": "EXAM", "score": 14, "breakdown": "E1 + X8 + A1 + M3 = 13, + 1 = 14"}],
}


@with_config(_example(_PLAY))
class PlayOut(TypedDict):
    """A legal play: its notation, score, tiles (blanks in lowercase) and words."""

    notation: str
    score: int
    tiles: list[TileOut]
    words: list[AnalysisWordOut]


@with_config(
    _example(
        {"count": 44, "complete": True, "plays": [_PLAY]},
        {
            "count": 10,
            "complete": False,
            "plays": [_PLAY],
            "note": "More than 10 plays: these are the best of the first 10 found. Give a blank "
            "as the letter it stands for, or fewer tiles, to see them all.",
        },
    )
)
class AnalysisOut(TypedDict):
    """The legal plays from a position and a rack, best first."""

    count: Annotated[int, Field(description="how many legal plays were found")]
    complete: Annotated[bool, Field(description="false: the search stopped at its budget")]
    plays: list[PlayOut]
    note: NotRequired[Annotated[str, Field(description="only when the search was cut short")]]


# Photos -----------------------------------------------------------------------------------------
_SQUARES_EXAMPLE = [["", "", "Q", "U", "I", "Z", "", ""]] + [[""] * 8] * 7


@with_config(
    _example(
        {
            "squares": _SQUARES_EXAMPLE,
            "confidence": [[0.99] * 8] * 8,
            "corners": [[212.0, 301.5], [1130.2, 347.9], [1086.9, 1285.2], [180.1, 1190.0]],
        }
    )
)
class BoardReadingOut(TypedDict):
    """A board read from a photo, row by row from the top as the board reads upright."""

    squares: Annotated[
        list[list[str]],
        Field(description='each square\'s letter, "" when empty, "?" a blank showing no letter'),
    ]
    confidence: Annotated[
        list[list[float]], Field(description="how sure the reading of each square is, 0 to 1")
    ]
    corners: Annotated[
        list[list[float]],
        Field(
            description="the grid's corners in the photo, [x, y] pixels: top left, top "
            "right, bottom right, bottom left of the board as read"
        ),
    ]


@with_config(
    _example(
        {
            "notation": "8G QUIZ",
            "score": 66,
            "agreement": 0.996,
            "likelihood": 31.2,
            "tiles": [{"row": 7, "col": 6, "letter": "Q"}],
        }
    )
)
class PhotoPlayOut(TypedDict):
    """A legal play the photo may show."""

    notation: str
    score: int
    tiles: list[TileOut]
    agreement: Annotated[
        float,
        Field(
            description="the share of the board's squares that read as they would after "
            "this play, 0 to 1"
        ),
    ]
    likelihood: Annotated[
        float,
        Field(
            description="how much likelier the photo is with this play made than with "
            "none (a log-chance): the plays are ranked by it"
        ),
    ]


@with_config(
    _example(
        {
            "plays": [
                {
                    "notation": "8D QUIZ",
                    "score": 66,
                    "tiles": [
                        {"row": 7, "col": 3, "letter": "Q"},
                        {"row": 7, "col": 4, "letter": "U"},
                        {"row": 7, "col": 5, "letter": "I"},
                        {"row": 7, "col": 6, "letter": "Z"},
                    ],
                    "agreement": 1.0,
                    "likelihood": 31.2,
                }
            ],
            "changed": ["D8", "E8", "F8", "G8"],
            "unread": [],
            "complete": True,
            "reading": {
                "squares": [[""] * 15] * 7 + [[""] * 3 + list("QUIZ") + [""] * 8] + [[""] * 15] * 7,
                "confidence": [[0.99] * 15] * 15,
                "corners": [[212.0, 301.5], [1130.2, 347.9], [1086.9, 1285.2], [180.1, 1190.0]],
            },
        }
    )
)
class PhotoPlaysOut(TypedDict):
    """The legal plays from the game's position that the photo may show, likeliest first."""

    plays: list[PhotoPlayOut]
    changed: Annotated[list[str], Field(description="the squares that read as changed")]
    unread: Annotated[
        list[str],
        Field(
            description="squares whose reading disagrees with the first play (misread, or "
            "the play differs there)"
        ),
    ]
    complete: Annotated[bool, Field(description="false: a search stopped at its budget")]
    reading: BoardReadingOut


# Import -----------------------------------------------------------------------------------------
@with_config(_example({"name": "Ann", "final_score": 372}))
class ImportedPlayerOut(TypedDict):
    name: str
    final_score: int | None


@with_config(
    _example({"line": 4, "text": ">ann: AEINRST 8D RETAINS +60 60", "recorded": 60, "computed": 66})
)
class MismatchOut(TypedDict):
    """A line where the record's score differs from the referee's (the referee's is kept)."""

    line: int
    text: str
    recorded: int | None
    computed: int | None


@with_config(
    _example(
        {
            "id": "3f0c6b1e-8d4a-4b7e-9a53-2c1d0e9f8a71",
            "ruleset": "crossword-classic",
            "players": [{"name": "Ann", "final_score": 372}, {"name": "Bo", "final_score": 341}],
            "mismatches": [],
            "token": _TOKEN,
        }
    )
)
class ImportOut(TypedDict):
    """A game imported from a GCG record."""

    id: str
    ruleset: str
    players: list[ImportedPlayerOut]
    mismatches: list[MismatchOut]
    token: Annotated[str, Field(description="send as Authorization: Bearer <token> to change it")]


# Errors -----------------------------------------------------------------------------------------
_VIOLATION = {
    "code": "invalid_word",
    "rule": "2.5",
    "message": "MOOX is not in TWL06.",
    "squares": ["D5", "E5", "F5", "G5"],
    "words": ["MOOX"],
}


@with_config(_example(_VIOLATION))
class ViolationOut(TypedDict):
    """One rule a refused play broke."""

    code: str
    rule: Annotated[str, Field(description="the rule's section in RULES.md")]
    message: str
    squares: list[str]
    words: list[str]


@with_config(
    _example(
        {"code": "forbidden", "message": "That token does not open this game."},
        {"code": "game_over", "message": "This game has finished."},
    )
)
class ErrorBody(TypedDict):
    """What was refused, and why, in a sentence for people."""

    code: Annotated[str, Field(description="for programs: bad_request, not_found, stale_turn, …")]
    message: str
    violations: NotRequired[
        Annotated[list[ViolationOut], Field(description="a refused play: every rule it broke")]
    ]
    words: NotRequired[
        Annotated[list[str], Field(description="a refused play, checked as played: bad words")]
    ]
    line: NotRequired[Annotated[int, Field(description="a refused import: the record's line")]]


# A club's tournament -----------------------------------------------------------------------------
@with_config(_example({"slug": "riverside", "name": "Riverside"}))
class ClubOut(TypedDict):
    """A club just made: its address on the site and the API (``/clubs/<slug>/``)."""

    slug: str
    name: str


_CLUB_RULES = {
    "ruleset": "upwords-10",
    "lexicon": "TWL06",
    "challenge_mode": "manual",
    "rejected_challenge": "",
    "clock": {"kind": "turn", "seconds": 75},
}


@with_config(_example(_CLUB_RULES))
class ClubRulesOut(TypedDict):
    """A club's usual rules, which pre-fill its new games and events ("": none kept)."""

    ruleset: str
    lexicon: str
    challenge_mode: Annotated[str, Field(description="auto, manual, or empty")]
    rejected_challenge: Annotated[str, Field(description="a failed challenge's rule, or empty")]
    clock: Annotated[
        dict[str, Any] | None,
        Field(description="a clock rule as POST /api/games/ takes it; null: none"),
    ]


@with_config(
    _example(
        {"slug": "riverside", "name": "Riverside", "directors": ["ann", "dora"],
         "rules": _CLUB_RULES}
    )
)  # fmt: skip
class ClubSettingsOut(TypedDict):
    """A club's settings: its address, name, directors (usernames) and usual rules."""

    slug: str
    name: str
    directors: list[str]
    rules: ClubRulesOut


@with_config(
    _example(
        {"id": 7, "club": "riverside", "club_name": "Riverside", "username": "ann-k3x9",
         "invited_by": "dora", "state": "invited"}
    )
)  # fmt: skip
class DirectorInvitationOut(TypedDict):
    """An invitation to direct a club, waiting for its account to accept or decline
    ("invited"), or just declined."""

    id: int
    club: str
    club_name: str
    username: str
    invited_by: str | None
    state: Literal["invited", "declined"]


@with_config(_example({"was": "Ann Archer", "name": "Ann Archer-Lee"}))
class RenamedOut(TypedDict):
    """A roster player renamed: their name before and now."""

    was: str
    name: str


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


@with_config(_example(_EVENT))
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


@with_config(_example(_PAIRED_GAME))
class PairedGameOut(TypedDict):
    """A table's game, played through ``/api/games/{id}/`` as any other."""

    id: str
    token: Annotated[str, Field(description="for the director: Authorization: Bearer <token>")]


_PAIRING = {"table": 1, "first": "Ann Archer", "second": "Ben Baker", "game": _PAIRED_GAME}


@with_config(_example(_PAIRING))
class PairingOut(TypedDict):
    """One table: who goes first, who second, and the game made for it."""

    table: int
    first: str
    second: str
    game: PairedGameOut | None


@with_config(_example({"round": 1, "method": "swiss", "pairings": [_PAIRING], "byes": ["Cy"]}))
class RoundOut(TypedDict):
    """A round just paired: its tables in order, and who has the bye."""

    round: int
    method: str
    pairings: list[PairingOut]
    byes: list[str]


@with_config(_example({"round": 2, "games_removed": 4}))
class UnpairedOut(TypedDict):
    """A round taken back before its first turn: its number, and how many games went."""

    round: int
    games_removed: int


_FORFEIT = {"round": 2, "table": 3, "absent": "Ben Baker", "present": "Ann Archer", "spread": 50}


@with_config(_example(_FORFEIT))
class ForfeitOut(TypedDict):
    """A forfeit: the absent player loses by ``spread``, the present one wins by it."""

    round: int
    table: int | None
    absent: str
    present: str
    spread: int


_ENTRANT = {"name": "Eve Evans", "rating": 1550, "career_games": 40, "division": "",
            "joined_round": 3, "active": True}  # fmt: skip


@with_config(_example(_ENTRANT))
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


@with_config(_example({"name": "Ben Baker", "from_round": 3, "forfeits": [_FORFEIT]}))
class WithdrawalOut(TypedDict):
    """A player withdrawn: not paired from ``from_round`` on; each game of theirs already
    paired and not over became a forfeit win for the opponent."""

    name: str
    from_round: Annotated[int, Field(description="the first round they are not paired in")]
    forfeits: list[ForfeitOut]


_RESULT = {"round": 1, "table": 1, "player1": "Ann Archer", "score1": 412, "player2": "Ben Baker",
           "score2": 377}  # fmt: skip


@with_config(_example(_RESULT))
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


@with_config(_example({"score1": 412, "score2": 377, "absent": None}))
class KeptResultOut(TypedDict):
    """A result kept on a table: the first seat's and second seat's scores, or who was
    absent (a forfeit); all null: no result."""

    score1: int | None
    score2: int | None
    absent: str | None


@with_config(_example(_CORRECTION))
class CorrectionOut(TypedDict):
    """A director's correction of a result: who, when, and the result before and after."""

    by: Annotated[str, Field(description="the director's username")]
    at: Annotated[str, Field(description="ISO 8601, UTC")]
    before: KeptResultOut
    after: KeptResultOut


_RESULT_LINE = {"round": 1, "table": 1, "kind": "typed", "player1": "Ann Archer", "score1": 402,
                "player2": "Ben Baker", "score2": 377, "absent": None,
                "corrections": [_CORRECTION]}  # fmt: skip


@with_config(_example(_RESULT_LINE))
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


@with_config(_example(_EVENT_STATE))
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


@with_config(_example(_STANDING))
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


def _refused(code: str, message: str, **more: Any) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, **more}}


# One refusal of each status, as ``/api/docs`` shows them.
ERROR_EXAMPLES: dict[int, dict[str, Any]] = {
    400: _refused("bad_request", "Malformed request — players: Field required."),
    401: _refused(
        "unauthorized", "Changing a game needs its token: Authorization: Bearer <token>."
    ),
    403: _refused("forbidden", "That token does not open this game."),
    404: _refused("not_found", "There is no game with that id."),
    405: _refused("method_not_allowed", "Use GET here."),
    409: _refused(
        "stale_turn",
        "Log entry #1 can't be next: the log is at entry #1, perhaps from another device. "
        "Reload to see it.",
    ),
    413: _refused("too_large", "The request body is too large: at most 2.5 MB."),
    422: _refused(
        "invalid_word",
        "MOOX is not in TWL06.",
        violations=[_VIOLATION],
        words=["MOOX"],
    ),
    429: _refused(
        "rate_limited", "Too many turns from this device: at most 120 a minute. Try again in 31 s."
    ),
    500: _refused("server_error", "Something went wrong on our side."),
    501: _refused(
        "no_camera_support",
        "This server reads no photos: its camera support (the photo extra: OpenCV and "
        "onnxruntime) is not installed.",
    ),
    503: _refused(
        "database_busy", "The database is busy: nothing was entered. Try again in a moment."
    ),
}


@with_config(_example(ERROR_EXAMPLES[404], ERROR_EXAMPLES[422]))
class ErrorOut(TypedDict):
    """Every refusal: 400 malformed input, 401/403 missing or wrong token, 404 unknown game,
    409 stale turn or finished game, 413 too large, 422 refused by the rules, 429 too many
    requests and 503 busy (both with Retry-After). A refused request changes nothing."""

    error: ErrorBody
