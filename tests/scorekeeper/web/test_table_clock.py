"""The clock at the table: chosen on the new-game form (none, a clock for each player, or a
timer for each turn), read from the scorer page's turns, shown on the scorer page, the
spectator screen, the director's tables and the end screen."""

from __future__ import annotations

import re
from html import unescape

import pytest

from scorekeeper.games import clocks, domain
from scorekeeper.models import Game, Turn
from tests.clock_time import when_read
from tests.factories import make_club, scorer, start, turn

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


# The scorer page's turns carry the phone's readings ----------------------------------------
MINUTES_25 = 1_500_000
AT = 1_800_000_000_000  # the phone's moment, epoch ms: 1:04 after the game started


@pytest.fixture(autouse=True)
def server_time(monkeypatch):
    """The server's clock: a game starts 1:04 before AT, and the server's time is AT."""
    now = [AT - 64_000]
    monkeypatch.setattr(clocks, "now_ms", lambda: now[0])
    return now


def clocks_read(now: list[int], game: Game, readings: list[int]) -> dict[str, object]:
    """The readings and their moment, the server's time then, as a phone sends them."""
    now[0] = when_read(game.pk, readings)
    return {"clock_ms": readings, "clock_at": now[0]}


def clocked(client, **fields) -> Game:
    return start(client, **{"ruleset": "crossword-classic", **PLAYER, **fields})


def sent(client, game: Game, **data) -> dict:
    """A turn as the page's script sends it, and what it is told."""
    game.refresh_from_db()
    data = {"expected_turn": game.last_entry_number + 1, **data}
    return client.post(scorer(game) + "turn", data, headers={"Accept": "application/json"}).json()


def test_a_turn_from_the_page_stores_the_readings_it_was_sent_with(client, server_time):
    game = clocked(client)
    server_time[0] = AT
    answer = sent(client, game, action="pass", clock_ms=f"{MINUTES_25 - 64_000},{MINUTES_25}",
                  clock_at=str(AT))  # fmt: skip
    assert answer["entered"] is True
    game.refresh_from_db()
    assert game.clock["readings"] == [MINUTES_25 - 64_000, MINUTES_25]
    assert game.clock["at"] == AT and game.clock["running"] == 1
    assert Turn.objects.get(game=game).clock["readings"] == [MINUTES_25 - 64_000, MINUTES_25]


@pytest.mark.parametrize(
    ("readings", "said"),
    [
        ("25:00,1", "whole numbers of milliseconds, one for each player"),
        ("1000", "one whole number of milliseconds for each of the 2 players"),
        (f"{MINUTES_25 + 1000},{MINUTES_25}", "a clock only runs down"),
    ],
)
def test_readings_no_clock_could_show_are_refused_and_nothing_is_entered(
    client, server_time, readings, said
):
    game = clocked(client)
    server_time[0] = AT
    answer = sent(client, game, action="pass", clock_ms=readings, clock_at=str(AT))
    assert answer["entered"] is False and said in answer["message"]
    assert Turn.objects.filter(game=game).count() == 0


def test_the_clock_is_tapped_paused_and_resumed_from_the_page(client):
    game = clocked(client)
    turn(client, game, action="clock", clock="switch")
    game.refresh_from_db()
    assert game.clock["running"] == 1 and game.last_entry_number == 1
    turn(client, game, action="clock", clock="pause")
    html = client.get(scorer(game)).content.decode()
    assert 'value="resume">Resume' in html and "paused</span>" in html
    turn(client, game, action="clock", clock="resume")
    html = client.get(scorer(game)).content.decode()
    assert 'value="pause">Pause' in html
    assert [t.clock["action"] for t in Turn.objects.filter(game=game).order_by("number")] == [
        "switch", "pause", "resume",
    ]  # fmt: skip


def test_the_scorer_page_shows_each_players_time_the_running_one_a_button(client, server_time):
    game = clocked(client)
    server_time[0] = AT
    turn(client, game, action="pass", clock_ms=f"{MINUTES_25 - 64_000},{MINUTES_25}",
         clock_at=str(AT))  # fmt: skip
    html = client.get(scorer(game)).content.decode()
    assert '<tr class="clocks" data-clock="player" data-penalty="10"' in html
    assert html.count('class="player-clock') == 2
    ben = re.search(r'<button class="player-clock running"[^>]*data-seat="1"', html)
    assert ben and 'name="clock" value="switch"' in ben.group(0)
    assert '<span class="clock-time">23:56</span>' in html  # Ann's, stopped


