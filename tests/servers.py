"""Helpers for tests that run the real server (gunicorn, config/gunicorn.conf.py) on the test
database: its environment, and plain HTTP requests to it."""

from __future__ import annotations

import http.client
import json
import os
import socket
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.db import connection

from bench.server import Gunicorn, free_port

READY_TIMEOUT = 30  # seconds for gunicorn to answer /healthz
REQUEST_TIMEOUT = 10  # seconds for one HTTP request


def database_url() -> str:
    """The test database (not the configured one) as a DATABASE_URL for the server."""
    s = connection.settings_dict
    if connection.vendor == "sqlite":
        path = Path(s["NAME"])
        assert path.is_absolute() and path.exists(), f"the SQLite test database is {path}"
        return f"sqlite:///{path}"
    assert connection.vendor == "postgresql", f"no URL for {connection.vendor}"
    user = quote(s.get("USER") or "", safe="")
    if s.get("PASSWORD"):
        user += ":" + quote(s["PASSWORD"], safe="")
    host = s.get("HOST") or "localhost"
    host = quote(host, safe="") if host.startswith("/") else host
    port = f":{s['PORT']}" if s.get("PORT") else ""
    return f"postgres://{user}@{host}{port}/{quote(s['NAME'], safe='')}"


def redis_up(port: int = 6379) -> bool:
    """Whether Redis answers on 127.0.0.1 (CI's machines run one; elsewhere tests skip)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def skip_without_redis(port: int = 6379) -> None:
    """Skip the test that calls it where Redis doesn't answer on 127.0.0.1: asked as the test
    runs, since a module asking as it is imported would connect during collection."""
    if not redis_up(port):
        pytest.skip(f"no Redis on 127.0.0.1:{port}")


def server(env: dict[str, str], log: Path) -> Gunicorn:
    return Gunicorn(env, free_port(), log, ready_timeout=READY_TIMEOUT)


def request(
    port: int,
    method: str,
    path: str,
    body: dict[str, Any] | None = None,
    token: str | None = None,
    timeout: float = REQUEST_TIMEOUT,
    headers: dict[str, str] | None = None,
) -> tuple[int, Any]:
    """One request on a fresh connection: (status, JSON body or None)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        data, sent = encode(body, token)
        conn.request(method, path, data, {**sent, **(headers or {})})
        response = conn.getresponse()
        return response.status, decode(response.read())
    finally:
        conn.close()


def encode(body: dict[str, Any] | None, token: str | None) -> tuple[bytes | None, dict[str, str]]:
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return (json.dumps(body).encode() if body is not None else None), headers


def decode(data: bytes) -> Any:
    try:
        return json.loads(data)
    except ValueError:
        return None


def server_env(tmp_path: Path, lexica: Path, **overrides: str) -> dict[str, str]:
    """The production server's environment on the test database, with the word lists in
    ``lexica``, none of this shell's limits or cache, and ``overrides`` on top."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("LEXICON_", "CACHE_URL", "RATE_LIMIT_", "GUNICORN_CMD_ARGS"))
    }
    env.update(
        DATABASE_URL=database_url(),
        WEB_CONCURRENCY="2",
        SECRET_KEY="server-test-" + os.urandom(16).hex(),
        DEBUG="0",
        SECURE="0",
        ALLOWED_HOSTS="127.0.0.1",
        LEXICON_DIR=str(lexica),
        LEXICON_USER_DIR=str(tmp_path / "user-lexica"),
        LEXICON_CACHE_DIR=str(tmp_path / "lexicon-cache"),
        # The server's temporary files (its workers' live parts folder among them: a server
        # killed outright leaves it behind) go with the test's own.
        TMPDIR=str(tmp_path),
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    env.update(overrides)
    return env
