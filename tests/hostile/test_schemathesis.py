"""Schemathesis against the API's own OpenAPI description, through the WSGI application.

Every operation gets cases that fit the schema (positive) and cases that break it (negative).
Some cases are pointed at real games, with their token, so the generated bodies get past the
404 and 401 answers to the rules themselves. Each case runs in a savepoint rolled back after it.

Checks: ``not_a_server_error``; ``response_schema_conformance`` (errors are ``ErrorOut``);
``negative_data_rejection`` (a case that breaks the schema is refused with a 4xx);
``content_type_conformance`` and ``status_code_conformance`` (every answer is one the
description lists). Left out: ``positive_data_acceptance``, because the schema can't say which
strings name a ruleset, a lexicon or a game, so schema-valid cases are rightly refused with 400
or 404; and the authentication checks, because the description declares no security scheme
(the token is checked by the operation itself).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.db import close_old_connections
from hypothesis import given, settings
from hypothesis import strategies as st
from schemathesis import APIOperation, GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from config.wsgi import application
from scorekeeper.live.hub import hub
from tests.hostile.clients import (
    HOSTILE,
    TALLY,
    api_error,
    assert_game_created,
    assert_turn_entered,
    rolled_back,
    snapshot,
)

pytestmark = pytest.mark.django_db

# The operations the description lists (``operations`` checks it), named here so that the
# tests can be listed without a request: importing a test module sends none.
OPERATIONS = [
    "DELETE /api/tournaments/{tournament_id}",
    "DELETE /api/tournaments/{tournament_id}/rounds/{number}",
    "GET /api/clubs/{slug}/settings",
    "GET /api/clubs/{slug}/tournaments/",
    "GET /api/director-invitations/",
    "GET /api/games/{game_id}/",
    "GET /api/games/{game_id}/export",
    "GET /api/games/{game_id}/turns/",
    "GET /api/lexicons",
    "GET /api/rulesets",
    "GET /api/tournaments/{tournament_id}/export.t",
    "GET /api/tournaments/{tournament_id}/results/",
    "GET /api/tournaments/{tournament_id}/standings",
    "GET /api/tournaments/{tournament_id}/standings.csv",
    "PATCH /api/tournaments/{tournament_id}",
    "POST /api/analysis/",
    "POST /api/boards/read",
    "POST /api/clubs/",
    "POST /api/clubs/{slug}/directors/",
    "POST /api/clubs/{slug}/directors/step-down",
    "POST /api/clubs/{slug}/name",
    "POST /api/clubs/{slug}/players/rename",
    "POST /api/clubs/{slug}/tournaments/",
    "POST /api/clubs/{slug}/tournaments/import",
    "POST /api/director-invitations/{invitation_id}/accept",
    "POST /api/director-invitations/{invitation_id}/decline",
    "POST /api/games/",
    "POST /api/games/import",
    "POST /api/games/{game_id}/photo",
    "POST /api/games/{game_id}/turns/",
    "POST /api/tournaments/{tournament_id}/forfeits/",
    "POST /api/tournaments/{tournament_id}/players/",
    "POST /api/tournaments/{tournament_id}/results/",
    "POST /api/tournaments/{tournament_id}/results/void",
    "POST /api/tournaments/{tournament_id}/rounds/",
    "POST /api/tournaments/{tournament_id}/rounds/{number}/swap",
    "POST /api/tournaments/{tournament_id}/withdrawals/",
    "PUT /api/clubs/{slug}/rules",
    "PUT /api/tournaments/{tournament_id}/results/",
]
CHECKS = [
    not_a_server_error,
    response_schema_conformance,
    negative_data_rejection,
    content_type_conformance,
    status_code_conformance,
]
EXAMPLES = {  # the game operations get more: they are where the rules are
    "POST /api/games/{game_id}/turns/": 80,
    "POST /api/games/": 60,
    "GET /api/games/{game_id}/": 40,
    "GET /api/games/{game_id}/export": 40,
    "GET /api/games/{game_id}/turns/": 40,
    "POST /api/games/import": 30,
    "POST /api/analysis/": 30,
}  # and 5 each for the lists of rulesets and lexicons, which take no input, and for the
# tournament's routes, whose changes a caller without an account can't reach


WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def closing(app: WSGIApp) -> WSGIApp:
    """``app`` with each answer read whole and closed before it is handed on: schemathesis's
    WSGI client never closes one (PEP 3333 asks whoever calls the application to), and Django
    ends a request (``request_finished``) only then, so this thread would go on serving it:
    the news of every change made later in the thread would wait for its next request
    (``Hub.soon``)."""

    def answer_closed(environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        answer = app(environ, start_response)
        try:
            return [b"".join(answer)]
        finally:
            answer.close()

    return answer_closed


@pytest.fixture(scope="module")
def operations(django_db_blocker: Any) -> dict[str, APIOperation]:
    """The API's operations, read from its OpenAPI description through the application (a
    request's start may try the thread's kept connection: CONN_HEALTH_CHECKS)."""
    with django_db_blocker.unblock():
        schema = schemathesis.openapi.from_wsgi("/api/openapi.json", closing(application))
    found = {result.ok().label: result.ok() for result in schema.get_all_operations()}
    assert sorted(found) == OPERATIONS
    return found


@pytest.fixture
def same_connection():
    """Django closes a connection it finds inside a transaction at each request's start and
    end; under a test that transaction is the test's own, so keep the connection open."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


