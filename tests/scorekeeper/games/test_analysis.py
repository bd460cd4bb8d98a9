"""Analysis: every legal play from a position and a rack, through the API and on a game's page."""

from __future__ import annotations

import fcntl
import os
import threading
import time
from unittest import mock

import pytest

from referee import get_library
from referee.dawg import Dawg
from scorekeeper.games import domain
from scorekeeper.models import Game
from tests.builds import builds, count_builds, waiting_for_a_build

pytestmark = pytest.mark.django_db


def empty(size: int) -> list[list[list[str]]]:
    return [[[] for _ in range(size)] for _ in range(size)]


def house_board() -> list[list[list[str]]]:
    board = empty(15)
    for col, letter in zip(range(3, 8), "HOUSE", strict=True):
        board[7][col] = [letter]
    return board


@pytest.fixture
def ready():
    """CLUB's analysis structures built before the request (as manage.py lexicons --analysis
    does at deploy time)."""
    get_library().get("CLUB").prepare_analysis()


def analyse(client, **body):
    return client.post("/api/analysis/", body, content_type="application/json")


def test_the_best_plays_come_first_with_their_words_and_tiles(client, ready):
    response = analyse(
        client, ruleset="letterup-classic", lexicon="CLUB", board=house_board(), rack="XAMRTEI"
    )
    assert response.status_code == 200, response.content
    data = response.json()
    # RULES.md §4: X A M under the E of HOUSE makes EXAM, 14 (the centre DW not used again).
    exam = next(p for p in data["plays"] if p["notation"] == "H8 .XAM")
    assert exam["score"] == 14
    assert exam["tiles"] == [
        {"row": 8, "col": 7, "letter": "X"},
        {"row": 9, "col": 7, "letter": "A"},
        {"row": 10, "col": 7, "letter": "M"},
    ]
    assert exam["words"][0]["word"] == "EXAM"
    scores = [p["score"] for p in data["plays"]]
    assert scores == sorted(scores, reverse=True) and data["count"] >= len(scores)


def test_a_blank_is_played_as_a_lowercase_letter(client, ready):
    data = analyse(
        client,
        ruleset="crossword-classic",
        lexicon="CLUB",
        board=empty(15),
        rack="HOUS?",
        limit=None,
    ).json()
    assert data["count"] == len(data["plays"]) > 0
    house = [p for p in data["plays"] if p["notation"].upper().endswith("HOUSE")]
    assert house and all(any(t["letter"].islower() for t in p["tiles"]) for p in house)


def test_limit_null_gives_every_play(client, ready):
    some = analyse(client, ruleset="upwords-10", lexicon="CLUB", board=empty(10), rack="MOODEAR")
    every = analyse(client, ruleset="upwords-10", lexicon="CLUB", board=empty(10), rack="MOODEAR",
                    limit=None)  # fmt: skip
    assert len(some.json()["plays"]) == min(20, every.json()["count"])
    assert len(every.json()["plays"]) == every.json()["count"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"board": "nope"}, "bad_request"),
        ({"board": [[[]] * 10] * 10}, "bad_board"),  # a 10×10 board for a 15×15 game
        ({"board": [[["Z"]] * 15] * 15}, "bad_board"),  # 225 Zs: more than the set has
        ({"rack": ""}, "bad_rack"),
        ({"rack": "ABCDEFGH"}, "rack_too_big"),
        ({"lexicon": "honour"}, "no_word_list"),
        ({"lexicon": "NOPE"}, "unknown_lexicon"),
        ({"ruleset": "chess"}, "unknown_ruleset"),
        ({"rack": "ıA"}, "unknown_tile"),
    ],
)
def test_bad_input_is_a_clear_400(client, ready, body, code):
    base = {"ruleset": "letterup-classic", "lexicon": "CLUB", "board": house_board(), "rack": "XAM"}
    response = analyse(client, **{**base, **body})
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == code


def test_a_list_not_yet_prepared_is_built_in_the_background_meanwhile_a_503(client):
    lexicon = get_library().get("CLUB")
    body = {"ruleset": "upwords-10", "lexicon": "CLUB", "board": empty(10), "rack": "MOOD"}
    if not lexicon.analysis_ready():
        first = analyse(client, **body)
        assert first.status_code == 503 and first["Retry-After"] == "60"
        assert first.json()["error"]["code"] == "analysis_preparing"
        deadline = time.monotonic() + 30
        while not lexicon.analysis_ready() and time.monotonic() < deadline:
            time.sleep(0.05)
    assert analyse(client, **body).status_code == 200


