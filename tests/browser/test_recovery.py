"""Recovery at the table in a real browser: correcting turn 2 of a 5-turn game, abandoning a
game, who starts, and the links this browser keeps."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.games import domain
from scorekeeper.models import Game
from tests.browser.pages import SHOTS, WORDS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# RULES.md §3's first five turns: Ann 8, Ben 8, Ann 10, Ben 5, Ann 12.
FIVE = ["5D MOOD", "G6 EAR", "6F N.T", "5D W", "G5 L..P"]
WIDTHS = (360, 390, 1280)


@pytest.fixture(autouse=True)
def journey_lexicon(use_words):
    return use_words(WORDS + " LEAP NETS DEARS LEAPS")


def shoot(page: Page, folder: Path, name: str) -> None:
    """The page at each width, whole; nothing may make it scroll sideways."""
    folder.mkdir(parents=True, exist_ok=True)
    page.wait_for_load_state()  # a click that navigates returns before the next page exists
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 844 if width < 500 else 800})
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= width, f"{name} is {wide}px wide at {width}"
        page.screenshot(path=str(folder / f"{name}-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})


def five_turns() -> Game:
    game = domain.check_create_game(ruleset="upwords-10", players=["Ann", "Ben"], lexicon="CLUB")
    for notation in FIVE:
        domain.act(game.pk, domain.TurnCommand("play", notation=notation))
    game.refresh_from_db()
    return game


def scores(page: Page) -> list[str]:
    return page.locator("[aria-label=Scores]").inner_text().split()


def test_correcting_turn_2_of_a_5_turn_game(page: Page):
    folder = SHOTS / "recovery"
    game = five_turns()
    page.goto(f"/games/{game.pk}/score/{game.token}/")
    page.click("summary:has-text('Manage the game')")  # folded away on the scorer page
    page.click("text=Correct an earlier turn…")
    shoot(page, folder, "01-correct-list")
    page.click("a:has-text('Turn 2:')")
    # The board as it was before turn 2, with the play as entered on it, ready to change.
    field = page.locator("#play-input")
    expect(field).to_have_value("G5 .EAR")
    expect(page.get_by_role("gridcell", name=re.compile("^G7: "))).to_contain_text("A")
    expect(page.get_by_role("gridcell", name=re.compile("^H6: "))).not_to_contain_text("N")
    # Corrected by tapping, as a turn is entered: the play came back down, so the cursor goes
    # down from the square tapped; then the letters.
    expect(page.locator("#direction")).to_have_text("Down ↓")
    page.click("button.key[data-key=Clear]")
    expect(field).to_have_value("")
    expect(page.locator("#preview")).to_be_empty()  # settled: nothing moves under the tap
    page.get_by_role("gridcell", name=re.compile("^G6: ")).click()
    expect(page.locator("#direction")).to_have_text("Down ↓")
    page.keyboard.type("ears")
    expect(field).to_have_value("G5 .EARS")
    expect(page.locator("#preview")).to_contain_text("10")
    shoot(page, folder, "02-correct-form")
    page.click("text=Correct turn 2")
    messages = page.locator(".messages")
    expect(messages).to_contain_text("Turn 2 was corrected: Ben played G5 .EARS for 10")
    expect(messages).to_contain_text("turn 2 (Ben) 8 → 10; turn 5 (Ann) 12 → 13")
    expect(messages).to_contain_text("Totals: Ann 30 → 31; Ben 13 → 15.")
    shoot(page, folder, "03-corrected")
    game.refresh_from_db()
    assert [s.score for s in game.seats.order_by("order")] == [31, 15]

    # A correction that breaks a later play is refused, naming it.
    page.goto(f"/games/{game.pk}/score/{game.token}/correct?turn=4")
    page.check("input[name=move][value=pass]")
    page.click("text=Correct turn 4")
    expect(page.locator(".refusal")).to_contain_text("turn 5 (Ann’s play) would no longer be legal")
    shoot(page, folder, "04-correct-refused")


def test_abandoning_a_game_and_the_links_kept(page: Page):
    folder = SHOTS / "recovery"
    game = five_turns()
    page.goto(f"/games/{game.pk}/score/{game.token}/")
    page.click("summary:has-text('Manage the game')")  # folded away on the scorer page
    page.click("text=Show the game on another phone or a TV")
    page.click("text=Hand the scoring to another phone…")
    page.click("text=Abandon the game…")
    shoot(page, folder, "05-manage-open")
    page.click("text=Yes, show the scorer QR code")
    expect(page.locator("img[alt='QR code of the scorer link']")).to_be_visible()
    shoot(page, folder, "06-hand-over")
    page.go_back()
    if not page.locator("text=Abandon the game…").is_visible():
        page.click("summary:has-text('Manage the game')")
        page.click("text=Abandon the game…")
    page.check("input[name=confirm]")
    page.click("button:has-text('Abandon the game')")  # the confirmation dialog is accepted
    expect(page.locator(".end")).to_contain_text("This game was abandoned")
    shoot(page, folder, "07-abandoned")
    assert Game.objects.get(pk=game.pk).status == "abandoned"
    page.goto("/")
    yours = page.locator("ul[aria-labelledby=yours]")
    expect(yours).to_contain_text("abandoned")
    expect(yours.locator("a").first).to_have_attribute(
        "href", re.compile(f"/games/{game.pk}/score/$")
    )
    shoot(page, folder, "08-home")
    yours.locator("a").first.click()
    page.click("button:has-text('Undo last turn')")
    expect(page.locator("h1")).to_contain_text("to play")


def test_who_starts_is_chosen_after_drawing_at_the_table(page: Page):
    folder = SHOTS / "recovery"
    page.goto("/games/new")
    page.select_option("#id_lexicon", "CLUB")
    page.fill("#id_player_1", "Ann")
    page.fill("#id_player_2", "Ben")
    expect(page.locator("#id_starter option[value='2']")).to_have_text("Ben")
    shoot(page, folder, "09-new-game")
    page.click("text=Start the game")
    page.click("summary:has-text('Manage the game')")  # folded away on the scorer page
    page.check("input[name=first][value=Ben]")
    page.click("text=Set who starts")
    expect(page.locator(".messages")).to_contain_text("Ben starts.")
    expect(page.locator("h1.status")).to_contain_text("Ben to play")
    shoot(page, folder, "10-who-starts")
