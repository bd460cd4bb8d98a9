"""The scorer page's camera button and its route: the plays a photo shows, for the scorer only."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

from referee import RULESETS, get_library  # noqa: E402
from scorekeeper.photo.render import render  # noqa: E402
from tests.factories import hold, new_game, scorer  # noqa: E402

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def words(use_words):
    use_words("HOUSE HOUSES SHOE HOSE USE SUE HUES OH HO SO US EH HE")
    get_library().get("CLUB").prepare_analysis()


def photo(tiles, seed=51) -> SimpleUploadedFile:
    return SimpleUploadedFile(
        "board.jpg", render(seed, RULESETS["crossword-classic"], tiles).jpeg, "image/jpeg"
    )


HOUSE = {(7, 3 + i): letter for i, letter in enumerate("HOUSE")}


def test_the_scorer_page_has_a_camera_button_that_opens_the_back_camera(client):
    game = new_game("crossword-classic")
    hold(client, game)
    page = client.get(scorer(game)).content.decode()
    assert 'accept="image/*" capture="environment"' in page
    assert "js/photo.js" in page


def test_without_camera_support_the_page_has_no_button_and_the_route_says_501(client, monkeypatch):
    from scorekeeper.web import photos, table

    monkeypatch.setattr(table, "photo_reader_available", lambda: False)
    monkeypatch.setattr(photos, "available", lambda: False)
    game = new_game("crossword-classic")
    hold(client, game)
    page = client.get(scorer(game)).content.decode()
    assert "photo-input" not in page and "js/photo.js" not in page
    response = client.post(scorer(game) + "photo", {"image": photo(HOUSE)})
    assert response.status_code == 501
    assert "reads no photos" in response.json()["message"]


def test_the_scorer_s_photo_proposes_the_play_and_enters_nothing(client):
    game = new_game("crossword-classic")
    hold(client, game)
    response = client.post(scorer(game) + "photo", {"image": photo(HOUSE)})
    assert response.status_code == 200, response.content
    assert response.json()["plays"][0]["notation"] == "8D HOUSE"
    game.refresh_from_db()
    assert game.last_entry_number == 0


def test_only_the_scorer_may_send_a_photo(client):
    game = new_game("crossword-classic")
    response = client.post(scorer(game) + "photo", {"image": photo(HOUSE)})
    assert response.status_code == 403


def test_a_photo_that_shows_no_board_says_so(client):
    import numpy as np

    from scorekeeper.photo.render import encode

    game = new_game("crossword-classic")
    hold(client, game)
    noise = np.random.default_rng(9).integers(0, 256, (400, 600, 3), dtype=np.uint8)
    image = SimpleUploadedFile("noise.jpg", encode(noise, 80), "image/jpeg")
    response = client.post(scorer(game) + "photo", {"image": image})
    assert response.status_code == 422
    assert response.json()["message"].startswith("No board was found")
