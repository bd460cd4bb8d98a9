"""The tournament's API: a club, an event, its rounds, results typed in, standings and the
``.t`` file, each refusal a 4xx with a sentence and nothing changed."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client

from bench.sequences import HASBRO, tiles
from scorekeeper.api.accounts import new_account_token
from scorekeeper.models import Club, Game, Tournament
from tests.factories import PASSWORD, account

pytestmark = pytest.mark.django_db

PLAYERS = [
    {"name": "Ann Archer", "rating": 1700, "career_games": 100},
    {"name": "Ben Baker", "rating": 1600, "career_games": 100},
    {"name": "Cy Cole", "rating": 1500, "career_games": 10},
    {"name": "Di Dunn", "rating": 0},
]


class Director:
    """A client sending an account's token with each request."""

    def __init__(self, client: Client, username: str = "dora") -> None:
        self.client = client
        self.token = new_account_token(account(username))

    def post(self, path: str, body: dict, token: str | None = None):
        auth = {"HTTP_AUTHORIZATION": f"Bearer {token or self.token}"}
        return self.client.post(path, body, content_type="application/json", **auth)

    def get(self, path: str):
        return self.client.get(path)


@pytest.fixture
def dora(client) -> Director:
    return Director(client)


def event(dora: Director, **fields) -> int:
    assert dora.post("/api/clubs/", {"name": "Riverside"}).status_code == 201
    body = {"name": "Friday", "ruleset": "upwords-10", "lexicon": "CLUB", "rounds": 2,
            "players": PLAYERS, **fields}  # fmt: skip
    made = dora.post("/api/clubs/riverside/tournaments/", body)
    assert made.status_code == 201, made.content
    return made.json()["id"]


def refused(response, status: int, code: str) -> str:
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert error["code"] == code and error["message"].endswith(".")
    return error["message"]


def test_a_club_made_through_the_api_has_the_caller_as_its_director(dora):
    made = dora.post("/api/clubs/", {"name": "Riverside Word Club"})
    assert made.status_code == 201 and made.json() == {
        "slug": "riverside-word-club",
        "name": "Riverside Word Club",
    }
    assert Club.objects.get(slug="riverside-word-club").directors.get().username == "dora"


def test_a_club_of_a_name_taken_is_refused(dora):
    dora.post("/api/clubs/", {"name": "Riverside"})
    assert "already a club called" in refused(
        dora.post("/api/clubs/", {"name": "riverside"}), 409, "club_exists"
    )
    assert Club.objects.count() == 1


def test_a_change_needs_an_account(client, dora):
    body = {"name": "Riverside"}
    refused(client.post("/api/clubs/", body, content_type="application/json"), 401, "unauthorized")
    refused(dora.post("/api/clubs/", body, token="not-a-token"), 401, "unauthorized")
    assert not Club.objects.exists()


def test_a_session_needs_its_csrf_token():
    account("dora")
    browser = Client(enforce_csrf_checks=True)
    assert browser.login(username="dora", password=PASSWORD)
    body = {"name": "Riverside"}
    refused(browser.post("/api/clubs/", body, content_type="application/json"), 403, "csrf_failed")
    browser.get("/clubs/new")  # a page with a form sets the CSRF cookie
    csrf = browser.cookies["csrftoken"].value
    sent = browser.post("/api/clubs/", body, content_type="application/json", HTTP_X_CSRFTOKEN=csrf)
    assert sent.status_code == 201


def test_the_account_token_command_prints_a_token_that_opens_the_account(client):
    account("dora")
    out = StringIO()
    call_command("account", "token", "dora", stdout=out)
    token = out.getvalue().strip()
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    sent = client.post("/api/clubs/", {"name": "Riverside"}, content_type="application/json", **auth)  # fmt: skip
    assert sent.status_code == 201


def test_an_event_is_made_and_listed(dora):
    number = event(dora, bye_spread=40, gibson={"on": False, "spread": 400, "prize_places": 2})
    listed = dora.get("/api/clubs/riverside/tournaments/").json()
    assert listed == [
        {"id": number, "name": "Friday", "date": listed[0]["date"], "ruleset": "upwords-10",
         "lexicon": "CLUB", "challenge_mode": "auto", "rounds": 2, "rounds_paired": 0,
         "players": 4, "rejected_challenge": "", "clock": None}
    ]  # fmt: skip
    made = Tournament.objects.get()
    assert (made.bye_spread, made.gibson, made.gibson_spread, made.prize_places) == (
        40,
        False,
        400,
        2,
    )


def test_only_a_director_makes_an_event_or_pairs_a_round(client, dora):
    number = event(dora)
    eve = Director(client, "eve")
    body = {"name": "Mine", "ruleset": "upwords-10", "rounds": 2, "players": PLAYERS}
    refused(eve.post("/api/clubs/riverside/tournaments/", body), 403, "not_director")
    refused(
        eve.post(f"/api/tournaments/{number}/rounds/", {"method": "swiss"}), 403, "not_director"
    )
    assert Tournament.objects.count() == 1 and not Game.objects.exists()


def test_pairing_a_round_answers_each_table_and_its_game(dora):
    number = event(dora)
    paired = dora.post(f"/api/tournaments/{number}/rounds/", {"method": "swiss"})
    assert paired.status_code == 201
    body = paired.json()
    assert (body["round"], body["method"], body["byes"]) == (1, "swiss", [])
    # Swiss round 1 by rating, the top half against the bottom half; seats by the draw.
    assert [(p["table"], {p["first"], p["second"]}) for p in body["pairings"]] == [
        (1, {"Ann Archer", "Cy Cole"}),
        (2, {"Ben Baker", "Di Dunn"}),
    ]
    for pairing in body["pairings"]:
        game = Game.objects.get(pk=pairing["game"]["id"])
        assert game.token == pairing["game"]["token"]
        assert [s.player.name for s in game.seats.order_by("order")] == [
            pairing["first"], pairing["second"]
        ]  # fmt: skip


