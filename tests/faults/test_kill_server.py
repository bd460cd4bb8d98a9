"""Faults: kill the server (SIGKILL, the whole gunicorn process group) in the middle of a stream
of turns, restart it on the same database, and check that nothing acknowledged was lost and
nothing was half-applied.

The server is a real gunicorn (config/gunicorn.conf.py, two workers) in its own process group,
on the test database: SQLite in the first CI run, PostgreSQL when DATABASE_URL is set. Client
threads stream turns (the Hasbro plays, then one-tile exchanges) to several games with
``expected_turn``; every turn answered 201 is an acknowledgement. After a seeded number of
acknowledgements (20 to 40; FAULT_SEED changes it) the server is killed while requests are in
flight. Then:

- every acknowledged turn is stored, with its number, action, tiles and score;
- every game's ``turn_number`` is its last turn's number, its turns are numbered 1..n without a
  gap, each is the turn the script sent for that number, and the stored state replays from the
  log (``audit_game``, ``manage.py check_games``): no turn without its state change, and no
  state change without its turn;
- a game is at most one turn past its last acknowledgement, and only when a request for that
  turn was unanswered when the server died;
- on the restarted server the unanswered request, sent again with its Idempotency-Key once the
  slot its dead worker held is past its hold, is 201 with its entry, whether it had landed (then
  answered, not entered again) or not; the next ``expected_turn`` is accepted, a repeat of it
  is refused, and nothing is doubled.
"""

from __future__ import annotations

import http.client
import io
import json
import os
import random
import threading
import time
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from bench.sequences import HASBRO, tiles
from scorekeeper.games.consistency import audit_game
from scorekeeper.http import retries
from scorekeeper.models import Game, KeptAnswer, Turn
from tests.servers import REQUEST_TIMEOUT, encode, request, server, server_env

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
SEED = int(os.environ.get("FAULT_SEED", "20261121"))
GAMES = 6  # one client thread each: several requests are in flight when the server dies
# The words the Hasbro sequence forms, and a few more: the games are checked as played (auto).
WORDS = "MOOD DEAR NET ON WOOD WOOL LEAP SNACK LEAN PLUS NETS CAT AT TO"


# The script: turn n of every game --------------------------------------------------------------
def scripted(number: int) -> dict[str, Any]:
    """Turn ``number`` (from 1): the Hasbro plays, then one-tile exchanges."""
    if number <= len(HASBRO):
        return {"action": "play", "tiles": tiles(HASBRO[number - 1][0]), "expected_turn": number}
    return {"action": "exchange", "count": 1, "expected_turn": number}


def key_of(game: str, number: int) -> str:
    """The Idempotency-Key the client sends turn ``number`` of ``game`` with."""
    return f"{game}-{number}"


def scripted_score(number: int) -> int:
    return HASBRO[number - 1][1] if number <= len(HASBRO) else 0


@dataclass(frozen=True)
class Ack:
    game: str
    number: int
    action: str
    score: int


@dataclass
class Stream:
    """One game and the client thread that sends its turns."""

    game: str
    token: str
    next: int = 1  # the number of the next turn to send
    unanswered: dict[str, Any] | None = None  # sent when the server died: fate unknown
    error: str | None = None  # anything else that went wrong


class Turns:
    """Client threads, one per game, each sending its game's turns one after another."""

    def __init__(self, port: int, streams: list[Stream]) -> None:
        self.port = port
        self.streams = streams
        self.acks: list[Ack] = []
        self.in_flight: set[str] = set()  # games with a request sent and not yet answered
        self.killed = threading.Event()
        self.changed = threading.Condition()
        self.threads = [threading.Thread(target=self.run, args=(s,), daemon=True) for s in streams]

    def start(self) -> None:
        for thread in self.threads:
            thread.start()

    def join(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        for thread in self.threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        alive = [t.name for t in self.threads if t.is_alive()]
        assert not alive, f"client threads still running: {alive}"

    def run(self, stream: Stream) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=REQUEST_TIMEOUT)
        path = f"/api/games/{stream.game}/turns/"
        try:
            while not self.killed.is_set():
                body = scripted(stream.next)
                try:
                    data, headers = encode(body, stream.token)
                    headers["Idempotency-Key"] = key_of(stream.game, stream.next)
                    conn.request("POST", path, data, headers)
                    with self.changed:
                        self.in_flight.add(stream.game)
                    response = conn.getresponse()
                    data = response.read()
                except (OSError, http.client.HTTPException) as error:
                    if self.killed.is_set():
                        stream.unanswered = body
                    else:
                        stream.error = f"turn {stream.next}: {error!r}"
                    return
                finally:
                    with self.changed:
                        self.in_flight.discard(stream.game)
                if response.status != 201:
                    stream.error = f"turn {stream.next}: {response.status} {data[:300]!r}"
                    return
                turn = json.loads(data)["turn"]
                with self.changed:
                    self.acks.append(
                        Ack(stream.game, turn["number"], turn["action"], turn["score"])
                    )
                    stream.next += 1
                    self.changed.notify_all()
        except Exception as error:  # noqa: BLE001 - reported by the test, not lost in a thread
            stream.error = f"turn {stream.next}: {error!r}"
        finally:
            conn.close()
            with self.changed:
                self.changed.notify_all()

    def wait_for_acks(self, count: int, timeout: float) -> None:
        with self.changed:
            self.changed.wait_for(
                lambda: len(self.acks) >= count or any(s.error for s in self.streams),
                timeout=timeout,
            )
        errors = [f"{s.game}: {s.error}" for s in self.streams if s.error]
        assert not errors, "a turn failed before the kill:\n" + "\n".join(errors)
        assert len(self.acks) >= count, f"only {len(self.acks)} of {count} turns in {timeout} s"

    def wait_in_flight(self, at_least: int, timeout: float) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.changed:
                if len(self.in_flight) >= at_least:
                    break
            time.sleep(0.0005)
        with self.changed:
            return len(self.in_flight)


