"""The game clock through the API: chosen at the start, readings with every turn, clock actions
without a turn, and the overtime penalties and losses on time at the end (issue 35)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from referee import IllegalAction
from referee.gcg import read_gcg
from scorekeeper.games import clocks, domain
from scorekeeper.games.consistency import audit_game
from scorekeeper.games.turn_kinds import describe
from scorekeeper.models import Game, Turn
from scorekeeper.records.gcg_export import game_to_gcg
from scorekeeper.records.gcg_import import import_gcg
from scorekeeper.records.json_record import export_record, import_record
from tests.clock_time import when_read
from tests.factories import HOUSE, RACK_PENALTY, ApiGame

pytestmark = pytest.mark.django_db

PLAYER_CLOCK = {"kind": "player", "minutes": 25}
MINUTES_25 = 25 * 60_000
MOOD = [(4, 3, "M"), (4, 4, "O"), (4, 5, "O"), (4, 6, "D")]
START = 1_800_000_000_000  # the server's "now" when a game starts, in these tests


@pytest.fixture(autouse=True)
def server_time(monkeypatch):
    """The server's clock, set by each test: it moves only when a test moves it."""
    now = [START]
    monkeypatch.setattr(clocks, "now_ms", lambda: now[0])
    return now


def error(response) -> dict[str, Any]:
    body = response.json()
    assert set(body) == {"error"}
    return body["error"]


def crossword(client, clock: dict[str, Any] | None = PLAYER_CLOCK, **fields: Any) -> ApiGame:
    return ApiGame(
        client, ruleset="crossword-classic", challenge_mode="manual", clock=clock, **fields
    )


def tiles(triples: list[tuple[int, int, str]]) -> list[dict[str, Any]]:
    return [{"row": r, "col": c, "letter": t} for r, c, t in triples]


# Choosing a clock ------------------------------------------------------------------------------
def test_a_game_without_a_clock_answers_without_one(client):
    game = ApiGame(client)
    assert "clock" not in game.created
    body = game.turn({"action": "pass"}).json()
    assert "clock" not in body["game"] and "clock" not in body["turn"]
    assert "clock" not in game.log()[0]
    assert "clock" not in export_record(Game.objects.get(pk=game.id))["game"]


def test_a_player_clock_starts_with_the_first_player_running_and_its_defaults(client):
    game = ApiGame(client, clock={"kind": "player"}, first="Ben")
    assert game.created["clock"] == {
        "rule": {
            "kind": "player",
            "minutes": 25,
            "overtime_penalty": 10,
            "max_overtime_minutes": 10,
            "over_max": "capped",
        },
        "readings": [MINUTES_25, MINUTES_25],
        "running": 1,
        "paused": False,
        "at": START,
    }
    assert game.state()["clock"] == game.created["clock"]
    assert game.created["turn_clock"] is None


def test_a_turn_clock_is_the_turn_clock_the_table_shows(client):
    game = ApiGame(client, clock={"kind": "turn", "seconds": 75})
    assert game.created["turn_clock"] == 75
    assert game.created["clock"]["rule"] == {"kind": "turn", "seconds": 75}
    assert game.created["clock"]["readings"] == [75_000, 75_000]


def test_turn_clock_alone_stays_a_countdown_shown_with_no_clock_kept(client):
    game = ApiGame(client, turn_clock=75)
    assert game.created["turn_clock"] == 75 and "clock" not in game.created


@pytest.mark.parametrize(
    ("clock", "message"),
    [
        ("25 minutes", 'A clock is an object such as {"kind": "player", "minutes": 25}.'),
        ({"kind": "chess"}, 'A clock\'s kind is "player" (a time bank each) or "turn" (a timer).'),
        ({"kind": "player", "minutes": 0}, "A clock's minutes must be a whole number from 1 to 180."),
        ({"kind": "player", "over_max": "forfeit"}, 'Past the maximum overtime a player "loses" or is "capped".'),
        ({"kind": "turn", "minutes": 25}, "A turn clock has no setting 'minutes'."),
    ],
)  # fmt: skip
def test_a_clock_no_clock_could_be_is_refused_and_no_game_made(client, clock, message):
    body = {"ruleset": "upwords-10", "lexicon": "CLUB", "players": ["Ann", "Ben"], "clock": clock}
    response = client.post("/api/games/", body, content_type="application/json")
    assert response.status_code == 400
    assert error(response)["message"] == message
    assert not Game.objects.exists()


