"""A club's journey in a real browser: sign in, make a club, fill its roster, start a game
for the club, see the standings, void the game and undo the void, sign out. Every page fits
360 px and keeps to the Content-Security-Policy."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from scorekeeper import domain
from scorekeeper.models import Game

from .conftest import Camera

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_club_director_s_journey(page: Page, live_server):
    get_user_model().objects.create_user("ann", password="pw-for-tests-only")
    camera = Camera(page, "clubs")
    page.goto("/")
    page.click("header.site >> text=Sign in")
    camera.shoot("sign-in")
    page.fill("#id_username", "ann")
    page.fill("#id_password", "pw-for-tests-only")
    page.click("button:has-text('Sign in')")
    expect(page.locator("header.site .who")).to_have_text("ann")
    camera.shoot("clubs")

    page.click("text=Make a club")
    page.fill("#id_name", "Riverside Word Club")
    page.click("text=Make the club")
    expect(page.locator(".messages")).to_contain_text("you are its director")
    for name in ("Ann", "Ben"):
        page.fill("#add-player", name)
        page.click("button:has-text('Add')")
        expect(page.locator(".messages")).to_contain_text(f"{name} is on Riverside")
    camera.shoot("club")

    page.goto("/games/new")
    page.select_option("#id_club", "riverside-word-club")
    page.select_option("#id_lexicon", "CLUB")
    page.fill("#id_player_1", "Ann")
    page.fill("#id_player_2", "Zed")
    page.click("text=Start the game")
    expect(page.locator(".error")).to_contain_text("Zed is not on Riverside Word Club's roster.")
    camera.shoot("new-club-game-refused")
    page.fill("#id_player_2", "Ben")
    page.click("text=Start the game")
    expect(page.locator("h1.status")).to_contain_text("Ann to play")
    game = Game.objects.get()
    assert game.club is not None
    domain.act(game.pk, "play", notation="5D MOOD")
    domain.act(game.pk, "finish")

    page.goto("/clubs/riverside-word-club/")
    expect(page.locator("table.standings")).to_contain_text("Ann")
    camera.shoot("standings")
    page.click("table.standings >> text=Ann")
    expect(page.locator("table.player-results")).to_contain_text("Riverside Word Club")
    camera.shoot("player")
    page.goto("/rankings/?ruleset=upwords-10")
    expect(page.locator("main")).to_contain_text("words checked")
    camera.shoot("rankings")

    page.goto(f"/games/{game.pk}/")
    page.click("text=Declare this game void…")
    page.fill("#void-reason", "played with two bags")
    page.check("input[name=confirm]")
    page.click("button:has-text('Declare void')")
    expect(page.locator(".messages")).to_contain_text("The game is void")
    expect(page.locator("main")).to_contain_text(
        "Voided after turn 1 by director: ann — played with two bags."
    )
    camera.shoot("void")
    page.click("button:has-text('Undo the void')")
    expect(page.locator(".messages")).to_contain_text("The void is undone")

    page.click("header.site button:has-text('Sign out')")
    expect(page.locator("header.site")).to_contain_text("Sign in")