# Checks ----------------------------------------------------------------------------------------
def check_stored(streams: list[Stream], acks: list[Ack]) -> dict[str, int]:
    """Everything the test asserts about the database; the stored turn number of each game."""
    for ack in acks:
        turn = Turn.objects.filter(game_id=ack.game, number=ack.number).first()
        assert turn is not None, f"acknowledged turn {ack.number} of {ack.game} is lost"
        assert (turn.action, turn.score) == (ack.action, ack.score), (ack, turn)
    stored = {}
    for stream in streams:
        game = Game.objects.get(pk=stream.game)
        turns = list(Turn.objects.filter(game=game).order_by("number"))
        numbers = [t.number for t in turns]
        assert numbers == list(range(1, len(turns) + 1)), f"{game.pk}: turns {numbers}"
        assert game.last_entry_number == (numbers[-1] if numbers else 0), (
            f"{game.pk}: turn_number {game.last_entry_number}, last turn {numbers[-1:]}"
        )
        for turn in turns:  # each stored turn is the one sent for its number, applied once
            body = scripted(turn.number)
            assert turn.action == body["action"], (game.pk, turn.number, turn.action)
            assert turn.score == scripted_score(turn.number), (game.pk, turn.number, turn.score)
            if body["action"] == "play":
                sent = [[t["row"], t["col"], t["letter"]] for t in body["tiles"]]
                assert turn.tiles == sent, (game.pk, turn.number, turn.tiles)
            assert turn.undone_at is None
        assert audit_game(game) == [], f"{game.pk}: {audit_game(game)}"
        stored[stream.game] = game.last_entry_number
    call_command("check_games", stdout=io.StringIO())  # raises CommandError on any disagreement
    return stored


def held_by_the_dead() -> None:
    """The slots the killed server's requests held, past their hold: as a minute later."""
    KeptAnswer.objects.filter(status__isnull=True).update(
        started=timezone.now() - timedelta(seconds=retries.HOLD_SECONDS + 1)
    )


