"""The director's screen: every game of a club in play, for a projector or a phone."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from bench.sequences import HASBRO
from referee import InputError
from scorekeeper.games import domain
from scorekeeper.games.domain import TABLE_MOST
from scorekeeper.live.news import club_version
from scorekeeper.models import Game, Turn
from scorekeeper.web.director import PROJECTOR_LINES, PROJECTOR_PAGE_SECONDS
from tests.factories import NIGHT_NAMES, NIGHT_TABLES, club_night, finished_game, make_club

pytestmark = pytest.mark.django_db


def live_game(club, names, plays=0):
    game = domain.check_create_game(ruleset="upwords-10", players=names, lexicon="CLUB", club=club)
    for triples, _ in HASBRO[:plays]:
        domain.act(game.pk, domain.TurnCommand("play", tiles=triples))
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
    domain.act(games[2].pk, domain.TurnCommand("pass"))
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
    page = client.get(f"/clubs/{club.slug}/").content.decode()
    assert f'href="/clubs/{club.slug}/live"' in page
    assert f'href="/clubs/{club.slug}/live/projector"' in page


def test_an_abandoned_or_finished_game_is_not_in_play(client):
    club, games = night()
    domain.act(games[0].pk, domain.TurnCommand("abandon"))
    page = client.get(f"/clubs/{club.slug}/live").content.decode()
    assert "Ann v Ben" not in page
    assert Game.objects.filter(club=club, status=Game.Status.IN_PROGRESS).count() == 2


def table_numbers(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'<span class="table-number">Table (\d+)</span>', page)]


@pytest.mark.parametrize("screen", ["live", "live/projector"])
def test_the_tables_are_listed_by_number_and_stay_in_place_after_a_turn(client, screen):
    club, games = club_night()
    unnumbered = live_game(club, ["Val Webb", "Wes Young"])  # at no numbered table: last
    url = f"/clubs/{club.slug}/{screen}"
    before = client.get(url).content.decode()
    assert table_numbers(before) == sorted(NIGHT_TABLES)
    assert before.index("Table 11") < before.index(f'id="live-{unnumbered.pk}"')
    # Table 7 started first; its turn makes it the one that waited least, and it stays put.
    domain.act(games[0].pk, domain.TurnCommand("pass"))
    after = client.get(url).content.decode()
    assert "Ben Cole passed" in after
    assert table_numbers(after) == sorted(NIGHT_TABLES)


def test_two_games_at_one_table_number_go_by_their_start(client):
    club, games = club_night(tables=[4, 4, 2])
    page = client.get(f"/clubs/{club.slug}/live").content.decode()
    cards = [page.index(f'id="live-{g.pk}"') for g in (games[2], games[0], games[1])]
    assert cards == sorted(cards)


def test_the_projector_view_has_no_site_menu_and_the_director_s_screen_links_to_it(client):
    club, games = club_night()
    screen = client.get(f"/clubs/{club.slug}/live").content.decode()
    assert f'href="/clubs/{club.slug}/live/projector"' in screen
    assert 'aria-label="Main"' in screen  # the director's own screen keeps the menu
    page = client.get(f"/clubs/{club.slug}/live/projector").content.decode()
    assert 'aria-label="Main"' not in page and 'class="site"' not in page
    assert page.count('class="live-card') == len(NIGHT_TABLES)
    assert "Standings: Upwords" in page and "Finished tonight" in page
    assert games[0].token not in page  # no scorer secret
    assert f'data-page-seconds="{PROJECTOR_PAGE_SECONDS}"' in page
    part = client.get(f"/clubs/{club.slug}/live/projector/tables")
    assert part.content.decode().count('class="live-card') == len(NIGHT_TABLES)
    again = client.get(f"/clubs/{club.slug}/live/projector/tables", HTTP_IF_NONE_MATCH=part["ETag"])
    assert again.status_code == 304
    assert client.get(f"/clubs/{club.slug}/live/projector?stall=0").status_code == 400
    assert client.get("/clubs/nowhere/live/projector").status_code == 404


def test_the_projector_cuts_long_standings_into_pieces_a_page_can_hold(client):
    club, _ = club_night(tables=[], finished=0)
    names = list(NIGHT_NAMES[: 2 * PROJECTOR_LINES + 2])
    for first, second in zip(names[::2], names[1::2], strict=True):
        finished_game([first, second], club=club)
    page = client.get(f"/clubs/{club.slug}/live/projector").content.decode()
    pieces = page.split("data-piece")[1:]
    standings = [p for p in pieces if "Standings: Upwords" in p]
    assert [p.count('<th scope="row">') for p in standings] == [PROJECTOR_LINES, PROJECTOR_LINES, 2]


def stream_of(client, url: str, **headers: str) -> str:
    return b"".join(client.get(url, **headers).streaming_content).decode()


def test_the_club_stream_opens_with_a_refresh_only_if_the_tables_changed_since_the_page(
    client, settings
):
    settings.PUSH_STREAM_SECONDS = 0  # each stream ends after its opening
    club, games = club_night(tables=[1, 2])
    page = client.get(f"/clubs/{club.slug}/live").content.decode()
    events = re.search(r'data-events="([^"]+)"', page).group(1).replace("&amp;", "&")
    version = club_version(club.pk)
    assert events == f"/clubs/{club.slug}/events?seen={version}"
    opened = stream_of(client, events)
    assert "event: refresh" not in opened and f"id: {version}\n\n" in opened
    domain.act(
        games[1].pk, domain.TurnCommand("pass")
    )  # after the page was drawn: its tables are behind
    behind = stream_of(client, events)
    assert "event: refresh" in behind and f"id: {club_version(club.pk)}\n" in behind
    # A reconnect says the version its stream last said, which wins over the page's.
    now = club_version(club.pk)
    assert "event: refresh" not in stream_of(client, events, HTTP_LAST_EVENT_ID=now)
    assert "event: refresh" in stream_of(client, f"/clubs/{club.slug}/events")  # seen nothing


def test_a_table_number_is_for_a_club_game_and_a_small_whole_number():
    club = make_club(roster=["Ann", "Ben"])
    game = domain.check_create_game(
        ruleset="upwords-10", players=["Ann", "Ben"], lexicon="CLUB", club=club, table_number=3
    )
    assert Game.objects.get(pk=game.pk).table_number == 3
    for club_, number in ((None, 3), (club, 0), (club, TABLE_MOST + 1)):
        with pytest.raises(InputError):
            domain.check_create_game(
                ruleset="upwords-10", players=["Ann", "Ben"], lexicon="CLUB", club=club_,
                table_number=number,
            )  # fmt: skip
    assert Game.objects.count() == 1
