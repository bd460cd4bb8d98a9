"""The JSON API: keep score from a second screen, a club's software or a script.

OpenAPI description at ``/api/docs``, with every answer's body (``scorekeeper.api.schemas``). Every
error is JSON ``{"error": {"code", "message"}}``: 400 malformed input, 401/403 missing or wrong
token, 404 unknown game, 409 finished game or stale turn, 413 too large, 422 a play or action
the rules refuse, 429 too many requests, 503 busy. A refused request changes nothing.

A game's answer is its state and its last turn, never its log: the log is read a page at a
time from ``/api/games/{id}/turns/?after=N``.
"""

from __future__ import annotations

import logging
from typing import Annotated, Any, Literal

from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.db import OperationalError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from ninja import Field, NinjaAPI, Query, Schema, Status
from ninja.errors import HttpError, ValidationError
from pydantic import AfterValidator, Strict

from referee import (
    GCG_MAX_SIZE,
    MAX_PLAYERS,
    RULESETS,
    GcgError,
    IllegalPlay,
    InputError,
    get_library,
)
from scorekeeper.api.schemas import (
    ERROR_EXAMPLES,
    AnalysisOut,
    ErrorBody,
    ErrorOut,
    GameOut,
    ImportOut,
    LexiconOut,
    LogPage,
    NewGameOut,
    RulesetOut,
    TurnAnswer,
    ViolationOut,
)
from scorekeeper.api.serialize import LOG_PAGE, game_state, log_page, play_out, turn_answer
from scorekeeper.games import domain
from scorekeeper.games.access import opens
from scorekeeper.games.analysis import (
    DEFAULT_LIMIT,
    MAX_LIMIT,
    analyse,
    cost_units,
    incomplete_note,
)
from scorekeeper.games.turn_kinds import KINDS
from scorekeeper.http.limits import analysis_limit, limited, spend, spend_beyond
from scorekeeper.http.links import link_url
from scorekeeper.http.middleware import (
    bearer_token,
    busy_response,
    database_busy,
    too_large_message,
)
from scorekeeper.http.refusals import REFUSALS, code_of, message_of, retry_after, status_of
from scorekeeper.http.retries import retry_slot
from scorekeeper.models import NAME_MAX, Game, name_key
from scorekeeper.records.gcg_import import import_gcg, nobody

log = logging.getLogger("scorekeeper.api")

api = NinjaAPI(
    title="Scorekeeper API",
    version="1",
    description=__doc__ or "",
    docs_url="/docs",
    urls_namespace="api",
)

Int = Annotated[int, Strict()]


def _storable(text: str) -> str:
    # JSON can carry what no database stores: NUL (PostgreSQL refuses it) and lone
    # surrogates (not UTF-8 at all). Refused here, they are a 400 rather than a 500.
    if "\x00" in text:
        raise ValueError("must not contain a NUL character")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("must be text, without lone surrogates") from None
    return text


# Text that is stored: player names, who entered a turn.
Text = Annotated[str, AfterValidator(_storable)]


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


# Schemas ---------------------------------------------------------------------------------------
class GameIn(Schema):
    ruleset: str = Field(..., examples=["upwords-10"])
    lexicon: str | None = Field(
        None,
        examples=["TWL06"],
        description="a lexicon id, or 'honour'; by default the server's DEFAULT_LEXICON",
    )
    players: list[Text] = Field(
        ...,
        max_length=MAX_PLAYERS,
        examples=[["Ann", "Ben"]],
        description=f"1 to {MAX_PLAYERS} names of at most {NAME_MAX} characters",
    )
    challenge_mode: Literal["auto", "manual"] = "auto"
    options: dict[str, Any] = Field(default_factory=dict)
    first: str | None = Field(None, description="name of the player who starts; default the first")
    turn_clock: Int | None = Field(
        None,
        description=f"seconds per turn shown at the table, {domain.TURN_CLOCK[0]} to "
        f"{domain.TURN_CLOCK[1]}",
    )
    clock: Any = Field(
        None,
        description='the game\'s clock: {"kind": "player", "minutes": 25, "overtime_penalty": '
        '10, "max_overtime_minutes": 10, "over_max": "capped" | "loses"} or {"kind": "turn", '
        '"seconds": 75}; none by default. A turn clock sets turn_clock to its seconds.',
        examples=[{"kind": "player", "minutes": 25}],
    )


