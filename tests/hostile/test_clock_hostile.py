"""Hostile readings for the game clock: moments far from now, and clock actions where no clock
runs. The scorer's phone is the clock's authority; what it sends must still leave a clock that
the next reading can follow."""

from __future__ import annotations

import pytest

from scorekeeper.games import clocks
from tests.factories import ApiGame

pytestmark = pytest.mark.django_db

FULL = 25 * 60_000
NOW = 1_800_000_000_000  # the server's time in these tests


@pytest.fixture(autouse=True)
def server_time(monkeypatch):
    monkeypatch.setattr(clocks, "now_ms", lambda: NOW)


def test_a_moment_from_1970_is_refused_naming_it_and_changes_nothing(hostile):
    game = ApiGame(hostile, clock={"kind": "player", "minutes": 25})
    before = game.state()
    # A client that says the readings were taken in 1970, to run Ben's clock from then.
    sent = {"action": "clock", "clock": "switch", "clock_ms": [FULL, FULL], "clock_at": 1}
    response = game.turn(sent)
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "clock_at_before"
    assert "(clock_at 1)" in response.json()["error"]["message"]
    assert game.state() == before
    # The same play sent without a moment takes the server's time, and the game goes on.
    assert game.turn({"action": "clock", "clock": "switch"}).status_code == 201
    assert game.turn({"action": "pass"}).status_code == 201


def test_readings_that_put_the_opponent_over_are_refused(hostile):
    game = ApiGame(hostile, clock={"kind": "player", "minutes": 25, "over_max": "loses"})
    before = game.state()
    sent = {"action": "pass", "clock_ms": [FULL, -660_000], "clock_at": NOW}
    response = game.turn(sent)
    assert response.status_code == 422
    assert response.json()["error"]["message"] == (
        "Ben's clock reads −11:00, but it has not run since it read 25:00."
    )
    assert game.state() == before


def test_a_moment_ahead_of_the_server_is_refused(hostile):
    game = ApiGame(hostile, clock={"kind": "player", "minutes": 25})
    ahead = NOW + 24 * 60 * 60_000  # a day ahead: the mover's clock "ran" a day
    sent = {"action": "pass", "clock_ms": [FULL - 24 * 60 * 60_000, FULL], "clock_at": ahead}
    response = game.turn(sent)
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "clock_at_ahead"
    assert f"(clock_at {ahead})" in response.json()["error"]["message"]
    assert game.state()["turn_number"] == 0
