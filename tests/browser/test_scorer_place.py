"""The scorer page at a club's table, on a phone with touch: the challenge at hand after a
play, the page keeping its place after every action, a refused play coming back as tapped."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.games import domain
from scorekeeper.models import Game, Turn
from tests.browser.pages import PHONE, SHOTS, SMALL, assert_in_view

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALL_PHONE = {"width": 360, "height": 640}


@pytest.fixture
def phone(browser: object, live_server: object) -> Iterator[Page]:
    """A phone's page: 390×844, touch, confirmations accepted."""
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


def make_game(ruleset: str = "upwords-10", plays=(), challenge_mode: str = "auto") -> Game:
    game = domain.check_create_game(
        ruleset=ruleset, players=["Ann", "Ben"], lexicon="CLUB", challenge_mode=challenge_mode
    )
    for play in plays:
        domain.act(game.pk, domain.TurnCommand("play", notation=play))
    return Game.objects.get(pk=game.pk)


def open_scorer(page: Page, game: Game) -> None:
    page.goto(f"/games/{game.pk}/score/{game.token}/")


def tap(page: Page, square: str) -> None:
    page.tap(f"button.sq[data-name={square}]")


def type_on_pad(page: Page, letters: str) -> None:
    for letter in letters:
        page.tap(f".pad .key[data-letter={letter}]")


def shoot(page: Page, name: str) -> None:
    folder = SHOTS / "scorer-place"
    folder.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    page.screenshot(path=str(folder / f"{name}-{size['width']}x{size['height']}.png"))


def settled(page: Page) -> None:
    """Called once something only the new page shows is visible: waits for that page's load
    (and the scroll to its place), not the old one's. Not wait_for_function: its polling runs
    eval, which the page's CSP refuses."""
    page.wait_for_load_state("load")


@pytest.mark.parametrize("size", [SMALL_PHONE, PHONE], ids=["360x640", "390x844"])
def test_the_challenge_is_in_view_after_a_play_in_a_tournament_game(phone, size):
    phone.set_viewport_size(size)
    game = make_game(challenge_mode="manual")
    open_scorer(phone, game)
    tap(phone, "D5")
    type_on_pad(phone, "MOOX")
    expect(phone.locator("#preview")).to_contain_text("points")
    phone.tap("button.submit")
    challenge = phone.get_by_role("button", name=re.compile(r"^Challenge 5D MOOX"))
    expect(challenge).to_be_visible()
    settled(phone)
    shoot(phone, "challenge-at-hand")
    assert_in_view(phone, challenge)
    assert_in_view(phone, phone.locator("button.submit"))


ACTIONS = ["submit", "pass", "exchange", "undo", "challenge", "finish"]


def act(page: Page, action: str) -> None:
    if action == "submit":
        tap(page, "D5")
        type_on_pad(page, "MOOD")
        expect(page.locator("#preview")).to_contain_text("points")
        page.tap("button.submit")
    else:
        name = {
            "pass": r"^Pass",
            "exchange": r"^Exchange",
            "undo": r"^Undo last turn",
            "challenge": r"^Challenge",
            "finish": r"^Finish game",
        }[action]
        page.get_by_role("button", name=re.compile(name)).tap()


