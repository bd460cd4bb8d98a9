"""The scorer's secret leaves the address: the link moves it into a per-game cookie, pages use
addresses without it, and the scorer can make a new link that stops the old one."""

from __future__ import annotations

import logging

import pytest
from django.test import Client

from scorekeeper.http.links import cookie_name
from scorekeeper.models import Game
from tests.factories import ApiGame

pytestmark = pytest.mark.django_db


def link(game: Game | ApiGame, suffix: str = "") -> str:
    return f"/games/{game.id}/score/{game.token}/{suffix}"


def page(game: Game | ApiGame, suffix: str = "") -> str:
    return f"/games/{game.id}/score/{suffix}"


def game_of(api: ApiGame) -> Game:
    return Game.objects.get(pk=api.id)


def test_opening_the_link_moves_the_secret_into_a_cookie_and_drops_it_from_the_address():
    client = Client()
    game = ApiGame(Client(), lexicon="honour")
    response = client.get(link(game))
    assert response.status_code == 303
    assert response["Location"] == page(game)
    assert game.token not in response["Location"]
    assert response["Referrer-Policy"] == "no-referrer"
    assert "no-store" in response["Cache-Control"]  # it sets the secret's cookie
    cookie = response.cookies[cookie_name(game.id)]
    assert cookie.value == game.token
    assert cookie["httponly"] and cookie["samesite"] == "Strict"
    assert cookie["path"] == page(game)  # sent to this game's scorer pages only
    assert int(cookie["max-age"]) > 0
    shown = client.get(page(game))
    assert shown.status_code == 200
    # One address for every browser, answered only to those holding the cookie: never cached
    # for anyone else.
    assert "private" in shown["Cache-Control"] and "no-store" in shown["Cache-Control"]
    assert "Cookie" in shown["Vary"]
    html = shown.content.decode()
    assert 'role="grid"' in html
    assert game.token not in html  # forms and links use the address without it


def test_the_cookie_is_secure_over_https_and_when_the_site_says_so(settings):
    game = ApiGame(Client(), lexicon="honour")
    over_https = Client().get(link(game), secure=True)
    assert over_https.cookies[cookie_name(game.id)]["secure"]
    assert not Client().get(link(game)).cookies[cookie_name(game.id)]["secure"]
    settings.SESSION_COOKIE_SECURE = True
    assert Client().get(link(game)).cookies[cookie_name(game.id)]["secure"]


def test_without_the_cookie_a_scorer_page_is_refused_and_says_how_to_get_it_back():
    game = ApiGame(Client(), lexicon="honour")
    for suffix in ("", "correct", "hand-over", "qr.svg"):
        response = Client().get(page(game, suffix))
        assert response.status_code == 403, suffix
    html = Client().get(page(game)).content.decode()
    assert "Open the scorer link again" in html
    response = Client().post(page(game, "turn"), {"action": "pass"})
    assert response.status_code == 403
    assert game_of(game).last_entry_number == 0


def test_a_wrong_cookie_or_another_games_cookie_opens_nothing():
    one, two = ApiGame(Client(), lexicon="honour"), ApiGame(Client(), lexicon="honour")
    client = Client()
    client.cookies[cookie_name(one.id)] = two.token
    assert client.get(page(one)).status_code == 403
    client.cookies[cookie_name(two.id)] = one.token
    assert client.get(page(two)).status_code == 403
    # A wrong secret in the link: the right one with its last character changed, never to itself.
    wrong = one.token[:-1] + ("y" if one.token.endswith("x") else "x")
    assert wrong != one.token
    assert client.get(f"/games/{one.id}/score/{wrong}/").status_code == 403


def test_one_browser_holds_the_links_of_several_games_at_once():
    client = Client()
    one, two = ApiGame(Client(), lexicon="honour"), ApiGame(Client(), lexicon="honour")
    client.get(link(one))
    client.get(link(two))
    assert client.get(page(one)).status_code == 200
    assert client.get(page(two)).status_code == 200


def test_a_page_of_the_link_keeps_its_query_and_goes_to_its_own_address():
    client = Client()
    game = ApiGame(Client(), lexicon="honour")
    response = client.get(link(game, "correct") + "?turn=3")
    assert response.status_code == 303
    assert response["Location"] == page(game, "correct") + "?turn=3"