class TileIn(Schema):
    row: Int = Field(..., description="0-based from the top")
    col: Int = Field(..., description="0-based from the left")
    letter: str = Field(..., max_length=8, examples=["M", "QU"])


class TurnIn(Schema):
    action: str = Field(..., json_schema_extra={"enum": list(KINDS)})
    tiles: list[TileIn] | None = Field(None, max_length=64)
    notation: str | None = Field(
        None,
        max_length=64,
        description="play: the play as people write it (5D WOOD, G5 L..P, E5=A F5=T), "
        "instead of tiles",
        examples=["8D HOUSE"],
    )
    count: Int | None = Field(
        None, description="exchange (or a correction to an exchange): how many tiles"
    )
    target: Int | None = Field(
        None,
        description="correct: the log entry `number` of the turn to correct (not its `turn`); "
        "give tiles or notation for a play, count for an exchange, neither for a pass",
    )
    racks: dict[str, str] | None = Field(
        None,
        description="finish: letters left on each rack, by player name",
        examples=[{"Ann": "QZ"}],
    )
    expected_turn: Int | None = Field(
        None,
        description="the log entry number this entry will get (the game's `turn_number` + 1, "
        "not its `turn`); 409 if another entry took it first",
    )
    by: Text | None = Field(None, max_length=80, description="who is entering the turn")
    clock_ms: Any = Field(
        None,
        description="a clocked game: every player's clock, remaining milliseconds by seat "
        "order (negative in overtime), as the phone read them; by default worked out from the "
        "last readings and the server's time",
        examples=[[1_380_000, 1_500_000]],
    )
    clock_at: Any = Field(
        None,
        description="when the readings were taken, in milliseconds since 1970 (UTC): not "
        "before the game's last moment nor more than 30 s ahead of the server's time (422)",
    )
    clock: str | None = Field(
        None,
        description="a clock action (action: clock): switch, pause, resume, or start (a clock "
        "waiting for its table)",
    )


# What any route may answer: a wrong method (405), an error of ours (500) or a database out of
# reach (503, a read only when it is still so on a new connection); any route with input,
# malformed input (400). Any POST: too large (413), too many (429), busy (503), and an
# Idempotency-Key still in use (409) or used for another body (422).
ANY = (405, 500, 503)
READ = (400, *ANY)
WRITE = (400, 409, 413, 422, 429, *ANY)


def answers(status: int, body: Any, *refused: int) -> dict[str, Any]:
    """A route's answers for its decorator: its answer's body, and its refusals', all
    ``ErrorOut``, each shown in ``/api/docs`` with an example of its own (the schemas'
    examples, shown here too so that they keep their keys' order)."""
    statuses = sorted(set(refused))
    shown = {s: ERROR_EXAMPLES[s] for s in statuses}
    config = getattr(body, "__pydantic_config__", None)
    if config:
        shown[status] = config["json_schema_extra"]["examples"][0]
    return {
        "response": {status: body, **dict.fromkeys(statuses, ErrorOut)},
        "openapi_extra": {
            "responses": {
                s: {"content": {"application/json": {"example": example}}}
                for s, example in shown.items()
            }  # fmt: skip
        },
    }


def rendered(request: HttpRequest, body: object, status: int = 200) -> HttpResponse:
    """An answer the server built as its declared type (``scorekeeper.api.serialize``, checked by
    mypy against ``scorekeeper.api.schemas``), rendered as it is, since ninja's validating it
    again against the same type would more than double the rendering's cost to check what
    mypy and ``test_api_schemas`` already prove."""
    return api.create_response(request, body, status=status)


