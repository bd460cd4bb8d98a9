"""The API's answers, byte for byte, are the recorded ones (``api_answers.py`` says how they
are recorded, normalized and recorded again)."""

from __future__ import annotations

import difflib
import json
import os

import pytest

from tests.factories import CLUB_WORDS

from .api_answers import FIXTURES, WORDS, dump, record, recording

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def club_lexicon(use_words):
    return use_words(CLUB_WORDS + " " + WORDS)


def test_every_answer_is_the_recorded_one(client):
    entries = record(client)
    if os.environ.get("RECORD_API_ANSWERS") == "1":
        recording().write_text(dump(entries))
        pytest.skip(f"recorded {len(entries)} answers in {recording().name}: review the diff")
    recorded = json.loads(recording().read_text())
    assert [e["name"] for e in entries] == [e["name"] for e in recorded]
    for got, want in zip(entries, recorded, strict=True):
        assert got == want, f"{got['name']}:\n" + difference(want, got)


def difference(want: dict[str, object], got: dict[str, object]) -> str:
    """Where two answers differ, line by line (a body split at its commas)."""
    lines = [
        json.dumps({**entry, "body": str(entry["body"]).split(", ")}, indent=1).splitlines()
        for entry in (want, got)
    ]
    return "\n".join(difflib.unified_diff(*lines, "recorded", "now", lineterm="", n=1))


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_the_recording_covers_every_route_and_each_kind_of_answer(database):
    recorded = json.loads((FIXTURES / f"api_answers.{database}.json").read_text())
    statuses = {e["status"] for e in recorded}
    assert {200, 201, 308, 400, 401, 403, 404, 405, 409, 413, 422, 429, 503} <= statuses
    routes = {(e["method"], e["path"].split("?")[0]) for e in recorded}
    for route in [
        ("GET", "/api/rulesets"),
        ("GET", "/api/lexicons"),
        ("POST", "/api/games/"),
        ("POST", "/api/games/import"),
        ("POST", "/api/analysis/"),
        ("GET", "/api/games/<uuid-1>/"),
        ("GET", "/api/games/<uuid-1>/turns/"),
        ("POST", "/api/games/<uuid-1>/turns/"),
        ("GET", "/api/games/<uuid-1>/export"),
    ]:
        assert route in routes, route
    kinds = {json.loads(e["body"])["turn"]["action"] for e in recorded if e["status"] == 201 and '"turn": {' in e["body"]}  # fmt: skip
    assert kinds >= {
        "play",
        "pass",
        "exchange",
        "undo",
        "challenge",
        "finish",
        "correct",
        "abandon",
    }
