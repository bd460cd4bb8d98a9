"""Idempotency-Key: a retried or doubled API request, or scorer page turn, applies once and gets
the first answer."""

from __future__ import annotations

import logging
import threading

import pytest
from django.db import connection
from django.test import Client

from scorekeeper.game import domain
from scorekeeper.models import Game, Turn
from scorekeeper.web.scorer_link import cookie_name
from tests.factories import ApiGame

pytestmark = pytest.mark.django_db


def exchange(game: ApiGame, key: str, count: int = 1):
    return game.turn({"action": "exchange", "count": count}, HTTP_IDEMPOTENCY_KEY=key)


def test_the_same_key_again_returns_the_first_answer_and_applies_nothing(client):
    game = ApiGame(client)
    first = exchange(game, "retry-1")
    again = exchange(game, "retry-1")
    assert first.status_code == again.status_code == 201
    assert again.content == first.content and again["Idempotent-Replayed"] == "true"
    assert Turn.objects.filter(game_id=game.id).count() == 1
    assert exchange(game, "retry-2").status_code == 201  # a new key is a new request
    assert Turn.objects.filter(game_id=game.id).count() == 2


def test_a_refusal_is_the_first_answer_too(client):
    game = ApiGame(client)
    first = game.turn({"action": "challenge"}, HTTP_IDEMPOTENCY_KEY="k")
    assert first.status_code == 422
    assert game.turn({"action": "challenge"}, HTTP_IDEMPOTENCY_KEY="k").content == first.content


def test_the_same_key_for_another_request_is_refused(client):
    game = ApiGame(client)
    assert exchange(game, "k", 1).status_code == 201
    reused = game.turn({"action": "pass"}, HTTP_IDEMPOTENCY_KEY="k")
    assert reused.status_code == 422
    assert reused.json()["error"]["code"] == "idempotency_key_reused"
    assert Turn.objects.filter(game_id=game.id).count() == 1


def test_keys_are_per_game_token(client):
    one, two = ApiGame(client), ApiGame(client)
    assert exchange(one, "same").status_code == 201
    assert exchange(two, "same").status_code == 201
    assert Turn.objects.count() == 2


@pytest.mark.parametrize("key", ["", "with space", "x" * 256, "é"])
def test_a_malformed_key_is_refused(client, key):
    game = ApiGame(client)
    response = game.turn({"action": "pass"}, HTTP_IDEMPOTENCY_KEY=key)
    assert response.status_code == 400
    assert Game.objects.get(pk=game.id).turn_number == 0


