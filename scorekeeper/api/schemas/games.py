"""The API's answers about games: the rulesets and word lists, a game, its turns and log, an
analysis, a photo's reading and an import."""

from __future__ import annotations

from typing import Annotated, Any, NotRequired

from pydantic import Field, with_config
from typing_extensions import TypedDict  # pydantic reads TypedDicts from here before 3.12

from scorekeeper.api.schemas.base import TOKEN_EXAMPLE as _TOKEN
from scorekeeper.api.schemas.base import example

# Examples, shared by the schemas that nest them -------------------------------------------------
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
@with_config(example({"id": "upwords-10", "name": "Upwords (10×10)", "size": 10, "tiles": 100,
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
    example(
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
@with_config(example(_WORD))
class WordOut(TypedDict):
    """A word a play formed, with what it scored."""

    word: str
    score: int


@with_config(example(_TILE, {"row": 5, "col": 6, "letter": "e"}))
class TileOut(TypedDict):
    """A tile placed on the board: 0-based row and column, a blank as its lowercase letter."""

    row: int
    col: int
    letter: str


@with_config(example(_TURN))
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


@with_config(example(_PLAYER))
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


@with_config(example(_GAME))
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
    example(
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


@with_config(example({"player": "Ben", "was": 8, "now": 10, "turn": 2}))
class ChangeOut(TypedDict):
    """A score a correction changed: a turn's, or (``turn`` null) a player's total."""

    player: str
    was: int
    now: int
    turn: int | None


@with_config(
    example(
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


@with_config(example({"turns": [_TURN], "next": None}))
class LogPage(TypedDict):
    """A page of a game's log, ascending."""

    turns: list[TurnOut]
    next: Annotated[
        int | None, Field(description="the `after` of the next page; null on the last page")
    ]


# Analysis ---------------------------------------------------------------------------------------
@with_config(example({"word": "EXAM", "score": 14, "breakdown": "(1+8+1+3) + DW… = 14"}))
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


@with_config(example(_PLAY))
class PlayOut(TypedDict):
    """A legal play: its notation, score, tiles (blanks in lowercase) and words."""

    notation: str
    score: int
    tiles: list[TileOut]
    words: list[AnalysisWordOut]


@with_config(
    example(
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
    example(
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
    example(
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
    example(
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
@with_config(example({"name": "Ann", "final_score": 372}))
class ImportedPlayerOut(TypedDict):
    name: str
    final_score: int | None


@with_config(
    example({"line": 4, "text": ">ann: AEINRST 8D RETAINS +60 60", "recorded": 60, "computed": 66})
)
class MismatchOut(TypedDict):
    """A line where the record's score differs from the referee's (the referee's is kept)."""

    line: int
    text: str
    recorded: int | None
    computed: int | None


@with_config(
    example(
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