def test_a_turn_clock_and_a_turn_clock_field_that_disagree_are_refused(client):
    body = {
        "ruleset": "upwords-10", "lexicon": "CLUB", "players": ["Ann", "Ben"],
        "clock": {"kind": "turn", "seconds": 75}, "turn_clock": 60,
    }  # fmt: skip
    response = client.post("/api/games/", body, content_type="application/json")
    assert response.status_code == 400 and error(response)["code"] == "bad_turn_clock"
    assert not Game.objects.exists()


# Readings --------------------------------------------------------------------------------------
def test_the_readings_sent_with_a_turn_are_stored_with_it_and_returned(client, server_time):
    game = ApiGame(client, clock=PLAYER_CLOCK)
    server_time[0] = START + 120_000
    sent = {"clock_ms": [1_380_000, MINUTES_25], "clock_at": START + 120_000}
    body = game.play(MOOD, **sent).json()
    after = {"kind": "player", "readings": [1_380_000, MINUTES_25], "running": 1,
             "paused": False, "at": START + 120_000}  # fmt: skip
    assert body["turn"]["clock"] == after
    assert body["game"]["clock"]["readings"] == [1_380_000, MINUTES_25]
    assert body["game"]["clock"]["running"] == 1
    assert game.log()[0]["clock"] == after
    assert game.state()["clock"] == body["game"]["clock"]


def test_without_readings_the_server_works_them_out_from_its_own_time(client, server_time):
    game = ApiGame(client, clock=PLAYER_CLOCK)
    server_time[0] = START + 30_000
    body = game.turn({"action": "pass"}).json()
    assert body["game"]["clock"]["readings"] == [MINUTES_25 - 30_000, MINUTES_25]
    assert body["game"]["clock"]["at"] == START + 30_000


def test_a_reading_that_runs_up_is_refused_naming_the_player_and_changes_nothing(
    client, server_time
):
    game = ApiGame(client, clock=PLAYER_CLOCK)
    server_time[0] = START + 120_000
    game.play(MOOD, clock_ms=[1_380_000, MINUTES_25], clock_at=START + 120_000)
    before = game.state()
    response = game.turn({"action": "pass", "clock_ms": [1_390_000, 1_400_000]})
    assert response.status_code == 422
    assert error(response)["message"] == (
        "Ann's clock reads 23:10, more than the 23:00 it read before: a clock only runs down."
    )
    assert game.state() == before


@pytest.mark.parametrize(
    "readings", [[1_000], [1_000, "2"], "1000,2000", [1_000, True], [1_000, 10**12]]
)
def test_readings_of_the_wrong_shape_are_refused_and_change_nothing(client, readings):
    game = ApiGame(client, clock=PLAYER_CLOCK)
    response = game.turn({"action": "pass", "clock_ms": readings})
    assert response.status_code == 400
    assert error(response)["message"] == (
        "The clock readings are one whole number of milliseconds for each of the 2 players, "
        "in seat order."
    )
    assert game.state()["turn_number"] == 0


def test_a_moment_that_is_no_moment_is_refused(client):
    game = ApiGame(client, clock=PLAYER_CLOCK)
    response = game.turn({"action": "pass", "clock_at": "now"})
    assert response.status_code == 400 and error(response)["code"] == "clock_at"


def test_readings_for_a_game_without_a_clock_are_refused(client):
    game = ApiGame(client)
    response = game.turn({"action": "pass", "clock_ms": [1_000, 2_000]})
    assert response.status_code == 400 and error(response)["code"] == "no_clock"
    assert game.state()["turn_number"] == 0