@pytest.mark.django_db(transaction=True)
def test_ten_identical_requests_at_once_make_one_turn():
    game = ApiGame(Client())
    barrier = threading.Barrier(10)
    statuses: list[int] = []

    def send() -> None:
        try:
            client = Client()
            barrier.wait()
            statuses.append(
                client.post(
                    f"/api/games/{game.id}/turns/",
                    {"action": "exchange", "count": 1},
                    content_type="application/json",
                    HTTP_AUTHORIZATION=f"Bearer {game.token}",
                    HTTP_IDEMPOTENCY_KEY="once",
                ).status_code
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    # One applies; each twin gets the first answer or is asked to retry (409), never a turn.
    assert statuses.count(201) >= 1 and set(statuses) <= {201, 409}
    assert Turn.objects.filter(game_id=game.id).count() == 1


# A key belongs to its caller -------------------------------------------------------------------
GCG = "#player1 ann Ann\n#player2 bo Bo\n>ann: EHOSU? 8D HOUSE +16 16\n"
CREATE = {"ruleset": "upwords-10", "lexicon": "CLUB", "players": ["Ann", "Ben"]}
POSTS = [("/api/games/", CREATE), ("/api/games/import", {"gcg": GCG})]


def post(path: str, body: dict, key: str = "shared-key", client: Client | None = None, **meta):
    client = client or Client()
    return client.post(path, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key,
                       **meta)  # fmt: skip


def test_two_clients_with_the_same_key_and_body_get_two_games():
    first = post("/api/games/", CREATE, REMOTE_ADDR="192.0.2.1")
    second = post("/api/games/", CREATE, REMOTE_ADDR="192.0.2.2")
    assert first.status_code == second.status_code == 201
    assert "Idempotent-Replayed" not in second
    assert first.json()["id"] != second.json()["id"]
    assert first.json()["token"] != second.json()["token"]
    assert Game.objects.count() == 2


def test_two_clients_importing_one_record_with_the_same_key_get_a_game_and_a_refusal():
    # The second import is a request of its own: the record is here already, which it says.
    first = post("/api/games/import", {"gcg": GCG}, REMOTE_ADDR="192.0.2.1")
    second = post("/api/games/import", {"gcg": GCG}, REMOTE_ADDR="192.0.2.2")
    assert first.status_code == 201 and second.status_code == 409
    assert "Idempotent-Replayed" not in second
    assert first.json()["id"] in second.json()["error"]["message"]
    assert Game.objects.count() == 1


@pytest.mark.parametrize(("path", "body"), POSTS, ids=["create", "import"])
def test_the_same_client_with_the_same_key_gets_its_first_answer(path, body):
    first = post(path, body, REMOTE_ADDR="192.0.2.1")
    again = post(path, body, REMOTE_ADDR="192.0.2.1")
    assert first.status_code == again.status_code == 201
    assert again.content == first.content and again["Idempotent-Replayed"] == "true"
    assert Game.objects.count() == 1


@pytest.mark.parametrize("planted", [CREATE, {**CREATE, "players": ["Mallory", "Eve"]}],
                         ids=["same body", "other body"])  # fmt: skip
def test_a_planted_key_does_not_poison_the_victims_request(planted):
    attacker = post("/api/games/", planted, key="victim-will-use", REMOTE_ADDR="198.51.100.7")
    assert attacker.status_code == 201
    victim = post("/api/games/", CREATE, key="victim-will-use", REMOTE_ADDR="192.0.2.1")
    assert victim.status_code == 201, victim.content
    assert "Idempotent-Replayed" not in victim
    assert victim.json()["id"] != attacker.json()["id"]
    mine = Game.objects.get(pk=victim.json()["id"])
    assert [s.player.name for s in mine.seats.order_by("order")] == ["Ann", "Ben"]
    # The victim's own retry gets the victim's game, the attacker's its own.
    assert post("/api/games/", CREATE, key="victim-will-use", REMOTE_ADDR="192.0.2.1").content == (
        victim.content
    )
    assert post("/api/games/", planted, key="victim-will-use",
                REMOTE_ADDR="198.51.100.7").content == attacker.content  # fmt: skip


def test_the_same_caller_with_another_body_is_still_refused():
    assert post("/api/games/", CREATE, REMOTE_ADDR="192.0.2.1").status_code == 201
    other = post("/api/games/", {**CREATE, "players": ["Cy", "Di"]}, REMOTE_ADDR="192.0.2.1")
    assert other.status_code == 422
    assert other.json()["error"]["code"] == "idempotency_key_reused"
    assert Game.objects.count() == 1


def test_two_browsers_behind_one_address_are_two_callers():
    one, two = Client(), Client()
    one.cookies["csrftoken"], two.cookies["csrftoken"] = "a" * 32, "b" * 32
    first = post("/api/games/", CREATE, client=one, REMOTE_ADDR="192.0.2.1")
    second = post("/api/games/", CREATE, client=two, REMOTE_ADDR="192.0.2.1")
    assert first.status_code == second.status_code == 201
    assert first.json()["id"] != second.json()["id"]


def test_behind_a_trusted_proxy_the_forwarded_address_is_the_caller(settings):
    settings.TRUSTED_PROXIES = 1
    proxy = {"REMOTE_ADDR": "10.0.0.1"}
    first = post("/api/games/", CREATE, HTTP_X_FORWARDED_FOR="192.0.2.1", **proxy)
    second = post("/api/games/", CREATE, HTTP_X_FORWARDED_FOR="192.0.2.2", **proxy)
    again = post("/api/games/", CREATE, HTTP_X_FORWARDED_FOR="192.0.2.1", **proxy)
    assert first.json()["id"] != second.json()["id"]
    assert again.content == first.content and again["Idempotent-Replayed"] == "true"


def test_another_token_with_the_same_key_for_the_same_game_is_another_caller(client):
    game = ApiGame(client)
    assert exchange(game, "k").status_code == 201
    wrong = game.turn({"action": "exchange", "count": 1}, token="not-the-token",
                      HTTP_IDEMPOTENCY_KEY="k")  # fmt: skip
    assert wrong.status_code == 403 and "Idempotent-Replayed" not in wrong
    assert Turn.objects.filter(game_id=game.id).count() == 1


# An oversized body -----------------------------------------------------------------------------
@pytest.mark.parametrize("key", [None, "big-1"], ids=["without a key", "with a key"])
def test_an_oversized_body_is_a_json_413_with_or_without_a_key(client, settings, caplog, key):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    body = {**CREATE, "players": ["Ann", "x" * 5000]}
    with caplog.at_level(logging.WARNING):
        response = client.post("/api/games/", body, content_type="application/json", **headers)
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "too_large"
    assert "at most" in response.json()["error"]["message"]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert Game.objects.count() == 0


# The scorer page's turns -----------------------------------------------------------------------
# Its script sends each turn with a key and asks for JSON (static/js/offline.js): a turn kept
# while offline, or retried after a lost answer, is entered once and answered as the first time.
def scorer_game(client: Client) -> Game:
    game = domain.do_create_game(ruleset="upwords-10", players=["Ann", "Ben"], lexicon="CLUB")
    client.cookies[cookie_name(game.pk)] = game.token  # as opening the scorer link does
    return game


def send(client: Client, game: Game, key: str, data: dict | None = None, **meta):
    data = data or {"action": "play", "play": "5D MOOD", "expected_turn": "1"}
    return client.post(f"/games/{game.pk}/score/turn", data, HTTP_IDEMPOTENCY_KEY=key,
                       **meta)  # fmt: skip


def test_a_scorer_turn_sent_again_with_its_key_is_entered_once_with_the_first_answer(client):
    game = scorer_game(client)
    first = send(client, game, "turn-1", HTTP_ACCEPT="application/json")
    assert first.status_code == 200 and first.json()["entered"] is True
    assert first.json()["message"] == "Ann played 5D MOOD for 8 (MOOD 8)."
    # The answer was lost: the browser never stored its cookies (the message travels in one).
    client.cookies.pop("messages", None)
    again = send(client, game, "turn-1", HTTP_ACCEPT="application/json")
    assert again["Idempotent-Replayed"] == "true" and again.content == first.content
    assert again.cookies["messages"].value == first.cookies["messages"].value
    assert Turn.objects.filter(game_id=game.pk).count() == 1
    # The page it opens says what the first answer would have said.
    assert "Ann played 5D MOOD for 8" in client.get(first.json()["location"]).content.decode()


def test_a_scorer_turn_sent_as_a_form_with_a_key_replays_its_redirect(client):
    game = scorer_game(client)
    first = send(client, game, "form-1")
    again = send(client, game, "form-1")
    assert first.status_code == again.status_code == 302
    assert again["Location"] == first["Location"] == f"/games/{game.pk}/score/#board"
    assert again["Idempotent-Replayed"] == "true"
    assert Turn.objects.filter(game_id=game.pk).count() == 1


def test_a_refused_scorer_turn_is_refused_again_the_same_way(client):
    game = scorer_game(client)
    phony = {"action": "play", "play": "5D MOOX", "expected_turn": "1"}
    first = send(client, game, "phony", phony, HTTP_ACCEPT="application/json")
    assert first.json()["entered"] is False and "MOOX" in first.json()["message"]
    again = send(client, game, "phony", phony, HTTP_ACCEPT="application/json")
    assert again["Idempotent-Replayed"] == "true" and again.content == first.content
    assert Turn.objects.filter(game_id=game.pk).count() == 0


def test_the_same_key_for_another_scorer_turn_is_refused(client):
    game = scorer_game(client)
    assert send(client, game, "k").status_code == 302
    other = send(client, game, "k", {"action": "pass", "expected_turn": "2"})
    assert other.status_code == 422 and other.json()["error"]["code"] == "idempotency_key_reused"
    assert Turn.objects.filter(game_id=game.pk).count() == 1


def test_a_form_and_the_script_with_the_same_key_each_get_their_own_answer(client):
    game = scorer_game(client)
    assert send(client, game, "shared").status_code == 302
    # Not the form's stored redirect: JSON, for the turn already in (sent twice).
    theirs = send(client, game, "shared", HTTP_ACCEPT="application/json")
    assert "Idempotent-Replayed" not in theirs
    assert theirs.json() == {
        "entered": True,
        "message": "Ann played 5D MOOD for 8 (MOOD 8).",
        "location": f"/games/{game.pk}/score/#board",
    }
    assert Turn.objects.filter(game_id=game.pk).count() == 1


def test_a_browser_without_the_scorer_key_cannot_plant_an_answer_for_the_scorer(client):
    game = scorer_game(client)
    stranger = Client()  # the same address, no cookies: only the scorer's secret tells them apart
    assert send(stranger, game, "k").status_code == 403
    assert send(stranger, game, "k").status_code == 403
    mine = send(client, game, "k")
    assert mine.status_code == 302 and "Idempotent-Replayed" not in mine
    assert Turn.objects.filter(game_id=game.pk).count() == 1


def test_a_scorer_turn_is_replayed_though_its_first_answer_began_a_session(client):
    game = scorer_game(client)
    phony = {"action": "play", "play": "5D MOOX", "expected_turn": "1"}
    assert send(client, game, "phony", phony).status_code == 303  # kept in the session
    assert "sessionid" in client.cookies
    again = send(client, game, "phony", phony)
    assert again["Idempotent-Replayed"] == "true" and again.status_code == 303


def test_a_malformed_key_on_the_scorer_page_is_refused(client):
    game = scorer_game(client)
    response = send(client, game, "with space")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_idempotency_key"
    assert Turn.objects.filter(game_id=game.pk).count() == 0


def test_only_the_turn_honours_keys_among_the_scorer_pages(client):
    game = scorer_game(client)
    for _ in range(2):
        shown = client.post(f"/games/{game.pk}/score/preview", {"play": "5D MOOD"},
                            HTTP_IDEMPOTENCY_KEY="p")  # fmt: skip
        assert shown.status_code == 200 and "Idempotent-Replayed" not in shown
