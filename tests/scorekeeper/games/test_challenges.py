"""Challenge modes and options (RULES.md §5), through the API."""

from __future__ import annotations

import html

import pytest

from scorekeeper.games.turn_kinds import describe
from scorekeeper.http.links import cookie_name
from scorekeeper.models import Game, Seat, Turn
from tests.factories import ApiGame

pytestmark = pytest.mark.django_db

MOOD = [(4, 3, "M"), (4, 4, "O"), (4, 5, "O"), (4, 6, "D")]
MOOX = [(4, 3, "M"), (4, 4, "O"), (4, 5, "O"), (4, 6, "X")]  # not in the CLUB list


def manual(client, **fields) -> ApiGame:
    return ApiGame(client, challenge_mode="manual", **fields)


def test_auto_mode_refuses_an_invalid_word_as_it_is_entered(client):
    game = ApiGame(client)
    response = game.play(MOOX)
    assert response.status_code == 422
    assert response.json()["error"]["words"] == ["MOOX"]


def test_manual_mode_lets_a_phony_stand_until_challenged(client):
    game = manual(client)
    response = game.play(MOOX)
    assert response.status_code == 201 and response.json()["turn"]["score"] == 8
    assert response.json()["game"]["can_challenge"] is True


def test_upheld_challenge_takes_the_play_off_and_the_mover_tries_again(client):
    game = manual(client)
    game.play(MOOX)
    response = game.turn({"action": "challenge"})
    assert response.status_code == 201
    body = response.json()
    assert body["turn"]["result"] == "upheld"
    assert body["turn"]["player"] == "Ben"  # the challenger
    assert body["turn"]["target"] == 1
    state = body["game"]
    assert state["board"][4][6] == [] and state["bag_count"] == 86
    assert [p["score"] for p in state["players"]] == [0, 0]
    assert [p["rack_count"] for p in state["players"]] == [7, 7]
    assert state["to_move"] == "Ann"
    # The phony stays in the log with its own score; the challenge records the verdict.
    assert [(t["action"], t["score"]) for t in game.log()] == [("play", 8), ("challenge", 0)]


def test_tournament_verdict_does_not_say_which_word_failed(client):
    game = manual(client)
    game.play(MOOX)
    body = game.turn({"action": "challenge"}).json()
    assert body["turn"]["result"] == "upheld"
    # The turn lists the words the play formed, never which of them failed.
    assert "invalid_words" not in body["turn"] and "invalid_words" not in str(body["game"])


def test_upheld_challenge_restores_stacks_exactly(client):
    game = manual(client)
    game.play(MOOD)
    game.turn({"action": "pass"})
    before = game.state()["board"]
    game.play([(4, 3, "Z")])  # ZOOD: stacked on M
    assert game.state()["board"][4][3] == ["M", "Z"]
    game.turn({"action": "challenge"})
    assert game.state()["board"] == before


def test_rejected_challenge_leaves_the_play_with_no_penalty_by_default(client):
    game = manual(client)
    game.play(MOOD)
    body = game.turn({"action": "challenge"}).json()
    assert body["turn"]["result"] == "rejected" and body["turn"]["score"] == 0
    assert [p["score"] for p in body["game"]["players"]] == [8, 0]
    assert body["game"]["to_move"] == "Ben"  # the challenger still plays
    assert body["game"]["can_challenge"] is False


def test_rejected_challenge_can_cost_five_points(client):
    game = manual(client, options={"rejected_challenge": "minus_5"})
    game.play(MOOD)
    body = game.turn({"action": "challenge"}).json()
    assert body["turn"]["score"] == -5
    assert [p["score"] for p in body["game"]["players"]] == [8, -5]


def test_rejected_challenge_can_cost_the_turn(client):
    game = manual(client, options={"rejected_challenge": "lose_turn"})
    game.play(MOOD)
    assert game.turn({"action": "challenge"}).json()["game"]["to_move"] == "Ann"


def test_upheld_challenge_can_cost_the_mover_the_turn(client):
    game = manual(client, options={"upheld_challenge": "lose_turn"})
    game.play(MOOX)
    assert game.turn({"action": "challenge"}).json()["game"]["to_move"] == "Ben"


def test_only_the_last_play_can_be_challenged(client):
    game = manual(client)
    response = game.turn({"action": "challenge"})
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "nothing_to_challenge"
    game.play(MOOX)
    game.turn({"action": "pass"})
    assert game.turn({"action": "challenge"}).status_code == 422


def test_auto_mode_has_nothing_to_challenge(client):
    game = ApiGame(client)
    game.play(MOOD)
    response = game.turn({"action": "challenge"})
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "challenge_not_needed"


def test_honour_system_has_no_dictionary_to_judge(client):
    game = manual(client, lexicon="honour")
    game.play(MOOX)
    response = game.turn({"action": "challenge"})
    assert response.status_code == 422 and response.json()["error"]["code"] == "no_dictionary"


