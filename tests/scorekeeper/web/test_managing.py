"""Managing a game from the scorer's page: correcting a turn, abandoning the game, who starts,
your games, handing over by QR code, and refusals that name the players."""

from __future__ import annotations

import re

import pytest

from bench.sequences import HASBRO
from scorekeeper.games.consistency import audit_game
from scorekeeper.models import Game, Turn
from tests.factories import CLUB_WORDS, ApiGame, scorer, start, turn

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def club_lexicon(use_words):
    return use_words(CLUB_WORDS + " DEARS LEAPS")


def five_turns(client) -> Game:
    game = start(client)
    for triples, _ in HASBRO[:5]:
        squares = " ".join(f"{chr(ord('A') + c)}{r + 1}={t}" for r, c, t in triples)
        assert turn(client, game, action="play", play=squares).status_code == 302
    game.refresh_from_db()
    return game


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


# Correcting an earlier turn --------------------------------------------------------------------
def test_the_correction_page_lists_the_turns_in_effect_newest_first(client):
    game = five_turns(client)
    html = text(client.get(scorer(game) + "correct"))
    assert html.index("Turn 5:") < html.index("Turn 1:")
    assert "Ben played G5 .EAR for 8 (DEAR 8)." in html
    chosen = text(client.get(scorer(game) + "correct?turn=2"))
    assert "Turn 2: Ben" in chosen and 'value="G5 .EAR"' in chosen
    assert "Correct turn 2" in chosen


def test_correcting_turn_2_from_the_page_shows_every_score_that_changed(client):
    game = five_turns(client)
    data = {"target": "2", "move": "play", "play": "G6 EARS", "expected_turn": "6"}
    response = client.post(scorer(game) + "correct", data)
    assert response.status_code == 302 and response["Location"] == scorer(game)
    html = text(client.get(response["Location"]))
    assert "Turn 2 was corrected: Ben played G5 .EARS for 10 (DEARS 10)." in html
    assert (
        "Scores changed: turn 2 (Ben) 8 → 10; turn 5 (Ann) 12 → 13. "
        "Totals: Ann 30 → 31; Ben 13 → 15." in html
    )
    game.refresh_from_db()
    assert [s.score for s in game.seats.order_by("order")] == [31, 15]
    assert audit_game(game) == []
    log = text(client.get(f"/games/{game.pk}/"))
    assert "corrected</span>" in log and "by scorer page" in log


def test_a_refused_correction_says_which_turn_and_changes_nothing(client):
    game = five_turns(client)
    data = {"target": "2", "move": "pass", "expected_turn": "6"}
    response = client.post(scorer(game) + "correct", data)
    assert response.status_code == 422
    html = text(response)
    assert (
        "Not corrected.</strong> After this correction, turn 3 (Ann’s play) would no longer be "
        "legal: There is an empty square between your tiles at G6 (rule 2.2)." in html
    )
    assert 'name="move" value="pass" checked' in html  # the choice is kept
    assert Turn.objects.filter(game=game).count() == 5
    assert audit_game(Game.objects.get(pk=game.pk)) == []


def test_correcting_needs_the_scorer_link(client):
    game = five_turns(client)
    assert client.get(f"/games/{game.pk}/score/wrong/correct").status_code == 403
    bad = client.get(scorer(game) + "correct?turn=abc")
    assert bad.status_code == 400 and "not a play, pass or exchange" in text(bad)


# Abandoning a game -----------------------------------------------------------------------------
def test_abandon_asks_for_confirmation_first(client):
    game = start(client)
    response = client.post(scorer(game) + "abandon", {"expected_turn": "1"}, follow=True)
    assert "Not abandoned: tick the box" in text(response)
    assert Game.objects.get(pk=game.pk).status == Game.Status.IN_PROGRESS


def test_an_abandoned_game_leaves_in_progress_and_the_rankings_and_stays_in_the_history(client):
    game = five_turns(client)
    response = client.post(
        scorer(game) + "abandon", {"expected_turn": "6", "confirm": "yes"}, follow=True
    )
    html = text(response)
    assert "The game was abandoned after turn 5. Undo reopens it." in html
    assert "This game was abandoned: it has no final scores" in html
    game.refresh_from_db()
    assert game.status == "abandoned" and game.finished_at is None
    assert [s.final_score for s in game.seats.all()] == [None, None]
    assert [s.result for s in game.seats.all()] == ["", ""]
    assert audit_game(game) == []
    home = client.get("/").content.decode()
    playing = home[home.index('id="playing"') :]
    assert str(game.pk) not in playing
    assert "Ann" not in text(client.get("/rankings"))
    listed = text(client.get("/games/?status=abandoned"))
    assert "Abandoned" in listed and f"/games/{game.pk}/" in listed
    refused = turn(client, game, action="pass")
    assert refused.status_code == 303  # back to the scorer page, with the reason shown
    assert "abandoned" in text(client.get(refused["Location"]))


def test_undo_of_an_abandon_reopens_the_game(client):
    game = ApiGame(client, challenge_mode="manual")
    game.play(HASBRO[0][0])
    assert game.turn({"action": "abandon"}).json()["game"]["status"] == "abandoned"
    assert game.turn({"action": "challenge"}).json()["error"]["code"] == "abandoned"
    assert game.turn({"action": "abandon"}).status_code == 409
    state = game.turn({"action": "undo"}).json()["game"]
    assert state["status"] == "in_progress" and state["to_move"] == "Ben"
    assert game.play(HASBRO[1][0]).status_code == 201
    assert audit_game(Game.objects.get(pk=game.id)) == []


