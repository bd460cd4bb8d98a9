"""Security: CSRF, the game secret, rate limits, no stack traces, logs, production defaults."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

import pytest
from django.core.cache import caches
from django.db import DatabaseError
from django.test import Client, override_settings
from django.utils import timezone

from scorekeeper.http import limits
from scorekeeper.http.limits import Limit, sweep
from scorekeeper.http.links import cookie_name
from scorekeeper.models import Club, Game, Player, RateCount, Turn
from tests.factories import CLUB_WORDS, ApiGame
from tests.servers import skip_without_redis

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
MOOD = [(4, 3, "M"), (4, 4, "O"), (4, 5, "O"), (4, 6, "D")]


@pytest.fixture(autouse=True)
def club_lexicon(use_words):
    return use_words(CLUB_WORDS)


# CSRF -------------------------------------------------------------------------------------------
def test_every_form_needs_its_csrf_token():
    strict = Client(enforce_csrf_checks=True)
    game = ApiGame(Client())
    scorer = f"/games/{game.id}/score/{game.token}/"
    for url, data in [
        ("/games/new", {"player_1": "Ann"}),
        (scorer + "turn", {"action": "pass", "expected_turn": "1"}),
        (scorer + "preview", {"play": "5D MOOD"}),
    ]:
        response = strict.post(url, data)
        assert response.status_code == 403, url
    assert Turn.objects.count() == 0 and Game.objects.count() == 1


def test_forms_work_with_the_token():
    strict = Client(enforce_csrf_checks=True)
    page = strict.get("/games/new")
    token = page.cookies["csrftoken"].value
    html = page.content.decode()
    assert 'name="csrfmiddlewaretoken"' in html
    assert '"X-CSRFToken"' in html  # htmx requests send it from the body's hx-headers
    game = ApiGame(Client())
    scorer = f"/games/{game.id}/score/{game.token}/"
    response = strict.post(
        scorer + "turn", {"action": "pass", "expected_turn": "1", "csrfmiddlewaretoken": token}
    )
    assert response.status_code == 302
    response = strict.post(scorer + "preview", {"play": "5D MOOD"}, HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 200


def test_the_api_authenticates_with_its_token_not_cookies():
    strict = Client(enforce_csrf_checks=True)
    game = ApiGame(strict)
    assert game.turn({"action": "pass"}).status_code == 201


# The game's secret ------------------------------------------------------------------------------
def test_the_secret_is_compared_in_constant_time(client):
    game = ApiGame(client)
    with mock.patch(
        "scorekeeper.games.access.hmac.compare_digest", wraps=__import__("hmac").compare_digest
    ) as api_compare:
        assert game.turn({"action": "pass"}, token="wrong-token").status_code == 403
    assert api_compare.call_count == 1
    with mock.patch("scorekeeper.games.access.hmac.compare_digest", return_value=False) as page:
        assert client.get(f"/games/{game.id}/score/{game.token}/").status_code == 403
        client.cookies[cookie_name(game.id)] = game.token
        assert client.get(f"/games/{game.id}/score/").status_code == 403
    assert page.call_count == 2  # the link's secret and the cookie's


def test_tokens_are_long_and_unguessable(client):
    tokens = {ApiGame(client).token for _ in range(5)}
    assert len(tokens) == 5 and all(len(t) >= 32 for t in tokens)


def test_public_pages_never_show_the_secret(client):
    game = ApiGame(client)
    game.play(MOOD)
    for url in [f"/games/{game.id}/", f"/games/{game.id}/watch", f"/games/{game.id}/watch/live",
                "/games/", "/", f"/api/games/{game.id}/", f"/games/{game.id}/export.json"]:  # fmt: skip
        assert game.token not in client.get(url).content.decode(), url


# Rate limits ------------------------------------------------------------------------------------
def _flood(client, game: ApiGame, times: int) -> list[int]:
    return [game.turn({"action": "exchange", "count": 1}).status_code for _ in range(times)]


def test_turn_submissions_are_limited_per_client(client, settings):
    settings.RATE_LIMIT_TURNS = 3
    game = ApiGame(client)
    statuses = _flood(client, game, 5)
    assert statuses == [201, 201, 201, 429, 429]
    refused = game.turn({"action": "pass"})
    assert refused.json()["error"]["code"] == "rate_limited"
    assert int(refused["Retry-After"]) > 0
    assert Game.objects.get().last_entry_number == 3  # refused turns changed nothing
    # Another device at another address still gets through.
    other = Client(REMOTE_ADDR="10.1.2.3")
    response = other.post(
        f"/api/games/{game.id}/turns/", {"action": "pass"}, content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {game.token}",
    )  # fmt: skip
    assert response.status_code == 201


def test_the_scorer_page_is_limited_too(client, settings):
    settings.RATE_LIMIT_TURNS = 1
    game = ApiGame(client)
    link = f"/games/{game.id}/score/{game.token}/turn"
    assert client.post(link, {"action": "pass", "expected_turn": "1"}).status_code == 302
    # The page's own address (the secret now in the cookie) counts the same.
    response = client.post(f"/games/{game.id}/score/turn", {"action": "pass", "expected_turn": "2"})
    assert response.status_code == 429
    assert "Too many turns" in response.content.decode()
    assert client.post(link, {"action": "pass", "expected_turn": "2"}).status_code == 429


def test_word_judge_lookups_are_limited(client, settings, tmp_path):
    settings.RATE_LIMIT_JUDGE = 2
    statuses = [
        client.get("/judge/", {"lexicon": "CLUB", "words": "mood"}).status_code for _ in range(3)
    ]
    assert statuses == [200, 200, 429]
    assert client.get("/judge/").status_code == 200  # the empty form is not a lookup


def test_forwarded_addresses_count_only_behind_a_trusted_proxy(client, settings):
    settings.RATE_LIMIT_JUDGE = 1
    lookup = {"lexicon": "CLUB", "words": "mood"}
    assert client.get("/judge/", lookup, HTTP_X_FORWARDED_FOR="1.1.1.1").status_code == 200
    # No proxy trusted: a forged header does not buy a fresh allowance.
    assert client.get("/judge/", lookup, HTTP_X_FORWARDED_FOR="2.2.2.2").status_code == 429
    settings.TRUSTED_PROXIES = 1
    assert client.get("/judge/", lookup, HTTP_X_FORWARDED_FOR="3.3.3.3").status_code == 200


def test_behind_an_appending_proxy_the_client_cannot_forge_its_address(client, settings):
    # nginx ($proxy_add_x_forwarded_for) and load balancers append the address they were
    # reached from: the left-most entries are whatever the client wrote.
    settings.TRUSTED_PROXIES = 1
    settings.RATE_LIMIT_TURNS = 5
    game = ApiGame(client)
    answers = [
        game.turn({"action": "pass"}, HTTP_X_FORWARDED_FOR=f"10.9.0.{i}, 127.0.0.1").status_code
        for i in range(8)
    ]
    assert answers.count(429) == 3


@pytest.mark.parametrize(
    ("proxies", "header", "client_is"),
    [
        (0, "1.1.1.1", "127.0.0.1"),
        (1, "6.6.6.6, 2.2.2.2", "2.2.2.2"),
        (2, "6.6.6.6, 3.3.3.3, 10.0.0.1", "3.3.3.3"),
        (2, "4.4.4.4", "127.0.0.1"),  # fewer hops than proxies: not through them all
    ],
)
def test_the_client_is_that_many_entries_from_the_right(rf, settings, proxies, header, client_is):
    from scorekeeper.http.middleware import client_address

    settings.TRUSTED_PROXIES = proxies
    request = rf.get("/", HTTP_X_FORWARDED_FOR=header, REMOTE_ADDR="127.0.0.1")
    assert client_address(request) == client_is


def test_the_old_proxy_setting_is_refused_loudly():
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        env={"DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "1",
             "TRUST_X_FORWARDED_FOR": "1", "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode != 0 and "TRUSTED_PROXIES" in done.stderr


def test_new_games_are_limited_per_client_per_hour(client, settings):
    settings.RATE_LIMIT_GAMES = 2
    body = {"ruleset": "upwords-10", "lexicon": "CLUB", "players": ["Ann", "Ben"]}
    answers = [
        client.post("/api/games/", body, content_type="application/json").status_code
        for _ in range(3)
    ]
    assert answers == [201, 201, 429]
    page = client.post("/games/new", {"ruleset": "upwords-10", "lexicon": "CLUB"})
    assert page.status_code == 429 and "an hour" in page.content.decode()


def test_admin_sign_in_attempts_are_throttled(client, settings):
    settings.RATE_LIMIT_LOGINS = 3
    tries = [
        client.post("/admin/login/", {"username": "root", "password": f"guess{i}"}).status_code
        for i in range(5)
    ]
    assert tries == [200, 200, 200, 429, 429]


def test_a_counter_outage_does_not_refuse_turns(client, settings):
    settings.RATE_LIMIT_TURNS = 1
    game = ApiGame(client)
    with mock.patch("scorekeeper.http.limits._add_each", side_effect=DatabaseError("down")):
        assert _flood(client, game, 3) == [201, 201, 201]


def test_limits_are_counted_in_the_database_every_worker_shares(client, settings):
    settings.RATE_LIMIT_TURNS = 2
    game = ApiGame(client)
    assert _flood(client, game, 3) == [201, 201, 429]
    # A table's turns are counted for its game (and the secret it presents), at its address.
    (counter,) = RateCount.objects.filter(
        name__startswith=f"rate:turns:127.0.0.1/{game.id.replace('-', '')}/"
    )
    assert counter.count == 3  # the refused one counted too


def test_expired_counters_are_swept(client, settings):
    settings.RATE_LIMIT_TURNS = 5
    _flood(client, ApiGame(client), 1)
    ended = RateCount.objects.update(expires=timezone.now() - timedelta(seconds=1))
    assert ended >= 2  # the new game's counter and the turns'
    assert sweep() == ended and not RateCount.objects.exists()


A_DAY_ON = 1_800_086_430.0  # half a minute into a window of a day no other test counts in


def test_ended_windows_leave_the_table_as_new_addresses_come(monkeypatch, rf):
    """3,000 addresses once kept 3,000 rows: a minute on, the first count sweeps them."""
    clock = [A_DAY_ON]
    monkeypatch.setattr(limits, "time", SimpleNamespace(time=lambda: clock[0]))
    turns = Limit("turns", "turns", 5, 60)

    def count_from(address: str) -> None:
        assert limits.spend(rf.post("/api/games/1/turns/", REMOTE_ADDR=address), turns) is None

    for n in range(300):
        count_from(f"2001:db8::{n:x}")
    assert RateCount.objects.count() == 300
    clock[0] += 60  # the next window: all 300 have ended
    count_from("2001:db8::beef")
    window = int(clock[0] // 60)
    assert list(RateCount.objects.values_list("name", flat=True)) == [
        f"rate:turns:2001:db8::beef:{window}"
    ]


def test_a_process_sweeps_at_most_once_a_minute(monkeypatch, rf):
    clock = [A_DAY_ON + 3600]
    monkeypatch.setattr(limits, "time", SimpleNamespace(time=lambda: clock[0]))
    turns = Limit("turns", "turns", 5, 60)
    ended = timezone.now() - timedelta(days=1)

    def count_from(address: str) -> None:
        limits.spend(rf.post("/api/games/1/turns/", REMOTE_ADDR=address), turns)

    count_from("198.51.100.1")  # this minute's sweep
    RateCount.objects.create(name="rate:turns:198.51.100.9:1", count=1, expires=ended)
    count_from("198.51.100.2")  # the same minute: one write, the count
    assert RateCount.objects.filter(expires=ended).exists()
    clock[0] += limits.SWEEP_SECONDS
    count_from("198.51.100.2")
    assert not RateCount.objects.filter(expires=ended).exists()


def test_limits_are_shared_through_redis(client, settings):
    skip_without_redis()
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                    "LOCATION": "redis://127.0.0.1:6379/15", "KEY_PREFIX": f"test-{os.getpid()}"}
    }  # fmt: skip
    settings.RATE_LIMIT_TURNS = 2
    redis_cache = caches["default"]
    redis_cache.clear()
    try:
        with mock.patch("scorekeeper.http.limits.cache", redis_cache):
            game = ApiGame(client)
            assert _flood(client, game, 3) == [201, 201, 429]
            # A second app server sees the same counter.
            assert Client().post(
                f"/api/games/{game.id}/turns/", {"action": "pass"},
                content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {game.token}",
            ).status_code == 429  # fmt: skip
    finally:
        redis_cache.clear()


# No stack traces --------------------------------------------------------------------------------
@override_settings(DEBUG=False)
def test_a_server_error_shows_no_stack_trace():
    client = Client(raise_request_exception=False)
    with mock.patch("scorekeeper.web.table.render", side_effect=RuntimeError("secret internals")):
        response = client.get("/")
    assert response.status_code == 500
    html = response.content.decode()
    assert "Something went wrong on our side" in html
    assert "secret internals" not in html and "Traceback" not in html


def test_an_api_server_error_is_json_without_internals(client):
    game = ApiGame(client)
    with mock.patch(
        "scorekeeper.api.endpoints.domain.act", side_effect=RuntimeError("secret internals")
    ):
        response = game.turn({"action": "pass"})
    assert response.status_code == 500
    assert response.json() == {
        "error": {"code": "server_error", "message": "Something went wrong on our side."}
    }


# Logging refused requests -----------------------------------------------------------------------
def test_every_refused_request_is_logged_once_as_structured_data(client, caplog):
    game = ApiGame(client)
    with caplog.at_level(logging.WARNING, logger="scorekeeper.requests"):
        game.turn({"action": "pass"}, token="wrong")
        client.get(f"/games/{game.id}/score/{game.token}x/")
        game.play([(0, 0, "Q")])
    records = [r for r in caplog.records if r.name == "scorekeeper.requests"]
    assert [(r.status, r.code) for r in records] == [
        (403, "forbidden"),
        (403, ""),
        (400, "unknown_tile"),
    ]
    assert records[1].path == f"/games/{game.id}/score/***/"  # the secret is never logged
    assert all(r.method in ("GET", "POST") and r.client == "127.0.0.1" for r in records)


def test_log_lines_are_json():
    from config.logs import JsonFormatter

    record = logging.LogRecord(
        "scorekeeper.requests", logging.WARNING, __file__, 1, "refused request", None, None
    )
    record.status = 429
    line = json.loads(JsonFormatter().format(record))
    assert (
        line["message"] == "refused request"
        and line["status"] == 429
        and line["level"] == "WARNING"
    )


# Health and production defaults -----------------------------------------------------------------
def test_health_check_reaches_the_database(client):
    assert client.get("/healthz").json() == {"status": "ok", "database": "ok"}
    with mock.patch(
        "django.db.connection.cursor",
        side_effect=__import__("django.db").db.DatabaseError,
    ):
        response = client.get("/healthz")
    assert response.status_code == 503


def _django(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    unset = {"DEBUG", "SECRET_KEY", "TESTING", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    clean = {k: v for k, v in os.environ.items() if k not in unset}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env={**clean, **env},
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_production_refuses_to_start_without_a_secret_key():
    result = _django({"DEBUG": "0"}, "check")
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


def test_production_settings_pass_the_deploy_checks():
    env = {"DEBUG": "0", "SECRET_KEY": "x" * 60 + "-a-long-random-value", "ALLOWED_HOSTS": "scores.example.org",
           "SECURE_SSL_REDIRECT": "1", "SECURE_HSTS_SECONDS": "31536000",
           "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1", "SECURE_HSTS_PRELOAD": "1"}  # fmt: skip
    result = _django(env, "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_bad_setting_stops_start_up_with_its_name():
    result = _django({"DEBUG": "maybe"}, "check")
    assert result.returncode != 0 and "DEBUG must be one of" in result.stderr


def test_pages_render_in_production_mode_even_before_collectstatic(tmp_path):
    env = {"DEBUG": "0", "SECRET_KEY": "y" * 50, "ALLOWED_HOSTS": "testserver",
           "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "SECURE": "0"}  # fmt: skip
    script = (
        "import django; django.setup();"
        "from django.core.management import call_command; call_command('migrate', verbosity=0);"
        "from django.test import Client; c = Client(HTTP_HOST='nowhere.example');"
        "print(c.get('/').status_code);"
        "c = Client(); print(c.get('/').status_code, c.get('/games/nope').status_code)"
    )
    unset = {"DEBUG", "SECRET_KEY", "TESTING", "DJANGO_ALLOW_ASYNC_UNSAFE", "DATABASE_URL"}
    clean = {k: v for k, v in os.environ.items() if k not in unset}
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={**clean, **env, "DJANGO_SETTINGS_MODULE": "config.settings"},
    )  # fmt: skip
    assert result.stdout.split() == ["400", "200", "404"], result.stderr[-2000:]


# Names and letters ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name",
    ["\u200b", "A\u200bnn", "\u202eAnn", "A" + "\u0301" * 39, "Ann\u0000", "Ann\u2066x",
     "Ann\u3164", "\u115fAnn", "An\uffa0n", "Ann\u1160", "\u2800", "Ann\u2800", "An\u00adn",
     "Ann\ufe0f", "Ann\U000e0041", "Ann\u061c", "Ann\u180e"],
    ids=["zero-width alone", "zero-width inside", "bidi override", "stacked accents", "nul",
         "bidi isolate", "hangul filler", "choseong filler", "halfwidth filler",
         "jungseong filler", "braille blank alone", "braille blank", "soft hyphen",
         "variation selector", "tag", "arabic letter mark", "mongolian vowel separator"],
)  # fmt: skip
def test_names_with_what_cannot_be_seen_are_refused(client, name):
    body = {"ruleset": "upwords-10", "lexicon": "CLUB", "players": [name, "Ben"]}
    response = client.post("/api/games/", body, content_type="application/json")
    assert response.status_code == 400, response.content
    assert Game.objects.count() == 0


def test_ann_with_a_hangul_filler_is_refused_not_a_second_ann(client):
    body = {"ruleset": "upwords-10", "lexicon": "CLUB", "players": ["Ann", "Ben"]}
    assert client.post("/api/games/", body, content_type="application/json").status_code == 201
    body["players"] = ["Ann\u3164", "Ben"]
    response = client.post("/api/games/", body, content_type="application/json")
    assert response.status_code == 400
    assert "invisible" in response.json()["error"]["message"]
    assert Player.objects.filter(name__startswith="Ann").count() == 1


def test_a_name_of_nothing_to_see_is_refused_with_its_reason(client):
    body = {"ruleset": "upwords-10", "lexicon": "CLUB", "players": ["\u2800\u3164", "Ben"]}
    response = client.post("/api/games/", body, content_type="application/json")
    assert response.status_code == 400
    assert "at least one letter or sign that can be seen" in response.json()["error"]["message"]


@pytest.mark.parametrize(
    "name", ["Zoë", "José María", "Ólafur", "Nguyễn", "李", "김민준", "Ævar Þór"]
)
def test_real_names_with_accents_and_other_scripts_are_welcome(client, name):
    body = {"ruleset": "upwords-10", "lexicon": "CLUB", "players": [name, "Ben"]}
    assert client.post("/api/games/", body, content_type="application/json").status_code == 201


def test_names_compare_without_what_cannot_be_seen():
    from scorekeeper.models import name_key

    assert name_key("A\u200bnn") == name_key("ann") == name_key("ANN ")


@pytest.mark.parametrize(
    "notation",
    ["5D ıT", "5D ſO", "\u0665D MOOD", "\uff15D MOOD", "D\u0665 MOOD", "E\uff15=A"],
    ids=["dotless i", "long s", "arabic digit", "full-width digit", "arabic digit down",
         "full-width square"],
)  # fmt: skip
def test_plays_take_only_letters_a_to_z_and_digits_0_to_9(client, notation):
    game = ApiGame(client)
    response = game.turn({"action": "play", "notation": notation})
    assert response.status_code == 400, response.content
    assert Game.objects.get(pk=game.id).last_entry_number == 0


# Headers -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "path", ["/", "/games/new", "/games/", "/rankings/", "/api/docs", "/judge/"]
)
def test_every_page_has_a_content_security_policy_and_a_permissions_policy(client, path):
    response = client.get(path)
    policy = response["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert "frame-ancestors 'none'" in policy
    assert "camera=()" in response["Permissions-Policy"]


def test_the_policy_built_once_is_django_csps_and_follows_the_settings(client, settings):
    from csp.utils import build_policy

    assert client.get("/").headers["Content-Security-Policy"] == build_policy()
    assert "Content-Security-Policy-Report-Only" not in client.get("/").headers
    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": {"default-src": ["'none'"]}}
    settings.CONTENT_SECURITY_POLICY_REPORT_ONLY = {"DIRECTIVES": {"img-src": ["'self'"]}}
    answer = client.get("/")
    assert answer.headers["Content-Security-Policy"] == "default-src 'none'"
    report_only = answer.headers["Content-Security-Policy-Report-Only"]
    assert report_only == build_policy(report_only=True) and "img-src 'self'" in report_only


@pytest.mark.parametrize("own", ["none", "update", "nonce"])
def test_every_answer_has_the_policy_django_csp_gives_it(rf, settings, own):
    """Built once or not, the header is django-csp's own: for an answer with its own changes
    to the policy, and for a page that used a nonce (in a policy that asks for one)."""
    from csp.constants import NONCE, SELF
    from csp.middleware import CSPMiddleware
    from django.http import HttpResponse

    from scorekeeper.http.middleware import ContentSecurityPolicy

    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": {"script-src": [SELF, NONCE]}}
    headers = []
    for middleware in (ContentSecurityPolicy, CSPMiddleware):
        handler = middleware(lambda request: HttpResponse())
        request, response = rf.get("/"), HttpResponse()
        handler.process_request(request)
        if own == "update":
            response._csp_update = {"img-src": ["https://example.org"]}
        if own == "nonce":
            request._csp_nonce = "abc123"
        headers.append(handler.process_response(request, response)["Content-Security-Policy"])
        # As django-csp does: a nonce asked for once the header is written is refused.
        if own != "nonce":
            with pytest.raises(Exception, match="not available after the CSP header"):
                str(request.csp_nonce)
    assert headers[0] == headers[1]
    assert ("example.org" in headers[0]) == (own == "update")
    assert ("'nonce-abc123'" in headers[0]) == (own == "nonce")


def test_the_api_docs_name_no_other_origin(client):
    html = client.get("/api/docs").content.decode()
    assert "swagger-ui-bundle.js" in html
    assert "cdn." not in html and "https://" not in html and "http://" not in html


def test_no_template_writes_an_inline_script_or_style():
    import re

    root = Path(__file__).resolve().parents[2] / "templates"
    for template in root.rglob("*.html"):
        text = template.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)", text), template
        assert not re.search(r"\sstyle=\"", text), template
        assert not re.search(r"\son[a-z]+=\"", text), template


def test_clubs_and_accounts_made_are_limited_per_client(client, settings):
    """Anyone signed in may make a club and, as its director, accounts for its players: a
    limit an hour keeps that from being a way to make accounts without end."""
    from django.contrib.auth import get_user_model

    from scorekeeper.games import domain

    settings.RATE_LIMIT_ACCOUNTS = 3
    User = get_user_model()
    client.force_login(User.objects.create_user("ann", password="pw-for-tests-only"))
    assert client.post("/clubs/new", {"name": "Riverside"}).status_code == 302
    riverside = Club.objects.get()
    players = [domain.player_named(f"Player {n}") for n in range(3)]
    riverside.roster.add(*players)
    made = [
        client.post(
            "/clubs/riverside/roster",
            {"change": "account", "player": p.pk, "username": f"p{n}"},
        ).status_code
        for n, p in enumerate(players)
    ]
    assert made == [302, 302, 429]
    assert User.objects.count() == 3  # ann, p0, p1
    assert client.post("/clubs/new", {"name": "Hilltop"}).status_code == 429
    # Other roster changes are not counted.
    response = client.post("/clubs/riverside/roster", {"change": "add", "name": "Cy"})
    assert response.status_code == 302
