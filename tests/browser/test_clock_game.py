"""A crossword game played start to finish on the scorer page with the phone as the only
clock (the page's time moved by Playwright's clock, not waited for): the overtime penalty is
in the final scores on the end screen, the game's page, the spectator screen, the API, the
GCG export (and what re-importing it gives) and the JSON record."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.games import clocks
from scorekeeper.models import Game
from scorekeeper.records.gcg_import import import_gcg
from scorekeeper.records.json_record import import_record
from tests.browser.pages import DESKTOP, PHONE, SHOTS, SMALL

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shoot(page: Page, name: str) -> None:
    folder = SHOTS / "clock"
    folder.mkdir(parents=True, exist_ok=True)
    for size in (SMALL, PHONE, DESKTOP):
        page.set_viewport_size(size)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size["width"], f"{name} is {width}px wide at {size['width']}px"
        page.screenshot(path=str(folder / f"{name}-{size['width']}.png"), full_page=True)
    page.set_viewport_size(PHONE)


def entered(page: Page, entry: int) -> None:
    """The page shows the game after log entry ``entry``."""
    expect(page.locator(f".scorer-page[data-entry='{entry}']")).to_have_count(1)


def act(page: Page, label: str, entry: int) -> None:
    page.click(f".actions button:has-text('{label}')")
    entered(page, entry)


@pytest.fixture
def forward(page: Page, monkeypatch: pytest.MonkeyPatch) -> Callable[[int], None]:
    """Moves the phone's time and the server's together: the server takes only readings a
    phone could send, so its time follows the page's (the live server runs in this process)."""
    ahead = [0]
    real = clocks.now_ms
    monkeypatch.setattr(clocks, "now_ms", lambda: real() + ahead[0])

    def move(ms: int) -> None:
        ahead[0] += ms
        page.clock.fast_forward(ms)

    return move


def start(page: Page, over_max: str, max_overtime: str) -> Game:
    """A crossword game with a minute on each player's clock, from the new-game form."""
    page.clock.install()  # the phone's time, moved on by the test
    page.goto("/games/new")
    page.check("input[name=ruleset][value=crossword-classic]")
    page.select_option("#id_lexicon", "CLUB")
    page.fill("#id_player_1", "Ann")
    page.fill("#id_player_2", "Ben")
    page.select_option("#id_starter", "1")
    page.check("input[name=challenge_mode][value=auto]")
    page.check("input[name=clock][value=player]")
    page.fill("#id_clock_minutes", "1")
    page.fill("#id_clock_max_overtime", max_overtime)
    page.check(f"input[name=clock_over_max][value={over_max}]")
    page.click("text=Start the game")
    expect(page.locator("h1.status")).to_contain_text("Ann to play")
    return Game.objects.get()


def test_a_clocked_crossword_game_ends_with_the_overtime_penalty_everywhere(
    page: Page, forward: Callable[[int], None]
):
    game = start(page, "capped", "10")
    ann = page.locator(".scorebar .player-clock[data-seat='0']")
    expect(ann).to_have_class(re.compile(r"\brunning\b"))

    forward(20_000)
    page.fill("#play-input", "8H MOOD")
    page.click("text=Submit play")
    entered(page, 1)
    forward(10_000)
    page.fill("#play-input", "K8 .EAR")
    page.click("text=Submit play")
    entered(page, 2)
    # Ann thinks a minute and some seconds more than her clock had left: 20 points.
    forward(100_000)
    expect(ann.locator(".clock-time")).to_have_text(re.compile(r"^−1:\d\d$"))
    expect(ann.locator(".clock-penalty")).to_have_text("−20")
    # She taps her clock to start Ben's, then enters her pass; a pause for a dispute.
    ann.click()
    entered(page, 3)
    act(page, "Pass", 4)
    page.get_by_role("button", name="Pause").click()
    entered(page, 5)
    forward(300_000)  # paused: nobody's time goes
    page.get_by_role("button", name="Resume").click()
    entered(page, 6)
    # Six scoreless turns in a row end the crossword game: Ben's exchange is one of them.
    act(page, "Exchange", 7)
    for entry in range(8, 12):
        act(page, "Pass", entry)
    expect(page.locator("h1.status")).to_contain_text("reached its end")
    page.fill("#rack-0", "QZJKWVY")
    page.fill("#rack-1", "AAEEIIU")
    page.click(".racks button:has-text('Finish game')")
    end = page.locator(".end")
    expect(end).to_contain_text(re.compile(r"Ann: −20 for 1:\d\d over"))
    expect(end.locator("td.time")).to_have_text(["-20", "0"])
    expect(end.locator("td.final")).to_have_text([str(14 - 20 - 45), str(10 - 7)])
    shoot(page, "end")
    game.refresh_from_db()
    # Ann: MOOD 14, her time −20, QZJKWVY −45. Ben: DEAR 10, AAEEIIU −7.
    finals = [seat.final_score for seat in game.seats.order_by("order")]
    assert finals == [14 - 20 - 45, 10 - 7]
    everywhere(page, game, finals, ["loss", "win"], -20, "Ann: −20 for 1:", "−20")


