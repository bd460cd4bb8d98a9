"""A small club evening in a real browser: four players, two Swiss rounds made through the
API, every table's game played through the games API, and the event's page on a phone showing
the standings change as each game ends, without a reload."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from bench.sequences import HASBRO, tiles
from scorekeeper.api.accounts import new_account_token
from tests.browser.pages import PHONE, SHOTS
from tests.factories import account

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = [{"name": name, "rating": rating} for name, rating in
           (("Ann Archer", 1700), ("Ben Baker", 1600), ("Cy Cole", 1500), ("Di Dunn", 1400))]  # fmt: skip


def test_a_small_evening_s_standings_follow_each_game_to_its_end(
    page: Page, live_server, client, settings
):
    settings.LIVE_POLL_SECONDS = 0  # a change comes by push alone
    auth = {"HTTP_AUTHORIZATION": f"Bearer {new_account_token(account('dora'))}"}

    def post(path: str, body: dict, **headers: str) -> dict:
        sent = client.post(path, body, content_type="application/json", **(headers or auth))
        assert sent.status_code == 201, sent.content
        return sent.json()

    post("/api/clubs/", {"name": "Riverside"})
    event = post("/api/clubs/riverside/tournaments/", {
        "name": "Friday", "ruleset": "upwords-10", "lexicon": "CLUB", "rounds": 2,
        "players": PLAYERS,
    })  # fmt: skip

    def play_out(table: dict) -> None:
        """Three plays, the first seat's two worth 8 and 10 against 8: it wins by 10."""
        game = table["game"]
        path, token = f"/api/games/{game['id']}/turns/", {"HTTP_AUTHORIZATION": f"Bearer {game['token']}"}  # fmt: skip
        for triples, _ in HASBRO[:3]:
            post(path, {"action": "play", "tiles": tiles(triples)}, **token)
        post(path, {"action": "finish"}, **token)

    page.set_viewport_size(PHONE)
    first_round = post(f"/api/tournaments/{event['id']}/rounds/", {"method": "swiss"})
    page.goto(f"/tournaments/{event['id']}/")
    expect(page.locator("#event-standings-part[data-pushed]")).to_have_count(1)
    ranks = page.locator("#event-standings-part td.rank")
    names = page.locator("#event-standings-part tbody th")
    expect(ranks).to_have_text(["1=", "1=", "1=", "1="])

    play_out(first_round["pairings"][0])
    expect(names.first).to_have_text(first_round["pairings"][0]["first"], timeout=3000)
    expect(ranks).to_have_text(["1", "2=", "2=", "4"])
    play_out(first_round["pairings"][1])
    expect(ranks).to_have_text(["1=", "1=", "3=", "3="], timeout=3000)

    second_round = post(f"/api/tournaments/{event['id']}/rounds/", {"method": "swiss"})
    expect(page.locator("#event-standings-part h2").first).to_have_text("Round 2", timeout=3000)
    winners = {table["first"] for table in first_round["pairings"]}
    top = second_round["pairings"][0]
    assert {top["first"], top["second"]} == winners  # Swiss: the winners meet
    play_out(top)
    expect(names.first).to_have_text(top["first"], timeout=3000)
    play_out(second_round["pairings"][1])
    expect(ranks).to_have_text(["1", "2=", "2=", "4"], timeout=3000)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    folder = SHOTS / "tournament"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / "evening-390.png"), full_page=True)
