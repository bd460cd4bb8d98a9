"""Entering turns through the JSON API: each action, each error, and the Hasbro game."""

from __future__ import annotations

import pytest

from bench.sequences import HASBRO, tiles
from tests.factories import ApiGame

pytestmark = pytest.mark.django_db

MOOD = [(4, 3, "M"), (4, 4, "O"), (4, 5, "O"), (4, 6, "D")]


def error(response) -> dict:
    body = response.json()
    assert set(body) == {"error"} and body["error"]["message"]
    return body["error"]


# The contract's own example -------------------------------------------------------------------
def test_hasbro_sequence_through_the_api(client):
    game = ApiGame(client)
    scores = []
    for triples, _ in HASBRO:
        response = game.play(triples)
        assert response.status_code == 201
        scores.append(response.json()["turn"]["score"])
    assert scores == [8, 8, 10, 5, 12, 14, 16]
    assert game.turn({"action": "pass"}).status_code == 201
    final = game.turn({"action": "pass"}).json()["game"]
    assert final["status"] == "finished"
    assert [(p["name"], p["score"], p["final_score"]) for p in final["players"]] == [
        ("Ann", 46, 46 - 35),
        ("Ben", 27, 27 - 35),
    ]
    # The log keeps each play's own score; it is not summed into final_score.
    plays = [t["score"] for t in game.log() if t["action"] == "play"]
    assert plays == [8, 8, 10, 5, 12, 14, 16]


# Each action -----------------------------------------------------------------------------------
def test_play_returns_the_turn_and_the_new_state(client):
    game = ApiGame(client)
    response = game.play(MOOD)
    assert response.status_code == 201
    body = response.json()
    assert body["turn"]["number"] == 1 and body["turn"]["player"] == "Ann"
    assert body["turn"]["action"] == "play" and body["turn"]["result"] is None
    assert body["turn"]["words"] == [{"word": "MOOD", "score": 8}]
    assert body["turn"]["notation"] == "5D MOOD"
    assert body["game"]["to_move"] == "Ben"
    assert body["game"]["bag_count"] == 82
    assert body["game"]["players"][0]["rack_count"] == 7


def test_pass(client):
    game = ApiGame(client)
    body = game.turn({"action": "pass"}).json()
    assert (body["turn"]["action"], body["turn"]["score"], body["game"]["to_move"]) == (
        "pass", 0, "Ben",
    )  # fmt: skip


def test_upwords_exchange_of_one_tile(client):
    game = ApiGame(client)
    body = game.turn({"action": "exchange", "count": 1}).json()
    assert body["turn"]["action"] == "exchange" and body["turn"]["count"] == 1
    assert body["game"]["bag_count"] == 86 and body["game"]["to_move"] == "Ben"
    assert error(game.turn({"action": "exchange", "count": 2}))["code"] == "bad_count"


def test_letterup_exchange_of_several_tiles(client):
    game = ApiGame(client, ruleset="letterup-classic")
    assert game.turn({"action": "exchange", "count": 5}).json()["turn"]["count"] == 5
    response = game.turn({"action": "exchange"})
    assert response.status_code == 400 and error(response)["code"] == "bad_count"


def test_undo_takes_the_last_turn_back_and_keeps_it_marked(client):
    game = ApiGame(client)
    game.play(MOOD)
    game.play([(4, 3, "W")])
    response = game.turn({"action": "undo", "by": "Ann"})
    assert response.status_code == 201
    body = response.json()
    assert body["turn"]["action"] == "undo" and body["turn"]["target"] == 2
    state = body["game"]
    assert state["board"][4][3] == ["M"]
    assert [p["score"] for p in state["players"]] == [8, 0]
    assert state["to_move"] == "Ben"
    log = game.log()
    undone = log[1]
    assert undone["undone"] is True and undone["undone_by"] == "Ann" and undone["undone_at"]
    assert [t["number"] for t in log] == [1, 2, 3]


