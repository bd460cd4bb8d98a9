"""The game clock's rules: the overtime penalty at its edges, readings refused, the state."""

import pytest

from referee.clock import (
    LOSES,
    TOLERANCE_MS,
    TURN,
    WINDOW_MS,
    ClockRule,
    ClockState,
    check_moment,
    check_readings,
    format_ms,
)
from referee.errors import IllegalAction, InputError

# Overtime (minutes, seconds) → penalty at 10 a started minute, at most 10 minutes.
EDGES = [
    ((0, 0), 0),
    ((0, 1), 10),
    ((1, 0), 10),
    ((1, 1), 20),
    ((3, 4), 40),
    ((9, 59), 100),
    ((10, 0), 100),
    ((10, 1), 100),
]


@pytest.mark.parametrize(("over", "penalty"), EDGES)
def test_each_started_minute_over_costs_the_penalty_up_to_the_maximum(over, penalty):
    minutes, seconds = over
    remaining = -(minutes * 60 + seconds) * 1000
    assert ClockRule().penalty(remaining) == penalty
    assert ClockRule(overtime_penalty=5).penalty(remaining) == penalty // 2


def test_time_left_costs_nothing():
    assert ClockRule().penalty(25 * 60_000) == 0
    assert ClockRule().penalty(1) == 0


@pytest.mark.parametrize(
    ("over_ms", "lost"), [(599_999, False), (600_000, False), (600_001, True), (3_600_000, True)]
)
def test_past_the_maximum_a_player_loses_only_where_the_director_chose_so(over_ms, lost):
    assert ClockRule(over_max=LOSES).lost_on_time(-over_ms) is lost
    assert ClockRule().lost_on_time(-over_ms) is False
    assert ClockRule(over_max=LOSES).penalty(-over_ms) == min(100, ClockRule().penalty(-over_ms))


def test_a_turn_timer_costs_no_points():
    rule = ClockRule(kind=TURN)
    assert rule.penalty(-600_000) == 0
    assert rule.lost_on_time(-600_000) is False
    assert rule.full_ms == 75_000


def test_a_clock_round_trips_through_its_json():
    for data in (
        {"kind": "player", "minutes": 30, "overtime_penalty": 5},
        {"kind": "player", "max_overtime_minutes": 3, "over_max": "loses"},
        {"kind": "turn", "seconds": 90},
    ):
        rule = ClockRule.from_json(data)
        assert ClockRule.from_json(rule.to_json()) == rule
        assert {k: rule.to_json()[k] for k in data} == data


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {},
        {"kind": "chess"},
        {"kind": "player", "minutes": 0},
        {"kind": "player", "minutes": 181},
        {"kind": "player", "minutes": "25"},
        {"kind": "player", "minutes": True},
        {"kind": "player", "minutes": 2.5},
        {"kind": "player", "overtime_penalty": -10},
        {"kind": "player", "over_max": "forfeit"},
        {"kind": "player", "seconds": 75},
        {"kind": "turn", "minutes": 25},
        {"kind": "turn", "seconds": 5},
    ],
)
def test_a_clock_that_cannot_be_is_refused_with_a_sentence(data):
    with pytest.raises(InputError) as refused:
        ClockRule.from_json(data)
    assert refused.value.code == "clock_shape"
    assert refused.value.message.endswith(".")


@pytest.mark.parametrize(
    "readings", [None, 5, [1], [1, 2, 3], [1, "2"], [1, 2.0], [True, 1], [1, 10**12]]
)
def test_readings_of_the_wrong_shape_are_refused(readings):
    with pytest.raises(InputError) as refused:
        check_readings(readings, ["Ann", "Bo"])
    assert refused.value.code == "clock_readings"
    assert "2 players" in refused.value.message


def test_a_reading_that_runs_up_is_refused_naming_the_player():
    before = ClockState((60_000, -3_000), running=0, paused=False, at=0)
    with pytest.raises(IllegalAction) as refused:
        check_readings([60_000, 1_000], ["Ann", "Bo"], before, at=0)
    assert refused.value.code == "clock_ran_up"
    assert refused.value.message.startswith("Bo's clock reads 0:01, more than the −0:03")
    assert check_readings([50_000, -3_000], ["Ann", "Bo"], before, at=10_000) == (50_000, -3_000)


