"""Undo of the last turn, for correcting a mis-entry: recorded, never deleted."""

from __future__ import annotations

import pytest

from bench.sequences import HASBRO
from scorekeeper.games.consistency import audit_game
from scorekeeper.models import Game, Turn
from tests.factories import ApiGame

pytestmark = pytest.mark.django_db

MOOD = [(4, 3, "M"), (4, 4, "O"), (4, 5, "O"), (4, 6, "D")]


def test_successive_undos_walk_back_through_the_game(client):
    game = ApiGame(client)
    for triples, _ in HASBRO[:3]:
        game.play(triples)
    game.turn({"action": "undo"})
    state = game.turn({"action": "undo"}).json()["game"]
    assert [p["score"] for p in state["players"]] == [8, 0]
    assert state["to_move"] == "Ben" and state["bag_count"] == 82
    assert Turn.objects.filter(game_id=game.id).count() == 5  # nothing is deleted
    assert audit_game(Game.objects.get(pk=game.id)) == []


def test_undo_of_a_finish_reopens_the_game(client):
    game = ApiGame(client)
    game.play(MOOD)
    game.turn({"action": "finish"})
    state = game.turn({"action": "undo"}).json()["game"]
    assert state["status"] == "in_progress" and state["finished_at"] is None
    assert [p["final_score"] for p in state["players"]] == [None, None]
    assert game.turn({"action": "pass"}).status_code == 201


def test_undo_of_a_challenge_puts_the_play_back(client):
    game = ApiGame(client, challenge_mode="manual")
    game.play([(4, 3, "M"), (4, 4, "O"), (4, 5, "O"), (4, 6, "X")])
    game.turn({"action": "challenge"})
    state = game.turn({"action": "undo"}).json()["game"]
    assert state["board"][4][6] == ["X"] and state["players"][0]["score"] == 8
    assert state["can_challenge"] is True
    assert game.turn({"action": "challenge"}).json()["turn"]["result"] == "upheld"


def test_undo_then_a_different_play(client):
    game = ApiGame(client)
    game.play(MOOD)
    assert game.play([(3, 4, "T")]).status_code == 201  # TO: a mis-entry
    game.turn({"action": "undo"})
    response = game.play([(3, 6, "O")])  # OD down
    assert response.status_code == 201
    assert response.json()["turn"]["number"] == 4
    assert response.json()["turn"]["player"] == "Ben"
    assert audit_game(Game.objects.get(pk=game.id)) == []


def test_undo_after_the_game_ended_by_passes(client):
    game = ApiGame(client)
    game.play(MOOD)
    game.turn({"action": "pass"})
    assert game.turn({"action": "pass"}).json()["game"]["status"] == "finished"
    state = game.turn({"action": "undo"}).json()["game"]
    assert state["status"] == "in_progress" and state["to_move"] == "Ann"
