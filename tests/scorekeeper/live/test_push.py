"""Push: each change reaches the open streams once it commits, and a reconnecting screen gets
exactly what it missed."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from bench.sequences import HASBRO
from referee import RefereeError
from scorekeeper.games import domain
from scorekeeper.live import stream as streams
from scorekeeper.live.hub import RESYNC, Hub, hub
from scorekeeper.live.news import club_channel, game_channel
from tests.factories import make_club, new_game
from tests.servers import skip_without_redis

pytestmark = pytest.mark.django_db


def events(raw: bytes) -> list[dict[str, Any]]:
    """The events in a stream's bytes: ``{"event", "id", "data"}`` each (comments left out)."""
    found = []
    for block in raw.decode().split("\n\n"):
        fields: dict[str, Any] = {}
        for line in block.splitlines():
            name, _, value = line.partition(": ")
            if name in ("event", "id"):
                fields[name] = value
            elif name == "data":
                fields["data"] = json.loads(value)
        if "event" in fields:
            found.append(fields)
    return found


def read(response) -> list[dict[str, Any]]:
    assert response.status_code == 200 and response["Content-Type"] == "text/event-stream"
    return events(b"".join(response.streaming_content))


def turns_from(sent, count: int) -> list[dict[str, Any]]:
    """The next ``count`` turn events of a stream, reading past keep-alives (a few at most)."""
    found: list[dict[str, Any]] = []
    for _ in range(40):
        found += [e for e in events(next(sent)) if e["event"] == "turn"]
        if len(found) >= count:
            return found
    raise AssertionError(f"only {found} in 40 chunks")


def played(game, count: int) -> None:
    for triples, _ in HASBRO[:count]:
        domain.act(game.pk, domain.TurnCommand("play", tiles=triples))


# Reconnecting ---------------------------------------------------------------------------------
def test_a_reconnect_with_last_event_id_gets_exactly_the_entries_it_missed(client, settings):
    settings.PUSH_STREAM_SECONDS = 0  # the stream ends after what was missed
    game = new_game()
    played(game, 4)
    sent = read(client.get(f"/games/{game.pk}/events", HTTP_LAST_EVENT_ID="2"))
    assert [(e["event"], e.get("id")) for e in sent] == [
        ("ready", "2"),
        ("turn", "3"),
        ("turn", "4"),
    ]
    third = sent[1]["data"]
    assert third["game"] == str(game.pk) and third["entry"] == 3 and third["action"] == "play"
    assert third["player"] == "Ann" and third["score"] == HASBRO[2][1]
    assert third["notation"] and len(third["totals"]) == 2


def test_the_page_says_where_it_was_with_after_and_the_header_wins(client, settings):
    settings.PUSH_STREAM_SECONDS = 0
    game = new_game()
    played(game, 3)
    by_query = read(client.get(f"/games/{game.pk}/events?after=1"))
    assert [e.get("id") for e in by_query] == ["1", "2", "3"]
    both = read(client.get(f"/games/{game.pk}/events?after=0", HTTP_LAST_EVENT_ID="3"))
    assert [e["event"] for e in both] == ["ready"]  # nothing missed
    fresh = read(client.get(f"/games/{game.pk}/events"))
    assert [(e["event"], e.get("id")) for e in fresh] == [("ready", "3")]  # from now on


def test_a_screen_too_far_behind_is_told_to_reload(client, settings, monkeypatch):
    settings.PUSH_STREAM_SECONDS = 0
    monkeypatch.setattr("scorekeeper.live.news.CATCH_UP_MOST", 2)
    game = new_game()
    played(game, 4)
    sent = read(client.get(f"/games/{game.pk}/events", HTTP_LAST_EVENT_ID="1"))
    assert [e["event"] for e in sent] == ["ready", "reload"]


@pytest.mark.parametrize("seen", ["-1", "x", "1.5", "99999999", "1,2"])
def test_a_last_event_id_that_is_no_entry_is_refused(client, seen):
    game = new_game()
    response = client.get(f"/games/{game.pk}/events", HTTP_LAST_EVENT_ID=seen)
    assert response.status_code == 400 and "log entry" in response.content.decode()


