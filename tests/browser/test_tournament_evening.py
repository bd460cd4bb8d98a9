"""A club evening in a real browser: eight players, three Swiss rounds paired through the API,
every table's game played on its phone through the scorer page, and the director's screen on a
1920×1080 projector showing each game's end in the standings without a reload."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.api.accounts import new_account_token
from tests.browser.pages import PHONE, SHOTS
from tests.factories import account

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ("Ann Archer", "Ben Baker", "Cy Cole", "Di Dunn", "Ed Eng", "Flo Fox", "Gus Gray",
         "Hal Hunt")  # fmt: skip
PLAYERS = [{"name": name, "rating": 1800 - 50 * i} for i, name in enumerate(NAMES)]
PROJECTOR = {"width": 1920, "height": 1080}


def test_an_evening_of_three_swiss_rounds_played_at_the_tables_lands_on_the_directors_screen(
    page: Page, browser, live_server, client, settings
):
    settings.LIVE_POLL_SECONDS = 0  # a change comes by push alone
    auth = {"HTTP_AUTHORIZATION": f"Bearer {new_account_token(account('dora'))}"}

    def post(path: str, body: dict) -> dict:
        sent = client.post(path, body, content_type="application/json", **auth)
        assert sent.status_code == 201, sent.content
        return sent.json()

    post("/api/clubs/", {"name": "Riverside"})
    event = post("/api/clubs/riverside/tournaments/", {
        "name": "Friday", "ruleset": "upwords-10", "lexicon": "CLUB", "rounds": 3,
        "players": PLAYERS,
    })  # fmt: skip
    number = event["id"]

    screen = browser.new_context(viewport=PROJECTOR, base_url=live_server.url).new_page()
    screen.set_default_timeout(10_000)
    screen.goto("/clubs/riverside/live")
    expect(screen.locator("#live-tables[data-pushed]")).to_have_count(1)
    standings = screen.locator("#live-tables .event-standings tbody tr")

    def the_screen_shows_the_standings() -> None:
        """The director's screen, never reloaded, comes to the standings the API answers."""
        rows = client.get(f"/api/tournaments/{number}/standings").json()
        expect(standings.locator("th")).to_have_text([row["name"] for row in rows])
        expect(standings.locator("td.rank")).to_have_text([row["rank"] for row in rows])
        records = [f"{row['wins']:g}–{row['losses']:g}" for row in rows]
        expect(standings.locator("td.record")).to_have_text(records)
        spreads = [f"{row['spread']:+d}" if row["spread"] else "0" for row in rows]
        expect(standings.locator("td.spread")).to_have_text(spreads)

    def act(label: str) -> None:
        with page.expect_navigation():
            page.click(f".actions button:has-text('{label}')")

    def play(notation: str) -> None:
        page.fill("#play-input", notation)
        with page.expect_navigation():
            page.click("text=Submit play")

    def play_out(table: dict) -> None:
        """The table's phone opens its scorer link; the quickest end with a winner the rules
        allow: one play, then a pass by each (both lose 35 for their racks). The first seat
        plays MOOD (8) on odd tables, HOUSE (10) on even ones."""
        game = table["game"]
        page.goto(f"/games/{game['id']}/score/{game['token']}/")
        play("5D MOOD" if table["table"] % 2 else "5D HOUSE")
        act("Pass")
        act("Pass")
        expect(page.locator(".end")).to_contain_text(f"{table['first']} wins")

    page.set_viewport_size(PHONE)
    met: set[frozenset[str]] = set()
    for round_number in (1, 2, 3):
        paired = post(f"/api/tournaments/{number}/rounds/", {"method": "swiss"})
        tables = paired["pairings"]
        assert len(tables) == 4 and paired["byes"] == []
        expect(screen.locator("#event-head")).to_contain_text(f"round {round_number} of 3")
        expect(screen.locator(".event-table")).to_have_count(4)
        couples = {frozenset((t["first"], t["second"])) for t in tables}
        assert not couples & met  # Swiss: no rematch while one can be avoided
        met |= couples
        for table in tables:
            play_out(table)
            card = screen.locator(".event-table").nth(table["table"] - 1)
            expect(card.locator(".live-turn")).to_have_text("final")
            the_screen_shows_the_standings()

    rows = client.get(f"/api/tournaments/{number}/standings").json()
    assert rows[0]["wins"] == 3 and rows[0]["rank"] == "1" and rows[-1]["wins"] == 0
    folder = SHOTS / "tournament"
    folder.mkdir(parents=True, exist_ok=True)
    screen.screenshot(path=str(folder / "directors-screen-1920x1080.png"))
    screen.goto("/clubs/riverside/live/projector")
    expect(screen.locator(".event-projector-standings tbody th").first).to_have_text(
        rows[0]["name"]
    )
    screen.screenshot(path=str(folder / "projector-1920x1080.png"))
    screen.context.close()
    page.goto(f"/tournaments/{number}/")
    expect(page.locator("#event-standings-part tbody th").first).to_have_text(rows[0]["name"])
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(folder / "evening-390.png"), full_page=True)
