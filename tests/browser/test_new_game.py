"""The new-game form in a browser: choosing a ruleset sets the rule options to its own rules
and offers only those that concern it; the game starts with the rules chosen, and its pages
say them."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.models import Game
from tests.browser.pages import DESKTOP, PHONE, SHOTS, SMALL

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shoot(page: Page, name: str) -> None:
    folder = SHOTS / "new-game"
    folder.mkdir(parents=True, exist_ok=True)
    for size in (SMALL, PHONE, DESKTOP):
        page.set_viewport_size(size)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size["width"], f"{name} is {width}px wide at {size['width']}px"
        page.screenshot(path=str(folder / f"{name}-{size['width']}.png"), full_page=True)
    page.set_viewport_size(PHONE)


def test_choosing_a_ruleset_sets_its_own_rules_and_the_game_keeps_those_chosen(page, live_server):
    page.goto("/games/new")
    page.click("text=Rule options")
    plural_s = page.locator("[data-option=plural_s_rule]")
    out_bonus = page.locator("[data-option=out_bonus]")
    expect(plural_s).to_be_visible()
    expect(out_bonus).to_be_hidden()
    expect(page.locator(".no-js")).to_be_hidden()  # the script follows the choice itself
    # The crossword game: its own challenge rules (a double challenge), its own options.
    page.check("input[name=ruleset][value=crossword-classic]")
    expect(page.locator("input[name=upheld_challenge]:checked")).to_have_value("lose_turn")
    expect(page.locator("input[name=rejected_challenge]:checked")).to_have_value("lose_turn")
    expect(plural_s).to_be_hidden()
    expect(out_bonus).to_be_visible()
    expect(page.locator(".options-for")).to_have_text("Crossword (classic, 15×15)")
    expect(page.locator("#turn-clock-help")).to_have_text("")
    page.check("input[name=ruleset][value=letterup-classic]")
    expect(page.locator("#turn-clock-help")).to_have_text(
        "Letter UP Classic's rule is 75 seconds (1:15)."
    )
    # Back to Upwords and to the crossword game again: each time the ruleset's own defaults.
    page.check("input[name=ruleset][value=upwords-8]")
    expect(page.locator("input[name=upheld_challenge]:checked")).to_have_value("retry")
    expect(plural_s).to_be_visible()
    page.check("input[name=ruleset][value=crossword-classic]")
    # The club's evening: tournament checking, a single challenge, a phony may be replaced.
    page.select_option("#id_lexicon", "CLUB")
    page.fill("#id_player_1", "Ann")
    page.fill("#id_player_2", "Ben")
    page.check("input[name=challenge_mode][value=manual]")
    page.check("input[name=upheld_challenge][value=retry]")
    page.check("input[name=rejected_challenge][value=none]")
    shoot(page, "form-crossword")
    page.click("text=Start the game")
    expect(page.locator("h1.status")).to_contain_text("Ann to play")
    game = Game.objects.get()
    assert game.ruleset == "crossword-classic" and game.challenge_mode == "manual"
    assert game.options["upheld_challenge"] == "retry"
    assert game.options["rejected_challenge"] == "none"
    line = "CLUB · tournament checking · single challenge · after a phony the player may try again"
    expect(page.locator(".rules-line")).to_have_text(f"Rules: {line}")
    # The hooks other journeys rely on are still there.
    expect(page.get_by_role("grid")).to_have_count(1)
    expect(page.get_by_role("gridcell", name="H8: empty, DW, start square")).to_have_count(1)
    expect(page.get_by_role("button", name="Submit play")).to_have_count(1)
    shoot(page, "scorer")
    page.click("summary:has-text('Links')")
    expect(page.locator(".links .help")).to_contain_text("keeps the game's scorer key in a cookie")
    page.goto(f"/games/{game.pk}/watch")
    expect(page.locator(".rules-line")).to_have_text(line)
    shoot(page, "watch")
    page.goto(f"/games/{game.pk}/")
    expect(page.locator(".facts")).to_contain_text(line)
    shoot(page, "game-page")


def test_without_its_script_the_form_still_follows_the_ruleset(browser, live_server):
    context = browser.new_context(
        viewport=PHONE, base_url=live_server.url, java_script_enabled=False
    )
    page = context.new_page()
    page.goto("/games/new")
    page.click("text=Rule options")
    expect(page.locator("[data-option=out_bonus]")).to_be_hidden()
    page.click(".no-js a:has-text('Crossword')")
    expect(page.locator("input[name=rejected_challenge]:checked")).to_have_value("lose_turn")
    expect(page.locator("[data-option=out_bonus]")).to_be_visible()
    expect(page.locator("[data-option=plural_s_rule]")).to_be_hidden()
    shoot(page, "form-no-script")
    context.close()