def test_a_last_event_id_past_the_end_counts_from_the_end(client, settings):
    settings.PUSH_STREAM_SECONDS = 0
    game = new_game()
    played(game, 1)
    sent = read(client.get(f"/games/{game.pk}/events", HTTP_LAST_EVENT_ID="40"))
    assert [(e["event"], e.get("id")) for e in sent] == [("ready", "1")]


def test_no_stream_for_a_game_that_is_not_there(client):
    response = client.get("/games/00000000-0000-0000-0000-000000000000/events")
    assert response.status_code == 404
    assert client.get("/clubs/nowhere/events").status_code == 404


def test_with_no_room_for_another_stream_the_page_polls(client, settings):
    settings.PUSH_THREAD_STREAMS = 0
    game = new_game()
    response = client.get(f"/games/{game.pk}/events")
    assert response.status_code == 503 and response["Retry-After"] == "60"


# Announcing -----------------------------------------------------------------------------------
def test_a_turn_is_announced_once_it_commits_and_a_refused_one_never(
    django_capture_on_commit_callbacks,
):
    game = new_game()
    listener = hub.listen(game_channel(game.pk))
    try:
        with django_capture_on_commit_callbacks(execute=False) as waiting:
            domain.act(game.pk, domain.TurnCommand("play", tiles=HASBRO[0][0]))
            assert listener.get(0) is None  # not before the commit
        for callback in waiting:
            callback()
        news = listener.get(1)
        assert news is not None and news["entry"] == 1 and news["score"] == HASBRO[0][1]
        with django_capture_on_commit_callbacks(execute=True), pytest.raises(RefereeError):
            domain.act(game.pk, domain.TurnCommand("play", tiles=[(0, 0, "Q")]))
        assert listener.get(0.05) is None
    finally:
        listener.leave()


@pytest.mark.redis
def test_with_a_broker_the_part_is_drawn_where_the_turn_commits_if_a_screen_shows_it(
    client, settings, django_capture_on_commit_callbacks
):
    """With Redis, the process that commits a turn draws the spectator's part once and the
    news carries it to every process, when a process has marked the game as shown on a
    screen (``Hub.listen(..., drawn=True)``); unmarked, the news goes without it."""
    skip_without_redis()
    import redis

    from scorekeeper.live import hub as hubs

    settings.REDIS_URL = "redis://127.0.0.1:6379/13"
    broker = redis.Redis.from_url(settings.REDIS_URL)
    following = broker.pubsub(ignore_subscribe_messages=True)
    following.subscribe(hubs.REDIS_CHANNEL)
    marking, publishing = Hub(), Hub()  # a process with a spectator screen, and the turn's
    game = new_game()
    channel = game_channel(game.pk)
    broker.zrem(hubs.DRAWN_KEY, channel)

    def published() -> dict[str, Any]:
        for _ in range(50):
            item = following.get_message(timeout=0.1)
            if item is not None:  # the news's JSON, then the part drawn for it
                head, _, part = item["data"].partition(b"\n")
                message = dict(json.loads(head)["message"])
                return {**message, "part": part.decode()} if part else message
        raise AssertionError("nothing published")

    try:
        with django_capture_on_commit_callbacks(execute=True):
            domain.act(game.pk, domain.TurnCommand("play", tiles=HASBRO[0][0]))
        assert "part" not in published()  # no screen shows it: not drawn

        screen = marking.listen(channel, drawn=True)
        for _ in range(50):  # the process's marking thread marks it at once
            if broker.zscore(hubs.DRAWN_KEY, channel):
                break
            time.sleep(0.05)
        assert broker.zscore(hubs.DRAWN_KEY, channel) > time.time() + hubs.DRAWN_FOR / 2
        assert publishing.wants_drawn(channel)
        with django_capture_on_commit_callbacks(execute=True):
            domain.act(game.pk, domain.TurnCommand("pass"))
        news = published()
        shown = client.get(f"/games/{game.pk}/watch/live", HTTP_HX_REQUEST="true")
        assert news["entry"] == 2 and news["part"] == shown.content.decode()
        screen.leave()
    finally:
        following.close()
        broker.zrem(hubs.DRAWN_KEY, channel)
        broker.close()


