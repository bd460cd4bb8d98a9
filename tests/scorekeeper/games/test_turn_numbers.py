"""One turn number, one meaning, everywhere: "Turn N" is the Nth turn in effect in the order of
play, on every page, in the API and in the GCG; log entries keep their own numbers (#7)."""

from __future__ import annotations

import re

import pytest

from bench.sequences import HASBRO, tiles
from scorekeeper.http.links import cookie_name
from tests.factories import CLUB_WORDS, ApiGame

pytestmark = pytest.mark.django_db

# RULES.md §4 on the Letter UP board: HOUSE across for 24, X A M down making EXAM for 14, and A
# above the H making AH for 5.
HOUSE = "8D HOUSE"
EXAM = "H8 EXAM"
AH = [(6, 3, "A")]


def flat(response) -> str:  # type: ignore[no-untyped-def]
    assert response.status_code == 200, response.content
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def numbers(pattern: str, html: str) -> list[int]:
    return [int(n) for n in re.findall(pattern, html)]


@pytest.fixture
def game(client) -> ApiGame:  # type: ignore[no-untyped-def]
    """Entries #1 play (undone by #2), #3 play, #4 pass, #5 play, #6 pass: four turns."""
    game = ApiGame(client, ruleset="letterup-classic")
    client.cookies[cookie_name(game.id)] = game.token  # the scorer's phone
    assert game.turn({"action": "play", "notation": HOUSE}).status_code == 201
    assert game.turn({"action": "undo"}).status_code == 201
    assert game.turn({"action": "play", "notation": HOUSE}).status_code == 201
    assert game.turn({"action": "pass"}).status_code == 201
    assert game.play(AH).status_code == 201
    assert game.turn({"action": "pass"}).status_code == 201
    return game


def test_every_page_counts_the_turns_alike_through_an_undo_a_correction_and_an_abandon(
    client, game
):
    scorer = f"/games/{game.id}/score/"
    # The correction list names the turns in effect as players count them; the form still
    # sends the log entry's number.
    listing = flat(client.get(scorer + "correct"))
    assert numbers(r"Turn (\d+):", listing) == [4, 3, 2, 1]
    chosen = client.get(scorer + "correct?turn=4").content.decode()
    assert "Turn 2: Ben" in chosen and "Correct turn 2" in chosen
    assert 'name="target" value="4"' in chosen

    # Ben's pass (turn 2, entry #4) was really EXAM: corrected from the scorer's page.
    sent = {"target": "4", "move": "play", "play": EXAM, "expected_turn": "7"}
    response = client.post(scorer + "correct", sent, follow=True)
    page = flat(response)
    assert numbers(r"\bturn (\d+) ·", page) == [5]  # the scorer's header: the fifth turn now
    assert "Turn 2 was corrected: Ben played" in page
    assert "Scores changed: turn 2 (Ben) 0 → 14." in page
    assert numbers(r"Turn (\d+):", flat(client.get(scorer + "correct"))) == [4, 3, 2, 1]

    home = flat(client.get("/"))
    assert "in progress · turn 5 ·" in home  # your games
    assert "Ben 14 · turn 5 ·" in home  # games in progress
    assert "Turn 5 · Bag" in flat(client.get(f"/games/{game.id}/watch"))
    state = game.state()
    assert (state["turn"], state["turn_number"]) == (4, 7)

    response = client.post(scorer + "abandon", {"expected_turn": "8", "confirm": "yes"})
    assert response.status_code == 302
    page = flat(client.get(scorer))
    assert "after turn 4 ·" in page
    assert "The game was abandoned after turn 4." in page
    assert "abandoned · after turn 4 ·" in flat(client.get("/"))
    assert "Abandoned · after turn 4" in flat(client.get("/games/"))
    assert "After turn 4 · Bag" in flat(client.get(f"/games/{game.id}/watch"))

    raw = client.get(f"/games/{game.id}/").content.decode()
    history = flat(client.get(f"/games/{game.id}/"))
    assert "After turn 4 of 4" in history
    # The chart's points: the start, four turns, and the abandon, which is no turn.
    assert "Cumulative score by turn, turns 0 to 4;" in raw
    chart = raw[raw.index('id="chart-data-caption"') : raw.index('id="log-caption"')]
    assert re.findall(r'<th scope="row" class="num">(\w+)</th>', chart) == [
        "0", "1", "2", "3", "4", "end",
    ]  # fmt: skip
    # The log: each entry keeps its number, each turn in effect says which turn it is.
    assert numbers(r"· turn (\d+)", history) == [1, 3, 4, 2]  # entries #3, #5, #6, #7
    replayed = flat(client.get(f"/games/{game.id}/?turn=2"))
    assert "After turn 2 of 4 (log entry #7)" in replayed

    log = {t["number"]: t["turn"] for t in game.log()}
    assert log == {1: None, 2: None, 3: 1, 4: None, 5: 3, 6: 4, 7: 2, 8: None}
    state = game.state()
    assert (state["turn"], state["turn_number"], state["last_turn"]["turn"]) == (4, 8, None)

    gcg = client.get(f"/games/{game.id}/export.gcg").content.decode().splitlines()
    assert len([line for line in gcg if line.startswith(">")]) == 4
    assert "#note The game was abandoned after turn 4." in gcg


