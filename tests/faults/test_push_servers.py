"""Push across servers: a screen connected to one server (gunicorn, config/gunicorn.conf.py,
ASGI) hears of a turn entered through another, through Redis pub/sub (REDIS_URL; where Redis
answers on 127.0.0.1:6379, as on CI's machines) or, with no broker, through the database; and
the server's stream sends what a reconnecting screen missed."""

from __future__ import annotations

import http.client
import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from tests.servers import request, server, server_env, skip_without_redis

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = "MOOD DEAR NET ON WOOD"
MOOD = [
    {"row": 4, "col": c, "letter": letter} for c, letter in zip(range(3, 7), "MOOD", strict=True)
]


class Screen:
    """A screen's open stream of a game's events, on a server (raw HTTP, as a browser sends)."""

    def __init__(self, port: int, path: str, last: int | None = None) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        headers = {"Accept": "text/event-stream"}
        if last is not None:
            headers["Last-Event-ID"] = str(last)
        self.conn.request("GET", path, headers=headers)
        self.response = self.conn.getresponse()
        assert self.response.status == 200, self.response.read()
        assert self.response.getheader("Content-Type") == "text/event-stream"

    def next_event(self, timeout: float) -> dict[str, Any]:
        """The next event (comments skipped), within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        fields: dict[str, Any] = {}
        while (left := deadline - time.monotonic()) > 0:
            assert self.conn.sock is not None
            self.conn.sock.settimeout(left)
            line = self.response.readline().decode()
            if line in ("\n", "") and "event" in fields:
                return fields
            name, _, value = line.rstrip("\n").partition(": ")
            if name in ("event", "id"):
                fields[name] = value
            elif name == "data":
                fields["data"] = json.loads(value)
        raise AssertionError(f"no event in {timeout} s")

    def close(self) -> None:
        self.conn.close()


def club_lexica(tmp_path: Path) -> Path:
    """A folder with the word list the games here are checked against (CLUB)."""
    lexica = tmp_path / "lexica"
    lexica.mkdir()
    (lexica / "CLUB.txt").write_text("\n".join(sorted(WORDS.split())) + "\n")
    return lexica


def start_game(port: int) -> dict[str, Any]:
    """A new game of Ann's and Ben's on the server at ``port``: its id and scorer's token."""
    status, game = request(
        port, "POST", "/api/games/",
        {"ruleset": "upwords-10", "lexicon": "CLUB", "players": ["Ann", "Ben"]},
    )  # fmt: skip
    assert status == 201, game
    return dict(game)


def play_mood(port: int, game: dict[str, Any]) -> None:
    """Ann's opening, MOOD at 5D, entered through the server at ``port``."""
    status, answer = request(
        port, "POST", f"/api/games/{game['id']}/turns/",
        {"action": "play", "tiles": MOOD, "expected_turn": 1}, token=game["token"],
    )  # fmt: skip
    assert status == 201, answer


WITH_REDIS = pytest.param(
    {"REDIS_URL": "redis://127.0.0.1:6379/14", "WEB_CONCURRENCY": "1"},
    id="redis",
    marks=pytest.mark.redis,
)
# No broker: each server's workers read the database for each other's changes.
THROUGH_THE_RECORD = pytest.param({"WEB_CONCURRENCY": "2"}, id="the-record")


@pytest.mark.parametrize("push", [WITH_REDIS, THROUGH_THE_RECORD])
def test_a_screen_on_one_server_hears_a_turn_entered_through_another(
    tmp_path: Path, push: dict[str, str]
) -> None:
    if "REDIS_URL" in push:
        skip_without_redis()
    lexica = club_lexica(tmp_path)
    env = server_env(tmp_path, lexica, **push)
    first = server(env, tmp_path / "gunicorn-1.log")
    second = server(env, tmp_path / "gunicorn-2.log")
    screens: list[Screen] = []
    try:
        first.start()
        second.start()
        game = start_game(first.port)
        screen = Screen(first.port, f"/games/{game['id']}/events")
        screens.append(screen)
        assert screen.next_event(5)["event"] == "ready"

        play_mood(second.port, game)
        heard = screen.next_event(2)
        assert heard["event"] == "turn" and heard["id"] == "1"
        assert heard["data"]["player"] == "Ann" and heard["data"]["notation"] == "5D MOOD"
        assert time.time() - heard["data"]["at"] < 2  # from the commit

        # Two more turns while a second screen is away; it comes back with Last-Event-ID 1.
        for number in (2, 3):
            status, answer = request(
                second.port, "POST", f"/api/games/{game['id']}/turns/",
                {"action": "pass", "expected_turn": number}, token=game["token"],
            )  # fmt: skip
            assert status == 201, answer
        assert [screen.next_event(2)["id"] for _ in range(2)] == ["2", "3"]
        back = Screen(second.port, f"/games/{game['id']}/events", last=1)
        screens.append(back)
        got = [back.next_event(5) for _ in range(3)]
        assert [(e["event"], e.get("id")) for e in got] == [
            ("ready", "1"),
            ("turn", "2"),
            ("turn", "3"),
        ]
    finally:
        for screen in screens:
            screen.close()
        first.stop()
        second.stop()