# Errors ----------------------------------------------------------------------------------------
def error_response(
    request: HttpRequest,
    status: int,
    code: str,
    message: str,
    *,
    violations: list[ViolationOut] | None = None,
    words: list[str] | None = None,
    line: int | None = None,
) -> HttpResponse:
    error: ErrorBody = {"code": code, "message": message}
    if violations is not None:
        error["violations"] = violations
    if words:
        error["words"] = words
    if line:
        error["line"] = line
    body: ErrorOut = {"error": error}
    response = api.create_response(request, body, status=status)
    response["X-Error-Code"] = code
    return response


@api.exception_handler(ApiError)
def _api_error(request: HttpRequest, exc: ApiError) -> HttpResponse:
    response = error_response(request, exc.status, exc.code, exc.message)
    if exc.status == 401:
        response["WWW-Authenticate"] = "Bearer"
    return response


def _refusal(request: HttpRequest, exc: Exception) -> HttpResponse:
    violations, words, line = None, None, None
    if isinstance(exc, IllegalPlay):
        # Words are only looked up as they are played in auto mode, so naming the invalid ones
        # never gives a tournament-style (manual) challenge away.
        violations = [
            ViolationOut(
                code=v.code,
                rule=v.rule,
                message=v.message,
                squares=list(v.squares),
                words=list(v.words),
            )
            for v in exc.violations
        ]
        words = exc.invalid_words
    if isinstance(exc, GcgError):
        line = exc.line  # the line of a game record (an import) that was refused
    response = error_response(
        request,
        status_of(exc),
        code_of(exc),
        message_of(exc),
        violations=violations,
        words=words,
        line=line,
    )
    wait = retry_after(exc)
    if wait is not None:
        response["Retry-After"] = str(wait)
    return response


for _refused in REFUSALS:
    api.exception_handler(_refused)(_refusal)


@api.exception_handler(Http404)
def _http_404(request: HttpRequest, exc: Http404) -> HttpResponse:
    return error_response(request, 404, "not_found", "Not found.")