def test_without_a_broker_the_part_is_drawn_where_the_turn_commits_and_read_from_the_folder(
    settings, tmp_path, monkeypatch, django_capture_on_commit_callbacks, django_assert_num_queries
):
    """gunicorn's workers with no Redis between them share a folder of parts: a worker with a
    spectator screen of a game marks the game there, the worker where a turn of it commits
    draws its part once, after answering, and keeps it there, and the screen's worker finds it
    in its event loop, with no read of the game and no drawing. Unmarked, nothing is drawn."""
    import asyncio

    from scorekeeper.live import hub as hubs
    from scorekeeper.web import live_parts

    settings.LIVE_PARTS_DIR = str(tmp_path / "parts")
    settings.PUSH_WATCH_SECONDS = 0.5
    monkeypatch.setattr(Hub, "_watch_record", lambda self, every: None)  # no reading thread
    drawn: list[str] = []
    render = live_parts.render_to_string
    monkeypatch.setattr(
        live_parts, "render_to_string", lambda *a, **k: drawn.append(a[0]) or render(*a, **k)
    )
    live_parts.rendered_parts.parts.clear()
    screens = Hub()  # the worker with the spectator screen; ``hub`` is the turn's
    game = new_game()
    channel = game_channel(game.pk)
    heard = hub.listen(channel)  # a scorer's page where the turn commits: shows no part
    try:
        with django_capture_on_commit_callbacks(execute=True):
            domain.act(game.pk, domain.TurnCommand("play", tiles=HASBRO[0][0]))
        assert "part" not in heard.get(1) and drawn == []  # no screen shows it: not drawn

        screen = screens.listen(channel, drawn=True)
        for _ in range(50):  # the worker's marking thread marks it at once
            if hub.wants_drawn(channel):
                break
            time.sleep(0.05)
        assert hub.wants_drawn(channel)
        with django_capture_on_commit_callbacks(execute=True):
            domain.act(game.pk, domain.TurnCommand("pass"))
        news = heard.get(1)
        assert news["entry"] == 2 and "Last play: Ann" in news["part"]
        assert drawn == ["table/_live.html"]

        live_parts.rendered_parts.parts.clear()  # what the screen's worker has: only the folder
        said = {name: value for name, value in news.items() if name != "part"}  # as it heard
        sent = streams.GameStream(game.pk, 1, live_parts.pushed_part, live_parts.kept_part).take(
            said
        )
        assert isinstance(sent, streams.Rendering)
        with django_assert_num_queries(0):
            framed = asyncio.run(streams._frame(sent))
        (event,) = events(framed)
        assert event["data"]["part"] == news["part"] and drawn == ["table/_live.html"]

        screen.leave()  # and its mark runs out
        marks = hub._marks()
        assert marks is not None
        marks.forget(time.time() + hubs.DRAWN_FOR + 1)
        assert not hub.wants_drawn(channel)
    finally:
        heard.leave()
        live_parts.rendered_parts.parts.clear()


