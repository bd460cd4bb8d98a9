"""Starting games and reading them through the JSON API."""

from __future__ import annotations

import pytest

from scorekeeper.models import Game, Player
from tests.factories import ApiGame

pytestmark = pytest.mark.django_db


def create(client, **body):
    return client.post("/api/games/", body, content_type="application/json")


def test_create_game_returns_its_state_id_and_token(client):
    response = create(
        client, ruleset="upwords-10", lexicon="CLUB", players=["Ann", "Ben"], challenge_mode="auto"
    )
    assert response.status_code == 201
    data = response.json()
    assert data["id"] and len(data["token"]) >= 32
    assert data["ruleset"] == "upwords-10" and data["lexicon"] == "CLUB"
    assert data["lexicon_checksum"].startswith("sha256:")
    assert data["status"] == "in_progress" and data["to_move"] == "Ann"
    assert data["players"] == [
        {
            "name": "Ann",
            "score": 0,
            "final_score": None,
            "result": None,
            "rack_count": 7,
            "adjustment": None,
        },
        {
            "name": "Ben",
            "score": 0,
            "final_score": None,
            "result": None,
            "rack_count": 7,
            "adjustment": None,
        },
    ]
    assert data["bag_count"] == 86
    assert data["board"] == [[[] for _ in range(10)] for _ in range(10)]
    assert data["turn_number"] == 0 and data["last_turn"] is None and "turns" not in data
    assert sum(data["unseen"].values()) == 100 and data["unseen"]["QU"] == 1


def test_game_records_the_exact_lexicon(client, club_lexicon):
    import hashlib

    data = create(client, ruleset="upwords-8", lexicon="club", players=["Ann"]).json()
    expected = hashlib.sha256((club_lexicon / "CLUB.txt").read_bytes()).hexdigest()
    assert data["lexicon"] == "CLUB"  # canonical id
    assert data["lexicon_checksum"] == f"sha256:{expected}"


def test_get_game_shows_the_board_with_stacks_bottom_to_top(client):
    game = ApiGame(client)
    game.play([(4, 3, "M"), (4, 4, "O"), (4, 5, "O"), (4, 6, "D")])
    game.play([(4, 3, "W")])
    data = game.state()
    assert data["board"][4][3] == ["M", "W"]
    assert data["board"][4][4] == ["O"]
    assert data["board"][0][0] == []
    assert data["last_turn"]["number"] == 2 and data["last_turn"]["notation"] == "5D W..."
    log = game.log()
    assert [(t["number"], t["player"], t["action"], t["score"]) for t in log] == [
        (1, "Ann", "play", 8),
        (2, "Ben", "play", 5),
    ]
    assert log[1]["words"] == [{"word": "WOOD", "score": 5}]


def test_the_qu_tile_is_written_qu(client):
    game = ApiGame(client)
    response = game.play([(4, 4, "Qu"), (4, 5, "I"), (4, 6, "T")])
    assert response.status_code == 201
    assert response.json()["game"]["board"][4][4] == ["QU"]
    assert response.json()["turn"]["tiles"][0]["letter"] == "QU"
    assert response.json()["turn"]["score"] == 8


def test_first_player_can_be_chosen(client):
    data = create(
        client, ruleset="upwords-10", lexicon="CLUB", players=["Ann", "Ben"], first="ben"
    ).json()
    assert data["to_move"] == "Ben"


def test_players_are_reused_by_name(client):
    create(client, ruleset="upwords-10", lexicon="CLUB", players=["Ann", "Ben"])
    create(client, ruleset="upwords-10", lexicon="CLUB", players=["ann", "Cat"])
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Ann", "Ben", "Cat"]


def test_honour_system_needs_no_word_list(client):
    data = create(client, ruleset="letterup-rush", lexicon="honour", players=["Ann", "Ben"]).json()
    assert data["lexicon"] == "honour" and data["lexicon_checksum"] == ""


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"ruleset": "scrabble", "lexicon": "CLUB", "players": ["Ann"]}, "unknown_ruleset"),
        ({"ruleset": "upwords-10", "lexicon": "NOPE", "players": ["Ann"]}, "unknown_lexicon"),
        ({"ruleset": "upwords-10", "lexicon": "CLUB", "players": []}, "bad_players"),
        ({"ruleset": "upwords-10", "lexicon": "CLUB", "players": ["A", "B", "C", "D", "E"]}, "bad_request"),
        ({"ruleset": "upwords-10", "lexicon": "CLUB", "players": ["Ann", "ann"]}, "bad_players"),
        ({"ruleset": "upwords-10", "lexicon": "CLUB", "players": ["  "]}, "bad_players"),
        ({"ruleset": "upwords-10", "lexicon": "CLUB", "players": ["x" * 41]}, "bad_players"),
        ({"ruleset": "upwords-10", "lexicon": "CLUB", "players": ["Ann"], "challenge_mode": "x"}, "bad_request"),
        ({"ruleset": "upwords-10", "lexicon": "CLUB", "players": ["Ann"], "options": {"nope": 1}}, "unknown_option"),
        ({"ruleset": "upwords-10", "lexicon": "CLUB", "players": ["Ann"], "first": "Zed"}, "bad_first"),
        ({"lexicon": "CLUB", "players": ["Ann"]}, "bad_request"),
        ({"ruleset": 7, "lexicon": "CLUB", "players": ["Ann"]}, "bad_request"),
    ],
)  # fmt: skip
def test_bad_new_games_are_refused_with_400(client, body, code):
    response = create(client, **body)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == code
    assert response.json()["error"]["message"]
    assert Game.objects.count() == 0


def test_not_json_is_a_400(client):
    response = client.post("/api/games/", "{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_json"


@pytest.mark.parametrize("game_id", ["00000000-0000-0000-0000-000000000000", "not-a-uuid"])
def test_unknown_game_is_a_404(client, game_id):
    response = client.get(f"/api/games/{game_id}/")
    assert response.status_code == 404
    assert response.json() == {
        "error": {"code": "not_found", "message": "There is no game with that id."}
    }


def test_openapi_description_is_served(client):
    assert client.get("/api/docs").status_code == 200
    schema = client.get("/api/openapi.json").json()
    assert "/api/games/{game_id}/turns/" in schema["paths"]
    assert "/api/games/" in schema["paths"]


def test_lexicons_and_rulesets_are_listed(client):
    lexicons = client.get("/api/lexicons").json()
    # CSW19 from pyscrabbler is always on offer when LEXICON_DIR has no CSW19 of its own.
    assert [x["id"] for x in lexicons] == ["CLUB", "CSW19", "honour"]
    assert lexicons[1]["word_count"] == 279_496
    rulesets = client.get("/api/rulesets").json()
    assert {r["id"] for r in rulesets} == {
        "upwords-10",
        "upwords-8",
        "letterup-classic",
        "letterup-rush",
        "crossword-classic",
    }


def test_one_rule_decides_which_names_are_the_same_player(client):
    create(client, ruleset="upwords-10", lexicon="CLUB", players=["Ida", "kit"])
    # The Kelvin sign K is a K: the same Kit. A dotted capital İ is another letter.
    create(client, ruleset="upwords-10", lexicon="CLUB", players=["\u212ait", "İda"])
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Ida", "kit", "İda"]
    # Dotless ı and I are different letters too, so these are two players.
    assert (
        create(client, ruleset="upwords-10", lexicon="CLUB", players=["I", "ı"]).status_code == 201
    )
