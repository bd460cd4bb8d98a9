"""Two devices at one table tapping Submit together: exactly one turn lands."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.test import Client

from scorekeeper.domain import check_game
from scorekeeper.models import Game, Turn

from .factories import ApiGame, tiles

pytestmark = pytest.mark.django_db(transaction=True)

MOOD = [(4, 3, "M"), (4, 4, "O"), (4, 5, "O"), (4, 6, "D")]


def race(game: ApiGame, bodies: list[dict]) -> list[int]:
    """Send the bodies at once, each from its own thread and client; return the statuses."""
    barrier = threading.Barrier(len(bodies))
    statuses: list[int] = [0] * len(bodies)

    def send(index: int, body: dict) -> None:
        try:
            client = Client()
            barrier.wait()
            statuses[index] = client.post(
                f"/api/games/{game.id}/turns/",
                body,
                content_type="application/json",
                HTTP_AUTHORIZATION=f"Bearer {game.token}",
            ).status_code
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(i, b)) for i, b in enumerate(bodies)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return statuses


@pytest.mark.parametrize("copies", [2, 4])
def test_the_same_turn_sent_at_once_lands_exactly_once(copies):
    game = ApiGame(Client())
    body = {"action": "play", "tiles": tiles(MOOD), "expected_turn": 1}
    statuses = race(game, [body] * copies)
    assert sorted(statuses) == [201] + [409] * (copies - 1)
    stored = Game.objects.get(pk=game.id)
    assert stored.turn_number == 1 and Turn.objects.filter(game=stored).count() == 1
    assert check_game(stored) == []


def test_a_double_tap_without_a_turn_number_still_lands_once():
    game = ApiGame(Client())
    body = {"action": "play", "tiles": tiles(MOOD)}
    statuses = race(game, [body, body])
    # The second copy reaches a board that already has the play: it is refused, not doubled.
    assert sorted(statuses) == [201, 422]
    assert Turn.objects.filter(game_id=game.id).count() == 1


def test_a_pass_racing_a_play_for_the_same_turn():
    game = ApiGame(Client())
    statuses = race(
        game,
        [
            {"action": "play", "tiles": tiles(MOOD), "expected_turn": 1},
            {"action": "pass", "expected_turn": 1},
        ],
    )
    assert sorted(statuses) == [201, 409]
    stored = Game.objects.get(pk=game.id)
    assert Turn.objects.filter(game=stored).count() == 1 and check_game(stored) == []