def test_a_turn_timer_run_out_offers_the_pass_it_becomes(client, server_time):
    game = start(client, ruleset="letterup-classic", clock="turn", turn_clock="75")
    domain.act(
        game.pk,
        domain.TurnCommand(
            "clock", clock="pause", **clocks_read(server_time, game, [-2_000, 75_000])
        ),
    )
    html = client.get(scorer(game)).content.decode()
    assert re.search(r'<div id="time-up" class="time-up" role="alert">Time is up: Ann', html)
    turn(client, game, action="pass", on_time="1")
    assert "Ann passed on time." in client.get(scorer(game)).content.decode()


def test_the_end_screen_shows_what_overtime_cost_and_a_loss_on_time(client, server_time):
    game = clocked(client, ruleset="upwords-10", clock_over_max="loses", clock_max_overtime="1")
    domain.act(
        game.pk, domain.TurnCommand("pass", **clocks_read(server_time, game, [-64_000, MINUTES_25]))
    )
    while game.status == Game.Status.IN_PROGRESS:  # passes end an Upwords game by themselves
        domain.act(
            game.pk,
            domain.TurnCommand("pass", **clocks_read(server_time, game, [-64_000, -30_000])),
        )
        game.refresh_from_db()
    html = client.get(scorer(game)).content.decode()
    assert "Ann lost on time (1:04 over) · Ben: −10 for 0:30 over." in html
    assert "Ben wins" in html


def test_the_spectator_screen_the_directors_tables_and_the_projector_show_both_clocks(
    client, server_time
):
    club = make_club()
    game = domain.check_create_game(ruleset="crossword-classic", players=["Ann", "Ben"],
                                 lexicon="CLUB", club=club, clock={"kind": "player"})  # fmt: skip
    domain.act(
        game.pk,
        domain.TurnCommand(
            "pass", **clocks_read(server_time, game, [MINUTES_25 - 64_000, MINUTES_25])
        ),
    )
    for url in (f"/games/{game.pk}/watch", f"/clubs/{club.slug}/live",
                f"/clubs/{club.slug}/live/projector"):  # fmt: skip
        html = client.get(url).content.decode()
        assert html.count('class="player-clock') == 2 and "js/clock.js" in html, url
        assert '<span class="clock-time">23:56</span>' in html, url
        assert re.search(r'class="player-clock running"[^>]*data-seat="1" data-reading="1500000"',
                         html), url  # fmt: skip


def test_the_end_screen_and_the_games_page_show_the_time_penalty_apart_from_the_turns(
    client, server_time
):
    game = clocked(client, ruleset="upwords-10", clock_over_max="loses", clock_max_overtime="1")
    domain.act(
        game.pk, domain.TurnCommand("pass", **clocks_read(server_time, game, [-64_000, MINUTES_25]))
    )
    while game.status == Game.Status.IN_PROGRESS:
        domain.act(
            game.pk,
            domain.TurnCommand("pass", **clocks_read(server_time, game, [-64_000, -30_000])),
        )
        game.refresh_from_db()
    # No turn scored: the racks' 35 each off, then Ann's capped 10 and Ben's 10 for their time.
    assert [s.final_score for s in game.seats.order_by("order")] == [-45, -45]
    for url in (scorer(game), f"/games/{game.pk}/", f"/games/{game.pk}/watch"):
        html = client.get(url).content.decode()
        times = re.findall(r'<td class="num time">(-?\d+)</td>', html)
        assert times[-2:] == ["-10", "-10"], url  # not in the score from turns, 0 each
        assert "Ben wins" in html, url
        if url.endswith("watch"):  # the screen says it under Ann's clock
            assert "lost on time" in html, url
        else:
            assert "Ann lost on time (1:04 over) · Ben: −10 for 0:30 over." in html, url
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert re.findall(r'<td class="num">(-?\d+)</td>', page)[:4] == ["0", "-35", "0", "-35"]


def test_a_paired_games_scorer_page_offers_start_and_starts_the_clock(client):
    from scorekeeper.events.rounds import do_pair_round
    from tests.factories import hold
    from tests.scorekeeper.club_events import FOUR, event

    made = event(players=FOUR, clock={"kind": "player", "minutes": 20})
    game = do_pair_round(made, "swiss").pairings.get(table=1).game
    hold(client, game)
    page = client.get(scorer(game)).content.decode()
    assert re.search(r'<button class="btn start-clock"[^>]*name="clock" value="start">Start', page)
    assert 'value="pause"' not in page and ">waiting<" in page
    assert page.count('<span class="clock-time">20:00</span>') == 2
    assert turn(client, game, action="clock", clock="start").status_code == 302
    game.refresh_from_db()
    assert game.clock["running"] == game.first_seat and "waiting" not in game.clock
    page = client.get(scorer(game)).content.decode()
    assert "start-clock" not in page and 'value="pause"' in page
