"""A club's journey in a real browser: sign in, make a club, fill its roster, invite an account
to be one of its players and make one for another, start a game for the club, see the
standings, void the game and undo the void, sign out; the invited player signs in and accepts.
Every page fits 360 px and keeps to the Content-Security-Policy, and its controls are at
least 24 px tall."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from scorekeeper.games import domain
from scorekeeper.models import Game
from tests.browser.pages import SMALL, Camera

TAP = 24  # px: the smallest a button or a field may be (WCAG 2.2, target size minimum)


def assert_tappable(page: Page) -> None:
    """Every button and field of the page's main part is at least TAP px tall and wide, at
    the small phone's width."""
    page.set_viewport_size(SMALL)
    sizes = page.eval_on_selector_all(
        "main button, main input:not([type=hidden]), main .btn",
        "els => els.map(e => [e.textContent.trim() || e.name, e.getBoundingClientRect().width,"
        " e.getBoundingClientRect().height])",
    )
    small = [s for s in sizes if s[1] < TAP or s[2] < TAP]
    assert sizes and not small, small


pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_club_director_s_journey(page: Page, live_server):
    User = get_user_model()
    User.objects.create_user("ann", password="pw-for-tests-only")
    User.objects.create_user("ben", password="pw-for-tests-only")
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
    for name in ("Ann", "Ben", "Cy"):
        page.fill("#add-player", name)
        page.click("button:has-text('Add')")
        expect(page.locator(".messages")).to_contain_text(f"{name} is on Riverside")
    ben = page.locator("li.roster-player", has_text="Ben")
    ben.locator("summary:has-text('Account…')").click()  # one control: invite, make, or me
    ben.locator("input[name=username]").fill("ben")
    ben.locator("button:has-text('Invite')").click()
    expect(page.locator(".messages")).to_contain_text(
        "If an account called ben exists, it has been invited to be Ben"
    )
    expect(ben).to_contain_text("invited ben, no answer yet")
    cy = page.locator("li.roster-player", has_text="Cy")
    cy.locator("summary:has-text('Account…')").click()
    camera.shoot("account-choice")
    cy.locator("text=Make an account").click()
    expect(page.locator(".new-account")).to_contain_text("The account cy-")
    ann = page.locator("li.roster-player", has_text="Ann")
    ann.locator("summary:has-text('Account…')").click()
    ann.locator("button:has-text('This is me')").click()
    expect(page.locator(".messages")).to_contain_text("You are Ann now")
    expect(page.locator("li.roster-player", has_text="Ann")).to_contain_text("account ann")
    assert_tappable(page)
    camera.shoot("club")

    page.locator("li.roster-player", has_text="Ben").locator("text=Remove…").click()
    expect(page.locator("h1")).to_have_text("Remove Ben from Riverside Word Club?")
    camera.shoot("remove")
    page.click("text=Keep Ben")
    expect(page.locator("li.roster-player", has_text="Ben")).to_be_visible()

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
    domain.act(game.pk, domain.TurnCommand("play", notation="5D MOOD"))
    domain.act(game.pk, domain.TurnCommand("finish"))
    # The scorer's page follows turns entered elsewhere: it loads itself again, so wait for that
    # before going on (a navigation of ours would be cut short by it).
    expect(page.locator("h1.status")).to_contain_text(re.compile("Game over|reached its end"))

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

    # Ben signs in, finds the invitation and accepts: he is Ben, a member of the club.
    page.click("header.site >> text=Sign in")
    page.fill("#id_username", "ben")
    page.fill("#id_password", "pw-for-tests-only")
    page.click("button:has-text('Sign in')")
    camera.shoot("invited")
    page.click("text=A club invites you to be one of its players")
    expect(page.locator("h1")).to_have_text("Invitations")
    expect(page.locator("main")).to_contain_text("Riverside Word Club: be Ben?")
    assert_tappable(page)
    camera.shoot("invitations")
    page.click("button:has-text('Accept')")
    expect(page.locator(".messages")).to_contain_text("You are Ben now, a member of Riverside")
    camera.shoot("accepted")
    page.goto("/games/new")
    expect(page.locator("#id_club")).to_contain_text("Riverside Word Club")
