"""An event's game rules (its challenge rule and clock, given or the club's usual ones) reach
every paired game; its standings as a CSV file; an event started from a ``.t`` file through
the API, a bad file refused with a sentence and nothing made."""

from __future__ import annotations

import csv
import io

import pytest

from scorekeeper.api.accounts import new_account_token
from scorekeeper.models import Club, Game, Tournament
from tests.factories import account

pytestmark = pytest.mark.django_db

PLAYERS = [{"name": "Ann Archer", "rating": 1700}, {"name": "Ben Baker", "rating": 1600},
           {"name": "Cy Cole", "rating": 1500}, {"name": "Di Dunn"}]  # fmt: skip
# Two rounds of four: Ann beat Ben 400-350 and Cy beat Di 390-360, then Ann beat Cy 410-380
# and Di beat Ben 330-300.
T_FILE = """\
Archer, Ann   1700 2 3; 400 410
Baker, Ben    1600 1 4; 350 300
Cole, Cy      1500 4 1; 390 380
Dunn, Di      0    3 2; 360 330
"""


@pytest.fixture
def token(client) -> str:
    """Dora's token; dora directs Riverside."""
    made = new_account_token(account("dora"))
    auth = {"HTTP_AUTHORIZATION": f"Bearer {made}"}
    sent = client.post("/api/clubs/", {"name": "Riverside"}, content_type="application/json", **auth)  # fmt: skip
    assert sent.status_code == 201
    return made


def post(client, token: str, path: str, body: dict):
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    return client.post(path, body, content_type="application/json", **auth)


def refused(response, status: int, code: str) -> str:
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert error["code"] == code and error["message"].endswith(".")
    return error["message"]


def test_the_event_s_clock_and_challenge_rule_reach_each_paired_game(client, token):
    body = {"name": "Friday", "ruleset": "crossword-classic", "lexicon": "CLUB", "rounds": 2,
            "players": PLAYERS, "clock": {"kind": "player", "minutes": 20},
            "rejected_challenge": "bonus_10"}  # fmt: skip
    made = post(client, token, "/api/clubs/riverside/tournaments/", body)
    assert made.status_code == 201, made.content
    described = made.json()
    assert described["rejected_challenge"] == "bonus_10"
    assert described["clock"] == {"kind": "player", "minutes": 20, "overtime_penalty": 10,
                                  "max_overtime_minutes": 10, "over_max": "capped"}  # fmt: skip
    paired = post(client, token, f"/api/tournaments/{described['id']}/rounds/", {"method": "swiss"})
    assert paired.status_code == 201
    games = Game.objects.all()
    assert games.count() == 2
    for game in games:
        assert game.clock is not None and game.clock["rule"] == described["clock"]
        assert game.options["rejected_challenge"] == "bonus_10"
        assert game.clock["readings"] == [20 * 60_000, 20 * 60_000]


def test_an_event_left_to_the_club_s_usual_rules_takes_them(client, token):
    Club.objects.filter(slug="riverside").update(
        default_ruleset="upwords-10", default_lexicon="CLUB", default_challenge_mode="manual",
        default_clock={"kind": "turn", "seconds": 60},
    )  # fmt: skip
    body = {"name": "Friday", "rounds": 1, "players": PLAYERS}
    made = post(client, token, "/api/clubs/riverside/tournaments/", body).json()
    assert (made["ruleset"], made["lexicon"], made["challenge_mode"]) == ("upwords-10", "CLUB", "manual")  # fmt: skip
    assert made["clock"] == {"kind": "turn", "seconds": 60}
    # A clock given as null is no clock, whatever the club's usual one.
    body = {"name": "Saturday", "rounds": 1, "players": PLAYERS, "clock": None}
    assert post(client, token, "/api/clubs/riverside/tournaments/", body).json()["clock"] is None
    Club.objects.filter(slug="riverside").update(default_ruleset="")
    message = refused(post(client, token, "/api/clubs/riverside/tournaments/", body), 422, "no_ruleset")  # fmt: skip
    assert message == "Give the ruleset: Riverside keeps no usual game."
    bad_clock = {**body, "ruleset": "upwords-10", "clock": {"kind": "player", "minutes": 0}}
    refused(post(client, token, "/api/clubs/riverside/tournaments/", bad_clock), 400, "clock_shape")  # fmt: skip
    assert Tournament.objects.count() == 2


