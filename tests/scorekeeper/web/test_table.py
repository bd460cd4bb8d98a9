"""The table pages: new game, the scorer's board, preview, turns, the second screen."""

from __future__ import annotations

import re

import pytest
from django.test import Client, override_settings

from referee import GameState
from scorekeeper.models import Game, Turn
from scorekeeper.web.presenters import board_html, board_rows
from tests.factories import CLUB_WORDS, scorer, start, turn

pytestmark = pytest.mark.django_db


# New game -------------------------------------------------------------------------------------
def test_new_game_form_lists_lexicons_with_word_counts(client):
    html = client.get("/games/new").content.decode()
    assert f"CLUB — {len(set(CLUB_WORDS.split()))} words" in html
    assert "Honour system" in html
    assert 'name="player_4"' in html


def test_new_game_creates_the_game_and_opens_the_scorer_page(client):
    game = start(client, turn_clock="75", challenge_mode="manual", rejected_challenge="minus_5")
    assert [s.player.name for s in game.seats.order_by("order")] == ["Ann", "Ben"]
    assert game.challenge_mode == "manual" and game.turn_clock == 75
    assert game.options["rejected_challenge"] == "minus_5"
    html = client.get(scorer(game)).content.decode()
    assert "Ann starts" in html and "to play" in html


def test_drawing_for_first_names_the_draws(client):
    game = start(client, starter="draw")
    html = client.get(scorer(game)).content.decode()
    assert re.search(r"Ann drew (Qu|[A-Z]), Ben drew (Qu|[A-Z])", html)
    starter = game.seats.get(order=game.first_seat).player.name
    assert f"{starter} starts" in html


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"player_1": ""}, "This field is required"),
        ({"player_2": "ann"}, "same name"),
        ({"starter": "3"}, "Choose one of the players"),
        ({"turn_clock": "5"}, "A turn lasts a whole number of seconds from 10 to 600."),
        ({"lexicon": "NOPE"}, "Select a valid choice"),
    ],
)
def test_bad_new_games_show_the_form_again_with_the_reason(client, fields, message):
    base = {"ruleset": "upwords-10", "lexicon": "CLUB", "player_1": "Ann", "player_2": "Ben",
            "challenge_mode": "auto", "starter": "1", "upheld_challenge": "retry",
            "rejected_challenge": "none", "solo_exchanges": "0"}  # fmt: skip
    response = client.post("/games/new", {**base, **fields})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert Game.objects.count() == 0


# The board ------------------------------------------------------------------------------------
def test_board_shows_stack_heights_and_labels(client):
    game = start(client)
    turn(client, game, action="play", play="5D MOOD")
    turn(client, game, action="play", play="5D W")
    html = client.get(scorer(game)).content.decode()
    assert 'aria-label="D5: W2, 2 high, last play"' in html
    assert 'aria-label="E5: O, 1 high"' in html
    assert "Last: Ben played 5D W... for 5 (WOOD 5)." in html


def test_letterup_board_marks_the_premium_squares(client):
    game = start(client, ruleset="letterup-classic")
    html = client.get(scorer(game)).content.decode()
    assert 'aria-label="A1: empty, TW"' in html
    assert 'aria-label="H8: empty, DW, start square"' in html
    assert 'aria-label="B6: empty, TL"' in html


def test_wrong_scorer_token_is_refused_with_a_page(client):
    game = start(client)
    response = client.get(f"/games/{game.pk}/score/not-the-token/")
    assert response.status_code == 403
    assert "Only the scorer link" in response.content.decode()
    response = client.post(f"/games/{game.pk}/score/not-the-token/turn", {"action": "pass"})
    assert response.status_code == 403
    assert Turn.objects.count() == 0


def test_unknown_game_is_a_404_page(client):
    response = client.get("/games/00000000-0000-0000-0000-000000000000/watch")
    assert response.status_code == 404
    assert "Nothing here" in response.content.decode()


