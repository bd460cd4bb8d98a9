"""Two devices at one table tapping Submit together: exactly one turn lands."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.test import Client

from bench.sequences import tiles
from scorekeeper.games.consistency import audit_game
from scorekeeper.models import Game, Turn
from tests.factories import ApiGame

pytestmark = pytest.mark.django_db(transaction=True)

MOOD = [(4, 3, "M"), (4, 4, "O"), (4, 5, "O"), (4, 6, "D")]


def send_at_once(requests: list[tuple[ApiGame, dict]]) -> list[int]:
    """Send each (game, body) from its own thread and client, all at once; the statuses."""
    barrier = threading.Barrier(len(requests))
    statuses: list[int] = [0] * len(requests)

    def send(index: int, game: ApiGame, body: dict) -> None:
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

    threads = [
        threading.Thread(target=send, args=(i, game, body))
        for i, (game, body) in enumerate(requests)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return statuses


def race(game: ApiGame, bodies: list[dict]) -> list[int]:
    return send_at_once([(game, body) for body in bodies])


@pytest.mark.parametrize("copies", [2, 4])
def test_the_same_turn_sent_at_once_lands_exactly_once(copies):
    game = ApiGame(Client())
    body = {"action": "play", "tiles": tiles(MOOD), "expected_turn": 1}
    statuses = race(game, [body] * copies)
    assert sorted(statuses) == [201] + [409] * (copies - 1)
    stored = Game.objects.get(pk=game.id)
    assert stored.last_entry_number == 1 and Turn.objects.filter(game=stored).count() == 1
    assert audit_game(stored) == []


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
    assert Turn.objects.filter(game=stored).count() == 1 and audit_game(stored) == []


def test_a_challenge_racing_the_next_play():
    game = ApiGame(Client(), challenge_mode="manual")
    game.play([(4, 3, "M"), (4, 4, "O"), (4, 5, "O"), (4, 6, "X")], expected_turn=1)
    statuses = race(
        game,
        [
            {"action": "challenge", "expected_turn": 2},
            {"action": "play", "tiles": tiles([(3, 3, "A"), (3, 4, "T")]), "expected_turn": 2},
        ],
    )
    assert sorted(statuses) == [201, 409]
    stored = Game.objects.get(pk=game.id)
    assert stored.last_entry_number == 2 and Turn.objects.filter(game=stored).count() == 2
    assert audit_game(stored) == []


def test_an_undo_racing_a_play():
    game = ApiGame(Client())
    game.play(MOOD, expected_turn=1)
    statuses = race(
        game,
        [
            {"action": "undo", "expected_turn": 2},
            {"action": "play", "tiles": tiles([(3, 4, "T")]), "expected_turn": 2},
        ],
    )
    assert sorted(statuses) == [201, 409]
    stored = Game.objects.get(pk=game.id)
    assert stored.last_entry_number == 2 and audit_game(stored) == []


def test_many_games_at_once_lose_nothing():
    """Several tables enter their turns at the same moment: every turn lands exactly once."""
    games = [ApiGame(Client()) for _ in range(6)]
    plays = [MOOD, [(3, 4, "T")], [(3, 6, "O")]]  # MOOD, TO, OD
    for number, triples in enumerate(plays, start=1):
        body = {"action": "play", "tiles": tiles(triples), "expected_turn": number}
        assert send_at_once([(game, body) for game in games]) == [201] * len(games)
    for api_game in games:
        stored = Game.objects.get(pk=api_game.id)
        assert audit_game(stored) == []
        assert stored.last_entry_number == Turn.objects.filter(game=stored).count() == 3
