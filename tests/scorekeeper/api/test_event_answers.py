"""The events' API answers, byte for byte, are the recorded ones (``event_answers.py`` says how
they are recorded, normalized and recorded again)."""

from __future__ import annotations

import json
import os

import pytest

from tests.factories import CLUB_WORDS

from .api_answers import dump
from .event_answers import difference, record, recording

pytestmark = pytest.mark.django_db(reset_sequences=True)  # the seats' draw reads the rows' ids


@pytest.fixture(autouse=True)
def club_lexicon(use_words):
    return use_words(CLUB_WORDS)


def test_every_event_answer_is_the_recorded_one(client):
    entries = record(client)
    if os.environ.get("RECORD_API_ANSWERS") == "1":
        recording().write_text(dump(entries))
        pytest.skip(f"recorded {len(entries)} answers in {recording().name}: review the diff")
    recorded = json.loads(recording().read_text())
    assert [e["name"] for e in entries] == [e["name"] for e in recorded]
    for got, want in zip(entries, recorded, strict=True):
        assert got == want, f"{got['name']}:\n" + difference(want, got)


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_the_recording_covers_every_route_of_the_events_api(database):
    from .event_answers import FIXTURES

    recorded = json.loads((FIXTURES / f"event_answers.{database}.json").read_text())
    assert {200, 201, 204, 308, 401, 403, 404, 409, 422} <= {e["status"] for e in recorded}
    routes = {(e["method"], e["path"].split("?")[0]) for e in recorded}
    event = "/api/tournaments/<event-1>"
    for route in [
        ("POST", "/api/clubs/"),
        ("POST", "/api/clubs/riverside/tournaments/"),
        ("POST", "/api/clubs/riverside/tournaments/import"),
        ("GET", "/api/clubs/riverside/tournaments/"),
        ("POST", f"{event}/rounds/"),
        ("DELETE", f"{event}/rounds/1"),
        ("POST", f"{event}/rounds/1/swap"),
        ("POST", f"{event}/players/"),
        ("POST", f"{event}/withdrawals/"),
        ("POST", f"{event}/forfeits/"),
        ("POST", f"{event}/results/"),
        ("PUT", f"{event}/results/"),
        ("GET", f"{event}/results/"),
        ("POST", f"{event}/results/void"),
        ("GET", f"{event}/standings"),
        ("GET", f"{event}/standings.csv"),
        ("GET", f"{event}/export.t"),
        ("PATCH", event),
        ("DELETE", "/api/tournaments/<event-3>"),
    ]:
        assert route in routes, route