# Switching on every kind of turn ---------------------------------------------------------------
class Table:
    """A clocked game played at a table whose phone sends the readings: each entry takes ten
    seconds off the running clock."""

    def __init__(self, game: ApiGame, server_time: list[int]) -> None:
        self.game, self.server_time = game, server_time
        clock = game.created["clock"]
        self.readings, self.running, self.at = list(clock["readings"]), clock["running"], START

    def enter(self, body: dict[str, Any]) -> dict[str, Any]:
        self.at += 10_000
        self.server_time[0] = self.at
        if self.running is not None and not self.game.state()["clock"]["paused"]:
            self.readings[self.running] -= 10_000
        response = self.game.turn({**body, "clock_ms": self.readings, "clock_at": self.at})
        assert response.status_code == 201, response.content
        answer: dict[str, Any] = response.json()
        clock = answer["game"]["clock"]
        assert clock["readings"] == self.readings and clock["at"] == self.at
        self.running = clock["running"]
        return answer


def test_the_clock_switches_to_whoever_is_to_move_after_every_kind_of_turn(client, server_time):
    table = Table(crossword(client), server_time)
    seen = []
    for body in [
        {"action": "play", "tiles": tiles([(7, 5, "Q"), (7, 6, "I"), (7, 7, "Z")])},
        {"action": "challenge"},  # QIZ is upheld off: Ann loses the turn
        {"action": "play", "tiles": tiles(HOUSE)},  # Ben
        {"action": "challenge"},  # HOUSE is good: Ann loses the turn (double challenge)
        {"action": "pass"},  # Ben
        {"action": "exchange", "count": 7},  # Ann
        {"action": "undo"},  # the exchange undone: Ann is to move again
    ]:
        answer = table.enter(body)
        seen.append((answer["turn"]["action"], answer["game"]["to_move"], table.running))
    assert seen == [
        ("play", "Ben", 1),
        ("challenge", "Ben", 1),
        ("play", "Ann", 0),
        ("challenge", "Ben", 1),
        ("pass", "Ann", 0),
        ("exchange", "Ben", 1),
        ("undo", "Ann", 0),
    ]
    # An undo gives no time back: the readings are the ones sent with it.
    assert table.readings == [MINUTES_25 - 30_000, MINUTES_25 - 40_000]


def test_pause_and_resume_stop_and_restart_the_running_clock_without_a_turn(client, server_time):
    game = ApiGame(client, clock=PLAYER_CLOCK)
    table = Table(game, server_time)
    paused = table.enter({"action": "clock", "clock": "pause"})
    assert paused["game"]["clock"]["paused"] is True and paused["game"]["clock"]["running"] == 0
    assert paused["turn"]["turn"] is None and paused["game"]["turn"] == 0
    assert paused["game"]["to_move"] == "Ann"
    resumed = table.enter({"action": "clock", "clock": "resume"})
    assert resumed["game"]["clock"]["paused"] is False
    assert resumed["game"]["clock"]["readings"] == [MINUTES_25 - 10_000, MINUTES_25]
    sentences = [t["action"] for t in game.log()]
    assert sentences == ["clock", "clock"]
    assert [t["clock"]["action"] for t in game.log()] == ["pause", "resume"]


def test_a_tap_switches_the_clock_without_a_turn_and_the_turn_follows(client, server_time):
    game = ApiGame(client, clock=PLAYER_CLOCK)
    table = Table(game, server_time)
    tapped = table.enter({"action": "clock", "clock": "switch"})
    assert tapped["game"]["clock"]["running"] == 1 and tapped["game"]["to_move"] == "Ann"
    played = game.play(MOOD)  # entered afterwards: no readings, Ben's clock has run since
    assert played.status_code == 201 and played.json()["game"]["clock"]["running"] == 1


def test_an_undo_passes_over_a_clock_action_to_the_last_turn(client):
    game = ApiGame(client, clock=PLAYER_CLOCK)
    game.play(MOOD)
    game.turn({"action": "clock", "clock": "pause"})
    undone = game.turn({"action": "undo"}).json()
    assert undone["turn"]["target"] == 1
    assert undone["game"]["to_move"] == "Ann" and undone["game"]["clock"]["running"] == 0
    assert audit_game(Game.objects.get(pk=game.id)) == []


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"action": "clock", "clock": "stop"}, 400, "bad_clock_action"),
        ({"action": "clock"}, 400, "bad_clock_action"),
    ],
)
def test_a_clock_action_that_is_none_is_refused(client, body, status, code):
    game = ApiGame(client, clock=PLAYER_CLOCK)
    response = game.turn(body)
    assert response.status_code == status and error(response)["code"] == code


