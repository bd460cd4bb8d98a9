"""The API of a director's hand in a running event: players in divisions and each
division's standings, a round taken back or swapped, a player marked absent."""

from __future__ import annotations

import pytest

from scorekeeper.api.accounts import new_account_token
from scorekeeper.models import Game
from tests.factories import PASSWORD, account
from tests.scorekeeper.club_events import FOUR, SEVEN

pytestmark = pytest.mark.django_db


@pytest.fixture
def bearer(client):
    token = new_account_token(account("dora"))
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


def api_post(client, bearer, path, body):
    return client.post(path, body, content_type="application/json", **bearer)


def test_the_api_enters_players_in_divisions_and_answers_each_divisions_standings(client, bearer):
    assert api_post(client, bearer, "/api/clubs/", {"name": "Riverside"}).status_code == 201
    players = [{"name": e.name, "rating": e.rating, "division": e.division} for e in SEVEN]
    body = {"name": "Friday", "ruleset": "upwords-10", "lexicon": "CLUB", "rounds": 3,
            "players": players}  # fmt: skip
    number = api_post(client, bearer, "/api/clubs/riverside/tournaments/", body).json()["id"]
    paired = api_post(client, bearer, f"/api/tournaments/{number}/rounds/", {"method": "swiss"})
    assert paired.status_code == 201 and paired.json()["byes"] == ["Gus Gray"]
    assert [table["table"] for table in paired.json()["pairings"]] == [1, 2, 3]
    rows = client.get(f"/api/tournaments/{number}/standings?division=B").json()
    assert [row["name"] for row in rows] == ["Gus Gray", "Ed Eng", "Flo Fox"]
    assert rows[0]["rank"] == "1" and rows[0]["spread"] == 50
    unnamed = client.get(f"/api/tournaments/{number}/standings")
    assert unnamed.status_code == 400
    assert unnamed.json()["error"]["message"] == "Friday has divisions: name one (A or B)."
    moved = client.get(f"/api/tournaments/{number}/export.t?division=B")
    assert moved["Location"] == f"/tournaments/{number}/export.t?division=B"
    assert client.get(moved["Location"]).content.decode().count("\n") == 3


def test_the_api_takes_a_round_back_and_swaps_refusing_once_begun(client, bearer):
    assert api_post(client, bearer, "/api/clubs/", {"name": "Riverside"}).status_code == 201
    players = [{"name": e.name, "rating": e.rating} for e in FOUR]
    body = {"name": "Friday", "ruleset": "upwords-10", "lexicon": "CLUB", "rounds": 3,
            "players": players}  # fmt: skip
    number = api_post(client, bearer, "/api/clubs/riverside/tournaments/", body).json()["id"]
    rounds = f"/api/tournaments/{number}/rounds/"
    assert api_post(client, bearer, rounds, {"method": "swiss"}).status_code == 201
    assert client.delete(f"{rounds}1").status_code == 401  # a change is a director's
    taken = client.delete(f"{rounds}1", **bearer)
    assert taken.status_code == 200 and taken.json() == {"round": 1, "games_removed": 2}
    paired = api_post(client, bearer, rounds, {"method": "swiss"}).json()
    swapped = api_post(client, bearer, f"{rounds}1/swap", {"players": ["Cy Cole", "Di Dunn"]})
    assert swapped.status_code == 200, swapped.content
    tables = {frozenset((t["first"], t["second"])) for t in swapped.json()["pairings"]}
    assert frozenset(("Ann Archer", "Di Dunn")) in tables
    game = swapped.json()["pairings"][0]["game"]
    turn = api_post(client, {"HTTP_AUTHORIZATION": f"Bearer {game['token']}"},
                    f"/api/games/{game['id']}/turns/", {"action": "pass"})  # fmt: skip
    assert turn.status_code == 201, turn.content
    refused = client.delete(f"{rounds}1", **bearer)
    assert refused.status_code == 409 and "has begun" in refused.json()["error"]["message"]
    assert paired["round"] == 1 and Game.objects.count() == 2


def test_the_api_and_the_page_mark_a_player_absent(client, bearer):
    assert api_post(client, bearer, "/api/clubs/", {"name": "Riverside"}).status_code == 201
    players = [{"name": e.name, "rating": e.rating} for e in FOUR]
    body = {"name": "Friday", "ruleset": "upwords-10", "lexicon": "CLUB", "rounds": 3,
            "players": players}  # fmt: skip
    number = api_post(client, bearer, "/api/clubs/riverside/tournaments/", body).json()["id"]
    api_post(client, bearer, f"/api/tournaments/{number}/rounds/", {"method": "swiss"})
    forfeits = f"/api/tournaments/{number}/forfeits/"
    marked = api_post(client, bearer, forfeits, {"round": 1, "absent": "Di Dunn"})
    assert marked.status_code == 201, marked.content
    assert marked.json() == {"round": 1, "table": 2, "absent": "Di Dunn", "present": "Ben Baker",
                             "spread": 50}  # fmt: skip
    again = api_post(client, bearer, forfeits, {"round": 1, "absent": "Ben Baker"})
    assert again.status_code == 409 and again.json()["error"]["code"] == "has_result"
    rows = client.get(f"/api/tournaments/{number}/standings").json()
    assert (rows[0]["name"], rows[0]["spread"]) == ("Ben Baker", 50)

    client.login(username="dora", password=PASSWORD)
    page = client.get(f"/tournaments/{number}/direct").content.decode()
    assert "Absent in round 1" in page and "<option>Cy Cole</option>" in page
    assert "<option>Di Dunn</option>" not in page  # has its result
    client.post(f"/tournaments/{number}/forfeit", {"round": "1", "absent": "Cy Cole"})
    rows = client.get(f"/api/tournaments/{number}/standings").json()
    assert (rows[0]["name"], rows[0]["spread"]) == ("Ann Archer", 50)
    assert "forfeit: Cy Cole absent" in client.get(f"/tournaments/{number}/direct").content.decode()
