"""Challenge modes and options (RULES.md §5), through the API."""

from __future__ import annotations

import pytest

from scorekeeper.models import Game, Seat

from .factories import ApiGame

pytestmark = pytest.mark.django_db

MOOD = [(4, 3, "M"), (4, 4, "O"), (4, 5, "O"), (4, 6, "D")]
MOOX = [(4, 3, "M"), (4, 4, "O"), (4, 5, "O"), (4, 6, "X")]  # not in the CLUB list


def manual(client, **fields) -> ApiGame:
    return ApiGame(client, challenge_mode="manual", **fields)


def test_auto_mode_refuses_an_invalid_word_as_it_is_entered(client):
    game = ApiGame(client)
    response = game.play(MOOX)
    assert response.status_code == 422
    assert response.json()["error"]["words"] == ["MOOX"]


def test_manual_mode_lets_a_phony_stand_until_challenged(client):
    game = manual(client)
    response = game.play(MOOX)
    assert response.status_code == 201 and response.json()["turn"]["score"] == 8
    assert response.json()["game"]["can_challenge"] is True


def test_upheld_challenge_takes_the_play_off_and_the_mover_tries_again(client):
    game = manual(client)
    game.play(MOOX)
    response = game.turn({"action": "challenge"})
    assert response.status_code == 201
    body = response.json()
    assert body["turn"]["result"] == "upheld"
    assert body["turn"]["player"] == "Ben"  # the challenger
    assert body["turn"]["target"] == 1
    state = body["game"]
    assert state["board"][4][6] == [] and state["bag_count"] == 86
    assert [p["score"] for p in state["players"]] == [0, 0]
    assert [p["rack_count"] for p in state["players"]] == [7, 7]
    assert state["to_move"] == "Ann"
    # The phony stays in the log with its own score; the challenge records the verdict.
    assert [(t["action"], t["score"]) for t in game.log()] == [("play", 8), ("challenge", 0)]


def test_tournament_verdict_does_not_say_which_word_failed(client):
    game = manual(client)
    game.play(MOOX)
    body = game.turn({"action": "challenge"}).json()
    assert body["turn"]["result"] == "upheld"
    # The turn lists the words the play formed, never which of them failed.
    assert "invalid_words" not in body["turn"] and "invalid_words" not in str(body["game"])


def test_upheld_challenge_restores_stacks_exactly(client):
    game = manual(client)
    game.play(MOOD)
    game.turn({"action": "pass"})
    before = game.state()["board"]
    game.play([(4, 3, "Z")])  # ZOOD: stacked on M
    assert game.state()["board"][4][3] == ["M", "Z"]
    game.turn({"action": "challenge"})
    assert game.state()["board"] == before


def test_rejected_challenge_leaves_the_play_with_no_penalty_by_default(client):
    game = manual(client)
    game.play(MOOD)
    body = game.turn({"action": "challenge"}).json()
    assert body["turn"]["result"] == "rejected" and body["turn"]["score"] == 0
    assert [p["score"] for p in body["game"]["players"]] == [8, 0]
    assert body["game"]["to_move"] == "Ben"  # the challenger still plays
    assert body["game"]["can_challenge"] is False


def test_rejected_challenge_can_cost_five_points(client):
    game = manual(client, options={"rejected_challenge": "minus_5"})
    game.play(MOOD)
    body = game.turn({"action": "challenge"}).json()
    assert body["turn"]["score"] == -5
    assert [p["score"] for p in body["game"]["players"]] == [8, -5]


def test_rejected_challenge_can_cost_the_turn(client):
    game = manual(client, options={"rejected_challenge": "lose_turn"})
    game.play(MOOD)
    assert game.turn({"action": "challenge"}).json()["game"]["to_move"] == "Ann"


def test_upheld_challenge_can_cost_the_mover_the_turn(client):
    game = manual(client, options={"upheld_challenge": "lose_turn"})
    game.play(MOOX)
    assert game.turn({"action": "challenge"}).json()["game"]["to_move"] == "Ben"


def test_only_the_last_play_can_be_challenged(client):
    game = manual(client)
    response = game.turn({"action": "challenge"})
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "nothing_to_challenge"
    game.play(MOOX)
    game.turn({"action": "pass"})
    assert game.turn({"action": "challenge"}).status_code == 422


def test_auto_mode_has_nothing_to_challenge(client):
    game = ApiGame(client)
    game.play(MOOD)
    response = game.turn({"action": "challenge"})
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "challenge_not_needed"


def test_honour_system_has_no_dictionary_to_judge(client):
    game = manual(client, lexicon="honour")
    game.play(MOOX)
    response = game.turn({"action": "challenge"})
    assert response.status_code == 422 and response.json()["error"]["code"] == "no_dictionary"


def test_the_final_letterup_play_can_be_challenged_before_the_racks(client):
    game = manual(client, ruleset="letterup-classic")
    # A position near the end: the bag is empty and Ann holds the five tiles she plays.
    Game.objects.filter(pk=game.id).update(bag_count=0)
    Seat.objects.filter(game_id=game.id, order=0).update(rack_count=5)
    Seat.objects.filter(game_id=game.id, order=1).update(rack_count=2)
    body = game.play([(7, 3, "H"), (7, 4, "O"), (7, 5, "U"), (7, 6, "S"), (7, 7, "X")]).json()
    assert body["game"]["status"] == "awaiting_racks"
    body = game.turn({"action": "challenge"}).json()
    assert body["turn"]["result"] == "upheld"
    assert body["game"]["status"] == "in_progress" and body["game"]["to_move"] == "Ann"
