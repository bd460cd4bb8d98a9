"""The director's screen: every game of a club in play, for a projector or a phone."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from bench.sequences import HASBRO
from scorekeeper.game import domain
from scorekeeper.models import Game, Turn
from tests.factories import finished_game, make_club

pytestmark = pytest.mark.django_db


def live_game(club, names, plays=0):
    game = domain.do_create_game(ruleset="upwords-10", players=names, lexicon="CLUB", club=club)
    for triples, _ in HASBRO[:plays]:
        domain.act(game.pk, "play", tiles=triples)
    return game


def night(players=("Ann", "Ben", "Cy", "Di", "Ed", "Flo")):
    club = make_club(roster=players)
    games = [
        live_game(club, ["Ann", "Ben"], plays=1),
        live_game(club, ["Cy", "Di"], plays=2),
        live_game(club, ["Ed", "Flo"]),
    ]
    return club, games


def test_the_screen_shows_every_game_in_play_with_scores_whose_turn_and_the_last_play(client):
    club, games = night()
    other = make_club("Hilltop", roster=["Gus", "Hal"])
    live_game(other, ["Gus", "Hal"], plays=1)
    page = client.get(f"/clubs/{club.slug}/live").content.decode()
    assert "Ann v Ben" in page and "Cy v Di" in page and "Ed v Flo" in page
    assert "Gus v Hal" not in page  # another club's game
    # Ann played MOOD for 8, so Ben is to play; Cy and Di have played a turn each.
    assert "Ann played 5D MOOD for 8" in page
    assert '<li class="to-move"><span class="name">▶ Ben<span class="sr-only"> to play' in page
    assert "No turn yet." in page
    assert page.count('class="live-card') == 3
    assert games[0].token not in page and games[1].token not in page  # no scorer secret


def test_a_game_without_a_turn_for_longer_than_the_stall_time_is_marked(client):
    club, games = night()
    Turn.objects.filter(game=games[1]).update(created_at=timezone.now() - timedelta(minutes=25))
    page = client.get(f"/clubs/{club.slug}/live").content.decode()
    assert page.count('stall-flag">STALLED') == 1
    card = page[page.index("Cy v Di") :]
    assert card.index("STALLED") < card.index("</article>")
    # The night's own stall time: 30 minutes marks nothing.
    assert "stall-flag" not in client.get(f"/clubs/{club.slug}/live?stall=30").content.decode()
    assert client.get(f"/clubs/{club.slug}/live?stall=0").status_code == 400
    assert client.get(f"/clubs/{club.slug}/live?stall=x").status_code == 400
    assert client.get(f"/clubs/{club.slug}/live/tables?stall=999").status_code == 400


def test_finished_games_leave_the_grid_and_the_standings_follow(client):
    club, _ = night()
    finished_game(["Ann", "Cy"], club=club)
    page = client.get(f"/clubs/{club.slug}/live/tables").content.decode()
    assert "Finished tonight" in page
    assert page.count('class="live-card') == 3
    assert "standings-1" in page  # the club's standings table is part of the live part


def test_an_unchanged_refresh_is_a_304_and_a_turn_changes_it(client):
    club, games = night()
    first = client.get(f"/clubs/{club.slug}/live/tables")
    tag = first["ETag"]
    assert client.get(f"/clubs/{club.slug}/live/tables", HTTP_IF_NONE_MATCH=tag).status_code == 304
    domain.act(games[2].pk, "pass")
    again = client.get(f"/clubs/{club.slug}/live/tables", HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 200 and "Ed passed" in again.content.decode()


def test_the_screen_costs_the_same_queries_for_three_games_or_twelve(
    client, django_assert_max_num_queries
):
    club, _ = night()
    with django_assert_max_num_queries(40) as three:
        client.get(f"/clubs/{club.slug}/live/tables")
    for i in range(9):
        names = [f"P{i}a", f"P{i}b"]
        club.roster.add(*(domain.player_named(n) for n in names))
        live_game(club, names, plays=1)
    with django_assert_max_num_queries(len(three.captured_queries)) as twelve:
        page = client.get(f"/clubs/{club.slug}/live/tables").content.decode()
    assert page.count('class="live-card') == 12
    assert len(twelve.captured_queries) == len(three.captured_queries)


def test_an_unknown_club_is_a_404(client):
    assert client.get("/clubs/nowhere/live").status_code == 404
    assert client.get("/clubs/nowhere/live/tables").status_code == 404


def test_the_club_page_links_to_it(client):
    club = make_club()
    assert f'href="/clubs/{club.slug}/live"' in client.get(f"/clubs/{club.slug}/").content.decode()


def test_an_abandoned_or_finished_game_is_not_in_play(client):
    club, games = night()
    domain.act(games[0].pk, "abandon")
    page = client.get(f"/clubs/{club.slug}/live").content.decode()
    assert "Ann v Ben" not in page
    assert Game.objects.filter(club=club, status=Game.Status.IN_PROGRESS).count() == 2