# Preview --------------------------------------------------------------------------------------
def test_preview_shows_words_and_breakdown(client):
    game = start(client)
    turn(client, game, action="play", play="5D MOOD")
    html = client.post(scorer(game) + "preview", {"play": "D5=W"}).content.decode()
    assert "<strong>5</strong> points" in html
    assert "WOOD" in html and "2+1+1+1 = 5" in html
    assert "5D W..." in html


def test_preview_says_why_a_play_is_not_legal(client):
    game = start(client)
    turn(client, game, action="play", play="5D MOOD")
    html = client.post(scorer(game) + "preview", {"play": "E5=O"}).content.decode()
    assert "Not legal" in html and "You can&#x27;t stack O on O at E5." in html
    html = client.post(scorer(game) + "preview", {"play": "4C ZX"}).content.decode()
    assert "not in CLUB: ZX, XM." in html


def test_preview_of_nonsense_is_a_plain_message(client):
    game = start(client)
    html = client.post(scorer(game) + "preview", {"play": "hello there friend"}).content.decode()
    assert "is not a play" in html


def previewed(client, game: Game, play: str) -> str:
    return client.post(scorer(game) + "preview", {"play": play}).content.decode()


def test_a_play_still_being_entered_is_told_what_it_lacks_not_refused(client):
    game = start(client)
    html = previewed(client, game, "5E M")  # the first letter of the first word
    assert "A word needs two letters or more: type the next one." in html
    assert "Not legal" not in html and 'class="bad"' not in html
    turn(client, game, action="play", play="5D MOOD")
    html = previewed(client, game, "2A ON")  # not yet at the word on the board
    assert "Go on until the word reaches a tile already on the board." in html
    assert "Not legal" not in html and "data-squares" not in html
    html = previewed(client, game, "4C ZX")  # a word not (yet) in the list
    assert "So far, not in CLUB: ZX, XM." in html and "Not legal" not in html


def test_a_play_no_further_letter_mends_is_refused_while_entered(client):
    game = start(client)
    turn(client, game, action="play", play="5D MOOD")
    html = previewed(client, game, "D4=W E6=A")  # not in one line
    assert "Not legal" in html and "All the new tiles must lie in one row or one column." in html
    html = previewed(client, game, "E5=O")  # a tile put on its own letter
    assert "Not legal" in html and "You can&#x27;t stack O on O at E5." in html


def test_a_typed_play_only_repeating_the_letter_under_it_names_the_stacking_rule(client):
    game = start(client)
    turn(client, game, action="play", play="5D MOOD")
    html = previewed(client, game, "5E O")  # while entered: the next letter may carry on
    assert "The play reads through E5: type the next letter." in html and "stack" not in html
    response = turn(client, game, action="play", play="5E O")
    page = client.get(response["Location"]).content.decode()
    assert "You can&#x27;t stack O on O at E5." in page
    assert "A play needs at least one tile" not in page
    # The documented way of writing a word through a letter already there: no warning.
    html = previewed(client, game, "E5 ON")
    assert "<strong>4</strong> points" in html and "stack" not in html


def test_preview_changes_nothing(client):
    game = start(client)
    client.post(scorer(game) + "preview", {"play": "5D MOOD"})
    game.refresh_from_db()
    assert game.last_entry_number == 0 and game.bag_count == 86


# Turns ----------------------------------------------------------------------------------------
def test_play_then_pass_exchange_undo(client):
    game = start(client)
    assert turn(client, game, action="play", play="5D MOOD").status_code == 302
    assert turn(client, game, action="pass").status_code == 302
    assert turn(client, game, action="exchange", count="1").status_code == 302
    assert turn(client, game, action="undo").status_code == 302
    game.refresh_from_db()
    assert game.last_entry_number == 4
    assert [t.action for t in game.turns.order_by("number")] == ["play", "pass", "exchange", "undo"]


def test_a_refused_play_redirects_to_the_page_with_the_reason_and_the_play_as_typed(client):
    game = start(client)
    response = turn(client, game, action="play", play="1A CAT")
    # 303: the browser fetches the scorer page, so a reload never sends the play again.
    assert response.status_code == 303 and response["Location"] == scorer(game) + "#board"
    html = client.get(scorer(game)).content.decode()
    assert "Not entered." in html and "centre squares" in html
    assert 'value="1A CAT"' in html
    assert Turn.objects.count() == 0
    # Shown once: the reload after it is the plain page.
    assert "Not entered." not in client.get(scorer(game)).content.decode()


