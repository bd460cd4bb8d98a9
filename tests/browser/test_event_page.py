"""An event's page on a player's phone: it hears its event's own changes, not every table's
turns. A turn at one of its tables fetches nothing; a game of the event ending brings the new
standings without a reload; scorecards open one player at a time."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect

from bench.event_data import played_event
from bench.sequences import HASBRO
from scorekeeper.events.rounds import do_pair_round
from scorekeeper.games import domain
from scorekeeper.models import Tournament
from tests.browser.pages import PHONE, SHOTS, SMALL
from tests.factories import make_club

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_event_page_fetches_its_part_when_a_game_ends_and_not_on_a_turn(page: Page, settings):
    settings.LIVE_POLL_SECONDS = 0  # a change comes by push alone
    event = played_event(make_club(roster=()), players=8, rounds=3, played=0)
    do_pair_round(event, "swiss")
    games = [p.game for p in event.round_set.get().pairings.exclude(game=None).order_by("table")]
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    page.set_viewport_size(PHONE)
    page.goto(f"/tournaments/{event.pk}/")
    part = page.locator("#event-standings-part")
    expect(page.locator("#event-standings-part[data-pushed]")).to_have_count(1)
    wins = part.locator("tbody td[data-label=wins]")
    expect(wins).to_have_text(["0"] * 8)
    opened = len(fetched)

    for game in games:  # a turn at every table: nothing for the page to fetch
        domain.act(game.pk, domain.TurnCommand("pass"))
    time.sleep(1.5)  # longer than the page waits before it fetches (0.1-0.4 s)
    assert fetched[opened:] == []

    domain.act(games[1].pk, domain.TurnCommand("play", tiles=HASBRO[0][0]))
    domain.act(games[1].pk, domain.TurnCommand("finish"))  # table 2's first player wins
    expect(wins.first).to_have_text("1")
    asked = [url for url in fetched[opened:] if "/standings" in url]
    version = Tournament.objects.get(pk=event.pk).version  # the one its stream told of
    assert len(asked) == 1 and asked[0].endswith(f"/standings?v={version}")

    folder = SHOTS / "event"
    folder.mkdir(parents=True, exist_ok=True)
    for size in (SMALL, PHONE, {"width": 1280, "height": 800}):
        page.set_viewport_size(size)
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        page.screenshot(path=str(folder / f"event-{size['width']}.png"), full_page=True)
    page.set_viewport_size(PHONE)
    part.locator("tbody th a").first.click()
    expect(page.locator("caption")).to_contain_text("1–0")
    page.screenshot(path=str(folder / "scorecard-390.png"), full_page=True)