def test_a_clock_action_in_a_game_without_a_clock_is_refused(client):
    game = ApiGame(client)
    response = game.turn({"action": "clock", "clock": "pause"})
    assert response.status_code == 400 and error(response)["code"] == "no_clock"


def test_a_turn_timer_starts_each_turn_whole(client, server_time):
    game = ApiGame(client, clock={"kind": "turn", "seconds": 75})
    server_time[0] = START + 35_000
    body = game.play(MOOD, clock_ms=[40_000, 75_000], clock_at=START + 35_000).json()
    assert body["game"]["clock"]["readings"] == [40_000, 75_000]
    server_time[0] = START + 35_000 + 45_000
    body = game.turn({"action": "pass", "clock_ms": [40_000, 30_000]}).json()
    assert body["game"]["clock"]["readings"] == [75_000, 30_000]


# The end ---------------------------------------------------------------------------------------
def enter(game: ApiGame, server_time: list[int], body: dict[str, Any]) -> Any:
    """An entry sent when the clocks read ``body["clock_ms"]``."""
    server_time[0] = when_read(game.id, body["clock_ms"])
    return game.turn(body)


def finish_upwords(client, now: list[int], readings: list[int], **clock: Any) -> ApiGame:
    """An Upwords game: Ann plays MOOD (8), then the game is finished with these readings."""
    game = ApiGame(client, clock={**PLAYER_CLOCK, **clock})
    played = {"action": "play", "tiles": tiles(MOOD), "clock_ms": [readings[0], MINUTES_25]}
    assert enter(game, now, played).status_code == 201
    assert enter(game, now, {"action": "finish", "clock_ms": readings}).status_code == 201
    return game


def test_the_end_enters_each_player_s_overtime_penalty_into_the_final_score(client, server_time):
    game = finish_upwords(client, server_time, [-184_000, -1_000])  # 3:04 and 0:01 over
    state = game.state()
    finals = [(p["name"], p["final_score"]) for p in state["players"]]
    assert finals == [("Ann", 8 + RACK_PENALTY - 40), ("Ben", RACK_PENALTY - 10)]
    penalties = [(t["player"], t["score"]) for t in game.log() if t["action"] == "penalty"]
    assert penalties == [("Ann", -40), ("Ben", -10)]
    assert audit_game(Game.objects.get(pk=game.id)) == []


def test_no_overtime_costs_nothing_and_enters_nothing(client, server_time):
    game = finish_upwords(client, server_time, [-184_000, 0])  # Ben: 0:00 over
    penalties = [(t["player"], t["score"]) for t in game.log() if t["action"] == "penalty"]
    assert penalties == [("Ann", -40)]
    assert game.state()["players"][1]["final_score"] == RACK_PENALTY


def test_the_game_ending_by_itself_enters_the_penalties_too(client, server_time):
    game = ApiGame(client, clock=PLAYER_CLOCK)
    for readings in ([-61_000, MINUTES_25], [-61_000, -1]):  # two passes end it
        response = enter(game, server_time, {"action": "pass", "clock_ms": readings})
        assert response.status_code == 201, response.content
        answer = response.json()
    assert answer["game"]["status"] == "finished"
    assert [t["score"] for t in game.log() if t["action"] == "penalty"] == [-20, -10]
    # The answer to the entry that ended the game shows the game as the penalties leave it.
    assert [p["final_score"] for p in answer["game"]["players"]] == [
        RACK_PENALTY - 20,
        RACK_PENALTY - 10,
    ]