def test_tapped_tiles_come_back_after_a_refusal(client):
    game = start(client)
    turn(client, game, action="play", play="A1=A B1=T")
    html = client.get(scorer(game)).content.decode()
    assert 'value="A1=A B1=T"' in html
    assert 'data-squares="A1 B1"' in html  # the squares the refusal is about


def test_a_malformed_play_is_refused_with_the_reason(client):
    game = start(client)
    response = turn(client, game, action="play", play="ZZ99 QQ")
    assert response.status_code == 303
    assert "Not entered." in client.get(scorer(game)).content.decode()


def test_a_turn_sent_twice_answers_with_the_first_ones_sentence(client):
    game = start(client)
    first = client.post(
        scorer(game) + "turn",
        {"action": "play", "play": "D5=M E5=O F5=O G5=D", "expected_turn": "1"},
    )
    again = client.post(
        scorer(game) + "turn",
        {"action": "play", "play": "D5=M E5=O F5=O G5=D", "expected_turn": "1"},
    )
    assert first.status_code == again.status_code == 302
    html = client.get(scorer(game)).content.decode()
    assert "Not entered" not in html and "Ann played 5D MOOD for 8" in html
    assert Turn.objects.count() == 1


def test_a_pass_sent_twice_is_one_pass(client):
    game = start(client)
    for _ in range(2):
        assert (
            client.post(scorer(game) + "turn", {"action": "pass", "expected_turn": "1"}).status_code
            == 302
        )
    assert Turn.objects.count() == 1
    assert "Not entered" not in client.get(scorer(game)).content.decode()


def test_a_different_turn_with_a_taken_number_is_refused(client):
    game = start(client)
    turn(client, game, action="play", play="5D MOOD")
    response = client.post(scorer(game) + "turn", {"action": "pass", "expected_turn": "1"})
    assert response.status_code == 303
    html = client.get(scorer(game)).content.decode()
    assert "Another turn was entered first" in html
    assert Turn.objects.count() == 1


def test_a_play_sent_again_with_the_letters_played_through_is_the_same_turn(client):
    from scorekeeper.games.resubmit import same_turn

    game = start(client, ruleset="letterup-classic")
    turn(client, game, action="play", play="8D HOUSE")
    game.refresh_from_db()
    first = Turn.objects.get()
    assert same_turn(game, 1, "play", "8D HOUSE", None) == first
    assert same_turn(game, 1, "play", "D8=H E8=O F8=U G8=S H8=E", None) == first
    assert same_turn(game, 1, "play", "8D HOUSES", None) is None  # a new S is another play
    assert same_turn(game, 1, "pass", "", None) is None


def test_refusals_name_the_players(client):
    game = start(client, ruleset="letterup-rush")
    for _ in range(4):
        turn(client, game, action="pass")
    turn(client, game, action="finish", rack_0="QZ", rack_1="AAAAAEE")
    html = client.get(scorer(game)).content.decode()
    assert "Ann has 7 tiles on the rack, not 2." in html
    assert "Player 1" not in html


def test_a_refused_finish_keeps_the_racks_as_typed(client):
    game = start(client, ruleset="letterup-rush")
    for _ in range(4):
        turn(client, game, action="pass")
    turn(client, game, action="finish", rack_0="QZ", rack_1="AAAAAEE")
    html = client.get(scorer(game)).content.decode()
    assert "Ann has 7 tiles on the rack, not 2." in html
    assert 'name="rack_0"' in html
    assert re.search(r'name="rack_0"[^>]*value="QZ"', html)
    assert re.search(r'name="rack_1"[^>]*value="AAAAAEE"', html)
    # Shown once: the page opened again starts afresh.
    assert 'value="QZ"' not in client.get(scorer(game)).content.decode()


