"""The JSON API: keep score from a second screen, a club's software or a script.

OpenAPI description at ``/api/docs``. Every error is JSON ``{"error": {"code", "message"}}``:
400 malformed input, 401/403 missing or wrong token, 404 unknown game, 409 finished game or
stale turn, 422 a play or action the rules refuse. A refused request changes nothing.
"""

from __future__ import annotations

import hmac
import logging
import uuid
from typing import Annotated, Any, Literal

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.http import Http404, HttpRequest, HttpResponse
from ninja import Field, NinjaAPI, Schema, Status
from ninja.errors import HttpError, ValidationError
from pydantic import AfterValidator, Strict

from referee.apps import get_library
from referee.errors import GameOver, IllegalAction, IllegalPlay, InputError, RefereeError
from referee.rulesets import RULESETS
from scorekeeper import domain, records
from scorekeeper.gcg import game_to_gcg
from scorekeeper.models import Game, name_key
from scorekeeper.serialize import game_state, turn_data

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
    lexicon: str = Field("CSW19", examples=["TWL06"], description="a lexicon id, or 'honour'")
    players: list[Text] = Field(..., max_length=4, examples=[["Ann", "Ben"]])
    challenge_mode: Literal["auto", "manual"] = "auto"
    options: dict[str, Any] = Field(default_factory=dict)
    first: str | None = Field(None, description="name of the player who starts; default the first")
    turn_clock: Int | None = Field(None, description="seconds per turn shown at the table")


class TileIn(Schema):
    row: Int = Field(..., description="0-based from the top")
    col: Int = Field(..., description="0-based from the left")
    letter: str = Field(..., max_length=8, examples=["M", "QU"])


class TurnIn(Schema):
    action: Literal["play", "pass", "exchange", "challenge", "undo", "finish"]
    tiles: list[TileIn] | None = Field(None, max_length=64)
    count: Int | None = Field(None, description="exchange: how many tiles")
    racks: dict[str, str] | None = Field(
        None,
        description="finish: letters left on each rack, by player name",
        examples=[{"Ann": "QZ"}],
    )
    expected_turn: Int | None = Field(
        None, description="the number this turn will get; 409 if another turn took it first"
    )
    by: Text | None = Field(None, max_length=80, description="who is entering the turn")


class ErrorBody(Schema):
    code: str
    message: str


class ErrorOut(Schema):
    error: ErrorBody


ERRORS: dict[int, type[Schema]] = {code: ErrorOut for code in (400, 401, 403, 404, 409, 422)}


# Errors ----------------------------------------------------------------------------------------
def error_response(
    request: HttpRequest, status: int, code: str, message: str, **extra: Any
) -> HttpResponse:
    response = api.create_response(
        request, {"error": {"code": code, "message": message, **extra}}, status=status
    )
    response["X-Error-Code"] = code
    return response


@api.exception_handler(ApiError)
def _api_error(request: HttpRequest, exc: ApiError) -> HttpResponse:
    response = error_response(request, exc.status, exc.code, exc.message)
    if exc.status == 401:
        response["WWW-Authenticate"] = "Bearer"
    return response


@api.exception_handler(InputError)
def _input_error(request: HttpRequest, exc: InputError) -> HttpResponse:
    return error_response(request, 400, exc.code, exc.message)


@api.exception_handler(IllegalPlay)
def _illegal_play(request: HttpRequest, exc: IllegalPlay) -> HttpResponse:
    # Words are only looked up as they are played in auto mode, so naming the invalid ones
    # never gives a tournament-style (manual) challenge away.
    extra: dict[str, Any] = {"violations": [v.to_dict() for v in exc.violations]}
    if exc.invalid_words:
        extra["words"] = exc.invalid_words
    return error_response(request, 422, exc.code, exc.message, **extra)


@api.exception_handler(GameOver)
def _game_over(request: HttpRequest, exc: GameOver) -> HttpResponse:
    return error_response(request, 409, exc.code, exc.message)


@api.exception_handler(domain.StaleTurn)
def _stale(request: HttpRequest, exc: domain.StaleTurn) -> HttpResponse:
    return error_response(request, 409, exc.code, exc.message)


@api.exception_handler(IllegalAction)
def _illegal_action(request: HttpRequest, exc: IllegalAction) -> HttpResponse:
    return error_response(request, 422, exc.code, exc.message)


@api.exception_handler(RefereeError)
def _referee_error(request: HttpRequest, exc: RefereeError) -> HttpResponse:
    return error_response(request, 400, exc.code, exc.message)