def test_the_standings_csv_is_one_line_a_player_in_order(client, token):
    made = post(client, token, "/api/clubs/riverside/tournaments/import",
                {"name": "Friday", "ruleset": "upwords-10", "lexicon": "CLUB", "rounds": 3,
                 "t_file": T_FILE.replace("Cole, Cy", "Cole, =Cy")})  # fmt: skip
    number = made.json()["id"]
    pointed = client.get(f"/api/tournaments/{number}/standings.csv")
    assert pointed.status_code == 308
    assert pointed["Location"] == f"/tournaments/{number}/standings.csv"
    response = client.get(pointed["Location"])
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert f'filename="standings-{number}.csv"' in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["rank", "name", "wins", "losses", "spread", "games", "gibsonized",
                       "rating_before", "rating_after", "rating_change", "withdrawn"]  # fmt: skip
    # Ann +50 +30; Cy (a name a spreadsheet would take for a formula) +30 -30 and Di -30 +30,
    # level on wins, losses and spread; Ben -50 -30.
    assert [row[:7] for row in rows[1:]] == [
        ["1", "Ann Archer", "2", "0", "80", "2", "no"],
        ["2=", "'=Cy Cole", "1", "1", "0", "2", "no"],
        ["2=", "Di Dunn", "1", "1", "0", "2", "no"],
        ["4", "Ben Baker", "0", "2", "-80", "2", "no"],
    ]
    api_rows = client.get(f"/api/tournaments/{number}/standings").json()
    assert [[r[4], r[7], r[9]] for r in rows[1:]] == [
        [str(r["spread"]), str(r["rating_before"]), str(r["rating_change"])] for r in api_rows
    ]
    page = client.get(f"/tournaments/{number}/").content.decode()
    assert f'href="/tournaments/{number}/standings.csv"' in page


def test_an_event_starts_from_a_t_file_through_the_api(client, token):
    body = {"name": "Friday", "ruleset": "upwords-10", "lexicon": "CLUB", "rounds": 4, "t_file": T_FILE}  # fmt: skip
    made = post(client, token, "/api/clubs/riverside/tournaments/import", body)
    assert made.status_code == 201, made.content
    described = made.json()
    assert (described["players"], described["rounds_paired"], described["rounds"]) == (4, 2, 4)
    number = described["id"]
    exported = client.get(f"/tournaments/{number}/export.t").content.decode()
    assert [line.split() for line in exported.splitlines()][0][:5] == [
        "Archer,",
        "Ann",
        "1700",
        "2",
        "3;",
    ]
    paired = post(client, token, f"/api/tournaments/{number}/rounds/", {"method": "swiss"})
    assert paired.status_code == 201 and paired.json()["round"] == 3


@pytest.mark.parametrize(
    ("t_file", "status", "code", "sentence"),
    [
        ("Archer, Ann 1700 2; 400\nBaker, Ben 1600 3; 350\n", 400, "one_sided",
         "Ann Archer played line 2 in round 1, but that line does not say so."),
        ("Archer, Ann 1700 9; 400\n", 400, "bad_opponent",
         "Ann Archer's opponent in round 1 is line 9, which is not in the file."),
        ("just some words\n", 400, "bad_line",
         "Line 1 is not 'Last, First rating opponents; scores': 'just some words'."),
        ("Archer, Ann 1700 2; 99999\nBaker, Ben 1600 1; 350\n", 400, "bad_score",
         "Round 1 has a score of 99999: a score is -1000 to 10000."),
        ("Archer, Ann 9000 2; 400\nBaker, Ben 1600 1; 350\n", 400, "bad_rating",
         "A rating is 0 (unrated) to 3000."),
        ("# nobody\n", 400, "no_players", "Enter at least one player."),
    ],
)  # fmt: skip
def test_a_bad_t_file_is_refused_with_a_sentence_and_nothing_made(
    client, token, t_file, status, code, sentence
):
    body = {"name": "Friday", "ruleset": "upwords-10", "lexicon": "CLUB", "rounds": 3, "t_file": t_file}  # fmt: skip
    sent = post(client, token, "/api/clubs/riverside/tournaments/import", body)
    assert refused(sent, status, code) == sentence
    assert not Tournament.objects.exists() and not Game.objects.exists()


def test_importing_needs_a_director_and_enough_rounds(client, token):
    body = {"name": "Friday", "ruleset": "upwords-10", "lexicon": "CLUB", "rounds": 1, "t_file": T_FILE}  # fmt: skip
    message = refused(post(client, token, "/api/clubs/riverside/tournaments/import", body), 400, "bad_rules")  # fmt: skip
    assert message == "The file has 2 rounds: the event needs as many."
    eve = new_account_token(account("eve"))
    refused(post(client, eve, "/api/clubs/riverside/tournaments/import", {**body, "rounds": 3}), 403, "not_director")  # fmt: skip
    assert not Tournament.objects.exists()


def test_initial_fontes_runs_the_odd_number_of_rounds_the_event_sets(client, token):
    six = [
        {"name": f"Player {letter}", "rating": 1500 + 10 * n} for n, letter in enumerate("ABCDEF")
    ]
    body = {"name": "Long", "ruleset": "crossword-classic", "lexicon": "CLUB", "rounds": 7,
            "players": six, "fontes_rounds": 5}  # fmt: skip
    made = post(client, token, "/api/clubs/riverside/tournaments/", body)
    assert made.status_code == 201, made.content
    number = made.json()["id"]
    assert Tournament.objects.get(pk=number).fontes_rounds == 5
    for _ in range(5):
        paired = post(client, token, f"/api/tournaments/{number}/rounds/", {"method": "fontes"})
        assert paired.status_code == 201, paired.content
    sixth = post(client, token, f"/api/tournaments/{number}/rounds/", {"method": "fontes"})
    assert "rounds 1 to 5" in refused(sixth, 422, "fontes_over")
    even = post(client, token, "/api/clubs/riverside/tournaments/", body | {"fontes_rounds": 4})
    assert "odd number" in refused(even, 400, "bad_rules")