def test_the_refused_here_legend_comes_only_with_a_square_marked(client):
    game = start(client, ruleset="letterup-rush")
    turn(client, game, action="play", play="8D HOUSD")  # not a word: its squares are marked
    html = client.get(scorer(game)).content.decode()
    assert 'class="mark refused"' in html and re.search(r'data-squares="[A-O][0-9]', html)
    for _ in range(4):
        turn(client, game, action="pass")
    turn(client, game, action="finish", rack_0="QZ", rack_1="AAAAAEE")  # no square to mark
    html = client.get(scorer(game)).content.decode()
    assert "Ann has 7 tiles on the rack, not 2." in html
    assert 'class="mark refused"' not in html


def test_a_pass_that_ends_the_game_asks_first(client):
    game = start(client)
    html = client.get(scorer(game)).content.decode()
    assert "This pass ends the game" not in html
    turn(client, game, action="pass")
    html = client.get(scorer(game)).content.decode()
    assert 'data-confirm="Pass? This pass ends the game' in html
    assert "Pass (ends the game)" in html


def test_undo_is_there_on_the_rack_screen(client):
    game = start(client, ruleset="letterup-rush")
    for _ in range(4):
        turn(client, game, action="pass")
    html = client.get(scorer(game)).content.decode()
    shown = re.sub(r"<[^>]+>", "", html)  # the button's words, whatever spans they are in
    assert "Letters left on each rack" in shown and "Undo last turn" in shown
    assert turn(client, game, action="undo").status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS


def test_the_turn_number_counts_turns_in_effect(client):
    game = start(client)
    assert "turn 1 ·" in client.get(scorer(game)).content.decode()
    turn(client, game, action="play", play="5D MOOD")
    turn(client, game, action="undo")
    game.refresh_from_db()
    assert game.last_entry_number == 2  # two log entries, no turn in effect
    assert "turn 1 ·" in client.get(scorer(game)).content.decode()
    turn(client, game, action="play", play="5D MOOD")
    assert "turn 2 ·" in client.get(scorer(game)).content.decode()


def test_squares_and_keys_are_named_with_what_they_show(client):
    game = start(client, ruleset="crossword-classic")
    turn(client, game, action="play", play="8D HOUSE")
    html = client.get(scorer(game)).content.decode()
    # Shown: H and its value 4 ("H4"), said so after the square's name, then the premium under it.
    assert 'aria-label="D8: H4, double letter, last play"' in html
    assert 'aria-label="A1: empty, TW"' in html  # shown: TW
    assert 'aria-label="H4 (4 points)"' in html  # the pad's key shows H4


def test_an_empty_square_is_one_element_with_nothing_to_say_twice():
    empty = board_rows(GameState.new("crossword-classic", 2), set())
    html = board_html(empty, scorer=True)
    assert html.count("<button") == 225
    # No element inside an empty square: its premium mark is drawn from its class.
    assert "<span" not in html and "data-top" not in html and "data-height" not in html
    spectator = board_html(empty, scorer=False)
    assert spectator.count('role="gridcell"') == 225 and "<span" not in spectator


def test_letter_values_on_tiles_and_keys(client):
    game = start(client, ruleset="letterup-classic")
    turn(client, game, action="play", play="8D HOUSE")
    html = client.get(scorer(game)).content.decode()
    assert 'aria-label="Q10 (10 points)"' in html
    assert re.search(
        r'data-name="D8".*?<span class="letter">H</span><span class="val"[^>]*>4</span>', html, re.S
    )
    upwords = start(client)
    assert 'class="val"' not in client.get(scorer(upwords)).content.decode()


def test_blanks_look_different_and_have_a_key(client):
    game = start(client, ruleset="crossword-classic")
    turn(client, game, action="play", play="8D HOUSe")
    html = client.get(scorer(game)).content.decode()
    assert 'data-has-blanks="1"' in html and 'data-key="Blank"' in html
    assert re.search(r'class="sq h1 filled blank[^"]*"[^>]*data-name="H8" data-top="E"', html)
    assert 'aria-label="H8: E, a blank' in html


