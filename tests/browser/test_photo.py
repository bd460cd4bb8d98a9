"""The scorer photographs the board: the page proposes the play, previews it, and it is
Submitted as a typed play would be."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

from referee import RULESETS, get_library  # noqa: E402
from scorekeeper.games import domain  # noqa: E402
from scorekeeper.models import Game, Turn  # noqa: E402
from scorekeeper.photo.render import render  # noqa: E402
from tests.browser.pages import PHONE, SHOTS  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def words(use_words):
    use_words("MOOD WOOD DOOM HOUSE SHOE HOSE HUES USE OH HO SO")
    get_library().get("CLUB").prepare_analysis()


def test_a_photo_of_the_board_proposes_the_play_and_it_is_submitted(
    page: Page, live_server, tmp_path
):
    game = domain.check_create_game(
        ruleset="crossword-classic", players=["Ann", "Ben"], lexicon="CLUB"
    )
    tiles = {(7, 3 + i): letter for i, letter in enumerate("HOUSE")}
    photo = tmp_path / "board.jpg"
    photo.write_bytes(render(41, RULESETS["crossword-classic"], tiles).jpeg)
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/games/{game.pk}/score/{game.token}/")
    button = page.get_by_text("Photo of the board")
    expect(button).to_be_visible()
    assert button.bounding_box()["height"] >= 40
    page.set_input_files("#photo-input", str(photo))
    expect(page.locator("#play-input")).to_have_value("8D HOUSE", timeout=20_000)
    expect(page.locator("#photo-note")).to_contain_text("check it, then Submit")
    expect(page.locator("#preview")).to_contain_text("HOUSE")
    # Shown on the board as tiles being placed, as a tapped play would be.
    for square in ("D8", "E8", "F8", "G8", "H8"):
        expect(page.locator(f"button.sq[data-name={square}]")).to_have_class(re.compile("pending"))
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "photo-proposed-390.png"))
    page.get_by_role("button", name=re.compile("^Submit")).click()
    expect(page.locator("#play-input")).to_have_value("")
    last = Turn.objects.filter(game=game).latest("number")
    assert last.notation == "8D HOUSE"
    assert Game.objects.get(pk=game.pk).board[7][3:8] == [["H"], ["O"], ["U"], ["S"], ["E"]]


def test_without_camera_support_there_is_no_camera_button(page: Page, live_server, monkeypatch):
    from scorekeeper.web import table

    monkeypatch.setattr(table, "photo_reader_available", lambda: False)
    game = domain.check_create_game(
        ruleset="crossword-classic", players=["Ann", "Ben"], lexicon="CLUB"
    )
    page.goto(f"{live_server.url}/games/{game.pk}/score/{game.token}/")
    expect(page.locator("#play-input")).to_be_visible()
    expect(page.locator("#photo-input")).to_have_count(0)
