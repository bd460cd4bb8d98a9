"""The director's screen in a real browser: three games in play at a phone's width and on a
1920×1080 projector, and a turn entered at a table pushed to it at once."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from bench.sequences import HASBRO
from scorekeeper.game import domain
from tests.browser.pages import PHONE, SHOTS
from tests.factories import make_club

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PROJECTOR = {"width": 1920, "height": 1080}


def test_the_director_s_screen_at_a_phone_s_width_and_on_a_projector(
    page: Page, live_server, settings
):
    settings.LIVE_POLL_SECONDS = 0  # a change comes by push alone
    club = make_club(roster=["Ann", "Ben", "Cy", "Di", "Ed", "Flo"])
    games = []
    for names, plays in ((["Ann", "Ben"], 1), (["Cy", "Di"], 2), (["Ed", "Flo"], 0)):
        game = domain.do_create_game(ruleset="upwords-10", players=names, lexicon="CLUB", club=club)
        for triples, _ in HASBRO[:plays]:
            domain.act(game.pk, "play", tiles=triples)
        games.append(game)
    folder = SHOTS / "director"
    folder.mkdir(parents=True, exist_ok=True)

    page.set_viewport_size(PHONE)
    page.goto(f"/clubs/{club.slug}/live")
    cards = page.locator("article.live-card")
    expect(cards).to_have_count(3)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(folder / "phone-390.png"), full_page=True)

    page.set_viewport_size(PROJECTOR)
    page.goto(f"/clubs/{club.slug}/live")
    expect(cards).to_have_count(3)
    # Every game in play is on the screen at once, with no scrolling. Measured in one go: a
    # change pushed meanwhile may draw the cards again between two reads of one.
    boxes = page.evaluate(
        "() => [...document.querySelectorAll('article.live-card')]"
        ".map(card => card.getBoundingClientRect()).map(box => [box.top, box.bottom])"
    )
    assert len(boxes) == 3
    assert all(bottom <= PROJECTOR["height"] for _, bottom in boxes), boxes
    assert len({round(top) for top, _ in boxes}) == 1, boxes  # side by side, in one row
    page.screenshot(path=str(folder / "projector-1920.png"))

    # A turn at Ed and Flo's table is pushed to the screen at once.
    expect(page.locator("#live-tables[data-pushed]")).to_have_count(1)
    domain.act(games[2].pk, "pass")
    expect(page.locator("article.live-card", has_text="Ed v Flo")).to_contain_text(
        "Ed passed", timeout=1500
    )
