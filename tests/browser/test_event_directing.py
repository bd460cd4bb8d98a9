"""A director's evening without traps, in a real browser at 360, 390 and 1280 px: a clocked
round whose clocks wait for the tables (Start on the scorer page), a resent pair form, a
confirmation before pairing while a round is played, take back with an old QR code, a result
corrected with its trace, and the event's page with its scorecards and results on a phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.events.entries import do_create_tournament
from scorekeeper.events.results import do_enter_result
from scorekeeper.events.rounds import do_pair_round
from scorekeeper.models import Game
from tests.browser.pages import SMALL, Camera
from tests.clock_time import when_read
from tests.factories import PASSWORD, account, make_club
from tests.scorekeeper.club_events import FOUR

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def sign_in(page: Page, username: str) -> None:
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.locator("main").get_by_role("button", name=re.compile("^Sign in")).click()
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()


def no_sideways_scroll(page: Page, selector: str) -> None:
    """Nothing matched scrolls sideways inside itself, and the page doesn't either."""
    wide = page.evaluate(
        "s => [...document.querySelectorAll(s)].filter(e => e.scrollWidth > e.clientWidth + 1)"
        ".map(e => e.outerHTML.slice(0, 80))",
        selector,
    )
    assert wide == [], wide
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def test_a_directors_evening_without_traps(page: Page):
    club = make_club("Riverside", directors=[account("dora")], roster=())
    made = do_create_tournament(
        club, name="Friday", ruleset="upwords-10", lexicon="CLUB", rounds=3, players=FOUR,
        clock={"kind": "player", "minutes": 20},
    )  # fmt: skip
    sign_in(page, "dora")
    camera = Camera(page, "event-directing")

    # The pair form sends its round; sent again, the page says round 1 is paired already.
    page.goto(f"/tournaments/{made.pk}/direct")
    camera.shoot("director-before-round-1")
    with page.expect_navigation():
        page.get_by_role("button", name="Pair round 1").click()
    expect(page.locator(".messages")).to_contain_text("Round 1 is paired: 2 tables.")
    page.go_back()
    page.reload()  # the page as it was before the pairing, with its form for round 1
    page.goto(f"/tournaments/{made.pk}/direct")
    form = page.locator("form[action$='/pair']")
    expect(form).to_have_count(1)
    form.evaluate("f => { f.querySelector('[name=round]').value = '1'; }")  # a resent form
    with page.expect_navigation():
        form.get_by_role("button", name=re.compile("^Pair round")).click()
    expect(page.locator(".messages")).to_contain_text("Round 1 is paired already.")
    assert made.round_set.count() == 1

    # The director's screen: the tables' clocks wait for them.
    page.goto("/clubs/riverside/live")
    expect(page.locator(".event-table .live-turn").first).to_have_text("waiting for the table")
    camera.shoot("directors-screen-waiting")

    # The scorer page of a paired clocked game: the clock waits for Start.
    paired = made.round_set.get()
    table = paired.pairings.get(table=1)
    old = table.game
    page.goto(f"/games/{old.pk}/score/{old.token}/")
    start = page.get_by_role("button", name=re.compile("^Start"))
    expect(start).to_be_visible()
    box = start.bounding_box()
    assert box is not None and box["height"] >= 40 and box["width"] >= 40
    expect(page.locator(".scoreboard .clocks")).to_contain_text("waiting")
    camera.shoot("scorer-clock-waiting")

    # Take back asks first; the old QR code then says where the table's game is.
    page.goto(f"/tournaments/{made.pk}/direct")
    with page.expect_navigation():
        page.get_by_role("button", name="Take back round 1").click()
    expect(page.get_by_role("heading", name="Take back round 1?")).to_be_visible()
    camera.shoot("confirm-take-back")
    with page.expect_navigation():
        page.get_by_role("button", name="Take back round 1").click()
    do_pair_round(made, "manual", manual=[("Ann Archer", "Cy Cole"), ("Ben Baker", "Di Dunn")])  # fmt: skip
    page.goto(f"/games/{old.pk}/score/{old.token}/")
    expect(page.get_by_role("heading", name="This table's game has moved")).to_be_visible()
    expect(page.locator("main")).to_contain_text("Table 1 is now")
    camera.shoot("old-qr-code")

    # Start at the table: the first player's clock runs.
    table = made.round_set.get().pairings.get(table=1)
    game = table.game
    page.goto(f"/games/{game.pk}/score/{game.token}/")
    with page.expect_navigation():
        page.get_by_role("button", name=re.compile("^Start")).click()
    expect(page.locator(".player-clock.running")).to_have_count(1)
    assert "waiting" not in Game.objects.get(pk=game.pk).clock

    # A result typed in, then pairing round 2 while table 1 plays: asked first.
    do_enter_result(made, 1, "Ben Baker", 400, "Di Dunn", 350)
    page.goto(f"/tournaments/{made.pk}/direct")
    with page.expect_navigation():
        page.get_by_role("button", name="Pair round 2").click()
    expect(
        page.get_by_role("heading", name="Pair round 2 while round 1 is played?")
    ).to_be_visible()
    camera.shoot("confirm-pair-while-played")
    page.get_by_role("link", name="Cancel").click()

    # A correction with its trace, from the director's page.
    page.fill("#id_correct-round", "1")
    page.fill("#id_correct-player1", "Ben Baker")
    page.fill("#id_correct-score1", "410")
    page.fill("#id_correct-player2", "Di Dunn")
    page.fill("#id_correct-score2", "350")
    with page.expect_navigation():
        page.get_by_role("button", name="Correct the result").click()
    expect(page.locator(".messages")).to_contain_text("Round 1 corrected")
    camera.shoot("director-after-correction")

    # The event's page on a phone: results in the round, scorecards that don't scroll.
    page.goto(f"/tournaments/{made.pk}/")
    expect(page.locator(".table-result")).to_contain_text(["410–350"])
    expect(page.locator(".corrections")).to_contain_text("400–350 became 410–350 (by dora)")
    camera.shoot("event-page")
    # A player's scorecard, a page of its own from their name in the standings.
    page.locator("table.standings th a").first.click()
    expect(page.locator("table.scorecard")).to_be_visible()
    for size in (SMALL, {"width": 390, "height": 844}):
        page.set_viewport_size(size)
        no_sideways_scroll(page, ".table-scroll, table.scorecard")
    camera.shoot("scorecard")


