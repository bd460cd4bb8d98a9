"""The game clock's rules: the overtime penalty at its edges, readings refused, the state."""

import pytest

from referee.clock import (
    LOSES,
    TURN,
    ClockRule,
    ClockState,
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
    with pytest.raises(IllegalAction) as refused:
        check_readings([60_000, 1_000], ["Ann", "Bo"], before=[60_000, -3_000])
    assert refused.value.code == "clock_ran_up"
    assert refused.value.message.startswith("Bo's clock reads 0:01, more than the −0:03")
    assert check_readings([50_000, -3_000], ["Ann", "Bo"], before=[60_000, -3_000]) == (
        50_000,
        -3_000,
    )


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