@api.exception_handler(ValidationError)
def _validation(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    return error_response(request, 400, "bad_request", _describe(exc.errors))


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    code = "bad_json" if exc.status_code == 400 else "http_error"
    message = "The request body is not valid JSON." if code == "bad_json" else str(exc)
    return error_response(request, exc.status_code, code, message)


@api.exception_handler(RequestDataTooBig)
def _too_large(request: HttpRequest, exc: RequestDataTooBig) -> HttpResponse:
    return error_response(request, 413, "too_large", too_large_message())


@api.exception_handler(SuspiciousOperation)
def _suspicious(request: HttpRequest, exc: SuspiciousOperation) -> HttpResponse:
    return error_response(request, 400, "bad_request", "The request could not be read.")


@api.exception_handler(OperationalError)
def _database(request: HttpRequest, exc: OperationalError) -> HttpResponse:
    return busy_response(request, exc) if database_busy(exc) else _unexpected(request, exc)


@api.exception_handler(Exception)
def _unexpected(request: HttpRequest, exc: Exception) -> HttpResponse:
    log.exception("unexpected error on %s %s", request.method, request.path)
    return error_response(request, 500, "server_error", "Something went wrong on our side.")


def _describe(errors: list[dict[str, Any]]) -> str:
    parts = []
    for error in errors[:3]:
        where = ".".join(str(p) for p in error.get("loc", ()) if p not in ("body", "payload"))
        parts.append(f"{where or 'body'}: {error.get('msg', 'invalid')}")
    return "Malformed request — " + "; ".join(parts) + "."


def authorize(request: HttpRequest, game: Game) -> None:
    if not request.headers.get("Authorization", "").strip():
        raise ApiError(
            401, "unauthorized", "Changing a game needs its token: Authorization: Bearer <token>."
        )
    # Read as retries key it (``bearer_token``): each spelling it takes is one caller.
    token = bearer_token(request)
    if token is None:
        raise ApiError(401, "unauthorized", "Send the token as Authorization: Bearer <token>.")
    if not opens(game, token):
        raise ApiError(403, "forbidden", "That token does not open this game.")


# Endpoints -------------------------------------------------------------------------------------
@api.get(
    "/rulesets",
    **answers(200, list[RulesetOut], *ANY),
    summary="The rulesets the referee knows",
)
def list_rulesets(request: HttpRequest) -> list[RulesetOut]:
    return [
        {
            "id": r.id,
            "name": r.name,
            "size": r.size,
            "tiles": r.total_tiles,
            "scoring": r.scoring,
            "bingo_bonus": r.bingo_bonus,
        }
        for r in RULESETS.values()
    ]


@api.get(
    "/lexicons",
    **answers(200, list[LexiconOut], *ANY),
    summary="The installed dictionaries",
)
def list_lexicons(request: HttpRequest) -> list[LexiconOut]:
    library = get_library()
    lexica = [library.get(info.id) for info in library.infos()]
    listed: list[LexiconOut] = [
        {"id": x.id, "word_count": x.word_count, "checksum": x.checksum} for x in lexica
    ]
    return listed + [{"id": "honour", "word_count": None, "checksum": None}]


@api.post("/games/", **answers(201, NewGameOut, *WRITE), summary="Start a game")
@limited("games")
def create_game(request: HttpRequest, payload: GameIn) -> Status[NewGameOut]:
    game = domain.check_create_game(
        ruleset=payload.ruleset,
        lexicon=payload.lexicon,
        players=payload.players,
        challenge_mode=payload.challenge_mode,
        options=payload.options,
        first=payload.first,
        turn_clock=payload.turn_clock,
        clock=payload.clock,
        retry_slot=retry_slot(request),
    )
    state = game_state(game)
    return Status(201, NewGameOut(**state, token=game.token, scorer_url=link_url(game)))


class AnalysisIn(Schema):
    ruleset: str = Field(..., examples=["crossword-classic"])
    lexicon: str = Field(..., examples=["CSW21"])
    board: list[list[list[Annotated[str, Field(max_length=2)]]]] = Field(
        ...,
        max_length=15,
        description="rows of squares, each its tiles bottom to top; a blank as its lowercase "
        "letter (the game state's format)",
    )
    rack: str = Field(..., max_length=16, examples=["AEINRS?"], description="? is a blank")
    limit: Int | None = Field(
        DEFAULT_LIMIT,
        ge=1,
        le=MAX_LIMIT,
        description=f"how many plays to list, best first; null: up to {MAX_LIMIT}",
    )


@api.post(
    "/analysis/",
    **answers(200, AnalysisOut, *WRITE),
    summary="Every legal play from a position and a rack, best first",
)
@limited("analysis")
def analysis(request: HttpRequest, payload: AnalysisIn) -> dict[str, Any]:
    found = analyse(payload.ruleset, payload.lexicon, payload.board, payload.rack, payload.limit)
    # The rate limit counted this request once; a search that looked at many plays counts more.
    spend(request, analysis_limit(), cost_units(found) - 1)
    answer: dict[str, Any] = {
        "count": found.count,
        "complete": found.complete,
        "plays": [play_out(m) for m in found.moves],
    }
    if not found.complete:
        answer["note"] = incomplete_note(found)
    return answer


class ImportIn(Schema):
    # A game's record is a few kilobytes; the reader's limit keeps any body well under the
    # upload limit.
    gcg: Text = Field(..., max_length=GCG_MAX_SIZE, description="the GCG file's text")
    ruleset: str | None = Field(
        None, description="by default the one the record's title names, else crossword-classic"
    )
    strict: bool = Field(False, description="refuse a record that differs from the rules anywhere")


@api.post(
    "/games/import",
    **answers(201, ImportOut, *WRITE),
    summary="Import a game from a GCG record: every scored line recomputed by the referee",
)
@limited("imports")
def import_game(request: HttpRequest, payload: ImportIn) -> Status[dict[str, object]]:
    # An API caller is known by no account, so it speaks for no player: every name is new.
    imported = import_gcg(
        payload.gcg,
        ruleset=payload.ruleset,
        strict=payload.strict,
        linked=nobody,
        retry_slot=retry_slot(request),
    )
    return Status(201, {**imported.to_dict(), "token": imported.game.token})


@api.get(
    "/games/{game_id}/",
    **answers(200, GameOut, *READ, 404),
    summary="A game's state and its last turn (the log is paged at turns/)",
    description="`turn_number` is the latest log entry's number (every entry counts, undos and "
    "undone turns too: send `expected_turn` = `turn_number` + 1); `turn` is the number of turns "
    "played as players count them on a scoresheet, the number every page shows (undone and "
    "corrected turns, undos, time penalties and the end of the game don't count; a challenge is "
    "no turn of its own: a play an upheld challenge took off is its player's turn, scoring 0, "
    "and the retry the rules may allow is that same turn; a double challenge's lost turn is a "
    "turn). Each log entry has both: `number` and `turn` (null for an entry that is no turn in "
    "effect; a withdrawn play and its retry have the same `turn`).",
)
def get_game(request: HttpRequest, game_id: str) -> HttpResponse:
    answer: GameOut = game_state(domain.fetch_game(game_id))
    return rendered(request, answer)


@api.get(
    "/games/{game_id}/turns/",
    **answers(200, LogPage, *READ, 404),
    summary=f"A page of a game's log: the entries numbered above `after`, at most {LOG_PAGE}",
    description="Each entry has its log entry `number` (every entry, in the order entered) and "
    "its `turn` as players count it (the number every page shows; null for an undo, an undone "
    "or corrected turn, and the end of the game). A correction's `turn` is the turn it "
    "replaced.",
)
def list_turns(
    request: HttpRequest,
    game_id: str,
    after: Annotated[int, Query(ge=0, description="the last entry number already read")] = 0,
    limit: Annotated[int, Query(ge=1, le=LOG_PAGE)] = LOG_PAGE,
) -> HttpResponse:
    answer: LogPage = log_page(domain.fetch_game(game_id), after, limit)
    return rendered(request, answer)


@api.post(
    "/games/{game_id}/turns/",
    **answers(201, TurnAnswer, *WRITE, 401, 403, 404),
    summary="Enter a turn",
)
@limited("turns")
def post_turn(request: HttpRequest, game_id: str, payload: TurnIn) -> HttpResponse:
    racks = None
    if payload.racks is not None:
        game = domain.fetch_game(game_id)
        authorize(request, game)
        seats = {s.player.name_key: s.order for s in game.seats.select_related("player")}
        racks = {}
        for name, letters in payload.racks.items():
            if name_key(name) not in seats:
                raise InputError("bad_rack", f"There is no player called {name!r} in this game.")
            racks[seats[name_key(name)]] = letters
    applied = domain.act(
        game_id,
        domain.TurnCommand(
            payload.action,
            expected_turn=payload.expected_turn,
            by=payload.by or "api",
            notation=payload.notation,
            tiles=[(t.row, t.col, t.letter) for t in payload.tiles] if payload.tiles else None,
            count=payload.count,
            racks=racks,
            target=payload.target,
            allowed=lambda game: authorize(request, game),
            retry_slot=retry_slot(request),
            clock_ms=payload.clock_ms,
            clock_at=payload.clock_at,
            clock=payload.clock,
        ),
    )
    spend_beyond(request, applied.rescored)
    # The state just stored is the state to show: no second trip to the database for it.
    answer: TurnAnswer = turn_answer(
        applied.game, applied.seats, applied.state, applied.turn, applied.changes
    )
    return rendered(request, answer, 201)


@api.get(
    "/games/{game_id}/export",
    **answers(308, None, *READ, 404),
    summary="Where a game's exports are: /games/{id}/export.json and /games/{id}/export.gcg",
)
def export_game(
    request: HttpRequest, game_id: str, format: Literal["json", "gcg"] = "json"
) -> HttpResponse:
    # Each format has one address, the page's; this older address points there.
    game = domain.fetch_game(game_id)
    name = "export_gcg" if format == "gcg" else "export_json"
    return HttpResponseRedirect(reverse(name, args=[game.pk]), status=308)