def test_the_final_letterup_play_can_be_challenged_before_the_racks(client):
    game = manual(client, ruleset="letterup-classic")
    # A position near the end: the bag is empty and Ann holds the five tiles she plays.
    Game.objects.filter(pk=game.id).update(bag_count=0)
    Seat.objects.filter(game_id=game.id, order=0).update(rack_count=5)
    Seat.objects.filter(game_id=game.id, order=1).update(rack_count=2)
    body = game.play([(7, 3, "H"), (7, 4, "O"), (7, 5, "U"), (7, 6, "S"), (7, 7, "X")]).json()
    assert body["game"]["status"] == "awaiting_racks"
    body = game.turn({"action": "challenge"}).json()
    assert body["turn"]["result"] == "upheld"
    assert body["game"]["status"] == "in_progress" and body["game"]["to_move"] == "Ann"


# What a verdict cost, said on the scorer page, the spectator screen and the log ---------------
VERDICTS = [
    # (option, its value, the play, the verdict, what it cost whom)
    (
        "upheld_challenge",
        "retry",
        MOOX,
        "NOT ACCEPTABLE",
        "Ann’s play 5D MOOX is taken off; Ann scores 0 and plays again.",
    ),
    (
        "upheld_challenge",
        "lose_turn",
        MOOX,
        "NOT ACCEPTABLE",
        "Ann’s play 5D MOOX is taken off; Ann scores 0 and loses the turn.",
    ),
    (
        "rejected_challenge",
        "none",
        MOOD,
        "ACCEPTABLE",
        "Ann’s play 5D MOOD stands; the challenge costs Ben nothing.",
    ),
    (
        "rejected_challenge",
        "lose_turn",
        MOOD,
        "ACCEPTABLE",
        "Ann’s play 5D MOOD stands; Ben loses the turn (double challenge).",
    ),
    (
        "rejected_challenge",
        "minus_5",
        MOOD,
        "ACCEPTABLE",
        "Ann’s play 5D MOOD stands; Ben loses 5 points.",
    ),
    (
        "rejected_challenge",
        "bonus_5",
        MOOD,
        "ACCEPTABLE",
        "Ann’s play 5D MOOD stands; Ann gets 5 points (five-point challenge).",
    ),
    (
        "rejected_challenge",
        "bonus_10",
        MOOD,
        "ACCEPTABLE",
        "Ann’s play 5D MOOD stands; Ann gets 10 points (ten-point challenge).",
    ),
]


def challenged_on_the_scorer_page(client, option: str, value: str, play) -> ApiGame:
    """A tournament game whose play Ben challenges from the scorer page, as a table would."""
    game = manual(client, options={option: value})
    game.play(play)
    client.cookies[cookie_name(game.id)] = game.token
    entered = Game.objects.get(pk=game.id)
    response = client.post(
        f"/games/{game.id}/score/turn",
        {"action": "challenge", "expected_turn": entered.last_entry_number + 1},
    )
    assert response.status_code == 302
    return game


@pytest.mark.parametrize(
    ("option", "value", "play", "verdict", "cost"),
    VERDICTS,
    ids=[f"{option}-{value}" for option, value, *_ in VERDICTS],
)
def test_a_verdict_says_what_it_cost_and_to_whom(client, option, value, play, verdict, cost):
    game = challenged_on_the_scorer_page(client, option, value, play)
    scorer = html.unescape(client.get(f"/games/{game.id}/score/").content.decode())
    # The verdict box at the table, and the turn's sentence in the scorer's message.
    assert f"<strong>{verdict}</strong>\n    <span>{cost}</span>" in scorer
    assert f"Ben challenged: {verdict} – {cost}" in scorer
    watch = html.unescape(client.get(f"/games/{game.id}/watch").content.decode())
    assert f"<strong>{verdict}</strong>\n    <span>{cost}</span>" in watch
    log = html.unescape(client.get(f"/games/{game.id}/").content.decode())
    assert cost.split("; ", 1)[1] in log  # the log's row says the cost too


def test_a_verdict_is_told_by_the_rule_the_game_was_played_with(client):
    # The crossword game's printed rules: a phony comes off and costs the turn.
    game = ApiGame(client, ruleset="crossword-classic", challenge_mode="manual")
    game.turn({"action": "play", "notation": "8H DEAR"})
    turn = game.turn({"action": "challenge"}).json()["turn"]
    sentence = describe(Turn.objects.get(game_id=game.id, number=turn["number"]))
    assert sentence == (
        "Ben challenged: ACCEPTABLE – Ann’s play 8H DEAR stands; "
        "Ben loses the turn (double challenge)."
    )


def test_a_play_taken_off_is_no_longer_the_spectators_last_play(client):
    game = manual(client)
    assert game.play(MOOD).status_code == 201
    assert game.play([(5, 6, "E"), (6, 6, "A"), (7, 6, "R")]).status_code == 201  # DEAR
    before = client.get(f"/games/{game.id}/watch").content.decode()
    assert "Last play: Ben" in before
    game.turn({"action": "challenge"})  # DEAR is in the list: rejected, it stands
    assert "Last play: Ben" in client.get(f"/games/{game.id}/watch").content.decode()
    phony = manual(client)
    phony.play(MOOD)
    phony.play([(5, 6, "X"), (6, 6, "A"), (7, 6, "R")])  # DXAR: not a word
    phony.turn({"action": "challenge"})
    after = client.get(f"/games/{phony.id}/watch").content.decode()
    # Ben's DXAR came off the board: the last play on it is Ann's MOOD.
    assert "Last play: Ann" in after and "Last play: Ben" not in after
