"""Idempotency-Key: a retried or doubled API request, or scorer page turn, applies once and gets
the first answer."""

from __future__ import annotations

import hashlib
import io
import logging
import threading
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client, RequestFactory
from django.utils import timezone

from scorekeeper.games import domain
from scorekeeper.http import retries
from scorekeeper.http.links import cookie_name
from scorekeeper.http.middleware import slot_of
from scorekeeper.models import Game, KeptAnswer, Turn
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
    assert Game.objects.get(pk=game.id).last_entry_number == 0


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
    game = domain.check_create_game(ruleset="upwords-10", players=["Ann", "Ben"], lexicon="CLUB")
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


# Kept for the day: nothing else pushes an answer out -----------------------------------------
def test_keyed_posts_to_a_path_that_is_no_route_push_no_answer_out(client):
    game = ApiGame(client)
    first = game.turn({"action": "pass"}, HTTP_IDEMPOTENCY_KEY="victim-pass")
    assert first.status_code == 201
    attacker = Client()
    for n in range(400):
        missing = attacker.post("/api/no-such-route/", {}, content_type="application/json",
                                HTTP_IDEMPOTENCY_KEY=f"junk-{n}")  # fmt: skip
        assert missing.status_code == 404
    again = game.turn({"action": "pass"}, HTTP_IDEMPOTENCY_KEY="victim-pass")
    assert again["Idempotent-Replayed"] == "true" and again.content == first.content
    assert Turn.objects.filter(game_id=game.id).count() == 1
    assert not KeptAnswer.objects.exclude(status=201).exists()  # the 404s kept nothing


def test_other_callers_kept_answers_push_no_answer_out(client, settings):
    settings.RATE_LIMIT_TURNS = 0
    game, theirs = ApiGame(client), ApiGame(Client())
    first = game.turn({"action": "pass"}, HTTP_IDEMPOTENCY_KEY="mine")
    for n in range(400):  # refusals by the rules: each kept for its own retries
        refused = theirs.turn({"action": "challenge"}, HTTP_IDEMPOTENCY_KEY=f"theirs-{n}")
        assert refused.status_code == 422
    again = game.turn({"action": "pass"}, HTTP_IDEMPOTENCY_KEY="mine")
    assert again["Idempotent-Replayed"] == "true" and again.content == first.content
    assert Turn.objects.filter(game_id=game.id).count() == 1


@pytest.mark.parametrize(
    ("path", "token", "status"),
    [
        ("/api/games/{game}/turns/", "not-the-token", 403),
        ("/api/games/{game}/turns/", "", 401),
        ("/api/games/00000000-0000-4000-8000-000000000000/turns/", "{token}", 404),
        ("/api/games/{game}/", "{token}", 405),
        ("/api/no-such-route/", "{token}", 404),
    ],
    ids=["wrong token", "no token", "unknown game", "not a POST route", "no route"],
)
def test_answers_to_callers_or_routes_refused_are_not_kept(client, path, token, status):
    game = ApiGame(client)
    auth = token.format(token=game.token)
    headers = {"HTTP_AUTHORIZATION": f"Bearer {auth}"} if auth else {}
    for _ in range(2):
        response = client.post(path.format(game=game.id), {"action": "pass"},
                               content_type="application/json", HTTP_IDEMPOTENCY_KEY="k",
                               **headers)  # fmt: skip
        assert response.status_code == status and "Idempotent-Replayed" not in response
    assert not KeptAnswer.objects.exists()
    # The legal twin: the same key with the game's token is a request of its own, kept.
    assert exchange(game, "k").status_code == 201 and KeptAnswer.objects.count() == 1


def test_a_csrf_refusal_is_not_replayed_once_the_token_is_sent():
    browser = Client(enforce_csrf_checks=True)
    game = scorer_game(browser)
    refused = send(browser, game, "turn-1")
    assert refused.status_code == 403
    # The page's script sends the same form again, now with its token in X-CSRFToken.
    csrf = browser.get(f"/games/{game.pk}/score/").cookies["csrftoken"].value
    entered = send(browser, game, "turn-1", HTTP_X_CSRFTOKEN=csrf)
    assert entered.status_code == 302 and "Idempotent-Replayed" not in entered
    assert Turn.objects.filter(game_id=game.pk).count() == 1


