"""Hostile readings for the game clock: moments far from now, and clock actions where no clock
runs. The scorer's phone is the clock's authority; what it sends must still leave a clock that
the next reading can follow."""

from __future__ import annotations

import pytest

from referee.clock import LIMIT_MS
from scorekeeper.game import clocks
from tests.factories import ApiGame

pytestmark = pytest.mark.django_db

FULL = 25 * 60_000
NOW = 1_800_000_000_000  # the server's time in these tests


@pytest.fixture(autouse=True)
def server_time(monkeypatch):
    monkeypatch.setattr(clocks, "now_ms", lambda: NOW)


def test_a_moment_from_1970_leaves_a_clock_the_phone_can_still_read(hostile):
    game = ApiGame(hostile, clock={"kind": "player", "minutes": 25})
    # A phone whose date is 1970 (or a client that says so): Ben's clock runs from then.
    sent = {"action": "clock", "clock": "switch", "clock_ms": [FULL, FULL], "clock_at": 1}
    assert game.turn(sent).status_code == 201
    # Paused without readings, Ben's clock is worked out from then: more than a day over
    # (56 years) reads as a day over, past any maximum overtime, so it costs the same.
    paused = game.turn({"action": "clock", "clock": "pause"})
    assert paused.status_code == 201
    assert paused.json()["game"]["clock"]["readings"] == [FULL, -LIMIT_MS]
    # The phone reads the clocks as they show, and the game goes on.
    resumed = {"action": "clock", "clock": "resume", "clock_ms": [FULL, -LIMIT_MS]}
    response = game.turn({**resumed, "clock_at": NOW + 60_000})
    assert response.status_code == 201, response.content
    assert game.turn({"action": "pass"}).status_code == 201