def test_undo_with_nothing_to_undo_is_refused(client):
    game = ApiGame(client)
    response = game.turn({"action": "undo"})
    assert response.status_code == 422 and error(response)["code"] == "nothing_to_undo"


def test_finish_ends_an_upwords_game_early(client):
    game = ApiGame(client)
    game.play(MOOD)
    state = game.turn({"action": "finish"}).json()["game"]
    assert state["status"] == "finished"
    assert [p["final_score"] for p in state["players"]] == [8 - 35, -35]


def test_letterup_end_waits_for_racks_then_finishes(client):
    game = ApiGame(client, ruleset="letterup-rush")
    for _ in range(4):
        state = game.turn({"action": "pass"}).json()["game"]
    assert state["status"] == "awaiting_racks" and state["to_move"] is None
    response = game.turn({"action": "play", "tiles": tiles(MOOD)})
    assert response.status_code == 409 and error(response)["code"] == "awaiting_racks"
    response = game.turn({"action": "finish", "racks": {"Ann": "QZ"}})
    assert response.status_code == 400
    response = game.turn({"action": "finish", "racks": {"Ann": "QZJXKWV", "Zed": "A"}})
    assert response.status_code == 400 and error(response)["code"] == "bad_rack"
    response = game.turn({"action": "finish", "racks": {"Ann": "QZJXKWV", "ben": "AAAAAEE"}})
    assert response.status_code == 201
    state = response.json()["game"]
    assert state["status"] == "finished"
    assert [p["final_score"] for p in state["players"]] == [-(10 + 10 + 8 + 8 + 5 + 5 + 4), -7]


def test_rack_count_must_match(client):
    game = ApiGame(client, ruleset="letterup-rush")
    for _ in range(4):
        game.turn({"action": "pass"})
    response = game.turn({"action": "finish", "racks": {"Ann": "QZ", "Ben": "AAAAAEE"}})
    assert response.status_code == 400 and error(response)["code"] == "rack_mismatch"


# Errors ----------------------------------------------------------------------------------------
def test_missing_token_is_401(client):
    game = ApiGame(client)
    response = game.turn({"action": "pass"}, token="")
    assert response.status_code == 401 and error(response)["code"] == "unauthorized"
    assert response["WWW-Authenticate"] == "Bearer"


def test_wrong_token_is_403(client):
    game = ApiGame(client)
    response = game.turn({"action": "pass"}, token="x" * 32)
    assert response.status_code == 403 and error(response)["code"] == "forbidden"


def test_another_games_token_is_403(client):
    game, other = ApiGame(client), ApiGame(client)
    assert game.turn({"action": "pass"}, token=other.token).status_code == 403


def test_unknown_game_is_404_before_the_token(client):
    response = client.post(
        "/api/games/00000000-0000-0000-0000-000000000000/turns/",
        {"action": "pass"},
        content_type="application/json",
    )
    assert response.status_code == 404 and error(response)["code"] == "not_found"


def test_finished_game_is_409(client):
    game = ApiGame(client)
    game.turn({"action": "finish"})
    response = game.turn({"action": "pass"})
    assert response.status_code == 409 and error(response)["code"] == "game_over"
    assert error(game.turn({"action": "finish"}))["code"] == "game_over"


def test_stale_turn_is_409(client):
    game = ApiGame(client)
    assert game.play(MOOD, expected_turn=1).status_code == 201
    response = game.play([(5, 3, "A")], expected_turn=1)
    assert response.status_code == 409 and error(response)["code"] == "stale_turn"
    assert game.turn({"action": "pass", "expected_turn": 2}).status_code == 201


def test_illegal_play_is_422_with_the_rule(client):
    game = ApiGame(client)
    game.play(MOOD)
    response = game.play([(4, 4, "O")])
    assert response.status_code == 422
    body = error(response)
    assert body["code"] == "same_letter"
    assert body["message"] == "You can't stack O on O at E5."
    assert body["violations"][0]["squares"] == ["E5"]


