"""The API's refusals: the error body, and one example of each status for ``/api/docs``."""

from __future__ import annotations

from typing import Annotated, Any, NotRequired

from pydantic import Field, with_config
from typing_extensions import TypedDict  # pydantic reads TypedDicts from here before 3.12

from scorekeeper.api.schemas.base import example

# Errors -----------------------------------------------------------------------------------------
_VIOLATION = {
    "code": "invalid_word",
    "rule": "2.5",
    "message": "MOOX is not in TWL06.",
    "squares": ["D5", "E5", "F5", "G5"],
    "words": ["MOOX"],
}


@with_config(example(_VIOLATION))
class ViolationOut(TypedDict):
    """One rule a refused play broke."""

    code: str
    rule: Annotated[str, Field(description="the rule's section in RULES.md")]
    message: str
    squares: list[str]
    words: list[str]


@with_config(
    example(
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


@with_config(example(ERROR_EXAMPLES[404], ERROR_EXAMPLES[422]))
class ErrorOut(TypedDict):
    """Every refusal: 400 malformed input, 401/403 missing or wrong token, 404 unknown game,
    409 stale turn or finished game, 413 too large, 422 refused by the rules, 429 too many
    requests and 503 busy (both with Retry-After). A refused request changes nothing."""

    error: ErrorBody
