"""An event's stream: its pages hear of the event's own changes (a game of it ends, a result,
a pairing), never of a turn at one of its tables."""

from __future__ import annotations

import time
from typing import Any

import pytest

from bench.event_data import played_event
from scorekeeper.events.rounds import do_pair_round
from scorekeeper.games import domain
from scorekeeper.live import stream as streams
from scorekeeper.live.hub import RESYNC, Hub, hub
from scorekeeper.live.news import changes, event_channel
from scorekeeper.models import Tournament
from tests.factories import make_club

pytestmark = pytest.mark.django_db


def said(raw: bytes) -> list[tuple[str, str]]:
    """(event, id) of each event in a stream's bytes."""
    found = []
    for block in raw.decode().split("\n\n"):
        fields = dict(line.partition(": ")[::2] for line in block.splitlines())
        if "event" in fields:
            found.append((fields["event"], fields.get("id", "")))
    return found


def test_an_event_stream_opens_with_a_refresh_only_if_the_event_moved_on():
    event = played_event(make_club(roster=()), players=4, rounds=3, played=1)
    version = Tournament.objects.get(pk=event.pk).version
    same = streams.EventStream(event.pk, str(version))
    assert same.catch_up() == b""
    behind = streams.EventStream(event.pk, str(version - 1))
    assert said(behind.catch_up()) == [("refresh", str(version))]
    assert said(streams.EventStream(event.pk, None).catch_up()) == [("refresh", str(version))]


def test_an_event_stream_says_each_new_version_once():
    stream = streams.EventStream(7, "3")
    assert stream.take({"event": 7, "version": 3}) == b""  # the page shows it
    assert said(stream.take({"event": 7, "version": 4})) == [("refresh", "4")]
    assert stream.take({"event": 7, "version": 4}) == b""  # said once
    assert stream.take({"event": 7, "version": 2}) == b""  # late news of an older one
    assert stream.take(RESYNC) is streams.CATCH_UP


def test_a_game_of_the_event_is_news_on_its_channel_when_it_ends_not_on_a_turn(
    django_capture_on_commit_callbacks,
):
    event = played_event(make_club(roster=()), players=4, rounds=3, played=0)
    do_pair_round(event, "swiss")
    game = event.round_set.get().pairings.exclude(game=None).first().game
    listener = hub.listen(event_channel(event.pk))
    try:
        with django_capture_on_commit_callbacks(execute=True):
            domain.act(game.pk, domain.TurnCommand("pass"))
        assert listener.get(0.2) is None
        with django_capture_on_commit_callbacks(execute=True):
            domain.act(game.pk, domain.TurnCommand("finish"))
        heard = listener.get(1)
        assert heard is not None and heard["version"] == Tournament.objects.get(pk=event.pk).version
    finally:
        listener.leave()


def test_the_stream_over_http_sends_nothing_for_a_turn_and_a_refresh_for_a_result(client, settings):
    settings.PUSH_HEARTBEAT_SECONDS = 0.05
    event = played_event(make_club(roster=()), players=4, rounds=3, played=0)
    do_pair_round(event, "swiss")
    version = Tournament.objects.get(pk=event.pk).version
    own = Hub()
    sent = streams.events_sync(streams.EventStream(event.pk, str(version)), own)
    assert [e for e, _ in said(next(sent))] == ["ready"]
    own.deliver(event_channel(event.pk), {"event": event.pk, "version": version + 1, "at": 0})
    chunks = [next(sent) for _ in range(2)]
    assert ("refresh", str(version + 1)) in said(b"".join(chunks))
    sent.close()
    assert client.get("/tournaments/99999/events").status_code == 404


def test_without_a_broker_a_process_reads_an_events_version_for_changes():
    event = played_event(make_club(roster=()), players=4, rounds=3, played=0)
    known: dict[str, Any] = {}
    since = time.time()
    assert changes([], [], known, since, [event.pk]) == []  # the first read: what it is now
    do_pair_round(event, "swiss")
    found = changes([], [], known, since, [event.pk])
    version = Tournament.objects.get(pk=event.pk).version
    assert [(c, m["version"]) for c, m in found] == [(event_channel(event.pk), version)]
    assert changes([], [], known, since, [event.pk]) == []  # said once
