"""One determined client against the production server (gunicorn with uvicorn's workers,
config/gunicorn.conf.py): slow heads and bodies, endless streams and idle connections, huge
heads and bodies. Each is refused within its bound, and another client (another loopback
address: the whole of 127/8 is this machine) is served meanwhile."""

from __future__ import annotations

import http.client
import json
import select
import socket
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.server import Gunicorn, free_port
from tests.servers import READY_TIMEOUT, request, server_env

pytestmark = pytest.mark.django_db(transaction=True)

# The attacker's address is its own: the readiness probe's connection (from 127.0.0.1), closed
# but not yet seen closed by a loaded worker, would count as one of its connections.
ATTACKER, OTHER = "127.0.0.3", "127.0.0.2"


def lexica(tmp_path: Path) -> Path:
    folder = tmp_path / "lexica"
    folder.mkdir(exist_ok=True)
    (folder / "CLUB.txt").write_text("DEAR\nMOOD\n")
    return folder


def running(tmp_path: Path, descriptors: int | None = None, **env: str) -> Iterator[Gunicorn]:
    gunicorn = Gunicorn(
        server_env(tmp_path, lexica(tmp_path), **env),
        free_port(),
        tmp_path / "gunicorn.log",
        ready_timeout=READY_TIMEOUT,
        descriptors=descriptors,
    )
    try:
        gunicorn.start()
        yield gunicorn
    finally:
        gunicorn.stop()


def connect(port: int, source: str = ATTACKER) -> socket.socket:
    sock = socket.socket()
    sock.bind((source, 0))
    sock.settimeout(10)
    sock.connect(("127.0.0.1", port))
    return sock


def status_of(sock: socket.socket, timeout: float = 10) -> int | None:
    """The status the server answered on ``sock``, or None if it closed it unanswered."""
    sock.settimeout(timeout)
    head = sock.recv(200)
    return int(head.split(b" ")[1]) if head else None


def health(port: int, source: str = OTHER, timeout: float = 5) -> int:
    conn = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=timeout, source_address=(source, 0)
    )
    try:
        conn.request("GET", "/healthz")
        return conn.getresponse().status
    finally:
        conn.close()


def stream(port: int, game: str, source: str = ATTACKER) -> socket.socket:
    sock = connect(port, source)
    sock.sendall(f"GET /games/{game}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    return sock


def new_game(port: int) -> str:
    body = {"ruleset": "upwords-10", "lexicon": "CLUB", "players": ["Ann", "Ben"]}
    status, created = request(port, "POST", "/api/games/", body)
    assert status == 201, created
    return str(created["id"])


def test_bodies_sent_a_byte_at_a_time_hold_no_thread_and_are_refused_in_their_time(tmp_path):
    """Before, a body that came in parts was read in a request thread with no deadline: a
    few such clients held every thread of the worker, and nothing else was answered."""
    for gunicorn in running(tmp_path, WEB_CONCURRENCY="1", THREADS="2", REQUEST_BODY_SECONDS="3"):
        slow = []
        for _ in range(6):
            sock = connect(gunicorn.port)
            sock.sendall(
                b"POST /api/games/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\nContent-Length: 500\r\n\r\n{"
            )
            slow.append(sock)
        time.sleep(0.5)
        for sock in slow:
            sock.sendall(b" ")
        assert health(gunicorn.port) == 200  # a thread was free for it
        assert [status_of(sock) for sock in slow] == [408] * 6


def test_one_client_s_streams_are_capped_across_the_workers_and_others_still_get_theirs(
    tmp_path,
):
    for gunicorn in running(tmp_path, WEB_CONCURRENCY="2", CLIENT_MAX_STREAMS="5"):
        game = new_game(gunicorn.port)
        screens = [stream(gunicorn.port, game) for _ in range(9)]
        statuses = [status_of(sock) for sock in screens]
        answers = Counter(statuses)
        # Never more than five. Two workers taking the last place at once may both refuse,
        # leaving it free: opened one by one, the rest fill it, and no more are let in.
        assert set(answers) == {200, 429} and 4 <= answers[200] <= 5, answers
        for _ in range(5 - answers[200]):
            screens.append(stream(gunicorn.port, game))
            assert status_of(screens[-1]) == 200
        refused = stream(gunicorn.port, game)
        assert status_of(refused) == 429
        refused.close()
        other = stream(gunicorn.port, game, OTHER)
        assert status_of(other) == 200
        for sock in screens:  # a client's streams closed are counted no more
            sock.close()
        deadline = time.monotonic() + 10
        while True:
            again = stream(gunicorn.port, game)
            if status_of(again) == 200 or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert status_of(stream(gunicorn.port, game)) == 200
        other.close()


def test_one_client_s_idle_connections_are_capped_and_others_are_served(tmp_path):
    for gunicorn in running(tmp_path, WEB_CONCURRENCY="2", CLIENT_MAX_CONNECTIONS="6"):
        held = [connect(gunicorn.port) for _ in range(10)]
        pending, refused = list(held), []
        deadline = time.monotonic() + 5
        while len(refused) < 4 and time.monotonic() < deadline:
            for sock in select.select(pending, [], [], 0.2)[0]:
                refused.append(status_of(sock))
                pending.remove(sock)
        time.sleep(0.5)  # and no more than those
        refused += [status_of(sock) for sock in select.select(pending, [], [], 0)[0]]
        assert refused == [429] * 4
        assert health(gunicorn.port) == 200
        for sock in held:
            sock.close()


def test_a_venues_shared_address_holds_room_for_each_of_its_tables(tmp_path):
    """The venue's tables all reach the server from one address: named in SHARED_ADDRESSES
    (with its 2 tables), it holds 6 connections a table more; the refusal past that says what
    to set."""
    env = {"CLIENT_MAX_CONNECTIONS": "6", "SHARED_ADDRESSES": f"{ATTACKER}=2"}
    for gunicorn in running(tmp_path, WEB_CONCURRENCY="2", **env):
        held = [connect(gunicorn.port) for _ in range(18)]
        time.sleep(1)
        refused = select.select(held, [], [], 0)[0]
        assert len(refused) == 0  # 6 + 2 × 6 = 18 held
        extra = connect(gunicorn.port)
        extra.settimeout(10)
        answer = extra.recv(1000).decode()
        assert answer.startswith("HTTP/1.1 429") and "retry-after: 10" in answer
        assert "At most 18 open connections from one address" in answer
        assert "SHARED_ADDRESSES" in answer
        for sock in [*held, extra]:
            sock.close()


def test_a_head_too_long_too_many_or_too_slow_is_refused(tmp_path):
    for gunicorn in running(tmp_path, WEB_CONCURRENCY="1", REQUEST_HEAD_SECONDS="1"):
        long = connect(gunicorn.port)
        long.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: " + b"a" * 40_000 + b"\r\n\r\n")
        assert status_of(long) == 431
        many = connect(gunicorn.port)
        headers = b"".join(b"X-%d: a\r\n" % i for i in range(150))
        many.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers + b"\r\n")
        assert status_of(many) == 431
        slow, silent = connect(gunicorn.port), connect(gunicorn.port)
        slow.sendall(b"GET / HTTP/1.1\r\n")
        assert status_of(slow) == 408
        assert status_of(silent) == 408