def test_arriving_from_another_site_moves_on_from_a_page_of_this_site():
    """A SameSite=Strict cookie is not sent on a redirect of a navigation that another site
    started, so that navigation gets a page that moves on by itself (same-site)."""
    client = Client()
    game = ApiGame(Client(), lexicon="honour")
    response = client.get(link(game), headers={"Sec-Fetch-Site": "cross-site"})
    assert response.status_code == 200
    html = response.content.decode()
    assert f'http-equiv="refresh" content="0;url={page(game)}"' in html
    assert f'href="{page(game)}"' in html
    assert game.token not in html
    assert response.cookies[cookie_name(game.id)].value == game.token


def test_a_post_to_an_older_address_with_the_secret_still_works_and_keeps_the_cookie():
    client = Client()
    game = ApiGame(Client(), lexicon="honour")
    response = client.post(link(game, "turn"), {"action": "pass", "expected_turn": "1"})
    assert response.status_code == 302
    assert response["Location"] == page(game) + "#board"  # back at the board
    assert response.cookies[cookie_name(game.id)].value == game.token
    assert game_of(game).last_entry_number == 1
    assert client.get(page(game)).status_code == 200


def test_a_new_game_from_the_form_opens_its_scorer_page_without_the_secret(client):
    response = client.post(
        "/games/new",
        {
            "ruleset": "upwords-10",
            "lexicon": "honour",
            "player_1": "Ann",
            "player_2": "Ben",
            "challenge_mode": "auto",
            "starter": "1",
            "upheld_challenge": "retry",
            "rejected_challenge": "none",
            "solo_exchanges": "0",
        },
    )
    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == page(game)
    assert response.cookies[cookie_name(game.pk)].value == game.token
    assert client.get(page(game)).status_code == 200
    home = client.get("/").content.decode()
    assert f'href="{page(game)}"' in home and game.token not in home


def test_the_api_hands_out_the_link_and_keeps_the_bearer_header():
    game = ApiGame(Client(), lexicon="honour")
    assert game.created["scorer_url"] == link(game)
    assert game.turn({"action": "pass"}).status_code == 201
    assert game.turn({"action": "pass"}, token="wrong").status_code == 403


def test_only_the_hand_over_page_shows_the_link(client):
    game = ApiGame(Client(), lexicon="honour")
    client.get(link(game))
    hand_over = client.get(page(game, "hand-over"))
    assert hand_over.status_code == 200
    assert game.token in hand_over.content.decode()
    assert "no-store" in hand_over["Cache-Control"]
    for address in (page(game), f"/games/{game.id}/", f"/games/{game.id}/watch", "/"):
        assert game.token not in client.get(address).content.decode(), address


def test_a_new_link_stops_the_old_one_and_every_browser_that_opened_it(client, caplog):
    game = ApiGame(Client(), lexicon="honour")
    other = Client()
    client.get(link(game))
    other.get(link(game))
    old = game.token
    # Not without saying so.
    refused = client.post(page(game, "new-link"))
    assert refused.status_code == 302 and game_of(game).token == old
    with caplog.at_level(logging.INFO):
        response = client.post(page(game, "new-link"), {"confirm": "yes"})
    assert response.status_code == 302 and response["Location"] == page(game, "hand-over")
    new = game_of(game).token
    assert new != old
    assert response.cookies[cookie_name(game.id)].value == new
    shown = client.get(page(game, "hand-over")).content.decode()
    assert "New scorer link made" in shown and new in shown and old not in shown
    # This browser goes on scoring; the other one, and the old link, can't.
    assert client.get(page(game)).status_code == 200
    assert other.get(page(game)).status_code == 403
    assert Client().get(f"/games/{game.id}/score/{old}/").status_code == 403
    assert other.post(page(game, "turn"), {"action": "pass"}).status_code == 403
    assert game_of(game).last_entry_number == 0
    # The new link works, the API takes the new secret only, and no log line holds either.
    assert Client().get(f"/games/{game.id}/score/{new}/").status_code == 303
    assert game.turn({"action": "pass"}).status_code == 403
    assert game.turn({"action": "pass"}, token=new).status_code == 201
    assert "New scorer link" in caplog.text
    assert old not in caplog.text and new not in caplog.text


def test_a_new_link_needs_the_current_one():
    game = ApiGame(Client(), lexicon="honour")
    response = Client().post(page(game, "new-link"), {"confirm": "yes"})
    assert response.status_code == 403
    assert game_of(game).token == game.token


def test_a_new_link_made_at_the_old_address_keeps_this_browser_scoring():
    client = Client()
    game = ApiGame(Client(), lexicon="honour")
    response = client.post(link(game, "new-link"), {"confirm": "yes"})
    new = game_of(game).token
    assert new != game.token
    assert response.cookies[cookie_name(game.id)].value == new  # not the old secret again
    assert client.get(page(game)).status_code == 200