def test_a_worker_that_finds_another_process_building_a_list_waits_for_it_and_builds_nothing(
    client, settings, tmp_path, monkeypatch
):
    """Another process is building CLUB's GADDAG (it holds the build's lock): this worker answers
    503, and its own build waits for the other's file and maps it instead of building."""
    cache = tmp_path / "cache"
    settings.LEXICON_CACHE_DIR = cache
    lexicon = get_library().get("CLUB")
    gaddag = lexicon.path.with_suffix(".gaddag")
    theirs = Dawg.gaddag_from_words(lexicon.dawg().words())
    monkeypatch.setattr(Dawg, "gaddag_from_words", Dawg.__dict__["gaddag_from_words"])
    count_builds(cache)
    building = os.open(f"{gaddag}.lock", os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(building, fcntl.LOCK_EX)
    try:
        body = {"ruleset": "upwords-10", "lexicon": "CLUB", "board": empty(10), "rack": "MOOD"}
        first = analyse(client, **body)
        assert first.status_code == 503 and first.json()["error"]["code"] == "analysis_preparing"
        deadline = time.monotonic() + 30
        while not (builds(cache) or waiting_for_a_build(cache)) and time.monotonic() < deadline:
            time.sleep(0.01)
        theirs.save(f"{gaddag}.theirs")
        os.replace(f"{gaddag}.theirs", gaddag)
    finally:
        os.close(building)
    for thread in threading.enumerate():
        if thread.name == "analysis-CLUB":
            thread.join(30)
    assert builds(cache) == 0
    assert analyse(client, **body).status_code == 200


def test_analysis_is_rate_limited_like_the_word_judge(client, ready, settings):
    settings.RATE_LIMIT_JUDGE = 1
    body = {"ruleset": "upwords-10", "lexicon": "CLUB", "board": empty(10), "rack": "MOOD"}
    assert analyse(client, **body).status_code == 200
    assert analyse(client, **body).status_code == 429


# On a game's page --------------------------------------------------------------------------
def finished_letterup() -> Game:
    game = domain.check_create_game(
        ruleset="letterup-classic", lexicon="CLUB", players=["Ann", "Ben"]
    )
    house = [(7, 3, "H"), (7, 4, "O"), (7, 5, "U"), (7, 6, "S"), (7, 7, "E")]
    domain.act(game.pk, domain.TurnCommand("play", tiles=house))
    domain.act(game.pk, domain.TurnCommand("play", tiles=[(8, 7, "X"), (9, 7, "A"), (10, 7, "M")]))
    domain.act(game.pk, domain.TurnCommand("finish", racks={0: "ABCDEFG", 1: "ABCDEFG"}))
    return game


def test_a_finished_games_page_shows_what_could_have_been_played(client, ready):
    game = finished_letterup()
    page = client.get(f"/games/{game.pk}/?turn=2&rack=XAMQZ").content.decode()
    assert "What could have been played" in page
    # With Z and A, ZA across the H (26) and AX (23) beat the EXAM Ben made.
    assert "the play made scored <strong>14</strong>, and 3 of the best scored more" in page
    assert "7C ZA</span> <strong>26</strong>" in page and "H8 .XAM" in page
    drawn = client.get(f"/games/{game.pk}/?turn=2&rack=XAMQZ&show=0").content.decode()
    assert "instead of the play made" in drawn


def test_no_review_while_the_game_is_in_progress(client, ready):
    game = domain.check_create_game(
        ruleset="letterup-classic", lexicon="CLUB", players=["Ann", "Ben"]
    )
    domain.act(game.pk, domain.TurnCommand("play", tiles=[(7, 6, "A"), (7, 7, "H")]))
    page = client.get(f"/games/{game.pk}/?turn=1&rack=AHXAM").content.decode()
    assert "What could have been played" not in page


# A bounded cost ------------------------------------------------------------------------------
def test_a_rack_tile_the_board_has_used_up_is_a_400_naming_it(client, ready):
    # Letter UP has one Z: with ZA on the board, a Z on the rack is a misentry, not "AINOPU".
    board = empty(15)
    board[7][7], board[7][8] = ["Z"], ["A"]
    response = analyse(
        client, ruleset="letterup-classic", lexicon="CLUB", board=board, rack="AINOPUZ"
    )
    assert response.status_code == 400
    assert response.json()["error"] == {
        "code": "rack_tile_used_up",
        "message": "The set has 1 Z; 1 on the board and 1 on the rack is more than that: "
        "check the rack and the board.",
    }
    fine = analyse(client, ruleset="letterup-classic", lexicon="CLUB", board=board, rack="AINOPU")
    assert fine.status_code == 200


def test_a_search_over_its_budget_stops_and_says_so(client, ready, settings):
    settings.ANALYSIS_MAX_PLAYS = 10
    body = {"ruleset": "upwords-10", "lexicon": "CLUB", "board": empty(10), "rack": "MOODEAR"}
    data = analyse(client, **body, limit=3).json()
    assert (data["count"], data["complete"], len(data["plays"])) == (10, False, 3)
    assert data["note"].startswith("More than 10 plays: these are the best of the first 10 found.")
    settings.ANALYSIS_MAX_PLAYS = 10**6
    whole = analyse(client, **body, limit=3).json()
    assert whole["complete"] and whole["count"] > 10 and "note" not in whole


def test_limit_is_at_most_a_thousand_and_null_means_up_to_a_thousand(client, ready):
    body = {"ruleset": "upwords-10", "lexicon": "CLUB", "board": empty(10), "rack": "MOODEAR"}
    too_many = analyse(client, **body, limit=1001)
    assert too_many.status_code == 400 and "1000" in too_many.content.decode()
    assert analyse(client, **body, limit=1000).status_code == 200


def test_every_search_slot_taken_is_a_503_with_retry_after(client, ready, monkeypatch):
    # This process runs ANALYSIS_CONCURRENCY searches at once; one more is refused at once
    # rather than queued, so nothing waits behind searches.
    monkeypatch.setattr("scorekeeper.games.analysis._slots", threading.BoundedSemaphore(1))
    from scorekeeper.games import analysis

    body = {"ruleset": "upwords-10", "lexicon": "CLUB", "board": empty(10), "rack": "MOOD"}
    assert analysis._slots.acquire(blocking=False)  # another request's search is running
    try:
        busy = analyse(client, **body)
        assert busy.status_code == 503 and busy["Retry-After"] == "2"
        assert busy.json()["error"]["code"] == "analysis_busy"
    finally:
        analysis._slots.release()
    assert analyse(client, **body).status_code == 200


def test_a_search_counts_against_the_limit_by_what_it_cost(client, ready, settings):
    settings.RATE_LIMIT_JUDGE = 5
    settings.ANALYSIS_MAX_PLAYS = 10**6
    body = {"ruleset": "upwords-10", "lexicon": "CLUB", "board": empty(10), "rack": "MOODEAR"}
    with mock.patch("scorekeeper.games.analysis.PLAYS_PER_UNIT", 10):
        count = analyse(client, **body).json()["count"]
        assert count >= 40  # so it cost 1 + count // 10 >= 5 units: the limit is spent
        assert analyse(client, **body).status_code == 429


def test_a_review_beyond_the_limit_says_so_and_searches_nothing(client, ready, settings):
    game = finished_letterup()
    settings.RATE_LIMIT_JUDGE = 1
    first = client.get(f"/games/{game.pk}/?turn=2&rack=XAMQZ").content.decode()
    assert "legal plays with" in first
    with mock.patch("scorekeeper.web.history.analyse") as search:
        second = client.get(f"/games/{game.pk}/?turn=2&rack=XAMQZ").content.decode()
    assert "Too many analyses from this device" in second and not search.called


def test_a_review_cut_short_says_so(client, ready, settings):
    settings.ANALYSIS_MAX_PLAYS = 3
    game = finished_letterup()
    page = client.get(f"/games/{game.pk}/?turn=2&rack=XAMQZ").content.decode()
    assert "More than 3 plays: these are the best of the first 3 found." in page
