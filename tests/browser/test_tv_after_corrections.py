"""The spectator screen (the TV) follows an undo and a correction of an earlier turn as it
happens, and says what the scorer's phone and the log say: which turn was undone, the last
play with its tiles marked, the turn now."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.games import domain
from tests.browser.pages import Camera

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MOOD = [(4, 3, "M"), (4, 4, "O"), (4, 5, "O"), (4, 6, "D")]
EAR = [(5, 6, "E"), (6, 6, "A"), (7, 6, "R")]  # DEAR down from MOOD's D: G6, G7, G8


def test_the_tv_follows_an_undo_then_a_correction_of_an_earlier_turn(page: Page):
    game = domain.check_create_game(ruleset="upwords-10", players=["Ann", "Ben"], lexicon="CLUB")
    domain.act(game.pk, domain.TurnCommand("play", tiles=MOOD))  # turn 1, Ann
    domain.act(game.pk, domain.TurnCommand("pass"))  # turn 2, Ben (entry #2)
    domain.act(game.pk, domain.TurnCommand("play", tiles=EAR))  # turn 3, Ann
    domain.act(game.pk, domain.TurnCommand("pass"))  # turn 4, Ben
    page.goto(f"/games/{game.pk}/watch")
    page.set_viewport_size({"width": 1920, "height": 1080})  # a TV: the recent turns shown
    recent = page.get_by_role("region", name="Recent turns").get_by_role("listitem")
    expect(recent.first).to_have_text("Turn 4: Ben passed.")
    expect(page.locator(".watch-side .meta").first).to_contain_text("Turn 5 ·")

    domain.act(game.pk, domain.TurnCommand("undo"))
    expect(recent.first).to_have_text("Turn 4 was undone: Ben passed.")
    expect(page.locator(".watch-side .meta").first).to_contain_text("Turn 4 ·")

    domain.act(
        game.pk, domain.TurnCommand("correct", target=2, count=1)
    )  # Ben's pass was an exchange
    expect(recent.first).to_have_text("Turn 2 was corrected: Ben exchanged 1 tile.")
    expect(recent.nth(1)).to_have_text("Turn 4 was undone: Ben passed.")
    expect(page.get_by_role("region", name="Last play: Ann")).to_contain_text("DEAR")
    for square in ("G6", "G7", "G8"):
        cell = page.get_by_role("gridcell", name=re.compile(f"^{square}: .*last play$"))
        expect(cell).to_have_count(1)
    expect(page.get_by_role("gridcell", name=re.compile("last play$"))).to_have_count(3)
    expect(page.locator(".watch-side .meta").first).to_contain_text("Turn 4 ·")
    Camera(page, "tv-after-corrections").shoot("watch")

    # The phone says the same turn, and marks the same tiles.
    page.goto(f"/games/{game.pk}/score/{game.token}/")
    expect(page.locator(".meta").first).to_contain_text("turn 4 ·")
    expect(page.get_by_role("gridcell", name=re.compile("last play$"))).to_have_count(3)