# Only these take input that can break the schema: a body, the export's format, or the log's
# page. (A path's game_id is any string, so there is no negative case for it.)
NEGATIVE = [
    "POST /api/games/",
    "POST /api/games/{game_id}/turns/",
    "GET /api/games/{game_id}/export",
    "GET /api/games/{game_id}/turns/",
    "POST /api/games/import",
    "POST /api/analysis/",
    "POST /api/clubs/",
    "POST /api/clubs/{slug}/tournaments/",
    "POST /api/tournaments/{tournament_id}/rounds/",
    "POST /api/tournaments/{tournament_id}/results/",
    "POST /api/tournaments/{tournament_id}/forfeits/",
    "POST /api/tournaments/{tournament_id}/rounds/{number}/swap",
    "POST /api/tournaments/{tournament_id}/players/",
    "POST /api/tournaments/{tournament_id}/withdrawals/",
    "POST /api/clubs/{slug}/directors/",
    "POST /api/clubs/{slug}/name",
    "POST /api/clubs/{slug}/players/rename",
    "POST /api/clubs/{slug}/tournaments/import",
    "PUT /api/clubs/{slug}/rules",
]
CASES = [(label, GenerationMode.POSITIVE) for label in OPERATIONS] + [
    (label, GenerationMode.NEGATIVE) for label in NEGATIVE
]


@pytest.mark.parametrize(("label", "mode"), CASES, ids=[f"{mode} {label}" for label, mode in CASES])
def test_schemathesis(operations, games, same_connection, label, mode):
    operation = operations[label]

    @settings(HOSTILE, max_examples=EXAMPLES.get(label, 5))
    @given(
        case=operation.as_strategy(generation_mode=mode),
        # Hypothesis leans to the first choices: the real games come before None (the id
        # schemathesis generated).
        target=st.sampled_from(["fresh", "midgame", "manual", "finished", "solo", None]),
        token=st.sampled_from(["own", "own", "other", "none"]),
    )
    def run(case, target: str | None, token: str) -> None:
        game = games[target] if target else None
        if game is not None and "game_id" in (case.path_parameters or {}):
            case.path_parameters["game_id"] = game.id
        positive = mode == GenerationMode.POSITIVE
        if (
            positive
            and game is not None
            and label == "POST /api/games/"
            and isinstance(case.body, dict)
        ):
            # A ruleset and lexicon that exist, so the rest of the body is what gets judged.
            case.body.update(ruleset=game.created["ruleset"], lexicon=game.created["lexicon"])
        # Its WSGI client reads answers as they come, never gunzipped: ask for them plain.
        headers: dict[str, Any] = {"Accept-Encoding": "identity"}
        if label.endswith("/turns/") and token != "none":
            owner = game if game is not None and token == "own" else games["fresh"]
            headers["Authorization"] = f"Bearer {owner.token}"
        with rolled_back():
            before = snapshot()
            response = case.call(headers=headers)
            TALLY.record(case.method, case.formatted_path, response.status_code)
            case.validate_response(response, checks=CHECKS, headers=headers)
            changed(before, case, response, label)

    run()


def test_a_call_leaves_no_request_open_in_this_thread(operations):
    """Once a case's answer is in, news of a change made in this thread goes out at once."""
    operations["GET /api/rulesets"].Case().call()
    sent: list[str] = []
    hub.soon(lambda: sent.append("news"))
    assert sent == ["news"]


def changed(before: dict[str, Any], case, response, label: str) -> None:
    """A refused case changed nothing; an accepted one made exactly its change."""
    status = response.status_code
    content_type = response.headers.get("content-type", [""])[0]
    if status >= 400:
        api_error(status, content_type, response.content)
        assert snapshot() == before
    elif label == "POST /api/games/":
        assert status == 201
        assert_game_created(before, response.json()["id"])
    elif label == "POST /api/games/{game_id}/turns/":
        assert status == 201
        assert_turn_entered(before, response.json()["game"]["id"], case.body["action"])
    else:
        assert snapshot() == before
