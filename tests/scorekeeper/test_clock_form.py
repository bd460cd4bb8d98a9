"""The new-game form's clock: none, a clock for each player, or a timer for each turn."""

from __future__ import annotations

from html import unescape

import pytest

from scorekeeper.models import Game
from tests.factories import start

pytestmark = pytest.mark.django_db

PLAYER = {"clock": "player", "clock_minutes": "25", "clock_penalty": "10",
          "clock_max_overtime": "10", "clock_over_max": "capped"}  # fmt: skip


def test_a_player_clock_starts_with_the_game_for_the_first_player(client):
    game = start(client, ruleset="crossword-classic", starter="2", **PLAYER)
    assert game.clock["rule"] == {
        "kind": "player", "minutes": 25, "overtime_penalty": 10,
        "max_overtime_minutes": 10, "over_max": "capped",
    }  # fmt: skip
    assert game.clock["readings"] == [1_500_000, 1_500_000]
    assert game.clock["running"] == 1 and game.clock["paused"] is False
    assert game.turn_clock is None


def test_a_player_clock_takes_the_directors_numbers_and_a_loss_on_time(client):
    game = start(client, **{**PLAYER, "clock_minutes": "15", "clock_penalty": "5",
                            "clock_max_overtime": "3", "clock_over_max": "loses"})  # fmt: skip
    assert game.clock["rule"]["minutes"] == 15 and game.clock["rule"]["over_max"] == "loses"
    assert game.clock["rule"]["overtime_penalty"] == 5
    assert game.clock["readings"] == [900_000, 900_000]


def test_empty_settings_take_the_clocks_defaults(client):
    game = start(client, clock="player", clock_minutes="", clock_penalty="")
    assert game.clock["rule"]["minutes"] == 25 and game.clock["rule"]["overtime_penalty"] == 10


def test_a_turn_timer_is_letter_ups_75_seconds_by_default(client):
    html = client.get("/games/new?ruleset=letterup-classic").content.decode()
    assert 'name="turn_clock" value="75"' in html
    game = start(client, ruleset="letterup-classic", clock="turn", turn_clock="")
    assert game.clock["rule"] == {"kind": "turn", "seconds": 75}
    assert game.turn_clock == 75 and game.clock["readings"] == [75_000, 75_000]


def test_no_clock_reads_none_of_the_clocks_settings(client):
    game = start(client, clock="none", clock_minutes="0", turn_clock="nope")
    assert game.clock is None and game.turn_clock is None


def test_the_form_offers_no_clock_first_and_25_minutes_each(client):
    html = client.get("/games/new?ruleset=crossword-classic").content.decode()
    assert 'name="clock" value="none"' in html and 'value="none" required' not in html
    assert 'name="clock_minutes" value="25"' in html
    assert 'name="clock_penalty" value="10"' in html
    assert 'name="clock_max_overtime" value="10"' in html


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"clock_minutes": "0"}, "Each player's time is a whole number of minutes from 1 to 180."),
        ({"clock_minutes": "ten"}, "Each player's time is a whole number of minutes from 1 to"),
        (
            {"clock_penalty": "101"},
            "Each minute over costs a whole number of points from 0 to 100.",
        ),
        ({"clock_max_overtime": "-1"}, "The most overtime is a whole number of minutes from 0 to"),
        ({"clock_over_max": "forfeit"}, "Select a valid choice"),
        ({"clock": "sandglass"}, "Select a valid choice"),
    ],
)
def test_a_clock_no_clock_could_be_is_refused_with_a_sentence(client, fields, message):
    data = {"ruleset": "upwords-10", "lexicon": "CLUB", "player_1": "Ann", "player_2": "Ben",
            "challenge_mode": "auto", "starter": "1", **PLAYER, **fields}  # fmt: skip
    response = client.post("/games/new", data)
    assert response.status_code == 400
    assert message in unescape(response.content.decode())
    assert Game.objects.count() == 0
