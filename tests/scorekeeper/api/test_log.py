"""The log is read in pages; a game's answers are the same size at turn 300 as at turn 10."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scorekeeper.models import Game, Turn
from tests.factories import ApiGame

pytestmark = pytest.mark.django_db

# What one turn costs the database, whatever the game's length: the session and the game's row
# read for the token, the locked row, the seats, the log's last entries, the new turn, the
# game's and changed seats' state. Raise it only knowing why.
TURN_QUERIES = 9


@pytest.fixture(autouse=True)
def no_rate_limit(settings):
    settings.RATE_LIMIT_TURNS = 0  # hundreds of turns in a second, from one client


def exchange(game: ApiGame):
    response = game.turn({"action": "exchange", "count": 1})
    assert response.status_code == 201
    return response


def play_until(game: ApiGame, number: int) -> None:
    while Game.objects.get(pk=game.id).last_entry_number < number - 1:
        exchange(game)


def test_answers_do_not_grow_with_the_game(client):
    game = ApiGame(client)
    play_until(game, 10)
    with CaptureQueriesContext(connection) as at_10:
        turn_10 = exchange(game)
    state_10 = client.get(f"/api/games/{game.id}/")
    play_until(game, 300)
    with CaptureQueriesContext(connection) as at_300:
        turn_300 = exchange(game)
    state_300 = client.get(f"/api/games/{game.id}/")
    assert turn_300.json()["game"]["turn_number"] == 300
    # Only the numbers' digits may differ ("10" against "300", in a few places).
    assert abs(len(turn_300.content) - len(turn_10.content)) <= 12
    assert abs(len(state_300.content) - len(state_10.content)) <= 12
    assert len(at_300) == len(at_10) <= TURN_QUERIES, [q["sql"] for q in at_300.captured_queries]


def test_the_log_pages_ascending_two_hundred_at_a_time(client):
    game = ApiGame(client)
    play_until(game, 451)  # 450 entries
    pages, after = [], 0
    while after is not None:
        page = client.get(f"/api/games/{game.id}/turns/?after={after}").json()
        pages.append([t["number"] for t in page["turns"]])
        after = page["next"]
    assert [len(p) for p in pages] == [200, 200, 50]
    assert sum(pages, []) == list(range(1, 451))
    small = client.get(f"/api/games/{game.id}/turns/?after=440&limit=5").json()
    assert [t["number"] for t in small["turns"]] == [441, 442, 443, 444, 445]
    assert small["next"] == 445
    assert client.get(f"/api/games/{game.id}/turns/?after=450").json() == {
        "turns": [],
        "next": None,
    }


@pytest.mark.parametrize("query", ["after=-1", "after=x", "limit=0", "limit=201"])
def test_a_bad_page_of_the_log_is_a_400(client, query):
    game = ApiGame(client)
    response = client.get(f"/api/games/{game.id}/turns/?{query}")
    assert response.status_code == 400 and "error" in response.json()


def test_the_history_page_shows_the_log_a_page_at_a_time(client):
    game = ApiGame(client)
    play_until(game, 251)  # 250 entries
    page = client.get(f"/games/{game.id}/").content.decode()
    assert page.count('class="strike notation"') == 100
    assert f'href="/games/{game.id}/?after=100#log-title"' in page
    more = client.get(f"/games/{game.id}/log?after=100").content.decode()
    assert more.count('class="strike notation"') == 100
    assert f"/games/{game.id}/log?after=200" in more
    last = client.get(f"/games/{game.id}/log?after=200").content.decode()
    assert last.count('class="strike notation"') == 50 and "Later turns" not in last


def test_the_history_page_costs_the_same_at_600_turns_as_at_200(client):
    game = ApiGame(client)
    play_until(game, 201)
    with CaptureQueriesContext(connection) as short:
        small = client.get(f"/games/{game.id}/")
    play_until(game, 601)
    with CaptureQueriesContext(connection) as long:
        large = client.get(f"/games/{game.id}/")
    assert len(long) == len(short)
    # The log shows one page and the chart between MAX_POINTS / 2 and MAX_POINTS turns (evenly
    # spaced), so the page stays within a few kilobytes of its size at 200 turns.
    assert len(large.content) < 1.1 * len(small.content)
    assert Turn.objects.filter(game_id=game.id).count() == 600
