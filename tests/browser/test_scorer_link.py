"""The scorer link in a real browser: opened once, the secret is in an HttpOnly, SameSite=Strict
cookie for this game and out of the address bar; it works when the link is followed from
another site's page too; a new link stops the old one."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.games import domain
from scorekeeper.http.links import cookie_name
from scorekeeper.models import Game

pytestmark = pytest.mark.django_db(transaction=True)


def new_game() -> Game:
    return domain.check_create_game(ruleset="upwords-10", players=["Ann", "Ben"], lexicon="CLUB")


def test_the_link_leaves_the_address_bar_and_the_cookie_keeps_the_secret(page: Page, live_server):
    game = new_game()
    page.goto(f"/games/{game.pk}/score/{game.token}/")
    assert page.url == f"{live_server.url}/games/{game.pk}/score/"
    expect(page.get_by_role("grid")).to_be_visible()
    (cookie,) = [c for c in page.context.cookies() if c["name"] == cookie_name(game.pk)]
    assert cookie["value"] == game.token
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    assert cookie["path"] == f"/games/{game.pk}/score/"
    assert page.evaluate("document.cookie").find(game.token) == -1  # no script can read it
    page.click("summary:has-text('Manage the game')")
    page.click("text=Hand the scoring to another phone…")
    page.click("text=Yes, show the scorer QR code")
    expect(page.locator(".long-link")).to_contain_text(game.token)  # the one page that shows it
    assert game.token not in page.url


def test_a_link_followed_from_another_sites_page_still_opens_the_scorer_page(
    page: Page, live_server
):
    """The navigation starts on another origin, so the browser would not send a SameSite=Strict
    cookie on a plain redirect: the page of this site that moves on by itself makes it work."""
    game = new_game()
    page.set_content(
        f'<a id="go" href="{live_server.url}/games/{game.pk}/score/{game.token}/">go</a>'
    )
    page.click("#go")
    page.wait_for_url(f"{live_server.url}/games/{game.pk}/score/")
    expect(page.get_by_role("grid")).to_be_visible()
    expect(page.get_by_role("button", name="Submit")).to_be_visible()


def test_a_new_link_stops_the_phone_that_had_the_old_one(browser, live_server):
    game = new_game()
    old = f"{live_server.url}/games/{game.pk}/score/{game.token}/"
    scorer = browser.new_context(base_url=live_server.url).new_page()
    other = browser.new_context(base_url=live_server.url).new_page()
    scorer.on("dialog", lambda dialog: dialog.accept())
    scorer.goto(old)
    other.goto(old)
    expect(other.get_by_role("grid")).to_be_visible()
    scorer.click("summary:has-text('Manage the game')")
    scorer.click("text=Hand the scoring to another phone…")
    scorer.click("text=Yes, show the scorer QR code")
    scorer.click("text=Make a new link…")
    scorer.check("input[name=confirm]")
    scorer.click("button:has-text('Make a new link')")
    expect(scorer.locator(".messages")).to_contain_text("New scorer link made")
    new = Game.objects.get(pk=game.pk).token
    assert new != game.token
    expect(scorer.locator(".long-link")).to_contain_text(new)
    scorer.click("text=Back to the game")
    expect(scorer.get_by_role("grid")).to_be_visible()
    other.reload()
    expect(other.locator("h1")).to_contain_text("can't change the game")
    other.goto(old)
    expect(other.locator("h1")).to_contain_text("can't change the game")
    scorer.context.close()
    other.context.close()
