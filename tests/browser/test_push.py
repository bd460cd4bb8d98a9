"""Push in a real browser: a turn entered on one phone reaches the spectator screen and a
second scorer's phone with polling switched off, so only the push can bring it
(static/js/live.js); and where the stream is refused or falls silent, the screens poll. How
soon a push arrives is measured open loop under load (``python -m bench capacity``), not here:
a browser on a loaded machine waits as long as it needs."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.games import domain
from scorekeeper.live import stream as streams
from scorekeeper.live.hub import hub
from scorekeeper.models import Game
from tests.browser.pages import PHONE, SHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TURN_URL = re.compile(r"/games/[0-9a-f-]+/score/turn$")
TV = {"width": 1280, "height": 720}


@pytest.fixture
def no_polling(settings) -> None:
    settings.LIVE_POLL_SECONDS = 0  # only push can bring a change


@pytest.fixture
def other_page(browser: Any, live_server: Any) -> Iterator[Any]:
    """A second browser (its own cookies), as a second phone or the TV is."""

    def opened(viewport: dict[str, int]) -> Page:
        context = browser.new_context(viewport=viewport, base_url=live_server.url)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        return page

    contexts: list[Any] = []
    yield opened
    for context in contexts:
        context.close()


def new_game() -> Game:
    return domain.check_create_game(ruleset="upwords-10", players=["Ann", "Ben"], lexicon="CLUB")


def open_scorer(page: Page, game: Game) -> None:
    page.goto(f"/games/{game.pk}/score/{game.token}/")
    expect(page.locator(".scorer-page[data-pushed]")).to_have_count(1)  # its stream is open


def enter_mood(page: Page) -> None:
    """Ann plays 5D MOOD, and the server answers."""
    page.click("button.sq[data-name=D5]")
    page.keyboard.type("mood")
    with page.expect_response(TURN_URL):
        page.get_by_role("button", name="Submit play").click()


def test_a_turn_is_pushed_to_the_tv_and_a_second_scorer(
    page: Page, other_page: Any, no_polling: None
):
    game = new_game()
    tv = other_page(TV)
    tv.goto(f"/games/{game.pk}/watch")
    expect(tv.locator("#live[data-pushed]")).to_have_count(1)
    second = other_page(PHONE)
    open_scorer(second, game)
    open_scorer(page, game)

    enter_mood(page)
    expect(tv.locator(".last-play")).to_contain_text("MOOD")
    expect(tv.locator("#status")).to_contain_text("Ben to play")
    expect(second.locator("#status")).to_contain_text("Ben to play")
    # The second phone reloaded where it was: its stream is open again, from the new entry.
    expect(second.locator(".scorer-page[data-entry='1'][data-pushed]")).to_have_count(1)
    folder = SHOTS / "push"
    folder.mkdir(parents=True, exist_ok=True)
    tv.screenshot(path=str(folder / "tv-1280.png"))
    second.screenshot(path=str(folder / "second-scorer-390.png"))


def test_a_scorer_entering_a_play_is_told_of_a_turn_from_another_phone_not_reloaded(
    page: Page, other_page: Any, no_polling: None
):
    game = new_game()
    second = other_page(PHONE)
    open_scorer(second, game)
    second.click("button.sq[data-name=E5]")
    second.keyboard.type("do")  # Ben's play, half entered on the second phone
    open_scorer(page, game)
    enter_mood(page)
    note = second.locator("#elsewhere")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Entered on another device: Ann: 5D MOOD for")
    expect(second.locator("#play-input")).to_have_value(re.compile("DO"))  # kept, not lost
    folder = SHOTS / "push"
    folder.mkdir(parents=True, exist_ok=True)
    for width in (360, 390, 1280):
        second.set_viewport_size({"width": width, "height": 844 if width < 500 else 800})
        note.scroll_into_view_if_needed()
        assert second.evaluate("document.documentElement.scrollWidth") <= width
        second.screenshot(path=str(folder / f"elsewhere-{width}.png"))
    second.get_by_role("button", name="Show it").click()
    expect(second.locator("#status")).to_contain_text("Ben to play")


def test_with_push_off_the_tv_polls(settings, other_page: Any):
    settings.PUSH_THREAD_STREAMS = 0  # the server has no room for a stream: 503
    settings.LIVE_POLL_SECONDS = 1
    game = new_game()
    tv = other_page(TV)
    tv.goto(f"/games/{game.pk}/watch")
    domain.act(game.pk, domain.TurnCommand("pass"))
    expect(tv.locator("#status")).to_contain_text("Ben to play", timeout=5000)
    expect(tv.locator("#live[data-pushed]")).to_have_count(0)


def test_with_push_off_the_scorer_page_asks_the_log(settings, page: Page):
    settings.PUSH_THREAD_STREAMS = 0  # the server has no room for a stream: 503
    settings.LIVE_POLL_SECONDS = 1
    game = new_game()
    page.goto(f"/games/{game.pk}/score/{game.token}/")
    expect(page.locator("#status")).to_contain_text("Ann to play")
    page.evaluate("window.notReloaded = true")
    for _ in range(2):  # the second is asked once the first's answer was read
        with page.expect_response(lambda answer: "/turns/" in answer.url, timeout=20_000):
            pass
    assert page.evaluate("window.notReloaded === true")  # nothing new: the page stays
    domain.act(game.pk, domain.TurnCommand("play", notation="5D MOOD"))
    expect(page.locator("#status")).to_contain_text("Ben to play", timeout=20_000)
    expect(page.locator(".scorer-page[data-pushed]")).to_have_count(0)


def test_a_scorer_page_whose_stream_falls_silent_asks_the_log(
    settings, page: Page, monkeypatch: pytest.MonkeyPatch
):
    settings.LIVE_POLL_SECONDS = 1
    game = new_game()
    open_scorer(page, game)
    # The stream stays open and says nothing more, as one a proxy holds does: no keep-alive,
    # and the turn's news lost on its way.
    monkeypatch.setattr(streams, "KEEP_ALIVE", b"")
    monkeypatch.setattr(hub, "publish", lambda channel, message: None)
    domain.act(game.pk, domain.TurnCommand("play", notation="5D MOOD"))
    expect(page.locator("#status")).to_contain_text("Ben to play", timeout=20_000)


def test_a_tv_whose_stream_falls_silent_fetches_its_part(
    settings, other_page: Any, monkeypatch: pytest.MonkeyPatch
):
    settings.LIVE_POLL_SECONDS = 1
    game = new_game()
    tv = other_page(TV)
    tv.goto(f"/games/{game.pk}/watch")
    expect(tv.locator("#live[data-pushed]")).to_have_count(1)  # its stream is open
    monkeypatch.setattr(streams, "KEEP_ALIVE", b"")  # open, and silent from now on
    monkeypatch.setattr(hub, "publish", lambda channel, message: None)
    domain.act(game.pk, domain.TurnCommand("pass"))
    expect(tv.locator("#status")).to_contain_text("Ben to play", timeout=20_000)


def test_a_page_hears_a_quiet_stream_keep_alive(page: Page):
    """Else every page would take its quiet stream for a silent one, and poll."""
    game = new_game()
    open_scorer(page, game)
    page.evaluate(
        """url => {
            let heard = 0;
            new EventSource(url).addEventListener("alive", () => {
                heard += 1;
                if (heard === 2) document.body.dataset.keptAlive = "twice";
            });
        }""",
        f"/games/{game.pk}/events",
    )
    expect(page.locator("body[data-kept-alive=twice]")).to_have_count(1, timeout=20_000)


def test_a_turn_from_another_phone_keeps_its_plays_dots(
    page: Page, other_page: Any, no_polling: None
):
    game = domain.check_create_game(
        ruleset="upwords-10", players=["Ann", "Ben"], lexicon="CLUB", challenge_mode="manual"
    )
    for play in ("5D MOOD", "6D ODE", "E3 TO.."):  # the last reads through E5 and E6
        domain.act(game.pk, domain.TurnCommand("play", notation=play))
    open_scorer(page, game)
    page.click("button.sq[data-name=A1]")
    page.keyboard.type("a")  # a play being entered: told, not reloaded
    domain.act(game.pk, domain.TurnCommand("undo"))
    note = page.locator("#elsewhere")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Entered on another device: Ann: undo (E3 TO..).")