def test_workers_with_no_broker_share_the_live_part_in_a_folder_of_their_own(
    tmp_path: Path,
) -> None:
    """Two workers and no Redis: the spectator's live part, drawn for a screen, is kept where
    the other worker reads it instead of drawing it again, in a folder the server makes (this
    user's only) and removes when it stops."""
    import stat

    from scorekeeper.web.live_parts import RenderedParts, SharedParts

    lexica = club_lexica(tmp_path)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    # A server killed outright left its folder; one still running has its own.
    gone, running_elsewhere = (
        scratch / f"live-parts-{dead_pid()}-x1",
        scratch / f"live-parts-{os.getpid()}-x2",
    )
    gone.mkdir()
    running_elsewhere.mkdir()
    env = server_env(tmp_path, lexica, TMPDIR=str(scratch), WEB_CONCURRENCY="2")
    env.pop("REDIS_URL", None)
    env.pop("LIVE_PARTS_DIR", None)
    running = server(env, tmp_path / "gunicorn.log")
    screen = None
    try:
        running.start()
        assert running.process is not None
        folders = list(scratch.glob(f"live-parts-{running.process.pid}-*"))
        assert len(folders) == 1 and stat.S_IMODE(folders[0].stat().st_mode) == 0o700
        assert not gone.exists() and running_elsewhere.exists()
        game = start_game(running.port)
        screen = Screen(running.port, f"/games/{game['id']}/events?part=live")
        # Waits bounded by a deadline, not a time: a loaded machine's workers may be slow.
        assert screen.next_event(30)["event"] == "ready"
        play_mood(running.port, game)
        event = screen.next_event(30)["data"]
        part = event["part"]
        assert "Last play: Ann" in part
        # Kept for the others before any screen is sent it (whichever worker drew it, and
        # whether the screen heard the change or caught up with it), readable by this user only.
        key = f"{game['id']}:#{event['entry']}"
        kept = Path(SharedParts(str(folders[0])).path(key))
        assert stat.S_IMODE(kept.stat().st_mode) == 0o600
        # The screen's worker marked its game as shown there (its marking thread, at once),
        # for a minute at most.
        marks = folders[0] / "marks"
        deadline = time.monotonic() + 30
        while not (marks.is_dir() and any(marks.iterdir())) and time.monotonic() < deadline:
            time.sleep(0.05)
        (mark,) = marks.iterdir()
        assert time.time() < mark.stat().st_mtime <= time.time() + 60
        # As another worker reads it:
        assert RenderedParts(1, str(folders[0])).get_shared(key) == part
    finally:
        if screen is not None:
            screen.close()
        running.stop()
    assert list(scratch.glob("live-parts-*")) == [running_elsewhere]


def dead_pid() -> int:
    """A process id that no process has just now."""
    pid = 4_000_000
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return pid
        except PermissionError:
            pass
        pid -= 1


def test_a_worker_stopped_with_screens_open_lets_them_go_and_exits_in_its_graceful_time(
    tmp_path: Path,
) -> None:
    """A worker replaced (``max_requests``) or stopped with the server: its screens' streams
    never end by themselves, and uvicorn's own worker waited for them until the master killed
    it (30 s, a worker timeout). This one ends them within gunicorn's ``graceful_timeout`` and
    exits by itself; the master starts another, where the screen comes back for what it
    missed."""
    import signal
    import socket

    lexica = club_lexica(tmp_path)
    env = server_env(
        tmp_path, lexica, WEB_CONCURRENCY="1", GUNICORN_CMD_ARGS="--graceful-timeout 2"
    )
    env.pop("REDIS_URL", None)
    running = server(env, tmp_path / "gunicorn.log")
    screens: list[Screen] = []
    try:
        running.start()
        assert running.process is not None
        game = start_game(running.port)
        stream = socket.create_connection(("127.0.0.1", running.port), timeout=5)
        stream.sendall(
            f"GET /games/{game['id']}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Accept: text/event-stream\r\n\r\n".encode()
        )
        said = b""
        while b"event: ready" not in said:
            said += stream.recv(65536)
        (worker,) = children(running.process.pid)
        stopped = time.monotonic()
        os.kill(worker, signal.SIGTERM)
        ended = None
        stream.settimeout(0.5)
        while time.monotonic() - stopped < 15:
            try:
                if stream.recv(65536):
                    continue
            except TimeoutError:  # nothing yet: the stream is still open
                continue
            except OSError:
                pass
            ended = time.monotonic() - stopped  # the stream is over
            break
        stream.close()
        assert ended is not None and ended < 6, ended  # 2 s of grace; not the 30 s timeout
        for _ in range(100):  # the worker is gone, by itself
            if worker not in children(running.process.pid):
                break
            time.sleep(0.05)
        assert worker not in children(running.process.pid)
        # Its replacement serves the screen again, with what it missed.
        for _ in range(100):
            if children(running.process.pid):
                break
            time.sleep(0.1)
        play_mood(running.port, game)
        back = Screen(running.port, f"/games/{game['id']}/events", last=0)
        screens.append(back)
        assert [back.next_event(5).get("id") for _ in range(2)] == ["0", "1"]
    finally:
        for screen in screens:
            screen.close()
        running.stop()
    assert "WORKER TIMEOUT" not in (tmp_path / "gunicorn.log").read_text()


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (a gunicorn master's workers)."""
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as stat:
                if int(stat.read().rpartition(b")")[2].split()[1]) == pid:
                    found.append(int(entry.name))
        except (OSError, IndexError, ValueError):
            continue
    return found