def test_a_round_paired_twice_or_a_self_pairing_is_refused(dora):
    number = event(dora)
    dora.post(f"/api/tournaments/{number}/rounds/", {"method": "swiss"})
    refused(dora.post(f"/api/tournaments/{number}/rounds/", {"method": "swiss", "round": 1}),
            409, "paired_twice")  # fmt: skip
    manual = {"method": "manual", "pairings": [["Ann Archer", "Ann Archer"], ["Cy Cole", "Di Dunn"]]}  # fmt: skip
    refused(dora.post(f"/api/tournaments/{number}/rounds/", manual), 422, "self_pairing")
    assert Game.objects.count() == 2


def test_a_game_played_through_the_games_api_lands_in_the_standings(dora, client):
    number = event(dora)
    manual = {"method": "manual", "pairings": [["Ann Archer", "Ben Baker"], ["Cy Cole", "Di Dunn"]]}  # fmt: skip
    table = dora.post(f"/api/tournaments/{number}/rounds/", manual).json()["pairings"][0]
    auth = {"HTTP_AUTHORIZATION": f"Bearer {table['game']['token']}"}
    path = f"/api/games/{table['game']['id']}/turns/"
    for body in [
        {"action": "play", "tiles": tiles(HASBRO[0][0])},
        {"action": "play", "tiles": tiles(HASBRO[1][0])},
        {"action": "play", "tiles": tiles(HASBRO[2][0])},  # the first seat: 8 + 10
        {"action": "finish"},
    ]:
        sent = client.post(path, body, content_type="application/json", **auth)
        assert sent.status_code == 201, sent.content
    rows = client.get(f"/api/tournaments/{number}/standings").json()
    winner = table["first"]  # seated first by the draw, and two plays of 8 and 10 against 8
    ratings = {"Ann Archer": 1700, "Ben Baker": 1600}
    assert rows[0] == {"rank": "1", "name": winner, "wins": 1.0, "losses": 0.0,
                       "spread": 10, "gibsonized": False, "rating_before": ratings[winner],
                       "rating_change": rows[0]["rating_change"]}  # fmt: skip
    assert [row["rank"] for row in rows] == ["1", "2=", "2=", "4"]


def test_a_typed_in_result_is_entered_once(dora, client):
    number = event(dora)
    manual = {"method": "manual", "pairings": [["Ann Archer", "Ben Baker"], ["Cy Cole", "Di Dunn"]]}  # fmt: skip
    dora.post(f"/api/tournaments/{number}/rounds/", manual)
    result = {"round": 1, "player1": "ben baker", "score1": 412, "player2": "Ann Archer", "score2": 377}  # fmt: skip
    typed = dora.post(f"/api/tournaments/{number}/results/", result)
    assert typed.status_code == 201 and typed.json() == {
        "round": 1, "table": 1, "player1": "Ben Baker", "score1": 412,
        "player2": "Ann Archer", "score2": 377,
    }  # fmt: skip
    refused(dora.post(f"/api/tournaments/{number}/results/", result | {"score1": 500}), 409,
            "has_result")  # fmt: skip
    refused(dora.post(f"/api/tournaments/{number}/results/", result | {"player2": "Ben Baker"}),
            422, "self_pairing")  # fmt: skip
    rows = client.get(f"/api/tournaments/{number}/standings").json()
    assert (rows[0]["name"], rows[0]["spread"]) == ("Ben Baker", 35)


def test_the_t_file_is_at_the_events_address(dora, client):
    number = event(dora)
    manual = {"method": "manual", "pairings": [["Ann Archer", "Ben Baker"], ["Cy Cole", "Di Dunn"]]}  # fmt: skip
    dora.post(f"/api/tournaments/{number}/rounds/", manual)
    dora.post(f"/api/tournaments/{number}/results/",
              {"round": 1, "player1": "Ann Archer", "score1": 412, "player2": "Ben Baker", "score2": 377})  # fmt: skip
    moved = client.get(f"/api/tournaments/{number}/export.t")
    assert moved.status_code == 308 and moved["Location"] == f"/tournaments/{number}/export.t"
    text = client.get(moved["Location"]).content.decode()
    assert text.splitlines()[0].split()[:5] == ["Archer,", "Ann", "1700", "2;", "412;"]


def test_an_unknown_event_is_a_404(client):
    refused(client.get("/api/tournaments/999/standings"), 404, "not_found")


def test_a_forfeit_and_a_result_sent_with_a_token_name_the_director_in_the_games_log(dora):
    tournament = event(dora)
    paired = dora.post(f"/api/tournaments/{tournament}/rounds/", {"method": "swiss"}).json()
    one, two = paired["pairings"]
    forfeit = {"round": 1, "absent": one["first"]}
    assert dora.post(f"/api/tournaments/{tournament}/forfeits/", forfeit).status_code == 201
    result = {"round": 1, "player1": two["first"], "score1": 400, "player2": two["second"],
              "score2": 350}  # fmt: skip
    assert dora.post(f"/api/tournaments/{tournament}/results/", result).status_code == 201
    for table in (one, two):
        game = Game.objects.get(pk=table["game"]["id"])
        assert game.status == "abandoned"
        assert game.turns.order_by("number").last().entered_by == "dora"
