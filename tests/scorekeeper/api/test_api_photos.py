"""The photo routes of the API: a board read from a photo, and the plays a game's photo shows."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

from referee import RULESETS, Board, Play, RuleOptions, evaluate, get_library  # noqa: E402
from scorekeeper.photo.render import encode, render  # noqa: E402
from tests.factories import ApiGame, png_header  # noqa: E402

pytestmark = pytest.mark.django_db

WORDS = "HOUSE HOUSES SHOE HOSE USE SUE HUES OH HO SO US EH HE"


@pytest.fixture(autouse=True)
def words(use_words):
    use_words(WORDS)
    get_library().get("CLUB").prepare_analysis()


def photo_of(tiles, seed=31, ruleset="crossword-classic") -> SimpleUploadedFile:
    return SimpleUploadedFile(
        "board.jpg", render(seed, RULESETS[ruleset], tiles).jpeg, "image/jpeg"
    )


def house() -> dict[tuple[int, int], str]:
    return {(7, 3 + i): letter for i, letter in enumerate("HOUSE")}


def error(response) -> dict:
    body = response.json()
    assert set(body) == {"error"} and body["error"]["message"].endswith(".")
    return body["error"]


def test_a_board_is_read_from_a_photo(client):
    response = client.post(
        "/api/boards/read", {"image": photo_of(house()), "ruleset": "crossword-classic"}
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert list(body) == ["squares", "confidence", "corners"]
    assert "".join(body["squares"][7]) == "HOUSE"
    assert sum(bool(s) for row in body["squares"] for s in row) == 5
    assert len(body["confidence"]) == 15 and all(
        0 <= x <= 1 for row in body["confidence"] for x in row
    )
    assert len(body["corners"]) == 4


def test_an_upwords_board_is_read_at_its_size(client):
    photo = photo_of({(4, 3): "M", (4, 4): "O"}, 32, "upwords-8")
    response = client.post("/api/boards/read", {"image": photo, "ruleset": "upwords-8"})
    assert response.status_code == 200
    assert len(response.json()["squares"]) == 8


def test_a_photo_without_a_board_is_422_with_a_sentence(client):
    import numpy as np

    noise = np.random.default_rng(3).integers(0, 256, (500, 700, 3), dtype=np.uint8)
    image = SimpleUploadedFile("noise.jpg", encode(noise, 80), "image/jpeg")
    response = client.post("/api/boards/read", {"image": image, "ruleset": "crossword-classic"})
    assert response.status_code == 422
    assert error(response)["code"] == "photo_unreadable"


def test_a_photo_past_the_pixel_cap_is_422_undecoded(client):
    image = SimpleUploadedFile("bomb.png", png_header(20_000, 20_000), "image/png")
    response = client.post("/api/boards/read", {"image": image, "ruleset": "crossword-classic"})
    assert response.status_code == 422
    assert "million" in error(response)["message"]


def test_an_unknown_ruleset_or_no_image_is_400(client):
    response = client.post("/api/boards/read", {"image": photo_of({}), "ruleset": "chess"})
    assert response.status_code == 400 and error(response)["code"] == "unknown_ruleset"
    response = client.post("/api/boards/read", {"ruleset": "crossword-classic"})
    assert response.status_code == 400


def test_without_camera_support_the_routes_answer_501(client, monkeypatch):
    from scorekeeper.api import photos

    monkeypatch.setattr(photos, "available", lambda: False)
    response = client.post(
        "/api/boards/read", {"image": photo_of({}), "ruleset": "crossword-classic"}
    )
    assert response.status_code == 501 and error(response)["code"] == "no_camera_support"


def test_a_game_s_photo_proposes_the_play_made_first(client):
    game = ApiGame(client, ruleset="crossword-classic", lexicon="CLUB")
    auth = {"HTTP_AUTHORIZATION": f"Bearer {game.token}"}
    response = client.post(f"/api/games/{game.id}/photo", {"image": photo_of(house())}, **auth)
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["plays"][0]["notation"] == "8D HOUSE"
    rules = RULESETS["crossword-classic"]
    play = Play.parse("8D HOUSE", rules, Board(15))
    scored = evaluate(
        Board(15), play, rules, RuleOptions.defaults(rules), get_library().get("CLUB")
    )
    assert body["plays"][0]["score"] == scored.score
    assert sorted(body["changed"]) == sorted(["D8", "E8", "F8", "G8", "H8"])
    # Nothing was entered: the scorer checks the play and sends it as a turn.
    assert game.state()["turn_number"] == 0


def test_a_game_s_photo_needs_the_game_s_token(client):
    game = ApiGame(client, ruleset="crossword-classic", lexicon="CLUB")
    response = client.post(f"/api/games/{game.id}/photo", {"image": photo_of(house())})
    assert response.status_code == 401
    response = client.post(
        f"/api/games/{game.id}/photo",
        {"image": photo_of(house())},
        HTTP_AUTHORIZATION="Bearer nope",
    )
    assert response.status_code == 403


def test_a_photo_matching_no_legal_play_names_the_squares(client):
    game = ApiGame(client, ruleset="crossword-classic", lexicon="CLUB")
    auth = {"HTTP_AUTHORIZATION": f"Bearer {game.token}"}
    response = client.post(
        f"/api/games/{game.id}/photo",
        # (Seed 31's photo has a glare on a pale premium square that reads as a blank.)
        {"image": photo_of({(0, 0): "R", (0, 1): "A", (14, 14): "E"}, seed=32)},
        **auth,
    )
    assert response.status_code == 422
    assert "A1, B1, O15" in error(response)["message"]


def test_photos_count_against_the_word_judge_s_limit(client, settings):
    settings.RATE_LIMIT_JUDGE = 1
    first = client.post("/api/boards/read", {"image": photo_of({}), "ruleset": "crossword-classic"})
    assert first.status_code == 200
    second = client.post(
        "/api/boards/read", {"image": photo_of({}), "ruleset": "crossword-classic"}
    )
    assert second.status_code == 429


def test_a_photo_over_the_upload_cap_is_413_unread(client):
    from scorekeeper.games.photos import MAX_BYTES

    image = SimpleUploadedFile("big.jpg", b"\xff\xd8" + b"\0" * MAX_BYTES, "image/jpeg")
    response = client.post("/api/boards/read", {"image": image, "ruleset": "crossword-classic"})
    assert response.status_code == 413 and error(response)["code"] == "too_large"
