"""The limits as docs/security.md states them, at every door: the API's clubs count with the
form's; the games a round makes count toward a limit of games; and the director's costly
actions (pairing, late entries, making an event) each have a bucket of their own, refused with
a sentence and Retry-After."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from scorekeeper.api.accounts import new_account_token
from scorekeeper.events.entries import Entry, do_create_tournament
from scorekeeper.http.links import cookie_name
from scorekeeper.models import Club, Game, Tournament, TournamentRound
from tests.factories import ApiGame, account, make_club

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Ben", "Cy", "Di"]
RULES = {"name": "Friday", "ruleset": "upwords-10", "lexicon": "CLUB", "rounds": 3}


@pytest.fixture(autouse=True)
def words(use_words):
    use_words("MOOD DEAR")


@pytest.fixture
def dora(client: Client) -> dict[str, Any]:
    """Dora directs Riverside (Ann, Ben, Cy, Di), signed in, with a token for the API."""
    user = account("dora")
    club = make_club(directors=[user], roster=NAMES)
    client.force_login(user)
    return {"user": user, "club": club, "token": new_account_token(user)}


def api(client: Client, token: str, path: str, body: dict[str, Any]) -> Any:
    return client.post(path, json.dumps(body), content_type="application/json",
                       HTTP_AUTHORIZATION=f"Bearer {token}")  # fmt: skip


def event(club: Club) -> Tournament:
    return do_create_tournament(club, players=[Entry(n) for n in NAMES], **RULES)


def rate_limited(response: Any) -> str:
    assert response.status_code == 429, response.content
    assert int(response["Retry-After"]) > 0
    error = response.json()["error"]
    assert error["code"] == "rate_limited"
    return str(error["message"])


def test_clubs_made_through_the_api_count_with_the_forms(client, settings):
    settings.RATE_LIMIT_ACCOUNTS = 2
    token = new_account_token(account("ann"))
    client.force_login(account("ben"))
    assert client.post("/clubs/new", {"name": "Riverside"}).status_code == 302
    assert api(client, token, "/api/clubs/", {"name": "Hilltop"}).status_code == 201
    said = rate_limited(api(client, token, "/api/clubs/", {"name": "Lakeside"}))
    assert said.startswith("Too many new clubs and accounts from this device: at most 2 an hour.")
    assert sorted(Club.objects.values_list("slug", flat=True)) == ["hilltop", "riverside"]


def test_the_games_a_round_makes_count_toward_a_limit_of_games(client, dora, settings):
    settings.RATE_LIMIT_PAIRED_GAMES = 2
    number = event(dora["club"]).pk
    first = api(client, dora["token"], f"/api/tournaments/{number}/rounds/", {"method": "swiss"})
    assert first.status_code == 201 and Game.objects.count() == 2
    done = api(client, dora["token"], f"/api/tournaments/{number}/rounds/", {"method": "swiss"})
    said = rate_limited(done)
    assert said.startswith("Too many games made by pairing from this device: at most 2 an hour.")
    assert Game.objects.count() == 2 and TournamentRound.objects.count() == 1
    # From the director's page: the same refusal, said on the page, and nothing paired.
    response = client.post(
        f"/tournaments/{number}/pair", {"round": 2, "method": "swiss", "confirm": "1"}, follow=True
    )
    assert "Too many games made by pairing" in response.content.decode()
    assert TournamentRound.objects.count() == 1


def test_pairing_has_a_bucket_of_its_own(client, dora, settings):
    settings.RATE_LIMIT_PAIRINGS = 1
    settings.RATE_LIMIT_ENTRIES = 1
    first, second = event(dora["club"]).pk, event(dora["club"]).pk
    paired = api(client, dora["token"], f"/api/tournaments/{first}/rounds/", {"method": "swiss"})
    assert paired.status_code == 201
    page = client.post(f"/tournaments/{second}/pair", {"method": "swiss"})
    assert page.status_code == 429 and int(page["Retry-After"]) > 0
    said = "Too many rounds paired from this device: at most 1 a minute."
    assert said in page.content.decode()
    assert TournamentRound.objects.count() == 1
    # Late entries are counted apart: still open.
    late = api(client, dora["token"], f"/api/tournaments/{second}/players/",
               {"players": [{"name": "Eve"}]})  # fmt: skip
    assert late.status_code == 201, late.content


def test_late_entries_have_a_bucket_of_their_own(client, dora, settings):
    settings.RATE_LIMIT_ENTRIES = 1
    number = event(dora["club"]).pk
    late = api(client, dora["token"], f"/api/tournaments/{number}/players/",
               {"players": [{"name": "Eve"}]})  # fmt: skip
    assert late.status_code == 201
    page = client.post(f"/tournaments/{number}/add", {"players": "Fay"})
    assert page.status_code == 429 and page["Retry-After"]
    assert "Too many late entries from this device" in page.content.decode()
    assert Tournament.objects.get(pk=number).entrants.count() == 5


def test_making_events_has_a_bucket_of_its_own(client, dora, settings):
    settings.RATE_LIMIT_EVENTS = 2
    players = [{"name": n} for n in NAMES]
    made = api(client, dora["token"], "/api/clubs/riverside/tournaments/",
               {**RULES, "players": players})  # fmt: skip
    assert made.status_code == 201
    t_file = "Ann 1500 2; 400\nBen 1500 1; 300\n"
    imported = api(client, dora["token"], "/api/clubs/riverside/tournaments/import",
                   {**RULES, "t_file": t_file})  # fmt: skip
    assert imported.status_code == 201, imported.content
    form = {**RULES, "challenge_mode": "auto", "bye_spread": "50", "players": "Ann\nBen\n"}
    page = client.post("/clubs/riverside/tournaments/new", form)
    assert (
        page.status_code == 429 and "Too many new events from this device" in page.content.decode()
    )
    assert Tournament.objects.count() == 2


# A venue's network: many tables behind one address -----------------------------------------
def test_tables_behind_one_address_each_have_their_turns(client, settings):
    """Every table at a venue reaches the server from the same address: each scorer's turns
    are counted for its game, so one busy table doesn't lock the others out."""
    settings.RATE_LIMIT_TURNS = 2
    tables = [ApiGame(client) for _ in range(3)]
    for game in tables:
        assert [game.turn({"action": "pass"}).status_code for _ in range(2)] == [201, 201]
    said = rate_limited(tables[0].turn({"action": "pass"}))
    assert said.startswith("Too many turns from this device: at most 2 a minute.")
    # The scorer page (its cookie, or its link's secret) counts with its game the same way.
    page = Client()
    for game in tables[1:]:
        page.cookies[cookie_name(game.id)] = game.token
    statuses = [
        page.post(
            f"/games/{game.id}/score/turn", {"action": "pass", "expected_turn": "3"}
        ).status_code
        for game in tables[1:]
    ]
    assert statuses == [429, 429]  # each table's own two were spent through the API
    fresh = ApiGame(client)
    link = f"/games/{fresh.id}/score/{fresh.token}/turn"
    assert page.post(link, {"action": "pass", "expected_turn": "1"}).status_code == 302


