"""Solo games: after each play, how it compares with the best the rack allowed; at the end,
the points found against the points possible."""

from __future__ import annotations

import threading
from unittest import mock

import pytest

from referee import get_library
from scorekeeper.models import Turn
from tests.factories import scorer, start

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def ready():
    get_library().get("CLUB").prepare_analysis()


def play(client, game, notation: str, rack: str = ""):
    game.refresh_from_db()
    data = {
        "action": "play",
        "play": notation,
        "rack": rack,
        "expected_turn": game.last_entry_number + 1,
    }
    return client.post(scorer(game) + "turn", data, follow=True).content.decode()


def test_a_solo_player_is_told_how_each_play_compares_and_the_end_sums_it_up(client):
    game = start(client, player_2="")
    assert 'name="rack"' in client.get(scorer(game)).content.decode()
    page = play(client, game, "5D MOOD", rack="MOODXYZ")
    assert "That was the best play." in page
    # W on the M makes WOOD (5); with E, A and R on the rack DEAR down from the D made 8.
    page = play(client, game, "D5 W", rack="WEARXYZ")
    turns = list(Turn.objects.filter(game_id=game.pk).order_by("number"))
    assert [t.best for t in turns] == [8, turns[1].best] and turns[1].best > turns[1].score
    assert "The best play with WEARXYZ was" in page
    assert f"for {turns[1].best} ({turns[1].best - 5} more)" in page
    client.post(scorer(game) + "turn", {"action": "finish", "expected_turn": 3})
    end = client.get(scorer(game)).content.decode()
    assert f"You found <strong>{8 + turns[1].score}</strong> of a possible " in end
    assert f"<strong>{8 + turns[1].best}</strong> points" in end


def test_without_a_rack_nothing_is_compared(client):
    game = start(client, player_2="")
    page = play(client, game, "5D MOOD")
    assert "That was the best play" not in page and "The best play with" not in page
    assert Turn.objects.get(game_id=game.pk).best is None


def test_a_game_with_opponents_offers_no_comparison(client):
    game = start(client)
    assert 'name="rack"' not in client.get(scorer(game)).content.decode()
    page = play(client, game, "5D MOOD", rack="MOODXYZ")
    assert "That was the best play" not in page and "The best play with" not in page
    assert Turn.objects.get(game_id=game.pk).best is None


def test_a_refused_play_costs_no_search(client):
    game = start(client, player_2="")
    with mock.patch("scorekeeper.web.table.best_play") as search:
        page = play(client, game, "5D MXQD", rack="??ESTAR")
    assert not search.called and "The best play with" not in page
    assert not Turn.objects.filter(game_id=game.pk).exists()


def test_no_comparison_while_every_search_slot_is_busy(client, monkeypatch):
    # The turn is entered at once; it is not held up, nor refused, for the comparison.
    monkeypatch.setattr("scorekeeper.games.analysis._slots", threading.BoundedSemaphore(1))
    from scorekeeper.games import analysis

    game = start(client, player_2="")
    assert analysis._slots.acquire(blocking=False)
    try:
        page = play(client, game, "5D MOOD", rack="MOODXYZ")
    finally:
        analysis._slots.release()
    assert "That was the best play" not in page
    assert Turn.objects.get(game_id=game.pk).best is None
