"""What matters each turn on a phone's scorer page is on one screen: the board (its zoomed part
while a play is entered), the preview, Submit and the whole letter pad, in every ruleset and
every state of entry, at 360×740 and 390×844."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Locator, Page, expect

from scorekeeper.games import domain
from scorekeeper.models import Game
from tests.browser.pages import DESKTOP, PHONE, SHOTS, SMALL, assert_in_view

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A ruleset, the play on its board, and a play of three tiles beside it that makes four words
# (AHA and three two-letter words down), so its preview runs to several lines.
GAMES = {
    "crossword": ("crossword-classic", "8D HOUSE", "D9", "9D AHA"),
    "letterup": ("letterup-classic", "8D HOUSE", "D9", "9D AHA"),
    "upwords-10": ("upwords-10", "5D MOOD", "D6", "6D AHA"),
    "upwords-8": ("upwords-8", "4C MOOD", "C5", "5C AHA"),
    # The same on a clock: each player's time on the score bar, the running one a button.
    "crossword-clock": ("crossword-classic", "8D HOUSE", "D9", "9D AHA"),
}
CLOCKED = {"crossword-clock"}
SIZES = {"360x740": SMALL, "390x844": PHONE}


@pytest.fixture
def phone(browser: object, live_server: object) -> Iterator[Page]:
    """A phone with touch; confirmations accepted."""
    context = browser.new_context(  # type: ignore[attr-defined]
        viewport=PHONE,
        has_touch=True,
        is_mobile=True,
        base_url=live_server.url,  # type: ignore[attr-defined]
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.on("dialog", lambda dialog: dialog.accept())
    yield page
    context.close()


def make_game(ruleset: str, play: str, clocked: bool = False) -> Game:
    # Challenges by hand: the Challenge button sits by Submit, the widest submit row there is.
    game = domain.check_create_game(
        ruleset=ruleset,
        players=["Annabel", "Benedict"],
        lexicon="CLUB",
        challenge_mode="manual",
        clock={"kind": "player", "minutes": 25} if clocked else None,
    )
    domain.act(game.pk, domain.TurnCommand("play", notation=play))
    return Game.objects.get(pk=game.pk)


def settled(page: Page) -> None:
    """The page loaded, htmx done, and two frames drawn: the board has taken its room."""
    page.wait_for_load_state("load")
    expect(page.locator(".htmx-request")).to_have_count(0)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def shoot(page: Page, name: str) -> None:
    folder = SHOTS / "pad-in-view"
    folder.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    page.screenshot(path=str(folder / f"{name}-{size['width']}x{size['height']}.png"))


def key(page: Page, letter: str) -> Locator:
    return page.locator(f".pad .key[data-letter={letter}]")


# Where the whole board stays in sight while a play is entered (squares of 24 px and more):
# Upwords, whose stacks around the play a player checks; a 15×15 board opens zoomed. At 390×844
# in every state; at 360×740 until a preview of several words or what an undo said takes the
# room (the board then zooms, rather than squares under 24 px).
WHOLE = {"upwords-10", "upwords-8"}


def what_matters_is_on_screen(page: Page, whole: bool = False) -> None:
    """The board, the preview, Submit and every key of the pad wholly inside the viewport, each
    key 40 px and more each way; the chosen square 40 px and more on a zoomed board. ``whole``:
    the board is not zoomed, every square in view and 24 px and more."""
    assert_in_view(page, page.locator(".board-wrap"))
    assert_in_view(page, page.locator("#preview"))
    assert_in_view(page, page.get_by_role("button", name=re.compile("^Submit")))
    assert_in_view(page, page.locator(".pad"))
    keys = page.locator(".pad .key")
    for i in range(keys.count()):
        box = keys.nth(i).bounding_box()
        assert box is not None and min(box["width"], box["height"]) >= 40, box
    cursor = page.locator("button.sq.cursor")
    if cursor.count():
        box = cursor.bounding_box()
        assert box is not None and box["width"] >= (24 if whole else 40), box
        assert_in_view(page, cursor)
    if whole:
        expect(page.locator(".board-wrap")).not_to_have_class(re.compile("zoomed"))
        for corner in page.locator("button.sq").all()[:: len(page.locator("button.sq").all()) - 1]:
            assert_in_view(page, corner)  # the first square and the last
        box = page.locator("button.sq").first.bounding_box()
        assert box is not None and box["width"] >= 24, box


def tap_play(page: Page, square: str, letters: str, notation: str) -> None:
    """Tap the square, then each letter on the pad."""
    page.tap(f"button.sq[data-name={square}]")
    settled(page)
    tap_letters(page, letters, notation)


def tap_letters(page: Page, letters: str, notation: str) -> None:
    """Tap each letter on the pad, waiting for each tile's preview."""
    for count, letter in enumerate(letters, start=1):
        assert_in_view(page, key(page, letter))  # nothing to scroll to
        key(page, letter).tap()
        expect(page.locator("button.sq.pending")).to_have_count(count)
        settled(page)
    expect(page.locator("#play-input")).to_have_value(notation)