def test_past_the_maximum_a_player_loses_on_time_whatever_the_scores(client, server_time):
    game = finish_upwords(client, server_time, [-601_000, 0], over_max="loses")
    players = game.state()["players"]
    # Ann is charged the capped 100 and still scores more than Ben, but lost on time.
    assert [p["final_score"] for p in players] == [8 + RACK_PENALTY - 100, RACK_PENALTY]
    assert [p["result"] for p in players] == ["loss", "win"]
    assert game.state()["clock"]["lost_on_time"] == [0]  # the API says why
    assert audit_game(Game.objects.get(pk=game.id)) == []


def test_past_the_maximum_a_capped_clock_only_charges_the_cap(client, server_time):
    game = finish_upwords(client, server_time, [-601_000, 0], over_max="capped")
    players = game.state()["players"]
    assert [p["final_score"] for p in players] == [8 + RACK_PENALTY - 100, RACK_PENALTY]
    assert [p["result"] for p in players] == ["loss", "win"]  # by the scores: -127 < -35
    assert game.state()["clock"]["lost_on_time"] == []


def test_at_the_maximum_exactly_no_one_loses_on_time(client, server_time):
    game = finish_upwords(
        client, server_time, [-600_000, -600_000], over_max="loses", overtime_penalty=0
    )
    assert [p["result"] for p in game.state()["players"]] == ["win", "loss"]  # by the scores


# Records ---------------------------------------------------------------------------------------
def clocked_crossword_over(server_time: list[int]) -> Game:
    game = domain.check_create_game(
        ruleset="crossword-classic", lexicon="CLUB", players=["Ann", "Ben"],
        challenge_mode="manual", clock=PLAYER_CLOCK,
    )  # fmt: skip
    for kind, readings, fields in [
        ("play", [-184_000, MINUTES_25], {"tiles": HOUSE}),
        ("pass", [-184_000, -65_000], {}),
        ("finish", [-184_000, -65_000], {"racks": {0: "AAEEIIO", 1: "AAEEIIO"}}),
    ]:
        server_time[0] = at = when_read(game.pk, readings)
        domain.act(game.pk, domain.TurnCommand(kind, clock_ms=readings, clock_at=at, **fields))
    return Game.objects.get(pk=game.pk)


def finals(game: Game) -> list[tuple[str, int | None, str]]:
    seats = game.seats.select_related("player").order_by("order")
    return [(s.player.name, s.final_score, s.result) for s in seats]


def test_gcg_export_writes_each_time_penalty_and_import_reads_it_back(client, server_time):
    game = clocked_crossword_over(server_time)
    text = game_to_gcg(game)
    times = [(e.nick, e.score) for e in read_gcg(text).events if e.kind == "time_penalty"]
    assert times == [("Ann", -40), ("Ben", -20)]
    expected = finals(game)
    game.delete()
    imported = import_gcg(text)
    assert imported.mismatches == []
    assert finals(imported.game) == expected
    penalties = imported.game.turns.filter(action="penalty").order_by("number")
    assert [(t.seat.order, t.score) for t in penalties] == [(0, -40), (1, -20)]


def test_the_json_record_round_trips_the_clock_and_every_reading(server_time):
    game = clocked_crossword_over(server_time)
    record = export_record(game)
    clock = game.clock
    readings = list(game.turns.order_by("number").values_list("clock", flat=True))
    expected = finals(game)
    game.delete()
    again = import_record(record)
    assert again.clock == clock
    assert list(again.turns.order_by("number").values_list("clock", flat=True)) == readings
    assert finals(again) == expected
    assert audit_game(again) == []


def test_a_time_penalty_after_the_end_is_written_with_the_final_score_as_its_total():
    game = domain.check_create_game(
        ruleset="crossword-classic", lexicon="CLUB", players=["Ann", "Ben"],
        challenge_mode="manual",
    )  # fmt: skip
    domain.act(game.pk, domain.TurnCommand("play", tiles=HOUSE))
    domain.act(
        game.pk, domain.TurnCommand("finish", racks={0: "AAEEIIO", 1: "AAEEIIO"})
    )  # 7 off each
    domain.act(game.pk, domain.TurnCommand("penalty", seat=0, points=-10))
    events = read_gcg(game_to_gcg(Game.objects.get(pk=game.pk))).events
    assert [(e.kind, e.score, e.total) for e in events][-1] == ("time_penalty", -10, 24 - 7 - 10)