def test_a_bad_count_is_refused_with_the_reason(client):
    game = start(client, ruleset="letterup-classic")
    response = turn(client, game, action="exchange", count="many")
    assert response.status_code == 303
    assert "must be a whole number" in client.get(scorer(game)).content.decode()


def test_after_an_undo_the_challenge_names_the_play_still_standing(client):
    game = start(client, challenge_mode="manual")
    turn(client, game, action="play", play="5D MOOD")
    turn(client, game, action="play", play="E3 BOAT")
    turn(client, game, action="undo")
    html = client.get(scorer(game)).content.decode()
    assert "Challenge 5D MOOD<" in html and "Ann's play 5D MOOD?" in html
    assert "BOAT" not in html.split('id="challenge-form"')[1].split("</form>")[0]


def test_tournament_challenge_shows_a_verdict_only(client):
    game = start(client, challenge_mode="manual")
    turn(client, game, action="play", play="5D MOOX")
    html = client.get(scorer(game)).content.decode()
    assert "Challenge 5D MOOX" in html
    turn(client, game, action="challenge")
    html = client.get(scorer(game)).content.decode()
    assert "NOT ACCEPTABLE" in html
    assert "is taken off" in html
    turn(client, game, action="play", play="5D MOOD")
    turn(client, game, action="challenge")
    html = client.get(scorer(game)).content.decode()
    assert ">ACCEPTABLE<" in html


def test_upwords_end_screen_shows_penalties_and_winner(client):
    game = start(client)
    turn(client, game, action="play", play="5D MOOD")
    turn(client, game, action="pass")
    turn(client, game, action="pass")
    html = client.get(scorer(game)).content.decode()
    assert "Ann wins" in html
    assert '<td class="num">-35</td>' in html
    assert '<td class="num final">-27</td>' in html


def test_a_tie_is_a_tie(client):
    game = start(client)
    turn(client, game, action="pass")
    turn(client, game, action="pass")
    assert "A tie: Ann and Ben" in client.get(scorer(game)).content.decode()


