"""No scorer secret in any log line: Django's loggers, the development server's and gunicorn's
access logs; and a bad Host is one warning, without a traceback."""

from __future__ import annotations

import http.client
import io
import json
import logging
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.test import Client

from bench.server import Gunicorn, free_port
from scorekeeper.http.links import cookie_name
from tests.factories import ApiGame

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def club(use_words):
    use_words("MOOD DEAR")


@pytest.fixture
def captured() -> Iterator[io.StringIO]:
    """What the configured console handler writes (the one every logger's records reach)."""
    handler = next(h for h in logging.getLogger().handlers if h.get_name() == "console")
    stream = io.StringIO()
    old = handler.setStream(stream)  # type: ignore[attr-defined]
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.INFO)
    try:
        yield stream
    finally:
        handler.setStream(old)  # type: ignore[attr-defined]
        root.setLevel(level)


def scorer_turn(game: ApiGame) -> str:
    return f"/games/{game.id}/score/{game.token}/turn"


def test_a_post_without_its_csrf_token_logs_the_path_masked(client, captured):
    game = ApiGame(client)
    strict = Client(enforce_csrf_checks=True)
    assert strict.post(scorer_turn(game), {"action": "pass"}).status_code == 403
    out = captured.getvalue()
    assert "/score/***/turn" in out and "Forbidden" in out
    assert game.token not in out


def test_an_oversized_body_logs_the_path_masked(client, captured, settings):
    game = ApiGame(client)
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = client.post(scorer_turn(game), {"action": "pass", "play": "x" * 5000})
    assert response.status_code in (400, 413)
    out = captured.getvalue()
    assert "/score/***" in out and game.token not in out


def test_every_logger_masks_a_secret_in_its_message_arguments_and_request(rf, captured):
    secret = "s3cret-Token_value"
    path = f"/games/{uuid.uuid4()}/score/{secret}/turn"
    request = rf.post(path)
    logging.getLogger("django.request").error("Internal Server Error: %s", path,
                                              extra={"request": request})  # fmt: skip
    logging.getLogger("django.server").warning('"%s" %s %s', f"POST {path} HTTP/1.1", 404, 0)
    logging.getLogger("django.security.csrf").warning("Forbidden: %s", path)
    try:
        raise ValueError(f"failed on {path}")
    except ValueError:
        logging.getLogger("scorekeeper.anything").exception("with a traceback")
    logging.getLogger("scorekeeper.api").warning("Authorization: Bearer %s", secret)
    out = captured.getvalue()
    assert secret not in out
    assert out.count("/score/***") >= 4 and "Bearer ***" in out


# A path the server decodes before it routes it ("sc%6Fre" is "score"), and the status a scorer
# link written so gets: 303 to the scorer's page (with the link's cookie) if it is routed.
ENCODED = {
    "plain": ("/games/{id}/score/{secret}/", 303),
    "escaped o": ("/games/{id}/sc%6Fre/{secret}/", 303),
    "escaped s": ("/games/{id}/%73core/{secret}/", 303),
    "mixed case escapes": ("/games/{id}/%53c%4fRE/{secret}/", 404),
    "every letter escaped": ("/games/{id}/%73%63%6F%72%65/{secret}/", 303),
    "escaped slash": ("/games/{id}/sc%6Fre%2F{secret}/", 303),
    "double slashes": ("/games/{id}//score//{secret}//", 404),
    "escaped double slashes": ("//games/{id}//%73core%2F%2F{secret}/", 404),
    "dot segment": ("/games/{id}/score/./{secret}/", 404),
    "escaped dot": ("/games/{id}/score/%2E/{secret}/", 404),
    "dot dot": ("/games/{id}/score/../score/{secret}/", 404),
    "escaped dot dot and slashes": ("/games/{id}/score%2F%2e%2e%2Fscore%2F{secret}/turn", 404),
    "escaped twice": ("/games/{id}/%2573core/%252E%252F{secret}/", 404),
    "backslash": ("/games/{id}/score\\{secret}/", 404),
    "after a page's name": ("/games/{id}/score/turn/{secret}/", 404),
}
PATHS = [template for template, _ in ENCODED.values()]


@pytest.mark.parametrize("template", PATHS, ids=list(ENCODED))
def test_every_logger_masks_a_secret_in_an_encoded_path(client, captured, template):
    game = ApiGame(client)
    path = template.format(id=game.id, secret=game.token)
    strict = Client(enforce_csrf_checks=True)  # refused: the refused-request line has the path
    assert strict.post(path, {"action": "pass"}).status_code in (403, 404)
    logging.getLogger("django.server").warning('"%s" %s %s', f"GET {path} HTTP/1.1", 200, 0)
    logging.getLogger("django.request").error("Internal Server Error: %s", path)
    out = captured.getvalue()
    assert game.token not in out
    assert out.count("***") >= 3


def test_an_escaped_scorer_link_is_routed_as_the_plain_one(client):
    game = ApiGame(client)
    response = Client().get(f"/games/{game.id}/sc%6Fre/{game.token}/")
    assert response.status_code == 303 and cookie_name(game.id) in response.cookies


def test_a_bad_host_is_one_warning_without_a_traceback(client, captured):
    response = client.get("/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    lines = [json.loads(line) for line in captured.getvalue().splitlines() if line.strip()]
    assert [(line["level"], line["message"]) for line in lines] == [("WARNING", "refused request")]
    assert not any("exception" in line for line in lines)


def test_gunicorns_access_log_masks_the_secret(tmp_path):
    database = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database,
        "SECRET_KEY": "log-test-" + os.urandom(8).hex(),
        "DEBUG": "0",
        "SECURE": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "ACCESS_LOG": "-",
        "WEB_CONCURRENCY": "1",
        "LEXICON_USER_DIR": str(tmp_path / "lexica"),
        "LEXICON_CACHE_DIR": str(tmp_path / "cache"),
    }
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env,
                   check=True, timeout=120)  # fmt: skip
    secret = "gunicorn-Secret_42"
    server = Gunicorn(env, free_port(), tmp_path / "gunicorn.log", ready_timeout=60)
    server.start()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        conn.request("GET", f"/games/{uuid.uuid4()}/score/{secret}/",
                     headers={"Referer": f"http://127.0.0.1/games/x/score/{secret}/"})  # fmt: skip
        first = conn.getresponse()
        first.read()
        assert first.status == 404
        # A real game's link, the path escaped every way: routed, and masked in every line.
        body = json.dumps({"ruleset": "upwords-10", "lexicon": "honour", "players": ["A", "B"]})
        conn.request("POST", "/api/games/", body, {"Content-Type": "application/json"})
        created = json.loads(conn.getresponse().read())
        for template, status in ENCODED.values():
            path = template.format(id=created["id"], secret=created["token"])
            conn.request("GET", path, headers={"Referer": f"http://127.0.0.1{path}"})
            answer = conn.getresponse()
            answer.read()
            assert answer.status == status, path
        conn.close()
    finally:
        server.stop()
    log = (tmp_path / "gunicorn.log").read_text()
    assert "/score/***/" in log and secret not in log
    assert created["token"] not in log
    # uvicorn's access log writes each path decoded (gunicorn's wrote the raw request line):
    # every one of them is there, masked.
    access = [line for line in log.splitlines() if '"GET /' in line and "games/" in line]
    assert len(access) == 1 + len(ENCODED) and all("***" in line for line in access), access