def test_every_page_of_a_clocked_game_shows_its_clock_entries_and_penalties(client, server_time):
    game = ApiGame(client, clock=PLAYER_CLOCK)
    game.turn({"action": "clock", "clock": "pause"})
    game.turn({"action": "clock", "clock": "resume"})
    played = {"action": "play", "tiles": tiles(MOOD), "clock_ms": [-184_000, MINUTES_25]}
    assert enter(game, server_time, played).status_code == 201
    assert (
        enter(game, server_time, {"action": "finish", "clock_ms": [-184_000, 0]}).status_code == 201
    )
    log = client.get(f"/games/{game.id}/log")
    assert log.status_code == 200
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", log.content.decode()))
    assert "Ann clock pause 0 0" in text and "Ann clock resume 0 0" in text
    assert "Ann time penalty -40 -67" in text
    for page in ("", "watch", "export.json"):  # GCG is the crossword game's: tested above
        assert client.get(f"/games/{game.id}/{page}").status_code == 200, page
    assert client.get(game.created["scorer_url"], follow=True).status_code == 200


# A paired game's clock waits for its table -------------------------------------------------------
def paired_clocked_game(server_time) -> Game:
    from scorekeeper.events.rounds import do_pair_round
    from tests.scorekeeper.club_events import FOUR, event

    made = event(players=FOUR, ruleset="crossword-classic", clock=PLAYER_CLOCK)
    paired = do_pair_round(made, "swiss")
    return Game.objects.get(pk=paired.pairings.get(table=1).game_id)


def test_a_paired_game_s_clock_waits_at_full_time_until_the_table_starts_it(client, server_time):
    game = paired_clocked_game(server_time)
    assert game.clock["waiting"] is True and game.clock["paused"] is True
    assert game.clock["readings"] == [MINUTES_25, MINUTES_25]
    server_time[0] += 5 * 60_000  # the table sits down five minutes later
    assert clocks.state_of(game).now(server_time[0]) == (MINUTES_25, MINUTES_25)
    assert client.get(f"/api/games/{game.pk}/").json()["clock"]["waiting"] is True
    started = domain.act(game.pk, domain.TurnCommand("clock", clock="start")).game
    assert "waiting" not in started.clock and started.clock["paused"] is False
    assert started.clock["running"] == game.first_seat and started.clock["at"] == server_time[0]
    server_time[0] += 30_000
    readings = clocks.state_of(started).now(server_time[0])
    assert readings[game.first_seat] == MINUTES_25 - 30_000  # its 30 s, not the 5 minutes before
    (entry,) = client.get(f"/api/games/{game.pk}/turns/").json()["turns"]
    assert entry["clock"]["action"] == "start"
    assert describe(Turn.objects.get(game=game)).startswith("The table started the clock")
    assert audit_game(Game.objects.get(pk=game.pk)) == []


def test_the_first_entry_starts_a_waiting_clock_without_the_wait(client, server_time):
    game = paired_clocked_game(server_time)
    server_time[0] += 5 * 60_000
    played = domain.act(game.pk, domain.TurnCommand("pass")).game
    assert "waiting" not in played.clock
    # The first player's clock was never running: the pass cost it nothing; the next one runs.
    assert played.clock["readings"] == [MINUTES_25, MINUTES_25]
    assert played.clock["running"] == 1 - game.first_seat and played.clock["paused"] is False


def test_start_is_refused_once_the_clock_runs(client, server_time):
    game = paired_clocked_game(server_time)
    domain.act(game.pk, domain.TurnCommand("clock", clock="start"))
    with pytest.raises(IllegalAction) as refused:
        domain.act(game.pk, domain.TurnCommand("clock", clock="start"))
    assert refused.value.code == "clock_started"
    made_here = ApiGame(client, clock=PLAYER_CLOCK)  # a game made at the table runs at once
    assert "waiting" not in made_here.created["clock"]
    response = made_here.turn({"action": "clock", "clock": "start"})
    assert response.status_code == 422 and error(response)["code"] == "clock_started"