def test_invalid_words_are_named_in_auto_mode(client):
    game = ApiGame(client)
    game.play(MOOD)
    response = game.play([(3, 3, "Z"), (3, 4, "X")])
    assert response.status_code == 422
    body = error(response)
    assert body["code"] == "invalid_word"
    assert body["words"] == ["ZX", "ZM", "XO"]  # main word first, then the cross-words


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"action": "play", "tiles": [{"row": 10, "col": 0, "letter": "A"}]}, "off_board"),
        ({"action": "play", "tiles": [{"row": -1, "col": 0, "letter": "A"}]}, "off_board"),
        ({"action": "play", "tiles": [{"row": 4, "col": 99999999999, "letter": "A"}]}, "off_board"),
        ({"action": "play", "tiles": [{"row": 4, "col": 4, "letter": "Q"}]}, "unknown_tile"),
        ({"action": "play", "tiles": [{"row": 4, "col": 4, "letter": "é"}]}, "unknown_tile"),
        ({"action": "play", "tiles": [{"row": 4, "col": 4, "letter": ""}]}, "unknown_tile"),
        ({"action": "play", "tiles": [{"row": "4", "col": 4, "letter": "A"}]}, "bad_request"),
        ({"action": "play", "tiles": [{"row": 4, "col": 4}]}, "bad_request"),
        ({"action": "play", "tiles": [{"row": True, "col": 4, "letter": "A"}]}, "bad_request"),
        ({"action": "play", "tiles": "5D MOOD"}, "bad_request"),
        ({"action": "play"}, "no_tiles"),
        ({"action": "play", "tiles": []}, "no_tiles"),
        ({"action": "play", "tiles": [{"row": 4, "col": c, "letter": "E"} for c in range(8)]}, "not_enough_tiles"),
        ({"action": "jump"}, "unknown_action"),
        ({}, "bad_request"),
        ({"action": "exchange", "count": "one"}, "bad_request"),
        ({"action": "finish", "racks": ["QZ"]}, "bad_request"),
    ],
)  # fmt: skip
def test_malformed_turns_are_400_and_change_nothing(client, body, code):
    game = ApiGame(client)
    game.play(MOOD)
    before = game.state()
    response = game.turn(body)
    assert response.status_code == 400, response.content
    assert error(response)["code"] == code
    assert game.state() == before


def test_not_json_is_400(client):
    game = ApiGame(client)
    response = client.post(
        f"/api/games/{game.id}/turns/",
        "action=pass",
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {game.token}",
    )
    assert response.status_code == 400 and error(response)["code"] == "bad_json"


def test_json_that_is_not_an_object_is_400(client):
    game = ApiGame(client)
    for body in ("[]", '"pass"', "null", "42"):
        response = client.post(
            f"/api/games/{game.id}/turns/",
            body,
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {game.token}",
        )
        assert response.status_code == 400, body


def test_refused_plays_change_nothing(client):
    game = ApiGame(client)
    game.play(MOOD)
    before = game.state()
    for attempt in ([(4, 4, "O")], [(0, 0, "A"), (0, 1, "T")], [(3, 3, "Z"), (3, 4, "X")]):
        assert game.play(attempt).status_code == 422
    assert game.state() == before


def test_a_second_z_is_an_input_error(client):
    game = ApiGame(client)
    game.play([(4, 4, "Z"), (4, 5, "A")])
    response = game.play([(5, 4, "Z")])
    assert response.status_code == 400 and error(response)["code"] == "too_many_copies"


def test_a_wrong_method_on_the_turns_endpoint_is_a_json_error(client):
    game = ApiGame(client)
    response = client.delete(f"/api/games/{game.id}/turns/")
    assert response.status_code == 405
    assert "error" in response.json()


def test_unknown_api_path_is_a_json_404(client):
    response = client.get("/api/nothing-here")
    assert response.status_code == 404 and error(response)["code"] == "not_found"