def test_a_requests_news_is_sent_once_it_has_answered_and_outside_a_request_at_once():
    """The turn's answer waits neither for drawing its news nor for the broker: the news goes
    from the request's thread once the answer is closed (``request_finished``)."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    sent: list[str] = []
    # As Django's test client does: a test's connection is not one to close between requests.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        request_started.send(sender=None)
        hub.soon(lambda: sent.append("the turn's news"))
        assert sent == []  # the answer first
        request_finished.send(sender=None)
        assert sent == ["the turn's news"]
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    hub.soon(lambda: sent.append("a command's news"))  # outside a request: now
    assert sent == ["the turn's news", "a command's news"]


def test_a_part_drawn_where_it_committed_goes_only_to_the_screens_that_show_it():
    drawn_here: list[str] = []
    spectator = streams.GameStream(
        "g1", 0, lambda game_id, entry=None: drawn_here.append(game_id) or ""
    )
    scorer = streams.GameStream("g1", 0)
    news = {"game": "g1", "entry": 1, "action": "pass", "part": "<p>drawn</p>"}
    sent = spectator.take(news)
    assert isinstance(sent, streams.Rendering) and sent.drawn == "<p>drawn</p>"
    (event,) = events(sent.framed(sent.drawn))
    assert event["data"]["part"] == "<p>drawn</p>" and drawn_here == []
    framed = scorer.take(news)
    assert isinstance(framed, bytes)
    (event,) = events(framed)
    assert event["id"] == "1" and "part" not in event["data"]


def test_a_club_game_is_news_for_the_directors_screen(django_capture_on_commit_callbacks):
    club = make_club()
    listener = hub.listen(club_channel(club.pk))
    try:
        with django_capture_on_commit_callbacks(execute=True):
            game = new_game(club=club)
            domain.act(game.pk, domain.TurnCommand("pass"))
        assert [(m["game"], m["entry"]) for m in (listener.get(1), listener.get(1))] == [
            (str(game.pk), 0),
            (str(game.pk), 1),
        ]
    finally:
        listener.leave()


# The stream ------------------------------------------------------------------------------------
def test_the_stream_sends_each_entry_once_in_order_and_catches_up_on_a_gap(settings):
    settings.PUSH_HEARTBEAT_SECONDS = 0.05
    game = new_game()
    played(game, 2)
    own = Hub()
    sent = streams.events_sync(streams.GameStream(game.pk, 1), own)
    assert [e["event"] for e in events(next(sent))] == ["ready"]
    assert [e["id"] for e in events(next(sent))] == ["2"]  # missed before it opened
    domain.act(
        game.pk, domain.TurnCommand("play", tiles=HASBRO[2][0])
    )  # its news is sent by hand, as the hub would
    own.deliver(game_channel(game.pk), {"entry": 2, "note": "already sent"})
    own.deliver(game_channel(game.pk), {"entry": 3, "note": "the next"})
    turns = events(next(sent))  # entry 2 was sent: skipped without a word
    assert [(e["id"], e["data"]["note"]) for e in turns] == [("3", "the next")]
    # Entries 4 and 5 committed, but only 5's news came: the record gives 4 and 5 in order.
    for triples, _ in HASBRO[3:5]:
        domain.act(game.pk, domain.TurnCommand("play", tiles=triples))
    own.deliver(game_channel(game.pk), {"entry": 5})
    caught = turns_from(sent, 2)
    assert [e["id"] for e in caught] == ["4", "5"] and caught[0]["data"]["entry"] == 4
    own.deliver("", RESYNC)  # news may have been lost: nothing new in the record, nothing sent
    assert [e for e in events(next(sent)) if e["event"] == "turn"] == []
    sent.close()
    assert own.count() == 0


def test_a_listener_that_falls_behind_catches_up_from_the_record(settings):
    settings.PUSH_HEARTBEAT_SECONDS = 0.05
    game = new_game()
    own = Hub()
    sent = streams.events_sync(streams.GameStream(game.pk, 0), own)
    next(sent)
    played(game, 2)
    for _ in range(200):  # far more than a listener holds
        own.deliver(game_channel(game.pk), {"entry": 99})
    assert [e["id"] for e in turns_from(sent, 2)] == ["1", "2"]
    sent.close()


def test_a_spectator_stream_sends_each_turn_with_the_live_part_rendered_once(client, settings):
    from scorekeeper.web import live_parts
    from scorekeeper.web.live import pushed_part

    settings.PUSH_HEARTBEAT_SECONDS = 0.05
    game = new_game()
    before = client.get(f"/games/{game.pk}/watch/live", HTTP_HX_REQUEST="true").content.decode()
    own = Hub()
    renders = []
    render = live_parts.render_to_string
    live_parts.render_to_string = lambda *a, **k: renders.append(a) or render(*a, **k)  # type: ignore[assignment]
    try:
        screens = [
            streams.events_sync(streams.GameStream(game.pk, 0, pushed_part), own) for _ in "TV"
        ]
        for sent in screens:
            next(sent)
        played(game, 1)
        own.deliver(game_channel(game.pk), {"entry": 1, "action": "play"})
        parts = [turns_from(sent, 1)[0]["data"]["part"] for sent in screens]
    finally:
        live_parts.render_to_string = render  # type: ignore[assignment]
    shown = client.get(f"/games/{game.pk}/watch/live", HTTP_HX_REQUEST="true")
    assert parts == [shown.content.decode()] * 2  # what a fetch gives, to both screens
    assert parts[0] != before  # the game after the play
    assert len(renders) == 1  # one render for both screens (and the fetch) in this process
    for sent in screens:
        sent.close()


def test_a_stream_asks_for_a_part_it_knows(client):
    game = new_game()
    refused = client.get(f"/games/{game.pk}/events?part=board")
    assert refused.status_code == 400 and "?part=" in refused.content.decode()


def test_streams_opened_together_keep_alive_and_end_at_moments_of_their_own(settings, monkeypatch):
    """A room of screens switched on at once must not send its keep-alives, nor reconnect, in
    one burst every time: each stream draws its moments, never later than the settings say."""
    import random

    settings.PUSH_HEARTBEAT_SECONDS, settings.PUSH_STREAM_SECONDS = 30, 300
    monkeypatch.setattr(streams, "_spread", random.Random(19))
    waits = [streams.keep_alive_in() for _ in range(200)]
    lives = [streams.lifetime() for _ in range(200)]
    assert all(15 <= w <= 30 for w in waits) and all(240 <= life <= 300 for life in lives)
    assert max(waits) - min(waits) > 10 and max(lives) - min(lives) > 40  # spread out
    settings.PUSH_STREAM_SECONDS = 0  # a test's stream that ends after what was missed
    assert streams.lifetime() == 0


def test_a_lost_stream_is_opened_again_at_a_moment_of_its_own_and_one_ended_in_its_time_at_once(
    client, settings, monkeypatch
):
    """A worker replaced, a server restarted: thousands of screens lose their streams at once
    and must not all open them again in the same two seconds. Each stream tells its browser
    its own wait (``retry:``, 2-17 s); a stream that ends because its time is up says, last,
    to come back at once (2 s), as it was meant to end."""
    import random
    import re

    monkeypatch.setattr(streams, "_spread", random.Random(19))
    settings.PUSH_STREAM_SECONDS = 0  # each stream ends in its time, after what was missed
    game = new_game()
    waits = []
    for _ in range(40):
        sent = b"".join(client.get(f"/games/{game.pk}/events").streaming_content).decode()
        said = [int(ms) for ms in re.findall(r"^retry: (\d+)$", sent, flags=re.M)]
        assert len(said) == 2 and said[-1] == streams.RETRY_MS  # the first, and the last words
        assert sent.endswith(f"retry: {streams.RETRY_MS}\n\n")
        waits.append(said[0])
    lowest, highest = streams.RETRY_MS, streams.RETRY_MS + streams.RETRY_SPREAD_MS
    assert all(lowest <= wait <= highest for wait in waits)
    assert max(waits) - min(waits) > streams.RETRY_SPREAD_MS / 2  # spread out
    director = streams.ClubStream(1).opening().decode()
    assert lowest <= int(re.match(r"retry: (\d+)\n", director).group(1)) <= highest


def test_the_screens_a_loop_serves_are_sent_one_event_drawn_once_even_if_one_closes(settings):
    """Every screen of a game in a process gets the same bytes for a change: its part drawn
    once, the event encoded once; a screen closing while the part is drawn takes nothing from
    the others."""
    import asyncio
    import threading

    settings.PUSH_HEARTBEAT_SECONDS = 5
    drawn: list[str] = []
    drawing = threading.Event()
    release = threading.Event()

    def part(game_id: str, entry: int | None = None) -> str:  # slow, as a read may be
        drawn.append(game_id)
        drawing.set()
        release.wait(5)
        return f"<p>{len(drawn)}</p>"

    own = Hub()

    async def screens() -> list[bytes]:
        sent = [streams.events_async(streams.GameStream("g1", 0, part), own) for _ in range(4)]
        for one in sent:
            await one.__anext__()  # ready (nothing missed: the record isn't read for "g1")
        waiting = [asyncio.ensure_future(one.__anext__()) for one in sent]
        await asyncio.sleep(0)
        own.deliver(game_channel("g1"), {"game": "g1", "entry": 1, "action": "pass"})
        await asyncio.to_thread(drawing.wait, 5)
        waiting[0].cancel()  # the first screen, whose event is being drawn, closes
        await asyncio.sleep(0.05)
        release.set()
        heard = list(await asyncio.gather(*waiting[1:]))
        for one in sent:
            await one.aclose()
        return heard

    heard: list[bytes] = []
    missed = streams.GameStream.catch_up
    streams.GameStream.catch_up = lambda self: b""  # type: ignore[method-assign]
    try:
        served = threading.Thread(target=lambda: heard.extend(asyncio.run(screens())))
        served.start()
        served.join(30)
    finally:
        streams.GameStream.catch_up = missed  # type: ignore[method-assign]
        streams.stop_reading()
    assert drawn == ["g1"]  # drawn once for the four screens
    assert len(heard) == 3 and len(set(heard)) == 1  # the same bytes to each still open
    (event,) = events(heard[0])
    assert event["id"] == "1" and event["data"]["part"] == "<p>1</p>"


@pytest.mark.django_db(transaction=True)
def test_streams_served_by_the_loop_share_a_few_database_connections():
    import asyncio
    import threading

    from django.db.backends.signals import connection_created

    from scorekeeper.web.live import pushed_part

    game = new_game()
    played(game, 1)
    own = Hub()
    opened: list[object] = []

    def count(sender, connection, **kwargs):  # type: ignore[no-untyped-def]
        opened.append(connection)

    async def screen() -> list[dict[str, Any]]:
        sent = streams.events_async(streams.GameStream(game.pk, 0, pushed_part), own)
        heard = events(await sent.__anext__()) + events(await sent.__anext__())
        await sent.aclose()
        return heard

    async def screens(many: int) -> list[list[dict[str, Any]]]:
        # Each in a task of its own, as the server serves each stream (its own context).
        return list(await asyncio.gather(*(screen() for _ in range(many))))

    connection_created.connect(count)
    heard: list[list[dict[str, Any]]] = []
    try:
        # A loop of its own in a thread of its own: the suite's browser tests leave one running
        # in this thread.
        served = threading.Thread(target=lambda: heard.extend(asyncio.run(screens(12))))
        served.start()
        served.join(30)
    finally:
        connection_created.disconnect(count)
        streams.stop_reading()
    # Each screen: ready, then the entry it missed with the part as it stands.
    assert len(heard) == 12
    assert all([e["event"] for e in h] == ["ready", "turn"] for h in heard)
    assert all("part" in h[1]["data"] for h in heard)
    assert 1 <= len(opened) <= streams.READ_THREADS  # not one a screen


@pytest.mark.django_db(transaction=True)
def test_open_streams_served_by_the_asgi_application_hold_no_thread_each():
    """Django's ASGI handler would give each request a thread of its own for its life; a
    stream lasts minutes, so each open screen held a thread (and its memory). Nor does each
    opening open a database connection of its own (when a server restarts, thousands of
    screens open their streams again at once)."""
    import asyncio
    import threading

    from asgiref.sync import SyncToAsync
    from django.db import connections
    from django.db.backends.signals import connection_created

    from config.asgi import application

    game = new_game()
    path = f"/games/{game.pk}/events"
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "root_path": "", "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 50000), "server": ("testserver", 80),
    }  # fmt: skip
    counted: dict[str, int] = {}
    heard: list[bytes] = []

    async def screens(many: int) -> None:
        gone = asyncio.Event()

        async def screen(ready: asyncio.Event) -> None:
            asked = False

            async def receive() -> dict[str, Any]:
                nonlocal asked
                if not asked:
                    asked = True
                    return {"type": "http.request", "body": b"", "more_body": False}
                await gone.wait()
                return {"type": "http.disconnect"}

            async def send(message: dict[str, Any]) -> None:
                body = message.get("body", b"")
                heard.append(body)
                if b"event: ready" in body:
                    ready.set()

            await application(scope, receive, send)

        readies = [asyncio.Event() for _ in range(many)]
        counted["before"] = threading.active_count()
        served = [asyncio.create_task(screen(ready)) for ready in readies]
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 30)
        counted["open"] = threading.active_count()
        gone.set()
        await asyncio.wait_for(asyncio.gather(*served), 30)

    opened: list[str] = []

    def count(sender: object, **kwargs: object) -> None:
        opened.append(threading.current_thread().name)

    connection_created.connect(count)
    # A loop of its own in a thread of its own (the browser tests leave one in this thread).
    done = threading.Thread(target=lambda: asyncio.run(screens(20)))
    try:
        done.start()
        done.join(60)
    finally:  # the threads' connections closed, or PostgreSQL's test database can't be dropped
        connection_created.disconnect(count)
        SyncToAsync.single_thread_executor.submit(connections.close_all).result(10)
        streams.stop_reading()
    assert sum(b"event: ready" in body for body in heard) == 20  # every stream opened
    # asgiref's one shared thread (and a2wsgi's, the readers') at most: not one a screen.
    assert counted["open"] - counted["before"] <= 3, counted
    # The shared thread's connection, and the readers': not one a screen.
    assert len(opened) <= 1 + streams.READ_THREADS, opened


def test_where_one_writer_commits_at_a_time_each_entry_is_read_once_however_late_its_stamp():
    """On SQLite the record is read by the entries' ids, which are in the order they commit:
    an entry whose commit came long after its stamp (a writer held up) is still heard, and
    each entry is read once, not again each time while its game is among those changed."""
    from datetime import timedelta

    from django.db import connection

    from scorekeeper.live.news import READ_TO, changes
    from scorekeeper.models import Turn

    if connection.vendor != "sqlite":
        pytest.skip("entries commit in the order of their ids only where one writer commits")
    game = new_game()
    followed = [str(game.pk)]
    known: dict[str, int] = {}
    assert changes(followed, [], known, time.time()) == []
    played(game, 1)
    # Its stamp 30 s old as it commits: further back than a reader by time would look.
    Turn.objects.filter(game=game, number=1).update(
        created_at=Turn.objects.get(game=game, number=1).created_at - timedelta(seconds=30)
    )
    found = changes(followed, [], known, time.time())
    assert [(channel, event["entry"]) for channel, event in found] == [(game_channel(game.pk), 1)]
    assert known[READ_TO] == Turn.objects.get(game=game, number=1).pk
    played_before = known[READ_TO]
    assert changes(followed, [], {str(game.pk): 0, READ_TO: played_before}, time.time()) == []


def test_the_record_says_what_changed_in_the_games_and_clubs_followed():
    """A process without a broker reads the record for changes (``news.changes``): the games
    its screens follow, the clubs' games, nothing else, and nothing twice."""
    import time

    from scorekeeper.live.news import READ_TO, changes

    club = make_club()
    followed, other, clubs_game = new_game(), new_game(), new_game(club=club)
    known: dict[str, int] = {}
    since = time.time()
    # The club's new game is news for its director's screen; the followed game has no entry.
    assert [(c, m["game"]) for c, m in changes([str(followed.pk)], [club.pk], known, since)] == [
        (club_channel(club.pk), str(clubs_game.pk))
    ]
    for game in (followed, other, clubs_game):
        played(game, 1)
    found = changes([str(followed.pk)], [club.pk], known, since)
    assert sorted(channel for channel, _ in found) == sorted(
        [game_channel(str(followed.pk)), club_channel(club.pk)]
    )
    heard = dict(found)[game_channel(str(followed.pk))]
    assert heard["entry"] == 1
    assert changes([str(followed.pk)], [club.pk], known, since) == []  # said once
    # Once the club's games are no longer among those changed lately, what was known of them
    # goes (a followed game's last entry stays); before that, nothing is said twice.
    assert changes([str(followed.pk)], [club.pk], known, time.time() + 60) == []
    assert set(known) - {READ_TO} == {str(followed.pk)}
    assert changes([], [club.pk], known, since) == [
        (club_channel(club.pk), {"game": str(clubs_game.pk), "entry": 1, "at": since})
    ]  # the club's game changed lately again, as far as a reader from ``since`` can tell
    assert changes([], [club.pk], known, since) == []
