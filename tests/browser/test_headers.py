"""The Content-Security-Policy holds on the pages that do the most: the scorer page with its
preview, and the API's docs, served from the app's own static files."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.scorekeeper.factories import ApiGame


def test_the_api_docs_load_from_this_origin_only(page, live_server):
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto("/api/docs")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Scorekeeper API")
    assert requests and all(url.startswith(live_server.url) or url.startswith("data:")
                            for url in requests), requests  # fmt: skip


def test_the_scorer_page_previews_and_enters_a_play_under_the_policy(page, client):
    game = ApiGame(client)
    page.goto(f"/games/{game.id}/score/{game.token}/")
    page.locator("button.sq[data-name=D5]").click()
    page.keyboard.type("mood")
    expect(page.locator("#preview")).to_contain_text("8")
    page.get_by_role("button", name=re.compile("^Submit")).click()
    expect(page.locator(".messages")).to_contain_text("MOOD")
