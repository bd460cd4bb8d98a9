"""An event's live part asked for by the version a phone's stream told of (``?v=``) is answered
before Django, from the process's memory, as Django's path answers it: the same body, ETag,
304 and headers; never older than the version named; a version the process doesn't hold is
read from the record once, and what it can't answer (no version, a version not there yet, a
host Django refuses, a client past its count) is left to Django."""

from __future__ import annotations

import asyncio
import gzip
import time
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace
from typing import Any

import pytest

from bench.event_data import played_event
from scorekeeper.events.rounds import do_pair_round
from scorekeeper.models import Tournament
from scorekeeper.web import event_early, event_parts
from tests.factories import make_club

pytestmark = pytest.mark.django_db

CLOCK = 1_800_000_030.0  # half a minute into a limit's minute window
# What a server adds by itself, and Django's test client doesn't say.
OWN = {"content-length", "date", "server"}


def early(
    path: str, query: str = "", *headers: tuple[str, str], client: str = "127.0.0.1", times: int = 0
) -> Any:
    """(answered early, status, headers, body) of a GET of ``path``; with ``times``, a list of
    so many asked at once."""
    scope = {
        "type": "http", "method": "GET", "path": path, "query_string": query.encode(),
        "scheme": "http", "client": (client, 5000),
        "headers": [(b"host", b"testserver")]
        + [(name.lower().encode(), value.encode()) for name, value in headers],
    }  # fmt: skip

    async def one() -> tuple[bool, int, dict[str, str], bytes]:
        sent: list[dict[str, Any]] = []

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        if not await event_early.answer(scope, send):
            return False, 0, {}, b""
        start, body = sent
        said = {name.decode(): value.decode() for name, value in start["headers"]}
        return True, start["status"], said, body["body"]

    async def many() -> list[tuple[bool, int, dict[str, str], bytes]]:
        return await asyncio.gather(*(one() for _ in range(times)))

    # In a thread of its own: a test before (the browser's) may leave a loop running in this one.
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, many() if times else one()).result()


def django_headers(response: Any) -> dict[str, str]:
    return {name.lower(): value for name, value in response.headers.items()}


@pytest.fixture(autouse=True)
def fresh(monkeypatch):
    """No event's part held from another test (whose event may have had the same number, its
    transaction rolled back), nor any count; the counts' window stopped mid-minute."""
    event_parts._latest.clear()
    event_early._counts.clear()
    clock = SimpleNamespace(time=lambda: CLOCK, monotonic=time.monotonic)
    monkeypatch.setattr(event_early, "time", clock)
    yield
    event_parts._latest.clear()


@pytest.fixture
def unread(monkeypatch) -> list[int]:
    """The record is not read for a version not held (a reading thread has a connection of
    its own, outside the test's transaction: ``test_a_version_not_held_is_read_...``); the
    events it would have been read for."""
    asked: list[int] = []

    async def not_read(read: Any) -> None:
        asked.append(1)

    monkeypatch.setattr(event_early, "read_apart", not_read)
    return asked


@pytest.fixture
def event(unread) -> Tournament:
    return played_event(make_club(roster=()), players=8, rounds=4, played=2)


def test_a_part_held_is_answered_early_as_django_answers_it(client, event):
    path = f"/tournaments/{event.pk}/standings"
    for asked in ([], [("Accept-Encoding", "gzip, br")]):
        extra = {f"HTTP_{name.upper().replace('-', '_')}": value for name, value in asked}
        by_django = client.get(path, **extra)  # drawn, and held in memory
        answered, status, headers, body = early(path, f"v={event.version}", *asked)
        assert answered and status == 200
        assert body == by_django.content
        assert {k: v for k, v in headers.items() if k not in OWN} == {
            k: v for k, v in django_headers(by_django).items() if k not in OWN
        }
        assert headers["content-length"] == str(len(body))
        etag = headers["etag"]
        not_modified = client.get(path, HTTP_IF_NONE_MATCH=etag, **extra)
        answered, status, headers, body = early(
            path, f"v={event.version}", ("If-None-Match", etag), *asked
        )
        assert answered and (status, body) == (304, b"")
        assert {k: v for k, v in headers.items() if k not in OWN} == {
            k: v for k, v in django_headers(not_modified).items() if k not in OWN
        }
    gzipped = early(path, f"v={event.version}", ("Accept-Encoding", "gzip"))[3]
    assert gzip.decompress(gzipped) == client.get(path).content


def test_what_it_cannot_answer_goes_to_django(client, event, settings):
    path = f"/tournaments/{event.pk}/standings"
    client.get(path)
    assert early(path, f"v={event.version}")[0]
    assert not early(path)[0]  # no version named: Django reads the event's
    assert not early(path, "v=abc")[0]
    assert not early(f"/tournaments/{event.pk}/", f"v={event.version}")[0]
    settings.ALLOWED_HOSTS = ["example.org"]  # Django answers 400 for this host
    assert not early(path, f"v={event.version}")[0]