# The test --------------------------------------------------------------------------------------
def test_killing_the_server_mid_stream_loses_no_acknowledged_turn_and_half_applies_none(
    tmp_path: Path,
) -> None:
    if os.environ.get("DATABASE_URL", "").startswith(("postgres", "postgresql")):
        assert connection.vendor == "postgresql", "DATABASE_URL is PostgreSQL, the tests are not"
    rng = random.Random(SEED)
    kill_after = rng.randint(20, 40)
    lexica = tmp_path / "lexica"
    lexica.mkdir()
    (lexica / "CLUB.txt").write_text("\n".join(sorted(set(WORDS.split()))) + "\n")
    env = server_env(tmp_path, lexica, RATE_LIMIT_TURNS="0", RATE_LIMIT_GAMES="0")
    first = server(env, tmp_path / "gunicorn-1.log")
    second = server(env, tmp_path / "gunicorn-2.log")
    try:
        first.start()
        streams = []
        for i in range(GAMES):
            status, created = request(
                first.port,
                "POST",
                "/api/games/",
                {"ruleset": "upwords-10", "lexicon": "CLUB", "players": [f"Ann {i}", f"Ben {i}"]},
            )
            assert status == 201, created
            streams.append(Stream(created["id"], created["token"]))
        # The server writes where the test reads: the games it made are in the test database.
        assert Game.objects.filter(pk__in=[s.game for s in streams]).count() == GAMES

        turns = Turns(first.port, streams)
        turns.start()
        turns.wait_for_acks(kill_after, timeout=30)
        in_flight = turns.wait_in_flight(at_least=2, timeout=2)
        turns.killed.set()
        first.kill()
        turns.join(timeout=REQUEST_TIMEOUT + 5)
        assert in_flight >= 1, "no request was in flight when the server was killed"
        errors = [f"{s.game}: {s.error}" for s in streams if s.error]
        assert not errors, "\n".join(errors)
        acks = list(turns.acks)
        assert len(acks) >= kill_after
        assert len(set(acks)) == len(acks)

        second.start()
        stored = check_stored(streams, acks)
        last_acked_of = [stream.next - 1 for stream in streams]
        for stream, last_acked in zip(streams, last_acked_of, strict=True):
            if stored[stream.game] != last_acked:
                # Landed but unanswered: only the request that was in flight when it died.
                assert stream.unanswered is not None, (stream, stored[stream.game])
                assert stored[stream.game] == last_acked + 1 == stream.unanswered["expected_turn"]

        # The stream goes on. A request whose fate was unknown, sent again with its key once
        # its slot's hold has passed (the worker holding it is dead): 201 with its entry,
        # whether it had landed (answered, not entered again) or not (entered now). Then the
        # next turn is accepted and a repeat of it is refused.
        held_by_the_dead()
        for stream in streams:
            if stream.unanswered is not None:
                number = stream.unanswered["expected_turn"]
                status, answer = request(
                    second.port,
                    "POST",
                    f"/api/games/{stream.game}/turns/",
                    stream.unanswered,
                    stream.token,
                    headers={"Idempotency-Key": key_of(stream.game, number)},
                )
                assert status == 201, (status, answer)
                assert answer["turn"]["number"] == number
                assert answer["turn"]["action"] == stream.unanswered["action"]
                stream.next = number + 1
            assert stream.next == Game.objects.get(pk=stream.game).last_entry_number + 1
            for _ in range(3):
                body = scripted(stream.next)
                status, answer = request(
                    second.port, "POST", f"/api/games/{stream.game}/turns/", body, stream.token
                )
                assert status == 201, (status, answer)
                assert answer["turn"]["number"] == stream.next
                assert answer["turn"]["score"] == scripted_score(stream.next)
                again = request(
                    second.port, "POST", f"/api/games/{stream.game}/turns/", body, stream.token
                )
                assert again[0] == 409, again
                stream.next += 1

        final = check_stored(streams, acks)
        assert final == {s.game: s.next - 1 for s in streams}
        landed = sum(stored[s.game] > n for s, n in zip(streams, last_acked_of, strict=True))
        print(
            f"{connection.vendor}: killed after {len(acks)} acknowledged turns (seed {SEED}), "
            f"{in_flight} requests in flight, {sum(s.unanswered is not None for s in streams)} "
            f"unanswered, {landed} of them had landed; {sum(final.values())} turns in the end"
        )
    finally:
        first.stop()
        second.stop()


def test_a_turn_whose_worker_died_after_its_commit_is_answered_not_entered_again(
    tmp_path: Path,
) -> None:
    lexica = tmp_path / "lexica"
    lexica.mkdir()
    (lexica / "CLUB.txt").write_text("\n".join(sorted(set(WORDS.split()))) + "\n")
    one = server(server_env(tmp_path, lexica), tmp_path / "gunicorn.log")
    try:
        one.start()
        new = {"ruleset": "upwords-10", "lexicon": "CLUB", "players": ["Ann", "Ben"]}
        status, created = request(one.port, "POST", "/api/games/", new)
        assert status == 201, created
        path, token = f"/api/games/{created['id']}/turns/", created["token"]
        swap = request(one.port, "POST", path, {"action": "exchange", "count": 1}, token)
        assert swap[0] == 201, swap
        key = {"Idempotency-Key": "undo-1"}
        status, undo = request(one.port, "POST", path, {"action": "undo"}, token, headers=key)
        assert status == 201, undo
        # As if its worker was killed once the undo committed: no answer kept, the slot held.
        KeptAnswer.objects.update(status=None, content=b"", headers="{}")
        held_by_the_dead()
        status, again = request(one.port, "POST", path, {"action": "undo"}, token, headers=key)
        assert status == 201, again
        assert again["turn"] == undo["turn"]
        entries = Turn.objects.filter(game_id=created["id"]).order_by("number")
        assert list(entries.values_list("action", flat=True)) == ["exchange", "undo"]
    finally:
        one.stop()