# Readings a phone reading its own clocks sends: the running clock less the time since ---------
BEFORE = ClockState((1_500_000, 1_500_000), running=0, paused=False, at=1_000_000)


def test_the_clock_that_ran_moves_by_the_time_since_within_the_tolerance():
    at = 1_000_000 + 60_000
    assert check_readings([1_440_000, 1_500_000], ["Ann", "Bo"], BEFORE, at) == (
        1_440_000,
        1_500_000,
    )
    edge = 1_440_000 - TOLERANCE_MS
    assert check_readings([edge, 1_500_000], ["Ann", "Bo"], BEFORE, at)[0] == edge
    with pytest.raises(IllegalAction) as refused:
        check_readings([edge - 1, 1_500_000], ["Ann", "Bo"], BEFORE, at)
    assert refused.value.code == "clock_reading"
    assert refused.value.message == (
        "Ann's clock reads 23:58, but it ran from 25:00 for 1:00 since the last reading, "
        "so it reads 24:00."
    )


def test_a_clock_that_was_not_running_cannot_move():
    # The opponent put 11 minutes over while their clock never ran.
    with pytest.raises(IllegalAction) as refused:
        check_readings([1_500_000, -660_000], ["Ann", "Bo"], BEFORE, at=1_000_000)
    assert refused.value.code == "clock_reading"
    assert refused.value.message == (
        "Bo's clock reads −11:00, but it has not run since it read 25:00."
    )
    paused = ClockState((1_500_000, 1_500_000), running=0, paused=True, at=1_000_000)
    with pytest.raises(IllegalAction):
        check_readings([1_440_000, 1_500_000], ["Ann", "Bo"], paused, at=1_060_000)


def test_a_moment_follows_the_log_and_is_not_ahead_of_the_server():
    last, server = 1_000_000, 5_000_000
    # A turn kept on a phone offline: its moment is long before the server's, after the log's.
    assert check_moment(1_000_001, last, server) == 1_000_001
    assert check_moment(last - TOLERANCE_MS, last, server) == last  # a phone a little behind
    assert check_moment(server + WINDOW_MS, last, server) == server + WINDOW_MS
    with pytest.raises(IllegalAction) as refused:
        check_moment(1, last, server)
    assert refused.value.code == "clock_at_before" and "clock_at 1" in refused.value.message
    with pytest.raises(IllegalAction) as refused:
        check_moment(server + WINDOW_MS + 1, last, server)
    assert refused.value.code == "clock_at_ahead"
    assert f"clock_at {server + WINDOW_MS + 1}" in refused.value.message


def test_readings_are_shown_as_a_clock_shows_them():
    assert [format_ms(ms) for ms in (1_500_000, 61_000, 999, 0, -999, -60_000, -600_001)] == [
        "25:00",
        "1:01",
        "0:01",
        "0:00",
        "−0:01",
        "−1:00",
        "−10:01",
    ]


def test_only_the_running_clock_runs_and_a_pause_stops_it():
    state = ClockState.start(ClockRule(minutes=25), seats=3, first=1, at=1_000)
    assert state.now(61_000) == (1_500_000, 1_440_000, 1_500_000)
    paused = state.pause(state.now(61_000), at=61_000)
    assert paused.now(999_000) == (1_500_000, 1_440_000, 1_500_000)
    resumed = paused.resume(at=100_000)
    assert resumed.now(110_000) == (1_500_000, 1_430_000, 1_500_000)
    switched = resumed.switch(resumed.now(110_000), at=110_000, to=2)
    assert switched.now(120_000) == (1_500_000, 1_430_000, 1_490_000)
    assert switched.now(100_000) == switched.readings  # a moment before the readings
    stopped = switched.switch(switched.now(130_000), at=130_000, to=None)
    assert stopped.now(10**9) == (1_500_000, 1_430_000, 1_480_000)
    assert stopped.to_json() == {
        "kind": "player",
        "readings": [1_500_000, 1_430_000, 1_480_000],
        "running": None,
        "paused": False,
        "at": 130_000,
    }


def test_a_turn_timer_gives_each_turn_its_whole_time():
    state = ClockState.start(ClockRule(kind=TURN, seconds=60), seats=2, first=0, at=0)
    state = state.switch(state.now(80_000), at=80_000, to=1)
    assert state.readings == (-20_000, 60_000)
    assert state.now(90_000) == (-20_000, 50_000)
