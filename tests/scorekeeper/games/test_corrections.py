"""Correcting an earlier turn: the log is replayed from it, later turns are scored again, and a
correction that would make a later turn illegal is refused, naming it."""

from __future__ import annotations

import pytest

from bench.sequences import HASBRO
from scorekeeper.games.consistency import audit_game
from scorekeeper.games.replay import steps
from scorekeeper.games.turn_kinds import describe
from scorekeeper.models import Game, Turn
from scorekeeper.records.json_record import export_record, import_record
from tests.factories import CLUB_WORDS, ApiGame

pytestmark = pytest.mark.django_db

DEARS = [(5, 6, "E"), (6, 6, "A"), (7, 6, "R"), (8, 6, "S")]  # what Ben really played on turn 2


@pytest.fixture(autouse=True)
def club_lexicon(use_words):
    return use_words(CLUB_WORDS + " DEARS LEAPS")


def five_turns(client) -> ApiGame:
    """RULES.md §3's first five turns: Ann 8, Ben 8, Ann 10, Ben 5, Ann 12 (Ann 30, Ben 13)."""
    game = ApiGame(client)
    for triples, _ in HASBRO[:5]:
        assert game.play(triples).status_code == 201
    return game


def correct(game: ApiGame, target: int, **what):
    return game.turn({"action": "correct", "target": target, **what})


def test_correcting_turn_2_rescores_the_later_turns(client):
    game = five_turns(client)
    response = correct(game, 2, tiles=[{"row": r, "col": c, "letter": t} for r, c, t in DEARS])
    assert response.status_code == 201, response.content
    body = response.json()
    # DEARS is 10, not DEAR's 8; turn 5's P now makes LEAPS (2+1+1+2+1 = 7), not LEAP (6).
    assert body["turn"]["score"] == 10 and body["turn"]["target"] == 2
    assert body["changes"] == [
        {"player": "Ben", "was": 8, "now": 10, "turn": 2},
        {"player": "Ann", "was": 12, "now": 13, "turn": 5},
        {"player": "Ann", "was": 30, "now": 31, "turn": None},
        {"player": "Ben", "was": 13, "now": 15, "turn": None},
    ]
    assert [p["score"] for p in body["game"]["players"]] == [31, 15]
    # The later turns' records were rewritten: words, score and the running totals.
    fifth = Turn.objects.get(game_id=game.id, number=5)
    assert fifth.score == 13 and sorted(w["word"] for w in fifth.words) == ["LEAPS", "WOOL"]
    in_play = [(t.number, t.totals) for t in (s.turn for s in steps(Game.objects.get(pk=game.id)))]
    assert in_play == [(1, [8, 0]), (6, [8, 10]), (3, [18, 10]), (4, [18, 15]), (5, [31, 15])]
    assert audit_game(Game.objects.get(pk=game.id)) == []


def test_the_corrected_turn_stays_in_the_log_marked(client):
    game = five_turns(client)
    correct(game, 2, notation="G6 EARS", by="Cy")
    log = {t["number"]: t for t in game.log()}
    assert log[2]["corrected"] is True and log[2]["corrected_by"] == "Cy"
    assert log[2]["score"] == 8  # what was entered then
    assert log[6]["action"] == "correct" and log[6]["target"] == 2
    assert log[6]["notation"] == "G5 .EARS" and log[6]["player"] == "Ben"


def test_a_correction_that_breaks_a_later_play_is_refused(client):
    game = five_turns(client)
    response = correct(game, 2)  # a pass: turn 3's N . T has a hole where the E was
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "correction_breaks_turn"
    assert "turn 3 (Ann’s play)" in error["message"]
    assert "no longer be legal" in error["message"]
    assert [p["score"] for p in game.state()["players"]] == [30, 13]
    assert not Turn.objects.filter(game_id=game.id, corrected_at__isnull=False).exists()
    assert audit_game(Game.objects.get(pk=game.id)) == []


def test_a_correction_to_an_invalid_word_is_refused_in_a_checked_game(client):
    game = five_turns(client)
    response = correct(game, 4, tiles=[{"row": 4, "col": 3, "letter": "H"}])  # HOOD
    assert response.status_code == 422
    assert "HOOD" in response.json()["error"]["message"]


