"""The table on a phone and a laptop: what stays on screen while a play is entered, how typing
reads the board, and the spectator screen filling a TV or a phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.games import clocks, domain
from scorekeeper.models import Game, Turn
from tests.browser.pages import DESKTOP, PHONE, SHOTS, SMALL, WORDS, assert_in_view

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def table_lexicon(use_words):
    return use_words(WORDS + " HOUSES BET QUIT")


def make_game(ruleset: str, plays=(), players=("Ann", "Ben"), passes: int = 0) -> Game:
    game = domain.check_create_game(ruleset=ruleset, players=list(players), lexicon="CLUB")
    for play in plays:
        domain.act(game.pk, domain.TurnCommand("play", notation=play))
    for _ in range(passes):
        domain.act(game.pk, domain.TurnCommand("pass"))
    return Game.objects.get(pk=game.pk)


def scorer(game: Game) -> str:
    return f"/games/{game.pk}/score/{game.token}/"


def tap(page: Page, square: str) -> None:
    page.click(f"button.sq[data-name={square}]")


def shoot(page: Page, name: str) -> None:
    folder = SHOTS / "table"
    folder.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    page.screenshot(path=str(folder / f"{name}-{size['width']}x{size['height']}.png"))


ENTRIES = {
    "upwords-4-players": ("upwords-10", ["5D MOOD"], ("Ann", "Ben", "Cleo", "Dimitri"), "D6", "at"),
    "upwords-8": ("upwords-8", ["4C MOOD"], ("Ann", "Ben"), "C5", "at"),
    "letterup": ("letterup-classic", ["8D HOUSE"], ("Ann", "Ben"), "E9", "ax"),
}


@pytest.mark.parametrize("size", [SMALL, PHONE, DESKTOP], ids=["360", "390", "1280"])
@pytest.mark.parametrize("entry", list(ENTRIES))
def test_board_scores_and_submit_stay_in_view_while_a_play_is_entered(
    page, live_server, size, entry
):
    ruleset, plays, players, square, letters = ENTRIES[entry]
    page.set_viewport_size(size)
    game = make_game(ruleset, plays, players)
    page.goto(scorer(game))
    tap(page, square)
    page.keyboard.type(letters)
    expect(page.locator("#preview")).to_contain_text(re.compile(r"points|Not legal|So far"))
    shoot(page, f"entering-{entry}")
    wrap = page.locator(".board-wrap")
    assert_in_view(page, wrap)
    scores = page.locator(".scoreboard .score")
    expect(scores).to_have_count(len(players))
    for score in scores.all():
        assert_in_view(page, score)
    assert_in_view(page, page.get_by_role("button", name=re.compile("^Submit")))
    assert_in_view(page, page.locator(".pad button[data-letter=E]"))
    if size is not DESKTOP:
        # Every square at least 24 px; on 15×15 the tapped part of the board is zoomed to 40+.
        width = page.locator(f"button.sq[data-name={square}]").bounding_box()["width"]
        assert width >= (40 if game.ruleset == "letterup-classic" else 24), width
    if ruleset == "letterup-classic" and size is not DESKTOP:
        expect(wrap).to_have_class(re.compile("zoomed"))
        page.click("#whole-board")  # one tap: the whole board
        expect(wrap).not_to_have_class(re.compile("zoomed"))
        assert_in_view(page, page.locator("button.sq[data-name=O15]"))
        shoot(page, f"whole-board-{entry}")


def test_typing_reads_through_tiles_already_on_the_board(page, live_server):
    game = make_game("letterup-classic", ["8D HOUSE"])
    page.goto(scorer(game))
    field = page.locator("#play-input")
    # The whole word from D8: the letters already there are played through.
    tap(page, "D8")
    page.keyboard.type("houses")
    expect(field).to_have_value("8D .....S")
    expect(page.locator("#preview")).to_contain_text("HOUSES")
    # The zoomed part of the board pans to keep the cursor (now J8) in sight.
    wrap = page.locator(".board-wrap").bounding_box()
    cursor = page.locator("button.sq.cursor").bounding_box()
    assert page.locator("button.sq.cursor").get_attribute("data-name") == "J8"
    assert wrap["x"] <= cursor["x"] and cursor["x"] + cursor["width"] <= wrap["x"] + wrap["width"]
    page.click("button.key[data-key=Clear]")
    # Only the new letter: a different letter skips to the next empty square.
    tap(page, "D8")
    page.keyboard.type("s")
    expect(field).to_have_value("8D .....S")
    page.click("button.key[data-key=Clear]")
    # Down through an E: B-E-T makes BET, not BEET.
    tap(page, "H7")
    tap(page, "H7")
    expect(page.locator("#direction")).to_have_text("Down ↓")
    page.keyboard.type("bet")
    expect(field).to_have_value("H7 B.T")
    expect(page.locator("#preview")).to_contain_text("BET")
    assert page.locator("button.sq[data-name=H7]").bounding_box()["width"] >= 40
    shoot(page, "through")
    # ⌫ goes back one step at a time, through squares included.
    page.keyboard.press("Backspace")
    expect(field).to_have_value("H7 B.")


def test_the_same_letter_on_a_stack_is_refused_and_a_different_one_stacks(page, live_server):
    game = make_game("upwords-10", ["5D MOOD"])
    page.goto(scorer(game))
    preview = page.locator("#preview")
    tap(page, "E5")
    page.click("button.key[data-letter=O]")
    # Read through, as the play typed in the field ("5E O"): entered so, it names the rule.
    expect(page.locator("#play-input")).to_have_value("5E O")
    expect(preview).to_contain_text("The play reads through E5")
    expect(preview.locator(".bad")).to_have_count(0)  # the next letter may carry on the word
    page.click("button.submit")
    expect(page.locator(".refusal")).to_contain_text("You can't stack O on O at E5.")
    shoot(page, "same-letter")
    page.click("button.key[data-key=Clear]")
    # A different letter stacks, and the pending tile shows the height it will make.
    tap(page, "D5")
    page.keyboard.type("w")
    expect(page.locator("#play-input")).to_have_value("5D W...")
    expect(page.locator("button.sq[data-name=D5] .height.new")).to_have_text("2")
    expect(page.locator("#preview")).to_contain_text("WOOD")


def test_a_word_being_tapped_is_told_what_it_lacks_until_it_is_a_play(page, live_server):
    game = make_game("upwords-10")
    page.goto(scorer(game))
    preview = page.locator("#preview")
    tap(page, "E5")
    page.click("button.key[data-letter=M]")
    expect(preview).to_contain_text("A word needs two letters or more")
    expect(preview.locator(".bad")).to_have_count(0)
    expect(preview).not_to_contain_text("Not legal")
    expect(page.locator("button.sq.offending")).to_have_count(0)
    shoot(page, "first-letter")
    for letter in "OOD":
        page.click(f"button.key[data-letter={letter}]")
    expect(preview).to_contain_text("points")
    # A complete play that breaks a rule is still refused in red.
    page.click("button.key[data-key=Clear]")
    tap(page, "E5")
    page.click("button.key[data-letter=M]")
    tap(page, "F6")
    page.click("button.key[data-letter=O]")
    expect(preview.locator(".bad")).to_contain_text("Not legal")


def test_a_word_typed_through_a_letter_on_a_stack_says_no_warning(page, live_server):
    game = make_game("upwords-10", ["5D MOOD"])
    page.goto(scorer(game))
    tap(page, "E5")
    tap(page, "E5")  # down: O-N through the O at E5
    page.keyboard.type("o")
    expect(page.locator("#play-input")).to_have_value("E5 O")
    expect(page.locator("#entry-note")).to_have_text("")
    expect(page.locator("#preview")).not_to_contain_text("stack")
    page.keyboard.type("n")
    expect(page.locator("#play-input")).to_have_value("E5 .N")
    expect(page.locator("#preview")).to_contain_text("points")
    expect(page.locator("#entry-note")).to_have_text("")


def test_the_qu_tile_is_not_drawn_as_a_blank(page, live_server):
    game = make_game("upwords-10")
    page.goto(scorer(game))
    tap(page, "E5")
    for letter in ("Qu", "I", "T"):
        page.click(f"button.key[data-letter={letter}]")
    expect(page.locator("#play-input")).to_have_value("5E QuIT")
    qu = page.locator("button.sq[data-name=E5]")
    expect(qu.locator(".letter.new")).to_have_text("Qu")
    expect(qu).to_have_class(re.compile(r"\bpending\b"))
    expect(qu).not_to_have_class(re.compile("blank"))
    page.click("button.submit")
    expect(page.locator(".messages")).to_contain_text("5E QuIT")
    expect(page.locator("button.sq[data-name=E5]")).not_to_have_class(re.compile("blank"))
    shoot(page, "qu-tile")


# Every square and key whose name doesn't hold its visible text, spaces aside (WCAG 2.5.3).
# The squares and keys whose name doesn't contain the text they show, compared as Lighthouse's
# label-content-name-mismatch does: the rendered text run together ("H" and its value "4" are
# "H4"), case, punctuation and spacing aside.
UNLIKE_THEIR_TEXT = """Array.from(document.querySelectorAll("[role=gridcell], .pad .key"))
  .filter(function (el) {
    function curate(text) { return text.toLowerCase().replace(/[^\\p{L}\\p{N}]+/gu, " ").trim(); }
    let shown = "";
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    while (walk.nextNode()) {
      if (walk.currentNode.parentElement.checkVisibility()) shown += walk.currentNode.data;
    }
    const name = curate(el.getAttribute("aria-label") || el.textContent);
    return curate(shown) && !name.includes(curate(shown));
  }).map(function (el) { return el.getAttribute("aria-label") + " / " + el.innerText; })"""


def test_squares_and_keys_are_named_with_what_they_show(page, live_server):
    game = make_game("crossword-classic", ["8D HOUSE"])
    page.goto(scorer(game))
    grid = page.get_by_role("grid")
    expect(grid.get_by_role("gridcell", name="D8: H4, double letter, last play")).to_have_count(1)
    expect(page.get_by_role("button", name="H4 (4 points)")).to_have_count(1)
    tap(page, "E9")
    page.click("button.key[data-letter=X]")
    expect(grid.get_by_role("gridcell", name="E9: X8, placed now")).to_have_count(1)
    assert page.evaluate(UNLIKE_THEIR_TEXT) == []
    page.click("button.key[data-key=Clear]")
    expect(grid.get_by_role("gridcell", name=re.compile("^E9: empty"))).to_have_count(1)
    for other in (f"/games/{game.pk}/", f"/games/{game.pk}/watch"):  # the game, the spectator
        page.goto(other)
        expect(
            page.get_by_role("gridcell", name="D8: H4, double letter, last play")
        ).to_be_visible()
        assert page.evaluate(UNLIKE_THEIR_TEXT) == []


def test_a_double_tap_on_submit_enters_one_turn(page, live_server):
    game = make_game("upwords-10")
    page.goto(scorer(game))
    tap(page, "D5")
    page.keyboard.type("mood")
    expect(page.locator("#preview")).to_contain_text("8 points")
    page.locator("button.submit").dblclick()
    expect(page.locator(".messages")).to_contain_text("Ann played 5D MOOD for 8")
    expect(page.locator(".refusal")).to_have_count(0)
    assert Turn.objects.filter(game=game).count() == 1


def test_a_refused_play_keeps_its_tiles_and_a_reload_sends_nothing(page, live_server):
    game = make_game("upwords-10")
    page.goto(scorer(game))
    tap(page, "A1")
    page.keyboard.type("at")
    page.click("button.submit")
    expect(page.locator(".refusal")).to_contain_text("Not entered")
    assert page.url.endswith(f"/games/{game.pk}/score/#board")  # the secret is not in the address
    expect(page.locator("#play-input")).to_have_value("1A AT")
    expect(page.locator("button.sq[data-name=A1]")).to_have_class(re.compile("pending"))
    expect(page.locator("button.sq[data-name=A1]")).to_have_class(re.compile("offending"))
    shoot(page, "refused")
    page.reload()
    expect(page.locator(".refusal")).to_have_count(0)
    assert Turn.objects.filter(game=game).count() == 0


def test_undo_from_the_rack_screen(page, live_server):
    game = make_game("letterup-rush", passes=4)
    page.goto(scorer(game))
    expect(page.locator("h1.status")).to_contain_text("reached its end")
    shoot(page, "racks")
    page.click("button:has-text('Undo last turn')")
    expect(page.locator("h1.status")).to_contain_text("Ben to play")


def test_a_blank_is_entered_and_shown_as_a_blank(page, live_server):
    game = make_game("crossword-classic")
    page.goto(scorer(game))
    tap(page, "D8")
    page.keyboard.type("hous?e")  # ? then the letter: a blank
    field = page.locator("#play-input")
    # The field writes the play as the preview does, the blank lowercase, and shows it so.
    expect(field).to_have_value("8D HOUSe")
    expect(page.locator("#preview .notation")).to_have_text("8D HOUSe")
    assert field.evaluate("f => getComputedStyle(f).textTransform") == "none"
    expect(page.locator("#preview")).to_contain_text("HOUSE")
    page.click("button.submit")
    expect(page.locator(".messages")).to_contain_text("8D HOUSe")
    expect(page.locator("button.sq[data-name=H8]")).to_have_class(re.compile("blank"))
    expect(page.locator("button.sq[data-name=D8] .val")).to_have_text("4")
    shoot(page, "blank")


SCREENS = [
    {"width": 1280, "height": 720},
    {"width": 1920, "height": 1080},
    {"width": 1280, "height": 800},
    PHONE,
]


@pytest.mark.parametrize("size", SCREENS, ids=lambda s: f"{s['width']}x{s['height']}")
@pytest.mark.parametrize(
    "ruleset,plays", [("upwords-8", ["4C MOOD"]), ("letterup-classic", ["8D HOUSE", "H9 XAM"])]
)
def test_the_spectator_screen_fills_the_screen_without_scrolling(
    page, live_server, size, ruleset, plays
):
    page.set_viewport_size(size)
    game = make_game(ruleset, plays, players=("Ann", "Ben", "Cleo"))
    # Letter UP's screen keeps a turn countdown alone; Upwords' a clock for each player.
    clock = ".clock" if ruleset.startswith("letterup") else ".player-clock"
    if clock == ".clock":
        game.turn_clock = 75
    else:
        game.clock = clocks.started({"kind": "player"}, 3, 1)  # Ben is to play
    game.save(update_fields=["turn_clock", "clock"])
    page.goto(f"/games/{game.pk}/watch")
    shoot(page, f"watch-{ruleset}")
    expect(page.locator("header.site")).to_have_count(0)
    width, height = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    assert width <= size["width"] and height <= size["height"], (width, height)
    assert_in_view(page, page.locator(".board-wrap"))
    for score in page.locator(".scoreboard .score").all():
        assert_in_view(page, score)
        assert score.bounding_box()["height"] >= 40
    expect(page.locator(clock)).to_have_count(3 if clock == ".player-clock" else 1)
    for face in page.locator(clock).all():
        assert_in_view(page, face)
    last = page.locator(".last-play")
    expect(last).to_contain_text("for ")
    assert_in_view(page, last)
