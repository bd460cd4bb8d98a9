"""Pages and the API under ASGI (config.asgi.Pages): each request run whole in a thread, its
answer handed back whole; a body in parts and a streamed answer go part by part."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from config.asgi import Pages


def scope(method: str = "GET", path: str = "/", headers: list[tuple[bytes, bytes]] | None = None):
    return {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "root_path": "", "headers": [(b"host", b"testserver"), *(headers or [])],
        "client": ("127.0.0.1", 50000), "server": ("testserver", 80),
    }  # fmt: skip


def served(
    app: Any, request: dict[str, Any], *bodies: bytes, on_send: Any = None
) -> list[dict[str, Any]]:
    """What ``app`` sends for ``request`` whose body comes in ``bodies`` (one message each)."""
    messages = [
        {"type": "http.request", "body": body, "more_body": i < len(bodies) - 1}
        for i, body in enumerate(bodies or (b"",))
    ]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        if messages:
            return messages.pop(0)
        await asyncio.sleep(3600)
        raise AssertionError("read past the request")

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)
        if on_send:
            on_send(message)

    # A loop of its own in a thread of its own (the browser tests leave one in this thread).
    raised: list[BaseException] = []

    def serve() -> None:
        try:
            asyncio.run(app(request, receive, send))
        except BaseException as error:  # noqa: BLE001 - raised again in the test's thread
            raised.append(error)

    server = threading.Thread(target=serve)
    server.start()
    server.join(60)
    if raised:
        raise raised[0]
    return sent


def content(sent: list[dict[str, Any]]) -> bytes:
    return b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


def test_an_answer_is_sent_whole_and_the_request_closed_after_it():
    """The status and the content in two messages; the request's close (Django's
    request_finished, where a turn's news is sent) runs after the answer is on its way, not
    before: the close here waits for the content to be sent."""
    closed: list[bool] = []
    body_sent, done = threading.Event(), threading.Event()

    class Answer(list[bytes]):
        def close(self) -> None:
            closed.append(body_sent.wait(10))
            done.set()

    def app(environ: dict[str, Any], start_response: Any) -> Answer:
        assert environ["wsgi.input"].read() == b'{"a": 1}'
        assert environ["CONTENT_TYPE"] == "application/json"
        start_response("201 Created", [("Content-Type", "application/json")])
        return Answer([b'{"ok": ', b"true}"])

    def on_send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.body":
            body_sent.set()

    request = scope("POST", "/api/x", [(b"content-type", b"application/json")])
    sent = served(Pages(app, threads=2), request, b'{"a": 1}', on_send=on_send)
    assert [m["type"] for m in sent] == ["http.response.start", "http.response.body"]
    assert sent[0]["status"] == 201
    assert sent[0]["headers"] == [(b"content-type", b"application/json")]
    assert not sent[1].get("more_body") and json.loads(sent[1]["body"]) == {"ok": True}
    assert done.wait(10) and closed == [True]


def test_a_close_that_fails_after_the_answer_is_logged(caplog):
    """The answer has gone: the error is the server log's, not the client's."""
    done = threading.Event()

    class Answer(list[bytes]):
        def close(self) -> None:
            done.set()
            raise RuntimeError("closing broke")

    def app(environ: dict[str, Any], start_response: Any) -> Answer:
        start_response("200 OK", [])
        return Answer([b"fine"])

    with caplog.at_level("ERROR", logger="django.request"):
        sent = served(Pages(app, threads=2), scope())
        assert done.wait(10)
        for _ in range(100):  # the log line comes just after close raised, in its thread
            if caplog.records:
                break
            threading.Event().wait(0.05)
    assert sent[0]["status"] == 200 and content(sent) == b"fine"
    assert [r.exc_info[1].args for r in caplog.records if r.exc_info] == [("closing broke",)]


def test_a_body_in_parts_is_read_whole():
    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        start_response("200 OK", [])
        return [environ["wsgi.input"].read()]

    sent = served(Pages(app, threads=2), scope("POST", "/up"), b"one,", b"two,", b"three")
    assert sent[0]["status"] == 200
    assert content(sent) == b"one,two,three"


def test_a_streamed_answer_goes_part_by_part_and_is_closed_in_its_thread():
    """The close comes after the last part is sent (as for a whole answer): waited for."""
    threads: dict[str, int] = {}
    names: list[str] = []
    closed = threading.Event()

    class Parts:
        streaming = True

        def __iter__(self) -> Iterator[bytes]:
            threads["iterated"] = threading.get_ident()
            yield from (b"a", b"b", b"c")

        def close(self) -> None:
            threads["closed"] = threading.get_ident()
            closed.set()

    def app(environ: dict[str, Any], start_response: Any) -> Parts:
        threads["called"] = threading.get_ident()
        names.append(threading.current_thread().name)
        start_response("200 OK", [("Content-Type", "text/csv")])
        return Parts()

    sent = served(Pages(app, threads=2), scope())
    assert [m.get("body") for m in sent[1:]] == [b"a", b"b", b"c", b""]
    assert [m.get("more_body", False) for m in sent[1:]] == [True, True, True, False]
    assert closed.wait(10)
    assert threads["called"] == threads["iterated"] == threads["closed"]
    assert names[0].startswith("WSGI")  # one of the pool's threads


def test_an_app_that_raises_raises_to_the_server():
    """The server answers 500 for it (uvicorn does, for an app that raises before it answered)."""

    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        raise RuntimeError("broken")

    with pytest.raises(RuntimeError, match="broken"):
        served(Pages(app, threads=2), scope())


@pytest.mark.django_db(transaction=True)
def test_a_turn_through_django_under_asgi_is_answered_and_lands():
    from django.core.wsgi import get_wsgi_application
    from django.db import connections

    from scorekeeper.models import Game

    pages = Pages(get_wsgi_application(), threads=1)

    def posted(path: str, body: Any, *headers: tuple[bytes, bytes]) -> list[dict[str, Any]]:
        data = json.dumps(body).encode()
        sized = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(data))]
        return served(pages, scope("POST", path, [*sized, *headers]), data)

    try:
        new = {"ruleset": "upwords-10", "lexicon": "CSW19", "players": ["Ann", "Ben"]}
        sent = posted("/api/games/", new)
        assert sent[0]["status"] == 201, content(sent)
        game = json.loads(content(sent))
        bearer = (b"authorization", f"Bearer {game['token']}".encode())
        turn = {"action": "pass", "expected_turn": 1}
        sent = posted(f"/api/games/{game['id']}/turns/", turn, bearer)
        assert sent[0]["status"] == 201, content(sent)
        assert Game.objects.get(pk=game["id"]).last_entry_number == 1
    finally:  # the thread's connection closed, or PostgreSQL's test database can't be dropped
        pages.executor.submit(connections.close_all).result(10)
        pages.executor.shutdown()