def test_the_answer_is_never_older_than_the_version_named(client, event, unread):
    path = f"/tournaments/{event.pk}/standings"
    first = client.get(path)
    do_pair_round(event, "swiss")
    event.refresh_from_db()
    # This process holds the version before: the one named is read from the record (not
    # here), and then it is Django's path that answers.
    assert not early(path, f"v={event.version}")[0] and len(unread) == 1
    second = client.get(path)
    assert second["ETag"] != first["ETag"]
    for version in (event.version, event.version - 1):
        answered, status, headers, body = early(path, f"v={version}")
        assert answered and headers["etag"] == second["ETag"] and body == second.content
    assert len(unread) == 1


def test_a_client_past_its_count_goes_to_django_which_refuses_it(client, event, settings):
    settings.RATE_LIMIT_EVENT_PAGES = 3
    path = f"/tournaments/{event.pk}/standings"
    assert client.get(path).status_code == 200  # Django's count: 1
    assert [early(path, f"v={event.version}")[0] for _ in range(4)] == [True] * 3 + [False]
    assert early(path, f"v={event.version}", client="10.0.0.2")[0]  # another client
    assert client.get(path).status_code == 200
    assert client.get(path).status_code == 200
    assert client.get(path, {"v": event.version}).status_code == 429


def test_a_deleted_event_is_not_answered_from_memory(client, event):
    path = f"/tournaments/{event.pk}/standings"
    client.get(path)
    Tournament.objects.filter(pk=event.pk).delete()
    event_parts.forget(event.pk)  # as the director's deleting it does
    assert not early(path, f"v={event.version}")[0]
    assert client.get(path, {"v": event.version}).status_code == 404


@pytest.mark.django_db(transaction=True)
def test_a_version_not_held_is_read_once_from_the_record(client, monkeypatch):
    event = played_event(make_club(roster=()), players=8, rounds=4, played=2)
    path = f"/tournaments/{event.pk}/standings"
    reads: list[int] = []
    read_latest = event_parts.read_latest
    monkeypatch.setattr(event_parts, "read_latest", lambda pk: reads.append(pk) or read_latest(pk))

    many = early(path, f"v={event.version}", times=8)  # eight phones at once: one read
    assert reads == [event.pk] and {(a, s, h["etag"]) for a, s, h, _ in many} == {
        (True, 200, f'"{event.pk}.{event.version}"')
    }
    assert many[0][3] == client.get(path).content
    assert not early(path, f"v={event.version + 1}")[0]  # not there yet: Django's path
    assert len(reads) == 2
    do_pair_round(event, "swiss")  # drawn where it commits, before the news goes out
    answered, status, headers, body = early(path, f"v={event.version + 1}")
    assert answered and headers["etag"] == f'"{event.pk}.{event.version + 1}"'
    assert len(reads) == 2
    Tournament.objects.filter(pk=event.pk).delete()
    assert not early(path, f"v={event.version + 2}")[0]
    assert event_parts.latest(event.pk) is None  # gone from memory too


def test_news_from_another_process_takes_the_part_drawn_there_into_memory(
    client, event, monkeypatch
):
    """A process that hears of an event's new version from another (Redis, or the record)
    takes the part drawn there into memory (``event_parts.hold``, in a thread of the hub's)
    before its pages hear the news; it never draws it itself, and one that holds it already
    reads nothing."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from scorekeeper.live.hub import hub

    path = f"/tournaments/{event.pk}/standings"
    monkeypatch.setattr(event_parts, "WAIT_SECONDS", 0.1)
    event_parts.hold(event.pk, event.version)  # not drawn anywhere: not drawn here either
    assert event_parts.latest(event.pk) is None
    event_parts.draw_for(event.pk)  # where it changed: drawn, and kept in the shared cache
    event_parts._latest.clear()
    event_parts._served.clear()
    event_parts.hold(event.pk, event.version)
    answered, status, headers, body = early(path, f"v={event.version}")
    assert answered and status == 200 and body == client.get(path).content
    with CaptureQueriesContext(connection) as read:
        event_parts.hold(event.pk, event.version)
    assert len(read) == 0

    # The hub holds the part before this process's pages hear of the new version.
    order: list[str] = []
    monkeypatch.setattr(hub, "_holding", [lambda pk, version: order.append(f"held {version}")])
    listener = hub.listen(f"event:{event.pk}")
    try:
        hub._heard(f"event:{event.pk}", {"event": event.pk, "version": 7})
        heard = listener.get(10)
        order.append(f"heard {heard and heard['version']}")
    finally:
        listener.leave()
    assert order == ["held 7", "heard 7"]