def test_a_body_over_the_limit_is_refused_before_it_is_read(tmp_path):
    """A declared 200 MB upload is answered at once, nothing of it read (before, the page's
    CSRF check read it all to a temporary file first); one that comes without a length is
    refused as soon as it passes the limit."""
    for gunicorn in running(tmp_path, WEB_CONCURRENCY="1"):
        declared = connect(gunicorn.port)
        declared.sendall(
            b"POST /games/import/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-"
            b"data; boundary=x\r\nContent-Length: 200000000\r\n\r\n"
        )
        assert status_of(declared) == 413
        chunked = connect(gunicorn.port)
        chunked.sendall(b"POST /api/games/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        b"Transfer-Encoding: chunked\r\n\r\n")  # fmt: skip
        part = b"10000\r\n" + b"a" * 0x10000 + b"\r\n"
        try:
            for _ in range(60):  # 3.75 MB, over the 2.5 MB limit
                chunked.sendall(part)
            chunked.sendall(b"0\r\n\r\n")
        except OSError:
            pass  # refused and closed while it still sent
        answer = b""
        while part := chunked.recv(400):  # to the end: the refusal closes the connection
            answer += part
        assert answer.startswith(b"HTTP/1.1 413"), answer
        assert json.loads(answer.split(b"\r\n\r\n", 1)[1])["error"]["code"] == "too_large"
        assert not list(Path(tmp_path).glob("**/*.upload*"))


def test_a_process_short_of_descriptors_refuses_streams_before_it_runs_out(tmp_path):
    """Many clients' streams fill a process allowed 256 files: it refuses more streams (503,
    the page polls), and more connections, while it still has files for its database, so a
    health check and a turn are still answered. Before, it opened streams until every
    descriptor was taken, and its health checks failed."""
    for gunicorn in running(tmp_path, descriptors=256, WEB_CONCURRENCY="1"):
        game = new_game(gunicorn.port)
        screens = [
            stream(gunicorn.port, game, f"127.0.3.{client}")
            for client in range(1, 9)
            for _ in range(40)
        ]
        answers = Counter(status_of(sock) for sock in screens)
        assert answers[200] > 0 and answers[200] + answers[503] == len(screens), answers
        assert health(gunicorn.port) == 200
        status, _ = request(gunicorn.port, "POST", "/api/games/",
                            {"ruleset": "upwords-10", "lexicon": "CLUB", "players": ["A", "B"]})  # fmt: skip
        assert status == 201
        assert "Too many open files" not in gunicorn.log.read_text(errors="replace")
        for sock in screens:
            sock.close()