def test_requests_without_a_games_secret_share_their_addresss_bucket(client, settings):
    """A flood that names games with made-up secrets is counted by its address, however many
    games and secrets it names: each refused secret counts against the address, and past its
    limit the address is refused until the window ends, scorers included (nothing is read to
    tell a good secret from a made-up one before the turn itself). Another address's tables
    go on."""
    settings.RATE_LIMIT_TURNS = 2
    games = [ApiGame(client) for _ in range(3)]
    forged = [game.turn({"action": "pass"}, token=f"made-up-{n}").status_code
              for n, game in enumerate(games)]  # fmt: skip
    assert forged == [403, 403, 429]
    said = rate_limited(games[0].turn({"action": "pass"}))
    assert said.startswith("Too many turns from this device")
    elsewhere = Client(REMOTE_ADDR="10.1.2.3")
    answers = [
        elsewhere.post(f"/api/games/{game.id}/turns/", {"action": "pass"},
                       content_type="application/json",
                       HTTP_AUTHORIZATION=f"Bearer {game.token}").status_code
        for game in games
    ]  # fmt: skip
    assert answers == [201, 201, 201]


def test_an_address_tables_share_has_room_for_each_of_them(client, settings):
    settings.RATE_LIMIT_ACCOUNTS = 1
    settings.SHARED_ADDRESSES = "127.0.0.1=3"
    token = new_account_token(account("ann"))
    made = [api(client, token, "/api/clubs/", {"name": f"Club {n}"}).status_code for n in "abcd"]
    assert made == [201, 201, 201, 429]
    said = rate_limited(api(client, token, "/api/clubs/", {"name": "Club z"}))
    assert said.startswith("Too many new clubs and accounts from this device: at most 3 an hour.")
    settings.SHARED_ADDRESSES = "10.9.8.0/24=40"  # another network's: this address is its own
    assert api(client, token, "/api/clubs/", {"name": "Club e"}).status_code == 429