def test_rack_entry_is_prefilled_when_only_one_rack_can_hold_the_unseen_tiles():
    from referee.game import GameState
    from scorekeeper.web.presenters import rack_prefill

    # Near the end of a Rush game: Ann went out, the bag is empty, and five tiles are unseen.
    state = GameState.new("letterup-rush", 2)
    left = ["Q", "Z", "A", "E", "I"]
    on_board = [t for t, n in state.ruleset.tiles.items() for _ in range(n)]
    for tile in left:
        on_board.remove(tile)
    for index, tile in enumerate(on_board):
        state.board.place(index // 15, index % 15, tile)
    state.bag, state.racks = 0, [0, 5]
    assert rack_prefill(state) == {0: "", 1: "AEIQZ"}
    # With two racks holding tiles, who holds what is unknown: nothing is filled in.
    state.racks = [2, 3]
    assert rack_prefill(state) == {}


def test_letterup_finish_with_racks(client):
    game = start(client, ruleset="letterup-rush")
    for _ in range(4):
        turn(client, game, action="pass")
    html = client.get(scorer(game)).content.decode()
    assert "Letters left on each rack" in html
    response = turn(client, game, action="finish", rack_0="QZJXKWV", rack_1="AAAAAEE")
    assert response.status_code == 302
    html = client.get(scorer(game)).content.decode()
    assert "Ben wins" in html and "-50" in html


# The second screen ----------------------------------------------------------------------------
def test_spectator_screen_is_read_only_and_has_no_token(client):
    game = start(client)
    html = client.get(f"/games/{game.pk}/watch").content.decode()
    assert "Ann</span> to play" in html
    assert game.token not in html
    assert "Submit play" not in html
    # Changes come by push (its stream), or every 3 s while there is none.
    assert f'data-events="/games/{game.pk}/events"' in html and 'data-poll="3"' in html


def test_polling_with_nothing_new_is_a_304(client):
    game = start(client)
    url = f"/games/{game.pk}/watch/live"
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"]
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    turn(client, game, action="play", play="5D MOOD")
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert "Ann played 5D MOOD for 8" in changed.content.decode()


def test_polling_costs_one_query_when_nothing_changed(client, django_assert_num_queries):
    game = start(client)
    url = f"/games/{game.pk}/watch/live"
    etag = client.get(url)["ETag"]
    with django_assert_num_queries(1):
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_a_solo_game_has_a_final_score_but_no_winner(client):
    game = start(client, player_2="")
    turn(client, game, action="play", play="5D MOOD")
    turn(client, game, action="pass")
    html = client.get(scorer(game)).content.decode()
    assert "Final score" in html
    assert " wins" not in html and '<span class="badge">' not in html


def test_the_board_has_one_tab_stop_without_any_script(client):
    game = start(client)
    html = client.get(scorer(game)).content.decode()
    stops = re.findall(r'<button[^>]*data-name="(\w+)"[^>]*tabindex="0"', html)
    assert stops == ["E5"]  # the first start square, and no other


# What the pages say -----------------------------------------------------------------------------
def test_the_scorer_pages_help_says_the_key_is_in_this_browser_not_in_the_address(client):
    game = start(client)
    page = client.get(scorer(game)).content.decode()
    assert "This page's address is the scorer link" not in page
    assert "This browser keeps the game's scorer key in a cookie" in page
    assert "Hand the scoring to another phone" in page


def test_the_home_page_names_every_game_it_keeps(client):
    page = client.get("/").content.decode()
    assert "For Upwords, Letter UP and the classic crossword game:" in page


def test_every_page_links_its_icon_and_the_icon_is_served(client):
    for url in ("/", "/games/new", "/games/", "/judge/"):
        assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in (
            client.get(url).content.decode()
        ), url
    # Served by WhiteNoise as a static file (found in static/ here, as collectstatic would).
    with override_settings(WHITENOISE_USE_FINDERS=True, WHITENOISE_AUTOREFRESH=True):
        response = Client().get("/static/favicon.svg")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")
    icon = b"".join(response.streaming_content)
    # The Content-Security-Policy allows no inline script or style: the icon has neither.
    assert b"<svg" in icon and b"<script" not in icon and b"<style" not in icon


def test_a_refused_play_comes_back_in_its_direction_with_its_reason_once(client):
    game = start(client)
    turn(client, game, action="play", play="5D MOOD")
    response = turn(client, game, action="play", play="F5 .EE", direction="down")
    assert response.status_code == 303 and response["Location"].endswith("#board")
    html = client.get(scorer(game)).content.decode()
    assert 'value="F5 .EE"' in html
    assert 'id="play-direction" name="direction" value="down"' in html
    assert html.count("OEE") == 1  # the refusal says why; the preview only marks the squares
    assert '<div class="bad" data-squares="' in html  # the squares still marked
    # Anything but "down" is across.
    turn(client, game, action="play", play="F5 .EE", direction="sideways")
    assert 'name="direction" value="across"' in client.get(scorer(game)).content.decode()


def test_the_pages_script_is_answered_in_json_and_the_page_then_says_the_same(client):
    game = start(client)
    json_turn = {"HTTP_ACCEPT": "application/json"}
    entered = client.post(scorer(game) + "turn", {"action": "play", "play": "5D MOOD",
                                                   "expected_turn": "1"}, **json_turn)  # fmt: skip
    assert entered.status_code == 200 and entered.json()["entered"] is True
    assert "Ann played 5D MOOD for 8" in client.get(entered.json()["location"]).content.decode()
    refused = client.post(scorer(game) + "turn", {"action": "play", "play": "1A CAT",
                                                  "expected_turn": "2"}, **json_turn)  # fmt: skip
    assert refused.status_code == 200 and refused.json()["entered"] is False
    assert refused.json()["message"] == (
        "Your tiles must touch a tile already on the board or be stacked on one."
    )
    html = client.get(refused.json()["location"]).content.decode()
    assert "Not entered." in html and 'value="1A CAT"' in html
    assert Turn.objects.count() == 1