# The log after a correction ---------------------------------------------------------------------
ROW = re.compile(
    r'<th scope="row" class="num">(?:<a [^>]*>)?(\d+).*?<td class="strike player">([^<]*)</td>'
    r'.*?<td class="num" data-label="total">([^<]*)</td>',
    re.S,
)


def test_the_log_s_running_totals_never_go_back_after_a_correction(client, use_words):
    use_words(CLUB_WORDS + " DEARS LEAPS")
    game = ApiGame(client)
    for triples, _ in HASBRO[:5]:  # Ann 8, Ben 8, Ann 10, Ben 5, Ann 12
        assert game.play(triples).status_code == 201
    dears = [(5, 6, "E"), (6, 6, "A"), (7, 6, "R"), (8, 6, "S")]  # Ben's turn 2 was DEARS, 10
    corrected = game.turn({"action": "correct", "target": 2, "tiles": tiles(dears)})
    assert corrected.status_code == 201
    html = client.get(f"/games/{game.id}/").content.decode()
    log = html[html.index('id="log-caption"') :]
    rows = [(int(n), name, total) for n, name, total in ROW.findall(log)]
    # Entry #6 (the correction of #2) is read where it was entered: by then Ben had 10 + 5.
    assert rows == [
        (1, "Ann", "8"),
        (2, "Ben", ""),  # corrected: struck through, no total
        (3, "Ann", "18"),
        (4, "Ben", "15"),
        (5, "Ann", "31"),
        (6, "Ben", "15"),
    ]
    for name in ("Ann", "Ben"):
        totals = [int(total) for _, who, total in rows if who == name and total]
        assert totals == sorted(totals), name
    # Its number still opens the board after turn 2, where the correction stands in play.
    assert 'href="?step=2#replay">6<' in html


# A challenge is no turn of its own (issue 33) ----------------------------------------------------
PHONY = [(5, 6, "X"), (6, 6, "A"), (7, 6, "R")]  # DXAR down from MOOD: not a word


def challenged(client, options: dict[str, str], moves: list[tuple[str, object]]) -> ApiGame:
    game = ApiGame(client, challenge_mode="manual", options=options)
    client.cookies[cookie_name(game.id)] = game.token
    for action, what in moves:
        body = {"action": action}
        if action == "play":
            body["tiles"] = tiles(what)  # type: ignore[arg-type]
        assert game.turn(body).status_code == 201, (action, game.turn)
    return game


def turns_said(client, game: ApiGame) -> dict[str, int]:
    """The turns played as each page and the API say it ("turn 4" in play is 3 played)."""
    phone = flat(client.get(f"/games/{game.id}/score/"))
    tv = flat(client.get(f"/games/{game.id}/watch/live"))
    history = flat(client.get(f"/games/{game.id}/"))
    return {
        "api": game.state()["turn"],
        "phone": numbers(r"\bturn (\d+) ·", phone)[0] - 1,
        "tv": numbers(r"\bTurn (\d+) · Bag", tv)[0] - 1,
        "replay": numbers(r"After turn (\d+) of \d+", history)[0],
        "of": numbers(r"After turn \d+ of (\d+)", history)[0],
    }


LOSE_TURNS = {"upheld_challenge": "lose_turn", "rejected_challenge": "lose_turn"}


