"""Your games: the games this browser created or scored in are never pushed out by links it is
made to open; games only opened by a link make room for each other, oldest first."""

from __future__ import annotations

import pytest
from django.core import signing
from django.test import Client

from scorekeeper.models import Game
from scorekeeper.web.your_games import YOURS_COOKIE, YOURS_MAX, YOURS_SALT
from tests.factories import ApiGame

pytestmark = pytest.mark.django_db
PLANTED = YOURS_MAX + 1  # more links than "your games" has room for


@pytest.fixture(autouse=True)
def many_games(settings):
    settings.RATE_LIMIT_GAMES = 100


def new_game(browser: Client) -> Game:
    """A game started from the new-game page, as a scorer at the table does."""
    data = {"ruleset": "upwords-10", "lexicon": "CLUB", "player_1": "Ann", "player_2": "Ben",
            "challenge_mode": "auto", "starter": "1"}  # fmt: skip
    response = browser.post("/games/new", data)
    assert response.status_code == 302, response.content
    return Game.objects.order_by("-created_at").first()  # type: ignore[return-value]


def pass_turn(browser: Client, game_id: object) -> None:
    response = browser.post(f"/games/{game_id}/score/turn", {"action": "pass"})
    assert response.status_code == 302
    assert Game.objects.get(pk=game_id).last_entry_number >= 1


def open_link(browser: Client, game: ApiGame) -> None:
    """What a page elsewhere can make this browser do: follow a scorer link."""
    response = browser.get(f"/games/{game.id}/score/{game.token}/", follow=True)
    assert response.status_code == 200


def listed(browser: Client) -> str:
    return browser.get("/").content.decode()


def plant(browser: Client, count: int = PLANTED) -> list[ApiGame]:
    attacker = Client()
    throwaways = [ApiGame(attacker) for _ in range(count)]
    for game in throwaways:
        open_link(browser, game)
    return throwaways


def test_a_game_this_browser_created_and_scored_in_outlasts_planted_links():
    browser = Client()
    game = new_game(browser)
    pass_turn(browser, game.pk)
    throwaways = plant(browser)
    home = listed(browser)
    assert f'href="/games/{game.pk}/score/"' in home
    assert f'href="/games/{throwaways[-1].id}/score/"' in home  # the newest opened one too


def test_a_game_this_browser_only_created_outlasts_planted_links():
    browser = Client()
    game = new_game(browser)
    plant(browser)
    assert f'href="/games/{game.pk}/score/"' in listed(browser)


def test_a_friends_game_this_browser_scored_in_outlasts_planted_links():
    browser, friend = Client(), Client()
    shared = ApiGame(friend)
    open_link(browser, shared)
    pass_turn(browser, shared.id)
    plant(browser)
    assert f'href="/games/{shared.id}/score/"' in listed(browser)


def test_games_only_opened_by_a_link_make_room_for_each_other_oldest_first():
    browser = Client()
    throwaways = plant(browser)
    home = listed(browser)
    assert f'href="/games/{throwaways[0].id}/score/"' not in home
    assert all(f'href="/games/{g.id}/score/"' in home for g in throwaways[1:])


def test_a_list_written_before_the_tiers_keeps_its_games():
    browser, friend = Client(), Client()
    old = ApiGame(friend)
    signer = signing.get_cookie_signer(salt=YOURS_COOKIE + YOURS_SALT)
    browser.cookies[YOURS_COOKIE] = signer.sign(old.id)
    plant(browser)
    assert f'href="/games/{old.id}/score/"' in listed(browser)


def test_a_finished_game_is_listed_with_its_final_scores():
    """The end's penalties are in the listed scores (before, the running totals: 102-96 for
    a game that ended 86-71)."""
    from tests.factories import RACK_PENALTY, finished_game

    game = finished_game(["Ann", "Ben"], club=None)
    ann, ben = game.seats.order_by("order")
    assert ann.final_score == ann.score + RACK_PENALTY
    browser = Client()
    signer = signing.get_cookie_signer(salt=YOURS_COOKIE + YOURS_SALT)
    browser.cookies[YOURS_COOKIE] = signer.sign(str(game.pk))
    home = browser.get("/").content.decode()
    assert f"Ann {ann.final_score}, Ben {ben.final_score}" in home