@api.exception_handler(domain.GameNotFound)
def _not_found(request: HttpRequest, exc: Exception) -> HttpResponse:
    return error_response(request, 404, "not_found", "There is no game with that id.")


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
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE / (1024 * 1024)
    return error_response(
        request, 413, "too_large", f"The request body is too large: at most {limit:g} MB."
    )


@api.exception_handler(SuspiciousOperation)
def _suspicious(request: HttpRequest, exc: SuspiciousOperation) -> HttpResponse:
    return error_response(request, 400, "bad_request", "The request could not be read.")


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


def _uuid_or_none(value: str) -> str | None:
    try:
        return str(uuid.UUID(str(value)))
    except ValueError:
        return None


def _game(game_id: str) -> Game:
    pk = _uuid_or_none(game_id)
    game = Game.objects.filter(pk=pk).first() if pk else None
    if game is None:
        raise domain.GameNotFound(game_id)
    return game


def _authorize(request: HttpRequest, game: Game) -> None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if not header:
        raise ApiError(
            401, "unauthorized", "Changing a game needs its token: Authorization: Bearer <token>."
        )
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "unauthorized", "Send the token as Authorization: Bearer <token>.")
    # Compared in constant time, so the token can't be guessed a character at a time.
    if not hmac.compare_digest(token.strip().encode(), game.token.encode()):
        raise ApiError(403, "forbidden", "That token does not open this game.")


# Endpoints -------------------------------------------------------------------------------------
@api.get("/rulesets", summary="The rulesets the referee knows")
def list_rulesets(request: HttpRequest) -> list[dict[str, Any]]:
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


@api.get("/lexicons", summary="The installed dictionaries")
def list_lexicons(request: HttpRequest) -> list[dict[str, Any]]:
    library = get_library()
    lexica = [library.get(info.id) for info in library.infos()]
    return [{"id": x.id, "word_count": x.word_count, "checksum": x.checksum} for x in lexica] + [
        {"id": "honour", "word_count": None, "checksum": None}
    ]


@api.post("/games/", response={201: dict, **ERRORS}, summary="Start a game")
def create_game(request: HttpRequest, payload: GameIn) -> Status[dict[str, Any]]:
    first = 0
    if payload.first is not None:
        names = [name_key(n) for n in payload.players if isinstance(n, str)]
        if name_key(payload.first) not in names:
            raise InputError("bad_first", "The first player must be one of the players.")
        first = names.index(name_key(payload.first))
    game = domain.create_game(
        ruleset=payload.ruleset,
        lexicon=payload.lexicon,
        players=payload.players,
        challenge_mode=payload.challenge_mode,
        options=payload.options,
        first=first,
        turn_clock=payload.turn_clock,
    )
    return Status(201, {**game_state(game), "token": game.token})


@api.get("/games/{game_id}/", response={200: dict, **ERRORS}, summary="A game's state and log")
def get_game(request: HttpRequest, game_id: str) -> dict[str, Any]:
    return game_state(_game(game_id))


@api.post("/games/{game_id}/turns/", response={201: dict, **ERRORS}, summary="Enter a turn")
def post_turn(request: HttpRequest, game_id: str, payload: TurnIn) -> Status[dict[str, Any]]:
    game = _game(game_id)
    _authorize(request, game)
    racks = None
    if payload.racks is not None:
        seats = {s.player.name_key: s.order for s in game.seats.select_related("player")}
        racks = {}
        for name, letters in payload.racks.items():
            if name_key(name) not in seats:
                raise InputError("bad_rack", f"There is no player called {name!r} in this game.")
            racks[seats[name_key(name)]] = letters
    applied = domain.act(
        game.pk,
        payload.action,
        expected_turn=payload.expected_turn,
        by=payload.by or "api",
        tiles=[(t.row, t.col, t.letter) for t in payload.tiles] if payload.tiles else None,
        count=payload.count,
        racks=racks,
    )
    # The state just stored is the state to show: no second trip to the database for it.
    state = game_state(applied.game, seats=applied.seats, state=applied.state)
    return Status(201, {"turn": turn_data(applied.turn), "game": state})


@api.get(
    "/games/{game_id}/export",
    response={200: dict, **ERRORS},
    # GCG is plain text; the JSON record is the 200's default.
    openapi_extra={"responses": {200: {"content": {"text/plain": {"schema": {"type": "string"}}}}}},
    summary="Export a game (lossless JSON, or GCG for Letter UP)",
)
def export_game(
    request: HttpRequest, game_id: str, format: Literal["json", "gcg"] = "json"
) -> HttpResponse:
    game = _game(game_id)
    if format == "gcg":
        text = game_to_gcg(game)
        response = HttpResponse(text, content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{game.pk}.gcg"'
        return response
    return api.create_response(request, records.export_game(game), status=200)
