"""The API of a director's hand in a running event: players in divisions and each
division's standings, a round taken back or swapped, a player marked absent."""

from __future__ import annotations

import pytest

from scorekeeper.api.accounts import new_account_token
from scorekeeper.models import Entrant, Game
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


def friday(client, bearer, players, rounds=3) -> int:
    assert api_post(client, bearer, "/api/clubs/", {"name": "Riverside"}).status_code == 201
    body = {"name": "Friday", "ruleset": "upwords-10", "lexicon": "CLUB", "rounds": rounds,
            "players": players}  # fmt: skip
    made = api_post(client, bearer, "/api/clubs/riverside/tournaments/", body)
    assert made.status_code == 201, made.content
    return made.json()["id"]


def refused(response, status: int, code: str) -> str:
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert error["code"] == code and error["message"].endswith(".")
    return error["message"]


def test_the_api_enters_players_late_each_earlier_round_a_forfeit_loss(client, bearer):
    number = friday(client, bearer, [{"name": e.name, "rating": e.rating} for e in FOUR], 2)
    late = f"/api/tournaments/{number}/players/"
    manual = {"method": "manual", "pairings": [["Ann Archer", "Ben Baker"], ["Cy Cole", "Di Dunn"]]}  # fmt: skip
    api_post(client, bearer, f"/api/tournaments/{number}/rounds/", manual)
    eve = {"HTTP_AUTHORIZATION": f"Bearer {new_account_token(account('eve'))}"}
    entry = {"name": "Eve  Evans", "rating": 1550, "career_games": 40}
    refused(api_post(client, eve, late, {"players": [entry]}), 403, "not_director")
    taken = api_post(client, bearer, late, {"players": [entry, {"name": "ann archer"}]})
    assert refused(taken, 400, "duplicate_player") == "ann archer is entered already."
    refused(api_post(client, bearer, late, {"players": []}), 400, "bad_request")
    refused(api_post(client, bearer, late, {"players": [entry | {"rating": -1}]}), 400,
            "bad_request")  # fmt: skip
    refused(api_post(client, bearer, late, {"player": [entry]}), 400, "bad_request")
    assert Entrant.objects.count() == 4  # each refusal changed nothing

    made = api_post(client, bearer, late, {"players": [entry]})
    assert made.status_code == 201, made.content
    assert made.json() == [{"name": "Eve Evans", "rating": 1550, "career_games": 40,
                            "division": "", "joined_round": 2, "active": True}]  # fmt: skip
    api_post(client, bearer, f"/api/tournaments/{number}/results/",
             {"round": 1, "player1": "Ann Archer", "score1": 400, "player2": "Ben Baker",
              "score2": 300})  # fmt: skip
    rows = {row["name"]: row for row in client.get(f"/api/tournaments/{number}/standings").json()}
    assert (rows["Eve Evans"]["losses"], rows["Eve Evans"]["spread"]) == (1.0, -50)
    paired = api_post(client, bearer, f"/api/tournaments/{number}/rounds/", {"method": "swiss"})
    seated = [n for t in paired.json()["pairings"] for n in (t["first"], t["second"])]
    assert sorted(seated + paired.json()["byes"]) == sorted([*rows])  # Eve plays round 2
    message = refused(api_post(client, bearer, late, {"players": [{"name": "Flo"}]}), 422,
                      "all_paired")  # fmt: skip
    assert message == "Every round of Friday is paired: nobody can join now."


def test_a_late_entry_names_one_of_the_events_divisions(client, bearer):
    players = [{"name": e.name, "rating": e.rating, "division": e.division} for e in SEVEN]
    number = friday(client, bearer, players)
    late = f"/api/tournaments/{number}/players/"
    unknown = api_post(client, bearer, late, {"players": [{"name": "Hal Hunt", "division": "C"}]})
    assert refused(unknown, 400, "unknown_division") == "Friday has no division C (A or B)."
    unnamed = api_post(client, bearer, late, {"players": [{"name": "Hal Hunt"}]})
    assert refused(unnamed, 400, "which_division") == "Name each player's division: A or B."
    made = api_post(client, bearer, late, {"players": [{"name": "Hal Hunt", "division": "b"}]})
    assert made.status_code == 201 and made.json()[0]["division"] == "B"
    assert made.json()[0]["joined_round"] == 1  # no round paired yet: an entry like any
    rows = client.get(f"/api/tournaments/{number}/standings?division=B").json()
    assert "Hal Hunt" in [row["name"] for row in rows]


def test_the_api_withdraws_a_player_their_open_game_a_forfeit_win(client, bearer):
    number = friday(client, bearer, [{"name": e.name, "rating": e.rating} for e in FOUR])
    withdrawals = f"/api/tournaments/{number}/withdrawals/"
    manual = {"method": "manual", "pairings": [["Ann Archer", "Ben Baker"], ["Cy Cole", "Di Dunn"]]}  # fmt: skip
    tables = api_post(client, bearer, f"/api/tournaments/{number}/rounds/", manual).json()
    api_post(client, bearer, f"/api/tournaments/{number}/results/",
             {"round": 1, "player1": "Ann Archer", "score1": 400, "player2": "Ben Baker",
              "score2": 300})  # fmt: skip
    eve = {"HTTP_AUTHORIZATION": f"Bearer {new_account_token(account('eve'))}"}
    refused(api_post(client, eve, withdrawals, {"name": "Cy Cole"}), 403, "not_director")
    unknown = api_post(client, bearer, withdrawals, {"name": "Zed"})
    assert refused(unknown, 400, "unknown_player") == "Zed is not entered in Friday."
    refused(api_post(client, bearer, withdrawals, {"who": "Cy Cole"}), 400, "bad_request")
    assert Entrant.objects.filter(active=False).count() == 0

    gone = api_post(client, bearer, withdrawals, {"name": "cy cole"})
    assert gone.status_code == 201, gone.content
    assert gone.json() == {"name": "Cy Cole", "from_round": 2, "forfeits": [
        {"round": 1, "table": 2, "absent": "Cy Cole", "present": "Di Dunn", "spread": 50}
    ]}  # fmt: skip
    open_game = Game.objects.get(pk=tables["pairings"][1]["game"]["id"])
    assert open_game.status == Game.Status.ABANDONED
    assert open_game.turns.order_by("number").last().entered_by == "dora"  # the token's account
    again = api_post(client, bearer, withdrawals, {"name": "Cy Cole"})
    assert refused(again, 409, "withdrawn") == "Cy Cole has withdrawn already."
    rows = client.get(f"/api/tournaments/{number}/standings").json()
    assert [(r["name"], r["spread"]) for r in rows] == [
        ("Ann Archer", 100), ("Di Dunn", 50), ("Cy Cole", -50), ("Ben Baker", -100)
    ]  # fmt: skip
    paired = api_post(client, bearer, f"/api/tournaments/{number}/rounds/", {"method": "swiss"})
    seated = [n for t in paired.json()["pairings"] for n in (t["first"], t["second"])]
    assert sorted(seated + paired.json()["byes"]) == ["Ann Archer", "Ben Baker", "Di Dunn"]
