"""An event's public pages cost the same however many rounds it has played: the standings and
the latest round's tables are drawn once a version of the event and kept; scorecards come one
player at a time; every page and part answers with the event's version as its ETag, and a
repeat is a 304."""

from __future__ import annotations

import gzip

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bench.event_data import played_event
from bench.sequences import HASBRO
from scorekeeper.events.entries import Entry, do_add_players
from scorekeeper.events.reads import (
    division_standings,
    divisions_from,
    latest_tables,
    listed_standings,
    read_entrants,
    read_results,
    result_shown,
    results_of,
    rounds_of,
)
from scorekeeper.events.results import do_enter_result, do_forfeit, do_withdraw
from scorekeeper.events.rounds import do_pair_round
from scorekeeper.games import domain
from scorekeeper.models import Entrant, Tournament
from scorekeeper.web import event_parts
from tests.factories import make_club

pytestmark = pytest.mark.django_db


def cost(client, path: str) -> tuple[int, int, int]:
    """(queries of the first request, of the next, bytes of the answer)."""
    with CaptureQueriesContext(connection) as first:
        response = client.get(path)
    assert response.status_code == 200
    with CaptureQueriesContext(connection) as again:
        client.get(path)
    return len(first), len(again), len(response.content)


@pytest.mark.parametrize("part", ["", "standings"])
def test_an_event_page_costs_the_same_after_5_rounds_as_after_25(client, settings, part):
    settings.RATE_LIMIT_EVENT_PAGES = 0  # its count's sweep comes once a minute, not a page
    club = make_club(roster=())
    short = played_event(club, players=30, rounds=25, played=5, name="Short")
    long = played_event(club, players=30, rounds=25, played=25, name="Long")
    five = cost(client, f"/tournaments/{short.pk}/{part}")
    twenty_five = cost(client, f"/tournaments/{long.pk}/{part}")
    assert five[:2] == twenty_five[:2]  # the same queries, drawn or kept
    assert twenty_five[1] < twenty_five[0]  # kept: the standings are not read again
    # The same rows and tables; only the figures in them have more digits.
    assert twenty_five[2] < five[2] * 1.05


def test_a_scorecard_is_one_players_and_shows_every_round(client):
    club = make_club(roster=())
    event = played_event(club, players=10, rounds=9, played=9)
    page = client.get(f"/tournaments/{event.pk}/players/3").content.decode()
    assert "Player 003" in page
    assert page.count("<tr>") == 9 + 1  # a line a round, and the head
    event_page = client.get(f"/tournaments/{event.pk}/").content.decode()
    assert f'href="/tournaments/{event.pk}/players/3"' in event_page
    assert "Opponent" not in event_page  # no scorecard drawn on the event's page
    assert client.get(f"/tournaments/{event.pk}/players/99").status_code == 404


