"""Big screens used well: the scorer on a 1280×800 laptop (the board's squares 40 px and more,
the letter pad above the fold), and the spectator screen on a 1920×1080 TV (every text 28 px
and more, the last play's words and score, the last few turns)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.games import domain
from scorekeeper.models import Game
from tests.browser.pages import PHONE, SHOTS, SMALL, WORDS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1280, "height": 800}
TV = {"width": 1920, "height": 1080}


@pytest.fixture(autouse=True)
def screens_lexicon(use_words):
    return use_words(WORDS + " HOUSES BET")


def make_game(ruleset: str, plays: tuple[str, ...] = (), **fields: str) -> Game:
    game = domain.check_create_game(
        ruleset=ruleset, players=["Ann", "Ben"], lexicon="CLUB", **fields
    )
    for play in plays:
        domain.act(game.pk, domain.TurnCommand("play", notation=play))
    return Game.objects.get(pk=game.pk)


def shoot(page: Page, name: str) -> None:
    """The page at a phone, a small phone, a laptop and a TV, into var/screenshots/screens/."""
    folder = SHOTS / "screens"
    folder.mkdir(parents=True, exist_ok=True)
    for size in (SMALL, PHONE, LAPTOP, TV):
        page.set_viewport_size(size)
        page.screenshot(path=str(folder / f"{name}-{size['width']}x{size['height']}.png"))


def in_view(page: Page, selector: str) -> None:
    box = page.locator(selector).first.bounding_box()
    size = page.viewport_size
    assert box is not None, f"{selector} is not rendered"
    assert box["x"] >= 0 and box["y"] >= 0, (selector, box)
    assert box["x"] + box["width"] <= size["width"], (selector, box, size)
    assert box["y"] + box["height"] <= size["height"], (selector, box, size)


@pytest.mark.parametrize("ruleset", ["letterup-classic", "upwords-10"])
def test_a_laptop_scorer_shows_big_squares_and_the_pad_above_the_fold(page, live_server, ruleset):
    game = make_game(ruleset, ("8D HOUSE",) if ruleset == "letterup-classic" else ("5D MOOD",))
    page.set_viewport_size(LAPTOP)
    page.goto(f"/games/{game.pk}/score/{game.token}/")
    cells = page.get_by_role("grid").get_by_role("gridcell")
    expect(cells.first).to_have_accessible_name(re.compile("^A1: "))
    widths = [cells.nth(i).bounding_box()["width"] for i in (0, cells.count() - 1)]
    assert min(widths) >= 40, widths
    in_view(page, ".pad")
    in_view(page, "button:text-matches('^Submit')")
    in_view(page, "table.scoreboard")
    expect(page.get_by_role("table", name="Scores")).to_be_visible()
    # The board is on the left, the pad on its right.
    board = page.locator(".board-wrap").bounding_box()
    assert page.locator(".pad").bounding_box()["x"] >= board["x"] + board["width"]
    shoot(page, f"scorer-{ruleset}")


# Every element with text of its own that is drawn on screen (not the visually hidden ones, nor
# the skip link parked off screen), and its computed font size.
TEXT_SIZES = """() => [...document.querySelectorAll("body *")].flatMap(el => {
  const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
  const box = el.getBoundingClientRect();
  const style = getComputedStyle(el);
  const off = box.right <= 0 || box.bottom <= 0 || box.left >= innerWidth || box.top >= innerHeight;
  if (!own || off || box.width <= 1 || box.height <= 1 || style.visibility !== "visible") return [];
  return [[el.textContent.trim().slice(0, 40), parseFloat(style.fontSize)]];
})"""


def test_the_tv_spectator_screen_reads_from_across_the_room(page, live_server):
    # Ann plays HOUSE, Ben passes, Ann plays BET through the E (H7 B.T), Ben challenges it.
    game = make_game("letterup-classic", ("8D HOUSE",), challenge_mode="manual")
    domain.act(game.pk, domain.TurnCommand("pass"))
    domain.act(game.pk, domain.TurnCommand("play", notation="H7 B.T"))
    domain.act(game.pk, domain.TurnCommand("challenge"))
    bet = game.turns.get(action="play", notation="H7 B.T")
    page.set_viewport_size(TV)
    page.goto(f"/games/{game.pk}/watch")
    expect(page.locator(".verdict")).to_contain_text("ACCEPTABLE")
    # The last play in words and points, not only its notation.
    last = page.get_by_role("region", name="Last play: Ann")
    expect(last.locator(".played-words")).to_contain_text("BET")
    expect(last).to_contain_text(f"for {bet.score} points")
    # The last three turns, the latest first.
    recent = page.get_by_role("region", name="Recent turns").get_by_role("listitem")
    expect(recent).to_have_count(3)
    expect(recent.first).to_contain_text("Ben challenged")
    expect(recent.last).to_contain_text("Ben passed")
    shoot(page, "watch")  # the TV last: the checks below are at 1920×1080
    small = [(text, px) for text, px in page.evaluate(TEXT_SIZES) if px < 28]
    assert not small, small
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= TV["height"], height
    # The screen still follows the game: a new turn appears within a poll (every 3 s).
    domain.act(game.pk, domain.TurnCommand("pass"))
    expect(recent.first).to_contain_text("passed", timeout=8_000)