def test_an_upheld_challenge_is_no_turn_the_challenged_play_is(client):
    # Ann 1, Ben's phony 2 (comes off, scores 0, his turn lost), Ann 3, Ben 4.
    game = challenged(
        client, LOSE_TURNS,
        [("play", HASBRO[0][0]), ("play", PHONY), ("challenge", None), ("play", HASBRO[1][0]),
         ("play", HASBRO[2][0])],
    )  # fmt: skip
    log = {t["number"]: (t["action"], t["turn"]) for t in game.log()}
    assert log == {
        1: ("play", 1), 2: ("play", 2), 3: ("challenge", None), 4: ("play", 3), 5: ("play", 4),
    }  # fmt: skip
    assert turns_said(client, game) == {"api": 4, "phone": 4, "tv": 4, "replay": 4, "of": 4}
    history = flat(client.get(f"/games/{game.id}/"))
    assert numbers(r"· turn (\d+)", history) == [1, 2, 3, 4]


def test_a_retry_after_an_upheld_challenge_is_the_same_turn(client):
    # Ben's phony comes off and he plays again: both are his turn 2.
    game = challenged(
        client, {"upheld_challenge": "retry"},
        [("play", HASBRO[0][0]), ("play", PHONY), ("challenge", None)],
    )  # fmt: skip
    assert turns_said(client, game)["api"] == 1  # turn 2 is Ben's, again
    assert game.turn({"action": "play", "tiles": tiles(HASBRO[1][0])}).status_code == 201
    log = {t["number"]: t["turn"] for t in game.log()}
    assert log == {1: 1, 2: 2, 3: None, 4: 2}
    assert turns_said(client, game) == {"api": 2, "phone": 2, "tv": 2, "replay": 2, "of": 2}


def test_a_double_challenge_s_lost_turn_is_the_turn_and_a_five_point_one_is_none(client):
    # Ben challenges Ann's good play and loses his turn: that lost turn is his turn 2.
    game = challenged(
        client, LOSE_TURNS, [("play", HASBRO[0][0]), ("challenge", None), ("play", HASBRO[1][0])]
    )
    assert [t["turn"] for t in game.log()] == [1, 2, 3]
    assert turns_said(client, game) == {"api": 3, "phone": 3, "tv": 3, "replay": 3, "of": 3}
    minus = challenged(
        client, {"rejected_challenge": "minus_5"},
        [("play", HASBRO[0][0]), ("challenge", None), ("play", HASBRO[1][0])],
    )  # fmt: skip
    assert [t["turn"] for t in minus.log()] == [1, None, 2]
    assert turns_said(client, minus)["api"] == 2


def test_the_tv_numbers_recent_turns_as_players_count_them(client):
    game = challenged(
        client, LOSE_TURNS,
        [("play", HASBRO[0][0]), ("play", PHONY), ("challenge", None), ("play", HASBRO[1][0])],
    )  # fmt: skip
    part = client.get(f"/games/{game.id}/watch/live").content.decode()
    recent = part.split('class="recent-turns"')[1].split("</ul>")[0]
    said = [flat_text(item) for item in re.findall(r"<li>(.*?)</li>", recent)]
    assert said[0].startswith("Turn 3: Ann played")
    assert said[1].startswith("Ann challenged: NOT ACCEPTABLE")  # no turn of its own
    assert said[2].startswith("Turn 2: Ben played")


def flat_text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def test_go_to_turn_shows_the_turn_the_caption_names_and_refuses_one_not_played(client):
    game = challenged(
        client, {"upheld_challenge": "retry"},
        [("play", HASBRO[0][0]), ("play", PHONY), ("challenge", None), ("play", HASBRO[1][0]),
         ("play", HASBRO[2][0])],
    )  # fmt: skip
    # Three turns in four steps: turn 2 ends with Ben's retry (log entry #4).
    after_2 = flat(client.get(f"/games/{game.id}/?turn=2"))
    assert re.search(r"After turn 2 of 3 \(log entry #4\) ?: Ben played", after_2)
    page = client.get(f"/games/{game.id}/?turn=2").content.decode()
    assert re.search(r'id="goto-turn"[^>]*max="3" value="2"', page)
    refused = client.get(f"/games/{game.id}/?turn=4")
    assert refused.status_code == 400
    assert "This game has turns 0 to 3; there is no turn 4." in refused.content.decode()
    # The chart's points: a challenge is a point of its own, named as no turn.
    raw = client.get(f"/games/{game.id}/").content.decode()
    chart = raw[raw.index('id="chart-data-caption"') : raw.index('id="log-caption"')]
    rows = re.findall(r'<th scope="row" class="num">(\w+)</th>', chart)
    assert rows == ["0", "1", "2", "challenge", "2", "3"]
    # The stepper walks every entry, the challenge too.
    challenge = flat(client.get(f"/games/{game.id}/?step=3"))
    assert re.search(r"After turn 1 of 3 \(log entry #3\) ?: Ann challenged: NOT ACC", challenge)
