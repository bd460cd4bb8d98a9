"""Faults: PostgreSQL drops a request's connection (a backend terminated, a restart). A read
is run again on a new connection; a write answers 503 with Retry-After, having entered
nothing; a connection dropped between requests is replaced before the next one uses it. Never
a 500."""

from __future__ import annotations

import pytest
from django.db import close_old_connections, connection, connections

from scorekeeper.models import Game
from tests.factories import CLUB_WORDS, ApiGame, account, make_club

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's connections"),
]


@pytest.fixture(autouse=True)
def club_lexicon(use_words):
    return use_words(CLUB_WORDS)


def drop_this_connection() -> None:
    """Another connection ends this one's backend, and waits until it has gone."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s, 10000)", [pid])
            assert cursor.fetchone() == (True,)
    finally:
        other.close()


def test_a_page_that_lost_its_connection_is_read_again_on_a_new_one(client):
    game = ApiGame(client)
    drop_this_connection()
    page = client.get(f"/games/{game.id}/")
    assert page.status_code == 200 and "Ann" in page.content.decode()


def test_an_api_read_that_lost_its_connection_is_read_again_on_a_new_one(client):
    game = ApiGame(client)
    drop_this_connection()
    assert client.get(f"/api/games/{game.id}/").status_code == 200


def test_a_turn_that_lost_its_connection_is_answered_503_and_entered_when_sent_again(
    client, settings
):
    # No limit: the rate count, the first write, would meet the dropped connection instead (it
    # lets the turn through, and the rollback of its transaction closes the connection).
    settings.RATE_LIMIT_TURNS = 0
    game = ApiGame(client)
    drop_this_connection()
    refused = game.turn({"action": "exchange", "count": 1})
    assert refused.status_code == 503 and refused["Retry-After"]
    assert refused.json()["error"]["code"] == "database_busy"
    assert Game.objects.get(pk=game.id).last_entry_number == 0  # nothing entered
    assert game.turn({"action": "exchange", "count": 1}).status_code == 201


def test_a_roster_change_that_lost_its_connection_is_answered_503(client):
    director = account("rita")
    club = make_club(directors=[director], roster=[])
    client.force_login(director)
    drop_this_connection()
    response = client.post("/clubs/riverside/roster", {"change": "add", "name": "Zed"})
    assert response.status_code == 503 and response["Retry-After"]
    assert "Try again" in response.content.decode()
    assert not club.roster.exists()
    client.post("/clubs/riverside/roster", {"change": "add", "name": "Zed"})
    assert [p.name for p in club.roster.all()] == ["Zed"]


def test_a_connection_dropped_between_requests_is_replaced_before_the_next(client, settings):
    settings.RATE_LIMIT_TURNS = 0  # the turn's own write is the first to use the connection
    game = ApiGame(client)
    drop_this_connection()
    close_old_connections()  # what the server does as each request starts (the test client doesn't)
    assert game.turn({"action": "exchange", "count": 1}).status_code == 201
