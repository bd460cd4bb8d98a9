"""The Content-Security-Policy holds on the pages that do the most: the scorer page with its
preview, and the API's docs, served from the app's own static files."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.factories import ApiGame


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


def test_the_admin_works_under_the_policy(page, django_user_model):
    """Django's admin (sign-in, lists, a read-only game, a user form with its widgets) runs no
    inline script or style either: the page fixture fails on any refusal."""
    from scorekeeper.games import domain

    django_user_model.objects.create_superuser("boss", "b@example.org", "pw-long-enough-123")
    game = domain.check_create_game(ruleset="upwords-10", players=["Ann", "Ben"], lexicon="CLUB")
    domain.act(game.pk, domain.TurnCommand("pass"))
    page.goto("/admin/login/")
    page.fill("#id_username", "boss")
    page.fill("#id_password", "pw-long-enough-123")
    page.click("input[type=submit]")
    expect(page.locator("#site-name")).to_be_visible()
    for url in ["/admin/scorekeeper/game/", f"/admin/scorekeeper/game/{game.pk}/change/",
                "/admin/scorekeeper/turn/", "/admin/auth/user/add/"]:  # fmt: skip
        page.goto(url)
        expect(page.locator("#content")).to_be_visible()
