"""Whole games played through the pages in a real browser, as a table would play them."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.models import Game
from tests.browser.pages import Camera

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def new_game(page: Page, camera: Camera, ruleset: str, mode: str, clock: str = "") -> None:
    page.goto("/games/new")
    camera.shoot("new-game")
    page.check(f"input[name=ruleset][value={ruleset}]")
    page.select_option("#id_lexicon", "CLUB")
    page.fill("#id_player_1", "Ann")
    page.fill("#id_player_2", "Ben")
    page.select_option("#id_starter", "1")
    page.check(f"input[name=challenge_mode][value={mode}]")
    if clock:
        page.check("input[name=clock][value=turn]")
        page.fill("#id_turn_clock", clock)
    page.click("text=Start the game")
    expect(page.locator("h1.status")).to_contain_text("Ann to play")


def tap(page: Page, square: str) -> None:
    page.click(f"button.sq[data-name={square}]")


def submit(page: Page) -> None:
    # The page's script sends the turn, then opens the page the answer names.
    with page.expect_navigation():
        page.click("text=Submit play")


def action(page: Page, label: str) -> None:
    with page.expect_navigation():
        page.click(f".actions button:has-text('{label}')")


def preview(page: Page):
    return expect(page.locator("#preview"))


def test_a_whole_upwords_game(page: Page, live_server):
    camera = Camera(page, "upwords")
    new_game(page, camera, "upwords-10", "manual")
    camera.shoot("board")

    # Ann: tap D5, type MOOD; the preview shows the score before she commits.
    tap(page, "D5")
    page.keyboard.type("mood")
    preview(page).to_contain_text("8 points")
    preview(page).to_contain_text("MOOD 4 tiles × 2 = 8")
    camera.shoot("preview")
    submit(page)
    expect(page.locator(".messages")).to_contain_text("Ann played 5D MOOD for 8")

    # Ben types the play instead: EAR down from G6, making DEAR.
    page.fill("#play-input", "G6 EAR")
    preview(page).to_contain_text("DEAR")
    submit(page)

    # Ann tries AT in a corner: the preview says what it lacks, and Submit is refused with the
    # rule.
    tap(page, "A1")
    page.keyboard.type("at")
    reason = "Your tiles must touch a tile already on the board or be stacked on one."
    preview(page).to_contain_text("Go on until the word reaches a tile already on the board.")
    submit(page)
    expect(page.locator(".refusal")).to_contain_text(reason)
    camera.shoot("refused")
    # Typed by hand, O on O is named for what it is.
    page.fill("#play-input", "E5=O")
    preview(page).to_contain_text("You can't stack O on O at E5.")

    # Ann stacks W on the M: WOOD, 4 letters and one tile underneath.
    page.click("button.key[data-key=Clear]")
    tap(page, "D5")
    page.keyboard.type("w")
    preview(page).to_contain_text("2+1+1+1 = 5")
    camera.shoot("stack-preview")
    submit(page)
    expect(page.locator("button.sq[data-name=D5]")).to_have_attribute(
        "aria-label", "D5: W2, 2 high, last play"
    )

    # Ben plays a phony (ZX, with ZW and XO down); Ann challenges: not acceptable.
    page.fill("#play-input", "4D ZX")
    submit(page)
    page.click("button:has-text('Challenge 4D ZX')")
    expect(page.locator(".verdict")).to_contain_text("NOT ACCEPTABLE")
    camera.shoot("verdict-upheld")
    expect(page.locator("h1.status")).to_contain_text("Ben to play")

    # Ben tries again with TO; Ann challenges: acceptable, and the play stands.
    tap(page, "E4")
    page.keyboard.type("t")
    submit(page)
    page.click("button:has-text('Challenge')")
    expect(page.locator(".verdict")).to_contain_text("ACCEPTABLE")
    expect(page.locator(".verdict")).not_to_contain_text("NOT")
    camera.shoot("verdict-rejected")

    # A pass, an exchange, then two passes in a row end the game.
    action(page, "Pass")
    action(page, "Exchange a tile")
    expect(page.locator(".messages")).to_contain_text("Ben exchanged 1 tile")
    action(page, "Pass")
    action(page, "Pass")
    expect(page.locator(".end")).to_contain_text("Ann wins")
    final = page.locator("table.final")
    expect(final).to_contain_text("-22")  # 8 + 5 − 35
    expect(final).to_contain_text("-23")  # 8 + 4 − 35
    camera.shoot("end")
    game = Game.objects.get()
    assert [s.final_score for s in game.seats.order_by("order")] == [-22, -23]

    # The game's page: the log, the chart, and a replay stepped back to turn 4.
    page.click("text=Replay and chart")
    expect(page.locator("svg[role=img]")).to_have_count(1)
    camera.shoot("game-page")
    page.goto(f"/games/{game.pk}/?turn=4")
    expect(page.locator("body")).to_contain_text("WOOD")
    camera.shoot("replay")

    page.click("nav >> text=Rankings")
    expect(page.locator("main")).to_contain_text("Ann")
    camera.shoot("rankings")
    page.click("main >> a:text-is('Ann')")
    expect(page.locator("h1")).to_contain_text("Ann")
    camera.shoot("player")

    page.click("nav >> text=Games")
    expect(page.locator("main table")).to_contain_text("Ann")
    camera.shoot("game-list")

    page.goto(f"/games/{game.pk}/watch")
    camera.shoot("spectator")


def test_a_whole_letterup_game(page: Page, live_server):
    camera = Camera(page, "letterup")
    new_game(page, camera, "letterup-classic", "auto", clock="75")
    # The turn timer: Ann's turn counts down from 1:15.
    timer = page.locator(".scorebar .player-clock.running .clock-time")
    expect(timer).to_have_text(re.compile(r"^[01]:\d\d$"))
    camera.shoot("board")

    # Ann: HOUSE from D8, H on a double letter and E on the centre double word.
    tap(page, "D8")
    page.keyboard.type("house")
    preview(page).to_contain_text("24 points")
    preview(page).to_contain_text("H 4×2 + O 1 + U 1 + S 1 + E 1 = 12, ×2 = 24")
    camera.shoot("premium-preview")
    submit(page)

    # Ben's first try is not a word: named as it is entered, refused when submitted.
    page.fill("#play-input", "H8 .XQZ")
    preview(page).to_contain_text("So far, not in CLUB: EXQZ.")
    submit(page)
    expect(page.locator(".refusal")).to_contain_text("EXQZ is not in CLUB.")
    camera.shoot("refused-word")

    # Ben taps H9, taps it again to go down, and types XAM: EXAM, 14.
    tap(page, "H9")
    tap(page, "H9")
    expect(page.locator("#direction")).to_have_text("Down ↓")
    page.keyboard.type("xam")
    preview(page).to_contain_text("14 points")
    submit(page)
    expect(page.locator(".scoreboard")).to_contain_text("14")

    # Ann exchanges three tiles; then two passes each bring the end.
    page.select_option("#exchange-count", "3")
    action(page, "Exchange")
    for _ in range(4):
        action(page, "Pass")
    expect(page.locator("h1.status")).to_contain_text("reached its end")
    camera.shoot("racks")

    page.fill("#rack-0", "QZJKWVY")
    page.fill("#rack-1", "aaeeiio")
    page.click(".racks button:has-text('Finish game')")
    expect(page.locator(".end")).to_contain_text("Ben wins")
    camera.shoot("end")
    game = Game.objects.get()
    assert [s.final_score for s in game.seats.order_by("order")] == [24 - 46, 14 - 7]

    page.click("text=Replay and chart")
    camera.shoot("game-page")
    with page.expect_download() as download:
        page.click("text=Download GCG")
    text = download.value.path().read_text()
    assert "#lexicon CLUB" in text and ">Ann: EHOSU 8D HOUSE +24 24" in text

    page.goto("/judge/")
    page.fill("#id_words", "house exam qzx")
    page.click("form.judge button[type=submit]")
    expect(page.locator(".verdict")).to_contain_text("NOT ACCEPTABLE")
    camera.shoot("word-judge")
    assert re.search(r"3 words", page.locator(".verdict").inner_text())


def test_a_play_entered_by_keyboard_alone(page: Page, live_server):
    page.goto("/games/new")
    page.fill("#id_player_1", "Ann")
    page.fill("#id_player_2", "Ben")
    page.select_option("#id_starter", "1")
    page.keyboard.press("Enter")
    expect(page.locator("h1.status")).to_contain_text("Ann to play")
    # A person types on the page once it is drawn, which is after its scripts have run
    # (board.js blocks rendering); Playwright's keyboard waits for nothing, and keys sent
    # before board.js listens would be lost.
    page.wait_for_load_state("domcontentloaded")
    # Tab into the board: one square is in the tab order (the start square).
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('sq')"):
            break
    assert page.evaluate("document.activeElement.dataset.name") == "E5"
    page.keyboard.press("ArrowLeft")  # D5
    page.keyboard.type("mood")
    expect(page.locator("#preview")).to_contain_text("8 points")
    page.keyboard.press("Backspace")  # take the D back
    expect(page.locator("#play-input")).to_have_value("5D MOO")
    page.keyboard.type("d")
    page.keyboard.press("Enter")
    expect(page.locator(".messages")).to_contain_text("Ann played 5D MOOD for 8")
    assert page.evaluate("document.activeElement !== null")