# One token, one caller, however it is spelled -------------------------------------------------
@pytest.mark.parametrize("spelling", ["bearer {}", "Bearer  {}", "Bearer {} ", " BEARER\t{}"])
def test_each_spelling_of_the_bearer_token_is_one_caller(client, spelling):
    game = ApiGame(client)
    first = exchange(game, "swap")
    again = game.client.post(f"/api/games/{game.id}/turns/", {"action": "exchange", "count": 1},
                             content_type="application/json", HTTP_IDEMPOTENCY_KEY="swap",
                             HTTP_AUTHORIZATION=spelling.format(game.token))  # fmt: skip
    assert again["Idempotent-Replayed"] == "true" and again.content == first.content
    assert Turn.objects.filter(game_id=game.id).count() == 1


@pytest.mark.parametrize("spelling", ["Bearer", "Bearer {} extra", "Basic {}", "{}"])
def test_a_token_not_sent_as_bearer_is_refused_with_or_without_a_key(client, spelling):
    game = ApiGame(client)
    for key in ({}, {"HTTP_IDEMPOTENCY_KEY": "k"}):
        refused = game.client.post(f"/api/games/{game.id}/turns/", {"action": "pass"},
                                   content_type="application/json",
                                   HTTP_AUTHORIZATION=spelling.format(game.token), **key)  # fmt: skip
        assert refused.status_code == 401
    assert Turn.objects.filter(game_id=game.id).count() == 0


# A first request that died -----------------------------------------------------------------------
def died_after_its_commit() -> None:
    """As if the worker answering the one keyed request so far was killed after its change
    committed and before its answer was kept: its slot held, by nobody alive."""
    KeptAnswer.objects.filter(pk=KeptAnswer.objects.get().pk).update(
        status=None, content=b"", headers="{}", started=timezone.now() - timedelta(minutes=2)
    )


def test_an_undo_whose_first_request_died_is_answered_not_applied_again(client):
    game = ApiGame(client)
    assert game.turn({"action": "exchange", "count": 1}).status_code == 201
    first = game.turn({"action": "undo"}, HTTP_IDEMPOTENCY_KEY="undo-1")
    assert first.status_code == 201
    died_after_its_commit()
    again = game.turn({"action": "undo"}, HTTP_IDEMPOTENCY_KEY="undo-1")
    assert again.status_code == 201, again.content
    assert again.json()["turn"] == first.json()["turn"]
    assert list(Turn.objects.filter(game_id=game.id).values_list("action", flat=True)) == [
        "exchange", "undo"
    ]  # fmt: skip
    # Its answer is kept now: the next retry is a replay.
    assert game.turn({"action": "undo"}, HTTP_IDEMPOTENCY_KEY="undo-1")["Idempotent-Replayed"]


def test_a_scorer_turn_whose_first_request_died_is_answered_not_entered_again(client):
    game = scorer_game(client)
    first = send(client, game, "turn-1", HTTP_ACCEPT="application/json")
    assert first.json()["entered"] is True
    died_after_its_commit()
    again = send(client, game, "turn-1", HTTP_ACCEPT="application/json")
    assert again.json() == first.json()
    assert Turn.objects.filter(game_id=game.pk).count() == 1


@pytest.mark.parametrize(("path", "body"), POSTS, ids=["create", "import"])
def test_a_game_whose_first_request_died_is_answered_not_made_again(path, body):
    first = post(path, body, key="new-1", REMOTE_ADDR="192.0.2.1")
    assert first.status_code == 201
    died_after_its_commit()
    again = post(path, body, key="new-1", REMOTE_ADDR="192.0.2.1")
    assert again.status_code == 201 and again.json() == first.json()
    assert Game.objects.count() == 1


def test_a_slot_held_by_a_request_still_running_is_409_and_enters_nothing(client):
    game = ApiGame(client)
    assert exchange(game, "k").status_code == 201
    KeptAnswer.objects.update(status=None, started=timezone.now())  # its holder: alive
    twin = exchange(game, "k")
    assert twin.status_code == 409 and twin.json()["error"]["code"] == "idempotency_in_progress"
    other = game.turn({"action": "pass"}, HTTP_IDEMPOTENCY_KEY="k")
    assert other.status_code == 422  # another body under a held key: never the held one's
    assert Turn.objects.filter(game_id=game.id).count() == 1