def test_a_finished_game_cannot_be_abandoned(client):
    game = ApiGame(client)
    game.turn({"action": "finish"})
    assert game.turn({"action": "abandon"}).json()["error"]["code"] == "game_over"


# Who starts ------------------------------------------------------------------------------------
def test_the_new_game_form_defaults_to_a_draw_at_the_table(client):
    html = text(client.get("/games/new"))
    assert '<optgroup label="We drew tiles at the table: this player starts">' in html
    assert '<option value="1" selected>Player 1</option>' in html
    assert '<option value="draw">Let the app draw tiles' in html


def test_who_starts_can_change_until_the_first_turn(client):
    game = start(client)
    html = text(client.get(scorer(game)))
    assert "Who starts: Ann" in html
    response = client.post(scorer(game) + "first", {"first": "ben"}, follow=True)
    assert "Ben starts." in text(response)
    game.refresh_from_db()
    assert game.first_seat == 1 and game.to_move == 1
    assert audit_game(game) == []
    assert turn(client, game, action="pass").status_code == 302
    refused = client.post(scorer(game) + "first", {"first": "Ann"}, follow=True)
    assert "Not changed. Ben started: who starts can be changed only before" in text(refused)
    game.refresh_from_db()
    assert game.first_seat == 1 and "Who starts:" not in text(client.get(scorer(game)))
    assert audit_game(game) == []


def test_who_starts_must_be_a_player(client):
    game = start(client)
    response = client.post(scorer(game) + "first", {"first": "Cy"}, follow=True)
    assert "The first player must be one of the players" in text(response)
    assert Game.objects.get(pk=game.pk).first_seat == 0


# Never lose the link ---------------------------------------------------------------------------
def test_the_browser_that_started_a_game_finds_its_scorer_link_on_the_home_page(client):
    game = start(client)
    html = client.get("/").content.decode()
    assert "Your games" in html and scorer(game) in html
    assert "private" in client.get("/")["Cache-Control"]


def test_another_browser_does_not_see_the_scorer_link(client, django_user_model):
    from django.test import Client

    game = start(client)
    other = Client()
    html = other.get("/").content.decode()
    assert game.token not in html and "Your games" not in html
    other.cookies["your_games"] = str(game.pk)  # unsigned: ignored
    assert game.token not in other.get("/").content.decode()


def test_opening_a_scorer_link_remembers_the_game(client):
    from django.test import Client

    game = start(client)
    other = Client()
    other.get(f"/games/{game.pk}/score/{game.token}/", follow=True)
    assert f'href="{scorer(game)}"' in other.get("/").content.decode()


def test_the_api_answers_a_new_game_with_its_scorer_url(client):
    game = ApiGame(client)
    assert game.created["scorer_url"] == f"/games/{game.id}/score/{game.token}/"


def test_qr_codes_for_the_spectator_screen_and_behind_a_confirmation_the_scoring(client):
    game = start(client)
    html = text(client.get(scorer(game)))
    assert f'src="/games/{game.pk}/watch/qr.svg"' in html
    assert f"http://testserver/games/{game.pk}/watch" in html
    assert f"/games/{game.pk}/score/qr.svg" not in html  # only after confirming
    svg = client.get(f"/games/{game.pk}/watch/qr.svg")
    assert svg["Content-Type"] == "image/svg+xml" and b"<svg" in svg.content
    page = text(client.get(scorer(game) + "hand-over"))
    assert f'src="/games/{game.pk}/score/qr.svg"' in page  # the image's address has no secret
    assert f"http://testserver/games/{game.pk}/score/{game.token}/" in page  # the link does
    assert client.get(scorer(game) + "qr.svg")["Content-Type"] == "image/svg+xml"
    assert client.get(f"/games/{game.pk}/score/nope/qr.svg").status_code == 403


# Players named, never numbered -----------------------------------------------------------------
def test_a_rack_mismatch_names_the_player(client):
    game = ApiGame(client, ruleset="letterup-classic")
    response = game.turn({"action": "finish", "racks": {"Ann": "QZ", "Ben": "ABCDEFG"}})
    assert response.status_code == 400
    assert response.json()["error"]["message"] == "Ann has 7 tiles on the rack, not 2."


def test_an_abandoned_game_shows_everywhere_and_exports_whole(client):
    from scorekeeper.records.json_record import export_record, import_record

    game = ApiGame(client)
    game.play(HASBRO[0][0])
    game.turn({"action": "abandon"})
    for page in ("watch", "watch/live", "", "export.json"):
        assert client.get(f"/games/{game.id}/{page}").status_code == 200, page
    assert "The game was abandoned after turn 1." in text(client.get(f"/games/{game.id}/watch"))
    log = text(client.get(f"/games/{game.id}/"))
    assert "Abandoned" in log and "abandoned" in log
    again = import_record(export_record(Game.objects.get(pk=game.id)), new_id=True)
    assert again.status == "abandoned" and audit_game(again) == []