@pytest.mark.parametrize("size", list(SIZES.values()), ids=list(SIZES))
@pytest.mark.parametrize("name", list(GAMES))
def test_the_board_preview_submit_and_pad_fit_while_a_play_is_entered(phone, name, size):
    ruleset, play, square, long_play = GAMES[name]
    phone.set_viewport_size(size)
    game = make_game(ruleset, play, name in CLOCKED)
    phone.goto(f"/games/{game.pk}/score/{game.token}/")
    settled(phone)
    shoot(phone, f"{name}-1-nothing-tapped")
    what_matters_is_on_screen(phone, name in WHOLE)
    if name in CLOCKED:
        assert_in_view(phone, phone.locator(".player-clock.running"))

    phone.tap(f"button.sq[data-name={square}]")
    expect(phone.locator(f"button.sq[data-name={square}]")).to_have_class(re.compile("cursor"))
    settled(phone)
    shoot(phone, f"{name}-2-first-tap")
    what_matters_is_on_screen(phone, name in WHOLE)

    tap_letters(phone, "AHA", long_play)
    words = phone.locator("#preview ul.words li")
    expect(words).to_have_count(4)
    settled(phone)
    shoot(phone, f"{name}-3-long-preview")
    what_matters_is_on_screen(phone, name in WHOLE and size == PHONE)


@pytest.mark.parametrize("size", list(SIZES.values()), ids=list(SIZES))
@pytest.mark.parametrize("name", list(GAMES))
def test_they_fit_after_an_undo_and_with_a_refusal(phone, name, size):
    ruleset, play, square, long_play = GAMES[name]
    phone.set_viewport_size(size)
    game = make_game(ruleset, play, name in CLOCKED)
    phone.goto(f"/games/{game.pk}/score/{game.token}/")
    settled(phone)

    # A play entered, then taken back: the page comes back with what the undo said.
    tap_play(phone, square, "AHA", long_play)
    phone.get_by_role("button", name=re.compile("^Submit")).tap()
    expect(phone.get_by_role("button", name=re.compile(f"^Challenge {long_play}"))).to_be_visible()
    phone.get_by_role("button", name=re.compile("^Undo last turn")).tap()
    said = phone.locator(".table-news .messages")
    expect(said).to_contain_text("was undone")
    settled(phone)
    shoot(phone, f"{name}-4-after-undo")
    what_matters_is_on_screen(phone, name in WHOLE and size == PHONE)
    assert_in_view(phone, said)

    # A play that touches nothing: told what it lacks while tapped, then refused when
    # submitted; it comes back as tapped, with its reason.
    tap_play(phone, "A1", "AT", "1A AT")
    expect(phone.locator("#preview .unfinished")).to_be_visible()
    phone.get_by_role("button", name=re.compile("^Submit")).tap()
    refusal = phone.locator(".refusal")
    expect(refusal).to_contain_text("Not entered")
    expect(phone.locator("#play-input")).to_have_value("1A AT")
    settled(phone)
    shoot(phone, f"{name}-5-refused")
    what_matters_is_on_screen(phone, name in WHOLE and size == PHONE)
    assert_in_view(phone, refusal)


@pytest.mark.parametrize("name", ["crossword", "upwords-10"])
def test_a_laptop_keeps_the_board_whole_beside_the_pad(phone, name):
    ruleset, play, square, long_play = GAMES[name]
    phone.set_viewport_size(DESKTOP)
    game = make_game(ruleset, play, name in CLOCKED)
    phone.goto(f"/games/{game.pk}/score/{game.token}/")
    settled(phone)
    phone.click(f"button.sq[data-name={square}]")
    phone.keyboard.type("aha")
    expect(phone.locator("#preview ul.words li")).to_have_count(4)
    settled(phone)
    shoot(phone, f"{name}-laptop")
    expect(phone.locator(".board-wrap")).not_to_have_class(re.compile("zoomed"))
    for selector in (".board-wrap", "#preview", "button.submit", ".pad"):
        assert_in_view(phone, phone.locator(selector))