@pytest.mark.parametrize("action", ACTIONS)
def test_the_page_keeps_its_place_after_each_action(phone, action):
    # A tournament game with a play standing: every action is there to take.
    game = make_game(plays=[] if action == "submit" else ["5D MOOD"], challenge_mode="manual")
    open_scorer(phone, game)
    entries = Turn.objects.filter(game=game).count()
    act(phone, action)
    # What the action said: the turn's sentence, or a challenge's verdict.
    said = phone.locator(".messages, .verdict").first
    expect(said).to_be_visible()
    settled(phone)
    assert Turn.objects.filter(game=game).count() == entries + 1
    shoot(phone, f"after-{action}")
    assert_in_view(phone, phone.locator(".board-wrap"))
    if Game.objects.get(pk=game.pk).status == Game.Status.IN_PROGRESS:
        # Submit and the whole pad for the next play; the other turns, taken now and then,
        # next below the pad.
        assert_in_view(phone, phone.get_by_role("button", name=re.compile("^Submit")))
        pad = phone.locator(".pad").bounding_box()
        assert_in_view(phone, phone.locator(".pad"))
        for name in ("Undo last turn", "Pass", "Exchange"):
            button = phone.get_by_role("button", name=re.compile(f"^{name}"))
            expect(button).to_be_visible()
            assert button.bounding_box()["y"] >= pad["y"] + pad["height"], name
    else:
        assert_in_view(phone, phone.get_by_role("button", name=re.compile("^Undo last turn")))
    assert_in_view(phone, said)  # by the board, not at the top of the page


def test_a_refused_down_play_comes_back_down_with_its_reason_once(phone):
    game = make_game(plays=["5D MOOD"])
    open_scorer(phone, game)
    tap(phone, "F6")
    tap(phone, "F6")  # the second tap turns the cursor down
    expect(phone.locator("#direction")).to_have_text("Down ↓")
    type_on_pad(phone, "EE")  # OEE, down from F5: not a word
    expect(phone.locator("#play-input")).to_have_value("F5 .EE")
    phone.tap("button.submit")
    expect(phone.locator(".refusal")).to_contain_text("Not entered")
    settled(phone)
    shoot(phone, "refused-down")
    # The play as tapped: its tiles, and the cursor still going down.
    expect(phone.locator("#play-input")).to_have_value("F5 .EE")
    expect(phone.locator("#direction")).to_have_text("Down ↓")
    expect(phone.locator("#direction")).to_have_attribute("aria-pressed", "true")
    for square in ("F6", "F7"):
        expect(phone.locator(f"button.sq[data-name={square}]")).to_have_class(re.compile("pending"))
    # Its reason, once: the word named by one message on the page, not by two.
    reasons = phone.locator(".refusal, #preview .bad").filter(has_text="OEE")
    expect(reasons).to_have_count(1)
    assert phone.locator("main").inner_text().count("OEE") == 1
    # The squares it is about say so after their name.
    expect(phone.get_by_role("gridcell", name="F6: E, placed now, refused here")).to_have_count(1)
    # And the next letter goes on down the column.
    type_on_pad(phone, "Y")
    expect(phone.locator("#play-input")).to_have_value("F5 .EEY")
    assert Turn.objects.filter(game=game).count() == 1


@pytest.mark.parametrize("size", [SMALL, PHONE, {"width": 1280, "height": 800}])
def test_the_last_play_and_a_refusal_are_marked_apart(phone, size):
    phone.set_viewport_size(size)
    game = make_game(plays=["5D MOOD"])
    open_scorer(phone, game)
    tap(phone, "A1")
    type_on_pad(phone, "A")
    tap(phone, "C3")
    type_on_pad(phone, "T")  # not in one line: no further letter mends it
    expect(phone.locator("button.sq[data-name=A1]")).to_have_class(re.compile("offending"))
    shoot(phone, "marks")
    last = phone.get_by_role("gridcell", name="D5: M, 1 high, last play")
    expect(last).to_have_count(1)
    refused = phone.get_by_role("gridcell", name=re.compile(r"^A1: .*refused here$"))
    expect(refused).to_have_count(1)
    # Shape as well as colour: a solid border and a corner for the one, dashes and "!" for
    # the other.
    last_style = last.evaluate(
        "e => [getComputedStyle(e).boxShadow, getComputedStyle(e).backgroundImage]"
    )
    refused_style = refused.evaluate(
        "e => [getComputedStyle(e).outlineStyle, getComputedStyle(e, '::before').content]"
    )
    assert "inset" in last_style[0] and last_style[1].startswith("linear-gradient")
    assert refused_style == ["dashed", '"!"']