def test_a_died_request_that_committed_nothing_is_entered_by_its_retry(client):
    game = ApiGame(client)
    body = {"action": "pass"}
    died = RequestFactory().post(f"/api/games/{game.id}/turns/", body,
                                 content_type="application/json",
                                 HTTP_AUTHORIZATION=f"Bearer {game.token}")  # fmt: skip
    assert retries.claim(slot_of(died, "k", hashlib.sha256(died.body).hexdigest()))
    KeptAnswer.objects.update(started=timezone.now() - timedelta(minutes=2))
    entered = game.turn(body, HTTP_IDEMPOTENCY_KEY="k")
    assert entered.status_code == 201 and entered.json()["turn"]["number"] == 1
    assert game.turn(body, HTTP_IDEMPOTENCY_KEY="k")["Idempotent-Replayed"] == "true"
    assert Turn.objects.filter(game_id=game.id).count() == 1


# Bounds ----------------------------------------------------------------------------------------
def test_an_answer_too_large_to_keep_is_kept_as_a_refusal_to_run_it_again(client, monkeypatch):
    monkeypatch.setattr(retries, "ANSWER_MAX_BYTES", 500)
    game = ApiGame(client)
    first = exchange(game, "big")
    assert first.status_code == 201 and len(first.content) > 500
    again = exchange(game, "big")
    assert again.status_code == 409 and again.json()["error"]["code"] == "answer_not_kept"
    assert again["Idempotent-Replayed"] == "true"
    assert Turn.objects.filter(game_id=game.id).count() == 1


def test_a_caller_keeps_a_bounded_number_of_answers(client, monkeypatch):
    monkeypatch.setattr(retries, "CALLER_MAX_ANSWERS", 3)
    game, other = ApiGame(client), ApiGame(Client())
    for n in range(3):
        assert exchange(game, f"k{n}").status_code == 201
    full = exchange(game, "k3")
    assert full.status_code == 429 and full.json()["error"]["code"] == "idempotency_keys_full"
    assert 24 * 3600 - 60 < int(full["Retry-After"]) <= 24 * 3600  # when the first expires
    assert exchange(game, "k0")["Idempotent-Replayed"] == "true"  # kept ones are still replayed
    assert game.turn({"action": "pass"}).status_code == 201  # and without a key, served
    assert exchange(other, "k3").status_code == 201  # another caller has bounds of its own
    assert Turn.objects.filter(game_id=game.id).count() == 4


def test_browsers_behind_one_address_share_its_bounds(monkeypatch):
    # Cookies are the client's to make up: a new one each time must not make a new caller.
    monkeypatch.setattr(retries, "CALLER_MAX_ANSWERS", 2)
    browsers = [Client() for _ in range(3)]
    for n, browser in enumerate(browsers):
        browser.cookies["csrftoken"] = str(n) * 32
    assert (
        post("/api/games/", CREATE, "k0", browsers[0], REMOTE_ADDR="192.0.2.1").status_code == 201
    )
    assert (
        post("/api/games/", CREATE, "k1", browsers[1], REMOTE_ADDR="192.0.2.1").status_code == 201
    )
    full = post("/api/games/", CREATE, "k2", browsers[2], REMOTE_ADDR="192.0.2.1")
    assert full.status_code == 429
    assert (
        post("/api/games/", CREATE, "k2", browsers[2], REMOTE_ADDR="192.0.2.2").status_code == 201
    )


def test_a_caller_keeps_a_bounded_number_of_bytes(client, monkeypatch):
    monkeypatch.setattr(retries, "CALLER_MAX_BYTES", 1)
    game = ApiGame(client)
    assert exchange(game, "k0").status_code == 201
    assert exchange(game, "k1").status_code == 429


def test_expired_answers_are_swept_and_their_entries_still_answer_a_late_retry(client):
    game = ApiGame(client)
    old = exchange(game, "old")
    assert old.status_code == 201 and exchange(game, "new").status_code == 201
    KeptAnswer.objects.filter(pk=KeptAnswer.objects.order_by("started")[0].pk).update(
        expires=timezone.now() - timedelta(seconds=1)
    )
    out = io.StringIO()
    call_command("sweep", stdout=out)
    assert "1 kept answers" in out.getvalue() and KeptAnswer.objects.count() == 1
    late = exchange(game, "old")  # a day on: run again, and answered with the entry it made
    assert late.status_code == 201 and "Idempotent-Replayed" not in late
    assert late.json()["turn"] == old.json()["turn"]
    assert exchange(game, "new")["Idempotent-Replayed"] == "true"
    assert Turn.objects.filter(game_id=game.id).count() == 2


def test_a_turns_slot_is_not_in_the_games_record(client):
    game = ApiGame(client)
    assert exchange(game, "k").status_code == 201
    record = client.get(f"/games/{game.id}/export.json").content
    assert b"retry_slot" not in record