@pytest.mark.parametrize("part", ["", "standings", "players/1"])
def test_every_event_page_answers_a_repeat_with_304_until_the_event_changes(client, part):
    club = make_club(roster=())
    event = played_event(club, players=4, rounds=3, played=1)
    path = f"/tournaments/{event.pk}/{part}"
    first = client.get(path)
    etag = first["ETag"]
    assert first.status_code == 200 and etag and first["Cache-Control"] == "no-cache"
    assert client.get(path, HTTP_IF_NONE_MATCH=etag).status_code == 304
    do_pair_round(event, "swiss")
    changed = client.get(path, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_a_game_of_the_event_ending_moves_its_version_and_a_turn_does_not(client):
    club = make_club(roster=())
    event = played_event(club, players=4, rounds=3, played=0)
    do_pair_round(event, "swiss")
    version = Tournament.objects.get(pk=event.pk).version
    game = event.round_set.get().pairings.exclude(game=None).first().game
    domain.act(game.pk, domain.TurnCommand("pass"))
    assert Tournament.objects.get(pk=event.pk).version == version  # a turn: nothing to show
    domain.act(game.pk, domain.TurnCommand("finish"))
    assert Tournament.objects.get(pk=event.pk).version == version + 1


def test_find_my_table_reads_the_kept_round(client):
    club = make_club(roster=())
    event = played_event(club, players=4, rounds=3, played=2)
    page = client.get(f"/tournaments/{event.pk}/?name=player+001").content.decode()
    assert "Round 2: <strong>table" in page


def test_event_pages_have_a_limit_of_their_own(client, settings):
    settings.RATE_LIMIT_EVENT_PAGES = 3
    club = make_club(roster=())
    event = played_event(club, players=4, rounds=3, played=1)
    assert client.get(f"/tournaments/{event.pk}/").status_code == 200
    assert client.get(f"/tournaments/{event.pk}/standings").status_code == 200
    assert client.get(f"/tournaments/{event.pk}/players/1").status_code == 200
    refused = client.get(f"/tournaments/{event.pk}/standings")
    assert refused.status_code == 429 and "Too many event pages" in refused.content.decode()
    assert client.get(f"/clubs/{club.slug}/").status_code == 200  # the club's page is not counted


def test_the_live_part_goes_gzipped_as_drawn_once_for_every_phone(client):
    event = played_event(make_club(roster=()), players=6, rounds=3, played=2)
    path = f"/tournaments/{event.pk}/standings"
    plain = client.get(path)
    packed = client.get(path, HTTP_ACCEPT_ENCODING="gzip")
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    assert gzip.decompress(packed.content) == plain.content
    assert packed["ETag"] == plain["ETag"]
    again = client.get(path, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=packed["ETag"])
    assert again.status_code == 304


def test_the_results_read_as_rows_are_the_results_read_as_pairings():
    """A game ended at its table, a result typed in, a forfeit, a bye, a late entry's
    absences and a game still in play: the pages' reading and the record's agree."""
    club = make_club(roster=())
    event = played_event(club, players=7, rounds=4, played=1)
    do_pair_round(event, "swiss")
    tables = list(event.round_set.get(number=2).pairings.exclude(game=None).order_by("table"))
    domain.act(tables[0].game.pk, domain.TurnCommand("play", tiles=HASBRO[0][0]))
    domain.act(tables[0].game.pk, domain.TurnCommand("finish"))
    one, two = tables[1].first.player.name, tables[1].second.player.name
    do_enter_result(event, 2, one, 410, two, 380)
    do_forfeit(event, 2, tables[2].first.player.name)
    do_add_players(event, [Entry("Late Comer")])
    event.refresh_from_db()
    assert read_results(event) == results_of(event)
    assert division_standings(event, read_results(event)) == (division_standings(event))


def test_the_live_parts_plain_rows_say_what_the_models_say():
    """A game ended at its table, a result typed in, a forfeit, a bye, a withdrawal and a
    Gibson, in two divisions: the live part's standings and tables, read as plain rows, are
    the record's as the other pages read it."""
    club = make_club(roster=())
    event = played_event(club, players=14, rounds=4, played=1, divisions=2)
    paired = do_pair_round(event, "swiss")
    paired.gibsonized = [paired.pairings.order_by("table").first().first_id]
    paired.save()
    tables = list(paired.pairings.exclude(game=None).order_by("table"))
    domain.act(tables[0].game.pk, domain.TurnCommand("play", tiles=HASBRO[0][0]))
    domain.act(tables[0].game.pk, domain.TurnCommand("finish"))
    one, two = tables[1].first.player.name, tables[1].second.player.name
    do_enter_result(event, 2, one, 410, two, 380)
    do_forfeit(event, 2, tables[2].first.player.name)
    do_withdraw(Entrant.objects.get(pk=tables[3].second_id))
    event = Tournament.objects.get(pk=event.pk)
    number, shown, gibsonized = latest_tables(event)
    pairings = rounds_of(event)[number]
    assert number == 2 and any(table.table is None for table in shown)  # a bye in each
    assert [(t.table, t.first_id, t.result, t.game_id) for t in shown] == [
        (p.table, p.first_id, result_shown(p), p.game_id) for p in pairings
    ]
    divisions = divisions_from(read_entrants(event), read_results(event), gibsonized)
    expected = division_standings(event)
    assert [division.name for division in divisions] == [name for name, _ in expected]
    assert len(divisions) == 2
    for division, (_, rows) in zip(divisions, expected, strict=True):
        listed = listed_standings(event, division)
        assert [
            (r.standing, r.number, r.active, r.gibsonized, r.rating_before, r.rating_after)
            for r in listed
        ] == [
            (r.standing, r.entrant.number, r.entrant.active, r.gibsonized, r.rating_before,
             r.rating_after)
            for r in rows
        ]  # fmt: skip


def test_a_division_whose_results_did_not_change_is_not_drawn_again(monkeypatch):
    club = make_club(roster=())
    event = played_event(club, players=12, rounds=4, played=1, divisions=2)
    paired = do_pair_round(event, "swiss")
    event_parts._draw_live(Tournament.objects.get(pk=event.pk))
    drawn: list[str] = []

    def counted(tournament, division):
        drawn.append(division.name)
        return listed_standings(tournament, division)

    monkeypatch.setattr(event_parts, "listed_standings", counted)
    table = paired.pairings.exclude(second=None).order_by("table").first()
    division = table.first.division
    do_enter_result(event, 2, table.first.player.name, 433, table.second.player.name, 350)
    event = Tournament.objects.get(pk=event.pk)
    part = event_parts._draw_live(event)
    assert drawn == [division]  # the other division's rows as they were
    assert "433–350" in part.html
    event_parts._divisions.clear()
    assert event_parts._draw_live(event).html == part.html  # as a whole drawing says it
    assert drawn[0] == division and sorted(drawn[1:]) == ["A", "B"]


def test_no_part_for_an_event_that_is_not_there(client):
    assert client.get("/tournaments/99999/standings").status_code == 404
    assert client.get("/tournaments/99999/").status_code == 404
