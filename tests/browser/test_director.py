"""The director's screen in a real browser: three games in play at a phone's width and on a
1920×1080 projector, and a turn entered at a table pushed to it at once."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from bench.sequences import HASBRO
from scorekeeper.games import domain
from scorekeeper.web import director
from tests.browser.pages import PHONE, SHOTS, SMALL
from tests.factories import NIGHT_TABLES, club_night, make_club

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PROJECTOR = {"width": 1920, "height": 1080}


def test_the_director_s_screen_at_a_phone_s_width_and_on_a_projector(
    page: Page, live_server, settings
):
    settings.LIVE_POLL_SECONDS = 0  # a change comes by push alone
    club = make_club(roster=["Ann", "Ben", "Cy", "Di", "Ed", "Flo"])
    games = []
    for names, plays in ((["Ann", "Ben"], 1), (["Cy", "Di"], 2), (["Ed", "Flo"], 0)):
        game = domain.check_create_game(
            ruleset="upwords-10", players=names, lexicon="CLUB", club=club
        )
        for triples, _ in HASBRO[:plays]:
            domain.act(game.pk, domain.TurnCommand("play", tiles=triples))
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
    domain.act(games[2].pk, domain.TurnCommand("pass"))
    expect(page.locator("article.live-card", has_text="Ed v Flo")).to_contain_text("Ed passed")


def shots() -> Path:
    folder = SHOTS / "director"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


SCREENS = {"1920x1080": PROJECTOR, "1280x720": {"width": 1280, "height": 720}}
# Every element that holds text, with its computed size: none may be under 24px.
TEXT_SIZES = """() => [...document.querySelectorAll('body *')]
  .filter(e => [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
  .map(e => [e.textContent.trim().slice(0, 30), parseFloat(getComputedStyle(e).fontSize)])"""
# The cards in the order they are drawn, each by its game.
CARDS = "() => [...document.querySelectorAll('article.live-card')].map(c => c.getAttribute('aria-labelledby'))"
# The tables of the page shown, by number, and whether each card is wholly on the screen.
SHOWN = """() => [...document.querySelectorAll('article.live-card')]
  .filter(card => card.getClientRects().length)
  .map(card => [Number(card.querySelector('.table-number').textContent.replace('Table ', '')),
                card.getBoundingClientRect().bottom <= innerHeight,
                card.getBoundingClientRect().right <= innerWidth])"""


@pytest.mark.parametrize("name", SCREENS)
def test_the_projector_shows_every_table_in_large_type_on_one_screen_a_page_at_a_time(
    page: Page, live_server, settings, monkeypatch, name
):
    settings.LIVE_POLL_SECONDS = 0
    # A page turns only when the test moves the browser's clock on by an hour at once.
    monkeypatch.setattr(director, "PROJECTOR_PAGE_SECONDS", 3600)
    size = SCREENS[name]
    club, games = club_night()
    page.clock.install()
    page.set_viewport_size(size)
    page.goto(f"/clubs/{club.slug}/live/projector")
    screen = page.locator("#live-tables[data-pages]")
    expect(screen).to_have_count(1)
    expect(page.get_by_role("navigation", name="Main")).to_have_count(0)
    expect(page.locator("header.site")).to_have_count(0)
    small = [(text, px) for text, px in page.evaluate(TEXT_SIZES) if px < 24]
    assert not small, small

    pages = int(screen.get_attribute("data-pages"))
    shown: dict[int, list[int]] = {}
    for _ in range(pages):
        number = int(screen.get_attribute("data-page"))
        assert page.evaluate("document.documentElement.scrollHeight") <= size["height"]
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        cards = page.evaluate(SHOWN)
        assert all(below and inside for _, below, inside in cards), (number, cards)
        shown[number] = [table for table, _, _ in cards]
        page.screenshot(path=str(shots() / f"projector-view-{name}-page-{number}.png"))
        page.clock.fast_forward(3600 * 1000)
    assert sorted(shown) == list(range(1, pages + 1))  # each page came once
    in_order = [table for number in sorted(shown) for table in shown[number]]
    assert in_order == sorted(NIGHT_TABLES)  # every table once, by its number
    if size == PROJECTOR:
        assert shown[1] == sorted(NIGHT_TABLES)  # on a projector's full size, all at once
        return

    # At 1280x720 the finished games and the standings have a page of their own; a turn pushed
    # meanwhile leaves that page on the screen, and the next shows the turn.
    assert pages > 1
    page.clock.fast_forward(3600 * 1000 * (pages - 1))
    expect(screen).to_have_attribute("data-page", str(pages))
    domain.act(games[0].pk, domain.TurnCommand("pass"))
    expect(page.locator(f"[aria-labelledby='live-{games[0].pk}']")).to_contain_text(
        "Ben Cole passed"
    )
    expect(screen).to_have_attribute("data-page", str(pages))
    assert [table for table, _, _ in page.evaluate(SHOWN)] == shown[pages]
    page.clock.fast_forward(3600 * 1000)
    expect(screen).to_have_attribute("data-page", "1")
    assert [table for table, _, _ in page.evaluate(SHOWN)] == shown[1]


@pytest.mark.parametrize("screen", ["live", "live/projector"])
def test_the_cards_keep_their_places_when_a_turn_is_pushed_and_the_tables_load_once(
    page: Page, live_server, settings, screen
):
    settings.LIVE_POLL_SECONDS = 0  # a change comes by push alone
    club, games = club_night()
    parts = []
    page.on(
        "request", lambda request: parts.append(request.url) if "/tables" in request.url else None
    )
    page.set_viewport_size(PROJECTOR)
    page.goto(f"/clubs/{club.slug}/{screen}")
    expect(page.locator("#live-tables[data-pushed]")).to_have_count(1)
    order = page.evaluate(CARDS)
    assert len(order) == len(NIGHT_TABLES)
    # The page came with its tables: its stream, open now, asks for them again only if they
    # changed since. A refresh it asked for would come within the debounce (under a second).
    page.wait_for_timeout(1500)
    assert parts == []

    # Table 7 started first and waited longest; a turn there keeps every card where it was.
    domain.act(games[0].pk, domain.TurnCommand("pass"))
    expect(page.locator(f"[aria-labelledby='live-{games[0].pk}']")).to_contain_text(
        "Ben Cole passed"
    )
    assert len(parts) == 1
    assert page.evaluate(CARDS) == order


def test_the_director_s_screen_stays_usable_on_a_phone(page: Page, live_server):
    club, _ = club_night()
    for label, size in (("390", PHONE), ("360", SMALL)):
        page.set_viewport_size(size)
        page.goto(f"/clubs/{club.slug}/live")
        expect(page.locator("article.live-card")).to_have_count(len(NIGHT_TABLES))
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        expect(page.get_by_role("link", name="Projector view")).to_be_visible()
        page.screenshot(path=str(shots() / f"night-{label}.png"))
        projector = page.goto(f"/clubs/{club.slug}/live/projector")
        assert projector is not None and projector.ok
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        assert page.evaluate("document.documentElement.scrollHeight") <= size["height"]
        page.screenshot(path=str(shots() / f"projector-view-{label}.png"))