def test_the_last_turn_corrected_then_undone(client):
    game = five_turns(client)
    assert correct(game, 5, count=1).status_code == 201  # Ann exchanged a tile
    state = game.turn({"action": "undo"}).json()["game"]
    assert [p["score"] for p in state["players"]] == [18, 13]  # turn 5 is gone altogether
    assert state["to_move"] == "Ann"
    assert audit_game(Game.objects.get(pk=game.id)) == []


def test_a_correction_can_be_corrected_again(client):
    game = five_turns(client)
    fifth = [{"row": r, "col": c, "letter": t} for r, c, t in HASBRO[4][0]]
    correct(game, 5)  # Ann passed, we thought
    assert correct(game, 5, tiles=fifth).json()["error"]["code"] == "not_in_effect"
    response = correct(game, 6, tiles=fifth)
    assert response.status_code == 201, response.content
    assert [p["score"] for p in response.json()["game"]["players"]] == [30, 13]
    assert audit_game(Game.objects.get(pk=game.id)) == []


def test_an_exchange_that_would_break_a_later_word_is_refused_naming_it(client):
    game = five_turns(client)
    response = correct(game, 4, count=1)  # without Ben's W, Ann's L on D makes MOOL
    assert response.status_code == 422
    message = response.json()["error"]["message"]
    assert message == (
        "After this correction, turn 5 (Ann’s play) would no longer be legal: "
        "MOOL is not in CLUB (rule 2.5)."
    )


def test_only_moves_in_effect_can_be_corrected(client):
    game = five_turns(client)
    assert correct(game, 9, count=1).json()["error"]["code"] == "not_in_effect"
    assert game.turn({"action": "correct"}).json()["error"]["code"] == "no_target"


def test_a_corrected_game_exports_and_imports_whole(client):
    game = five_turns(client)
    correct(game, 2, tiles=[{"row": r, "col": c, "letter": t} for r, c, t in DEARS])
    again = import_record(export_record(Game.objects.get(pk=game.id)), new_id=True)
    assert again.turns.get(number=2).corrected
    assert audit_game(again) == []


def test_a_corrected_letter_up_game_exports_to_gcg_in_the_order_of_play(client):
    game = ApiGame(client, ruleset="letterup-classic")
    game.turn({"action": "play", "notation": "8D HOUSE"})
    game.turn({"action": "play", "notation": "H9 XAM"})
    game.turn({"action": "pass"})
    assert correct(game, 2, count=3).status_code == 201  # Ben exchanged three instead
    gcg = client.get(f"/games/{game.id}/export.gcg").content.decode()
    moves = [line for line in gcg.splitlines() if line.startswith(">")]
    assert moves == [
        ">Ann: EHOSU 8D HOUSE +24 24",
        ">Ben: -3 +0 0",
        ">Ann: - +0 24",
    ]


def test_the_game_page_replays_a_corrected_game_in_the_order_of_play(client):
    game = five_turns(client)
    correct(game, 2, tiles=[{"row": r, "col": c, "letter": t} for r, c, t in DEARS])
    page = client.get(f"/games/{game.id}/?turn=2")
    assert page.status_code == 200
    html = page.content.decode()
    # Step 2 of the replay is the correction (entry 6), with DEARS on the board.
    assert 'href="?step=2#replay">6<' in html
    assert "Turn 2 was corrected: Ben played G5 .EARS for 10 (DEARS 10)." in html
    assert "G9: S" in html


def test_a_challenge_after_correcting_the_last_play_judges_the_correction(client):
    """The play a challenge takes back is the last play in the order of play: after turn 2 is
    corrected, that is the correction (turn 3), not Ann's turn 1."""
    game = ApiGame(client, challenge_mode="manual")  # a phony stands until challenged
    for triples, _ in HASBRO[:2]:
        assert game.play(triples).status_code == 201
    phony = [(5, 6, "E"), (6, 6, "A"), (7, 6, "R"), (8, 6, "Z")]  # Ben really played DEARZ
    response = correct(game, 2, tiles=[{"row": r, "col": c, "letter": t} for r, c, t in phony])
    assert response.status_code == 201, response.content
    response = game.turn({"action": "challenge"})
    assert response.status_code == 201, response.content
    challenge = Turn.objects.get(game_id=game.id, number=4)
    assert challenge.target.number == 3 and challenge.result == "upheld"
    assert describe(challenge).startswith("Ann challenged: NOT ACCEPTABLE – Ben’s play G5 .EARZ")
    assert [p["score"] for p in game.state()["players"]] == [8, 0]  # Ben's DEARZ came off
    assert audit_game(Game.objects.get(pk=game.id)) == []
