"""Pages go gzipped to a browser that takes it; a screen's stream of events never does (each
event must reach the screen as it is sent)."""

from __future__ import annotations

import gzip

import pytest
from django.test import Client

from tests.factories import ApiGame

pytestmark = pytest.mark.django_db


def test_the_scorer_page_is_sent_gzipped_and_reads_the_same():
    client = Client()
    game = ApiGame(client)
    client.get(f"/games/{game.id}/score/{game.token}/")  # the scorer's cookie
    plain = client.get(f"/games/{game.id}/score/")
    packed = client.get(f"/games/{game.id}/score/", HTTP_ACCEPT_ENCODING="gzip")
    assert plain.status_code == packed.status_code == 200
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    assert len(packed.content) < len(plain.content) / 4
    page = gzip.decompress(packed.content).decode()
    assert 'role="grid"' in page and "Submit" in page


def test_an_api_answer_is_gzipped_too():
    client = Client()
    game = ApiGame(client)
    answer = client.get(f"/api/games/{game.id}/", HTTP_ACCEPT_ENCODING="gzip")
    assert answer["Content-Encoding"] == "gzip"
    assert b'"id"' in gzip.decompress(answer.content)


def test_a_screen_s_stream_of_events_is_never_gzipped():
    client = Client()
    game = ApiGame(client)
    stream = client.get(f"/games/{game.id}/events", HTTP_ACCEPT_ENCODING="gzip")
    try:
        assert stream["Content-Type"].startswith("text/event-stream")
        assert not stream.has_header("Content-Encoding")
    finally:
        stream.close()
