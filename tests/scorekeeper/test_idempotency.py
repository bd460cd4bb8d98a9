"""Idempotency-Key: a retried or doubled API request applies once and gets the first answer."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.test import Client

from scorekeeper.models import Game, Turn

from .factories import ApiGame

pytestmark = pytest.mark.django_db


def exchange(game: ApiGame, key: str, count: int = 1):
    return game.turn({"action": "exchange", "count": count}, HTTP_IDEMPOTENCY_KEY=key)


def test_the_same_key_again_returns_the_first_answer_and_applies_nothing(client):
    game = ApiGame(client)
    first = exchange(game, "retry-1")
    again = exchange(game, "retry-1")
    assert first.status_code == again.status_code == 201
    assert again.content == first.content and again["Idempotent-Replayed"] == "true"
    assert Turn.objects.filter(game_id=game.id).count() == 1
    assert exchange(game, "retry-2").status_code == 201  # a new key is a new request
    assert Turn.objects.filter(game_id=game.id).count() == 2


def test_a_refusal_is_the_first_answer_too(client):
    game = ApiGame(client)
    first = game.turn({"action": "challenge"}, HTTP_IDEMPOTENCY_KEY="k")
    assert first.status_code == 422
    assert game.turn({"action": "challenge"}, HTTP_IDEMPOTENCY_KEY="k").content == first.content


def test_the_same_key_for_another_request_is_refused(client):
    game = ApiGame(client)
    assert exchange(game, "k", 1).status_code == 201
    reused = game.turn({"action": "pass"}, HTTP_IDEMPOTENCY_KEY="k")
    assert reused.status_code == 422
    assert reused.json()["error"]["code"] == "idempotency_key_reused"
    assert Turn.objects.filter(game_id=game.id).count() == 1


def test_keys_are_per_game_token(client):
    one, two = ApiGame(client), ApiGame(client)
    assert exchange(one, "same").status_code == 201
    assert exchange(two, "same").status_code == 201
    assert Turn.objects.count() == 2


@pytest.mark.parametrize("key", ["", "with space", "x" * 256, "é"])
def test_a_malformed_key_is_refused(client, key):
    game = ApiGame(client)
    response = game.turn({"action": "pass"}, HTTP_IDEMPOTENCY_KEY=key)
    assert response.status_code == 400
    assert Game.objects.get(pk=game.id).turn_number == 0


@pytest.mark.django_db(transaction=True)
def test_ten_identical_requests_at_once_make_one_turn():
    game = ApiGame(Client())
    barrier = threading.Barrier(10)
    statuses: list[int] = []

    def send() -> None:
        try:
            client = Client()
            barrier.wait()
            statuses.append(
                client.post(
                    f"/api/games/{game.id}/turns/",
                    {"action": "exchange", "count": 1},
                    content_type="application/json",
                    HTTP_AUTHORIZATION=f"Bearer {game.token}",
                    HTTP_IDEMPOTENCY_KEY="once",
                ).status_code
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    # One applies; each twin gets the first answer or is asked to retry (409), never a turn.
    assert statuses.count(201) >= 1 and set(statuses) <= {201, 409}
    assert Turn.objects.filter(game_id=game.id).count() == 1