def test_a_loss_on_time_is_shown_as_such_everywhere(page: Page, forward: Callable[[int], None]):
    game = start(page, "loses", "1")
    # Ann takes 2:05 over a one-minute clock: past the one minute over allowed.
    forward(125_000)
    page.fill("#play-input", "8H MOOD")
    page.click("text=Submit play")
    entered(page, 1)
    for entry in range(2, 8):  # six scoreless turns end it
        act(page, "Pass", entry)
    page.fill("#rack-0", "AAEEIIU")
    page.fill("#rack-1", "QZJKWVY")
    page.click(".racks button:has-text('Finish game')")
    # Ann, 14 − 7 − 10 (the capped penalty), is ahead on points but lost on time.
    end = page.locator(".end")
    expect(end.locator(".winner-line")).to_have_text("Ben wins")
    expect(end).to_contain_text(re.compile(r"Ann lost on time \(1:\d\d over\)"))
    shoot(page, "end-lost-on-time")
    game.refresh_from_db()
    finals = [seat.final_score for seat in game.seats.order_by("order")]
    assert finals == [14 - 7 - 10, -45]
    state = page.request.get(f"/api/games/{game.pk}/").json()
    assert state["clock"]["lost_on_time"] == [0]
    everywhere(page, game, finals, ["loss", "win"], -10, "Ann lost on time (1:", "lost on time")


def everywhere(
    page: Page,
    game: Game,
    finals: list[int],
    results: list[str],
    time: int,
    said: str,
    on_clock: str,
) -> None:
    """The final scores and what the clock cost, on every page and in every export."""
    for url in (f"/games/{game.pk}/", f"/games/{game.pk}/watch"):
        page.goto(url)
        scores = page.locator("table.scores, table.scoreboard")
        expect(scores.locator("td.final")).to_have_text([str(f) for f in finals])
        expect(scores.locator("td.time")).to_have_text([str(time), "0"])
        # The game's page says it; the spectator screen shows it under Ann's clock.
        said_here = said if url.endswith("/") else on_clock
        expect(
            page.locator("main .time-penalties, main .player-clock[data-seat='0']")
        ).to_contain_text(said_here)
        expect(page.locator("main .winner-line, main h1.status")).to_contain_text("Ben wins")
    state = page.request.get(f"/api/games/{game.pk}/").json()
    assert [p["final_score"] for p in state["players"]] == finals
    assert [p["result"] for p in state["players"]] == results
    assert state["clock"]["readings"] == game.clock["readings"]
    gcg = page.request.get(f"/games/{game.pk}/export.gcg").text()
    assert re.search(rf"^>Ann: (\S+ )?\(time\) {time} {finals[0]}$", gcg, re.M)
    record = page.request.get(f"/games/{game.pk}/export.json").json()
    assert [s["final_score"] for s in record["seats"]] == finals
    assert record["game"]["clock"]["readings"] == state["clock"]["readings"]
    Game.objects.all().delete()
    # A GCG record has the finals; the JSON record has the clock too, so a loss on time.
    from_gcg = import_gcg(gcg).game.seats.order_by("order")
    assert [s.final_score for s in from_gcg] == finals
    from_json = import_record(record).seats.order_by("order")
    assert [(s.final_score, s.result) for s in from_json] == list(zip(finals, results, strict=True))
