"""The word-checking policy: one answer, everywhere, to "are words checked?" and "can the last
play be challenged?"."""

from __future__ import annotations

import pytest

from scorekeeper.games.word_policy import WordPolicy
from tests.factories import ApiGame, scorer, start

pytestmark = pytest.mark.django_db

MOOX = [(4, 3, "M"), (4, 4, "O"), (4, 5, "O"), (4, 6, "X")]  # not in the CLUB list


@pytest.mark.parametrize(
    ("lexicon", "mode", "checks", "challenges"),
    [
        ("CLUB", "auto", True, False),
        ("CLUB", "manual", False, True),
        ("honour", "auto", False, False),
        ("honour", "manual", False, False),
    ],
)
def test_the_policy_follows_from_the_lexicon_and_the_mode(lexicon, mode, checks, challenges):
    policy = WordPolicy(lexicon, mode)
    assert (policy.checks_as_played, policy.challenges) == (checks, challenges)


def test_an_honour_game_in_tournament_mode_offers_no_challenge_in_the_api(client):
    game = ApiGame(client, lexicon="honour", challenge_mode="manual")
    answer = game.play(MOOX).json()
    assert answer["game"]["can_challenge"] is False
    assert game.state()["can_challenge"] is False
    # And it is refused for the same reason it is not offered.
    refused = game.turn({"action": "challenge"})
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "no_dictionary"


def test_a_tournament_game_with_a_lexicon_offers_the_challenge_it_takes(client):
    game = ApiGame(client, challenge_mode="manual")
    assert game.play(MOOX).json()["game"]["can_challenge"] is True
    assert game.turn({"action": "challenge"}).status_code == 201


def test_an_honour_game_in_tournament_mode_shows_no_challenge_button(client):
    game = start(client, lexicon="honour", challenge_mode="manual")
    client.post(scorer(game) + "turn", {"action": "play", "play": "5D MOOX", "expected_turn": 1})
    html = client.get(scorer(game)).content.decode()
    assert 'value="challenge"' not in html


def test_the_honour_preview_says_honour_system_not_unless_challenged(client):
    game = start(client, lexicon="honour", challenge_mode="manual")
    html = client.post(scorer(game) + "preview", {"play": "5D MOOX"}).content.decode()
    assert "honour system" in html and "unless challenged" not in html


def test_the_tournament_preview_says_words_stand_unless_challenged(client):
    game = start(client, challenge_mode="manual")
    html = client.post(scorer(game) + "preview", {"play": "5D MOOX"}).content.decode()
    assert "they stand unless challenged (CLUB)" in html


def test_the_checked_preview_says_the_words_are_in_the_lexicon(client):
    game = start(client)
    html = client.post(scorer(game) + "preview", {"play": "5D MOOD"}).content.decode()
    assert "Every word is in CLUB." in html