def test_a_clocked_games_end_table_fits_a_360_px_phone(page: Page, monkeypatch: pytest.MonkeyPatch):
    from scorekeeper.games import clocks, domain

    game = domain.check_create_game(
        ruleset="upwords-10", players=["Alejandra Rodriguez", "Christopher Ten Den"],
        lexicon="CLUB", clock={"kind": "player", "minutes": 25},
    )  # fmt: skip
    # Each pass sent when the clocks read so, as a phone sends them (the server's time then).
    for readings in ([-64_000, 1_500_000], [-64_000, -125_000]):
        at = when_read(game.pk, readings)
        monkeypatch.setattr(clocks, "now_ms", lambda at=at: at)
        domain.act(game.pk, domain.TurnCommand("pass", clock_ms=readings, clock_at=at))
    page.set_viewport_size(SMALL)
    page.goto(f"/games/{game.pk}/score/{game.token}/")
    expect(page.locator(".end table.final")).to_be_visible()
    expect(page.locator(".end .time-penalties")).to_contain_text("−20 for 1:04 over")
    no_sideways_scroll(page, ".end, .end table.final")
    table = page.locator(".end table.final").bounding_box()
    card = page.locator(".end").bounding_box()
    assert table is not None and card is not None
    assert table["x"] + table["width"] <= card["x"] + card["width"] + 0.5  # nothing clipped
    Camera(page, "clocked-end").shoot("end-table")


def test_the_event_form_shows_only_the_chosen_clocks_settings(page: Page):
    make_club("Riverside", directors=[account("dora")], roster=())
    sign_in(page, "dora")
    page.goto("/clubs/riverside/tournaments/new")
    seconds, minutes = page.locator("#id_clock_seconds"), page.locator("#id_clock_minutes")
    penalty = page.locator("#id_clock_penalty")
    page.select_option("#id_clock", "player")
    expect(minutes).to_be_visible()
    expect(penalty).to_be_visible()
    expect(seconds).to_be_hidden()
    camera = Camera(page, "event-form")
    camera.shoot("time-bank")
    page.select_option("#id_clock", "turn")
    expect(seconds).to_be_visible()
    expect(minutes).to_be_hidden()
    page.select_option("#id_clock", "")
    expect(seconds).to_be_hidden()
    expect(penalty).to_be_hidden()
    assert page.locator("#id_lexicon option[value=honour]").count() == 1
