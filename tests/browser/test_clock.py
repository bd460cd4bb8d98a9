"""The phone is the clock (static/js/clock.js): two scorer phones show the same clocks after a
turn, a tap or a pause on either; a turn played offline keeps the readings of when it was
played; overtime runs up in red with the penalty it costs."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from referee import format_ms
from scorekeeper.games import clocks, domain
from scorekeeper.models import Game, Turn
from tests.browser.pages import PHONE, SHOTS
from tests.clock_time import run_clocks_to, time_to_run

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MINUTES_25 = 1_500_000
RUNNING = re.compile(r"\brunning\b")


@pytest.fixture
def second(browser: Any, live_server: Any) -> Iterator[Page]:
    """A second scorer phone, with its own cookies."""
    context = browser.new_context(viewport=PHONE, base_url=live_server.url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def clocked_game() -> Game:
    return domain.check_create_game(
        ruleset="upwords-10", players=["Ann", "Ben"], lexicon="CLUB", clock={"kind": "player"}
    )


def open_scorer(page: Page, game: Game, entry: int = 0) -> None:
    page.goto(f"/games/{game.pk}/score/{game.token}/")
    at_entry(page, entry)


def at_entry(page: Page, entry: int) -> None:
    """The page shows the game after log entry ``entry``, its stream open."""
    expect(page.locator(f".scorer-page[data-entry='{entry}'][data-pushed]")).to_have_count(1)


def face(page: Page, seat: int) -> Locator:
    return page.locator(f".scorebar .player-clock[data-seat='{seat}']")


def shoot(page: Page, name: str) -> None:
    folder = SHOTS / "clock"
    folder.mkdir(parents=True, exist_ok=True)
    for width, height in ((360, 740), (390, 844), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(folder / f"{name}-{width}.png"))
    page.set_viewport_size(PHONE)


def test_two_scorer_phones_show_the_same_clocks_after_a_turn_a_tap_and_a_pause(
    page: Page, second: Page
):
    game = clocked_game()
    open_scorer(page, game)
    open_scorer(second, game)
    for phone in (page, second):
        expect(face(phone, 0)).to_have_class(RUNNING)  # it starts with the first player
    shoot(page, "running")

    # Ann plays on the first phone: her clock stops at the reading it sent, Ben's runs.
    page.click("button.sq[data-name=D5]")
    page.keyboard.type("mood")
    page.get_by_role("button", name="Submit play").click()
    for phone in (page, second):
        at_entry(phone, 1)
    ann = Turn.objects.get(game=game, number=1).clock["readings"][0]
    assert MINUTES_25 - 60_000 < ann < MINUTES_25
    for phone in (page, second):
        expect(face(phone, 1)).to_have_class(RUNNING)
        expect(face(phone, 0)).not_to_have_class(RUNNING)
        expect(face(phone, 0)).to_have_attribute("data-reading", str(ann))
        expect(face(phone, 0).locator(".clock-time")).to_have_text(format_ms(ann))

    # A tap on Ben's running clock, on the second phone, switches it back without a turn.
    face(second, 1).click()
    for phone in (page, second):
        at_entry(phone, 2)
        expect(face(phone, 0)).to_have_class(RUNNING)
    assert Turn.objects.get(game=game, number=2).clock["action"] == "switch"

    # Pause on the first phone stops it on both; the second can resume it.
    page.get_by_role("button", name="Pause").click()
    for phone in (page, second):
        at_entry(phone, 3)
        expect(phone.get_by_role("button", name="Resume")).to_be_visible()
        expect(phone.locator(".scorebar .player-clock[data-running='1']")).to_have_count(0)
        box = phone.get_by_role("button", name="Resume").bounding_box()
        assert box is not None and box["height"] >= 40
    shoot(second, "paused")
    second.get_by_role("button", name="Resume").click()
    for phone in (page, second):
        at_entry(phone, 4)
        expect(face(phone, 0)).to_have_class(RUNNING)


def test_a_turn_played_offline_keeps_the_readings_of_when_it_was_played(page: Page):
    game = clocked_game()
    page.clock.install()  # the phone's own time, moved on by the test
    open_scorer(page, game)
    # Ann taps her clock as she plays and enters the play afterwards, offline.
    face(page, 0).click()
    at_entry(page, 1)
    expect(face(page, 1)).to_have_class(RUNNING)
    page.context.set_offline(True)
    page.click("button.sq[data-name=D5]")
    page.keyboard.type("mood")
    page.get_by_role("button", name="Submit play").click()
    expect(page.locator("#waiting")).to_contain_text("1 turn waiting to be sent: 5D MOOD")
    kept = page.evaluate(
        f"() => JSON.parse(localStorage.getItem('scorekeeper:waiting:{game.pk}')).queue[0].clock"
    )
    # Ben's clock runs on here, as the server will have it after Ann's play, not Ann's again.
    expect(face(page, 1)).to_have_class(RUNNING)
    expect(face(page, 0)).not_to_have_class(RUNNING)

    page.clock.fast_forward(90_000)  # a minute and a half before the connection returns
    expect(face(page, 1).locator(".clock-time")).to_have_text(re.compile(r"^23:[23]\d$"))
    page.context.set_offline(False)
    at_entry(page, 2)
    stored = Turn.objects.get(game=game, number=2).clock
    # Sent a minute and a half later, with the readings of when it was played.
    assert stored["readings"] == kept["ms"] and stored["at"] == kept["at"]
    assert MINUTES_25 - 60_000 < kept["ms"][0] < MINUTES_25
    assert MINUTES_25 - 60_000 < kept["ms"][1] <= MINUTES_25
    expect(face(page, 1)).to_have_class(RUNNING)
    expect(face(page, 1).locator(".clock-time")).to_have_text(re.compile(r"^23:[23]\d$"))


def test_after_a_turn_played_offline_a_screen_reader_hears_of_the_new_running_clock(page: Page):
    game = clocked_game()
    open_scorer(page, game)
    expect(face(page, 0).locator(".sr-only")).to_have_text("Ann's clock, running:")
    page.context.set_offline(True)
    page.click("button.sq[data-name=D5]")
    page.keyboard.type("mood")
    page.get_by_role("button", name="Submit play").click()
    expect(page.locator("#waiting")).to_contain_text("1 turn waiting to be sent: 5D MOOD")
    expect(face(page, 1)).to_have_class(RUNNING)
    expect(face(page, 1).locator(".sr-only")).to_have_text("Ben's clock, running:")
    expect(face(page, 0).locator(".sr-only")).to_have_text("Ann's clock:")
    page.context.set_offline(False)
    at_entry(page, 1)  # and as the page the server draws says it
    expect(face(page, 1).locator(".sr-only")).to_have_text("Ben's clock, running:")


def started_ago(monkeypatch: pytest.MonkeyPatch, ms: int, **fields: Any) -> Game:
    """A clocked game started ``ms`` ago, its clocks able to have run that long since."""
    start = clocks.now_ms() - ms
    with monkeypatch.context() as patch:
        patch.setattr(clocks, "now_ms", lambda: start)
        return domain.check_create_game(ruleset="upwords-10", lexicon="CLUB", **fields)


def test_overtime_runs_up_in_red_with_the_penalty_it_costs_now(page: Page, monkeypatch):
    readings = [-64_000, MINUTES_25]
    game = started_ago(monkeypatch, time_to_run(MINUTES_25, readings),
                       players=["Ann", "Ben"], clock={"kind": "player"})  # fmt: skip
    assert run_clocks_to(game.pk, readings) == 1
    domain.act(game.pk, domain.TurnCommand("clock", clock="resume"))
    page.clock.install()
    open_scorer(page, game, entry=2)
    ann = face(page, 0)
    expect(ann).to_have_class(re.compile(r"\bover\b"))
    expect(ann.locator(".clock-time")).to_have_text(re.compile(r"^−1:0\d$"))
    expect(ann.locator(".clock-penalty")).to_have_text("−20")
    assert ann.evaluate("e => getComputedStyle(e).color") == "rgb(179, 38, 30)"
    expect(face(page, 1).locator(".clock-time")).to_have_text("25:00")
    shoot(page, "overtime")
    page.clock.fast_forward(60_000)
    expect(ann.locator(".clock-time")).to_have_text(re.compile(r"^−2:0\d$"))
    expect(ann.locator(".clock-penalty")).to_have_text("−30")


def test_four_players_overtime_readings_fit_their_columns_at_360_px(page: Page, monkeypatch):
    readings = [-605_000, -65_000, -3_599_000, 5_000]
    game = started_ago(monkeypatch, time_to_run(MINUTES_25, readings),
                       players=["Ann", "Ben", "Cy", "Di"],
                       clock={"kind": "player", "max_overtime_minutes": 60})  # fmt: skip
    entries = run_clocks_to(game.pk, readings)
    page.set_viewport_size({"width": 360, "height": 740})
    open_scorer(page, game, entry=entries)
    expect(face(page, 2).locator(".clock-time")).to_have_text("−59:59")
    fits(page, ".scorebar .player-clock")
    page.goto(f"/games/{game.pk}/watch")  # the spectator screen on a phone, then a TV
    fits(page, ".scoreboard .player-clock")
    page.set_viewport_size({"width": 1280, "height": 720})
    fits(page, ".scoreboard .player-clock")


def fits(page: Page, clocks: str) -> None:
    """Each clock's reading stays inside its player's column."""
    for seat in range(4):
        time = page.locator(f"{clocks}[data-seat='{seat}'] .clock-time")
        inner, outer = (
            time.bounding_box(),
            page.locator(f"{clocks}[data-seat='{seat}'] >> ..").bounding_box(),
        )
        assert inner is not None and outer is not None
        assert (
            outer["x"] <= inner["x"] and inner["x"] + inner["width"] <= outer["x"] + outer["width"]
        )
