"""A tournament's pages: the director makes an event, pairs a round, types in a result and
withdraws a player from their phone; the round prints with each table's QR code; anyone finds
their table and reads the standings."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from scorekeeper.events.entries import do_create_tournament
from scorekeeper.events.reads import standings
from scorekeeper.events.results import do_enter_result, do_forfeit, do_withdraw
from scorekeeper.events.rounds import do_pair_round
from scorekeeper.models import Game, Pairing, Tournament
from scorekeeper.web.event_forms import read_entries
from tests.factories import PASSWORD, account, make_club, messages_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(client):
    dora = account("dora")
    club = make_club(directors=[dora], roster=())
    client.login(username="dora", password=PASSWORD)
    return club


def made(club, lines="Ann Archer 1700\nBen Baker 1600\nCy Cole 1500\nDi Dunn"):
    return do_create_tournament(
        club, name="Friday", ruleset="upwords-10", lexicon="CLUB", rounds=3,
        players=read_entries(lines),
    )  # fmt: skip


def test_a_director_makes_an_event_with_several_players_at_once(client, director):
    form = {"name": "Friday night", "ruleset": "upwords-10", "lexicon": "CLUB",
            "challenge_mode": "manual", "rounds": "4", "bye_spread": "50", "gibson": "on",
            "players": "Ann Archer 1712 230\n\nBen Baker, 1650\nCy Cole\n"}  # fmt: skip
    response = client.post(f"/clubs/{director.slug}/tournaments/new", form)
    tournament = Tournament.objects.get()
    assert (
        response.status_code == 302
        and response["Location"] == f"/tournaments/{tournament.pk}/direct"
    )
    entered = [(e.player.name, e.rating, e.career_games) for e in tournament.entrants.all()]
    assert entered == [("Ann Archer", 1712, 230), ("Ben Baker", 1650, 0), ("Cy Cole", 0, 0)]
    assert (tournament.challenge_mode, tournament.rounds, tournament.gibson) == ("manual", 4, True)


def test_the_form_sets_how_many_rounds_initial_fontes_runs(client, director):
    form = {"name": "Long", "ruleset": "upwords-10", "lexicon": "CLUB", "challenge_mode": "auto",
            "rounds": "7", "bye_spread": "50", "fontes_rounds": "5", "players": "Ann\nBen\n"}  # fmt: skip
    assert client.post(f"/clubs/{director.slug}/tournaments/new", form).status_code == 302
    assert Tournament.objects.get().fontes_rounds == 5
    even = client.post(f"/clubs/{director.slug}/tournaments/new", form | {"fontes_rounds": "4"})
    assert even.status_code == 400 and "odd number of rounds" in even.content.decode()


def test_a_refused_event_says_why_and_stores_nothing(client, director):
    form = {"name": "Friday", "ruleset": "upwords-10", "lexicon": "CLUB", "challenge_mode": "auto",
            "rounds": "3", "bye_spread": "50", "players": "Ann\nann\n"}  # fmt: skip
    response = client.post(f"/clubs/{director.slug}/tournaments/new", form)
    assert response.status_code == 400 and "ann is entered twice." in response.content.decode()
    assert not Tournament.objects.exists()


def test_only_a_director_runs_an_event(client, director):
    tournament = made(director)
    account("eve")
    client.login(username="eve", password=PASSWORD)
    assert client.get(f"/clubs/{director.slug}/tournaments/new").status_code == 403
    assert client.get(f"/tournaments/{tournament.pk}/direct").status_code == 403
    assert client.post(f"/tournaments/{tournament.pk}/pair", {"method": "swiss"}).status_code == 403
    assert client.get(f"/tournaments/{tournament.pk}/rounds/1").status_code == 403
    assert not Game.objects.exists()


def test_pairing_typing_in_and_withdrawing_from_the_directors_page(client, director):
    tournament = made(director)
    path = f"/tournaments/{tournament.pk}"
    pairs = {"method": "manual", "pairings": "Ann Archer - Ben Baker\nCy Cole v Di Dunn",
             "round": "1"}  # fmt: skip
    response = client.post(f"{path}/pair", pairs, follow=True)
    assert messages_of(response) == ["Round 1 is paired: 2 tables."]
    result = {"round": "1", "player1": "Ann Archer", "score1": "412", "player2": "Ben Baker",
              "score2": "377"}  # fmt: skip
    response = client.post(f"{path}/result", result, follow=True)
    assert messages_of(response) == ["Round 1: Ann Archer 412, Ben Baker 377."]
    response = client.post(f"{path}/result", result, follow=True)
    assert "has its result already" in messages_of(response)[0]
    cy = tournament.entrants.get(player__name="Cy Cole")
    response = client.post(f"{path}/withdraw", {"entrant": cy.pk, "confirm": "1"}, follow=True)
    assert messages_of(response) == ["Cy Cole is withdrawn: not paired from the next round on."]
    assert Pairing.objects.get(table=2).absent_id == cy.pk
    response = client.post(f"{path}/pair", {"method": "swiss", "round": "2"}, follow=True)
    assert messages_of(response) == ["Round 2 is paired: 1 table and a bye."]  # Cy left


def test_the_round_prints_every_table_with_its_scorer_link_as_a_qr_code(client, director):
    tournament = made(director)
    do_pair_round(tournament, "swiss")
    page = client.get(f"/tournaments/{tournament.pk}/rounds/1").content.decode()
    for pairing in Pairing.objects.all():
        link = f"http://testserver/games/{pairing.game.pk}/score/{pairing.game.token}/"
        assert f'<a href="{link}">{link}</a>' in page  # a link to tap, as well as the code
    assert page.count("<svg") == 2
    assert client.get(f"/tournaments/{tournament.pk}/rounds/2").status_code == 404


def test_a_player_finds_their_table_on_the_events_page(client, director):
    tournament = made(director)
    do_pair_round(tournament, "manual", manual=[("Ann Archer", "Ben Baker"), ("Cy Cole", "Di Dunn")])  # fmt: skip
    client.logout()
    table = Pairing.objects.get(table=2)  # who sits first is drawn
    seat = "first" if table.first.player.name == "Di Dunn" else "second"
    page = client.get(f"/tournaments/{tournament.pk}/?name=di+dunn").content.decode()
    assert f"<strong>table 2</strong>, you go <strong>{seat}</strong> against Cy Cole" in page
    page = client.get(f"/tournaments/{tournament.pk}/?name=Zed").content.decode()
    assert "Zed has no table in the latest round." in page


def test_the_standings_part_shows_shared_places_and_is_followed_live(client, director):
    tournament = made(director)
    do_pair_round(tournament, "manual", manual=[("Ann Archer", "Ben Baker"), ("Cy Cole", "Di Dunn")])  # fmt: skip
    do_enter_result(tournament, 1, "Ann Archer", 400, "Ben Baker", 350)
    do_enter_result(tournament, 1, "Cy Cole", 400, "Di Dunn", 350)
    part = client.get(f"/tournaments/{tournament.pk}/standings").content.decode()
    assert part.count('<td class="num rank">1=</td>') == 2
    assert part.count('<td class="num rank">3=</td>') == 2
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'data-live="event"' in page
    assert f'data-events="/tournaments/{tournament.pk}/events?seen=' in page


def test_the_club_page_lists_its_tournaments(client, director):
    tournament = made(director)
    page = client.get(f"/clubs/{director.slug}/").content.decode()
    assert f'href="/tournaments/{tournament.pk}/"' in page and "New tournament" in page


def test_a_director_starts_an_event_from_a_t_file(client, director):
    text = (
        "Archer, Ann 1700 2; 412; p12 1\nBaker, Ben 1600 1; 377; p12 2\nCole, Cy 0 0; 50; p12 0\n"
    )
    upload = SimpleUploadedFile("friday.t", text.encode(), content_type="text/plain")
    form = {"name": "Friday", "ruleset": "upwords-10", "lexicon": "CLUB", "challenge_mode": "auto",
            "rounds": "3", "bye_spread": "50", "tfile": upload}  # fmt: skip
    response = client.post(f"/clubs/{director.slug}/tournaments/new", form)
    assert response.status_code == 302
    tournament = Tournament.objects.get()
    rows = [(r.standing.rank, r.standing.player.name, r.standing.spread, r.rating_before)
            for r in standings(tournament)]  # fmt: skip
    assert rows == [("1", "Cy Cole", 50, 0), ("2", "Ann Archer", 35, 1700), ("3", "Ben Baker", -35, 1600)]  # fmt: skip


def test_a_t_file_that_cant_be_read_is_refused_with_its_line(client, director):
    upload = SimpleUploadedFile("bad.t", b"nothing here\n", content_type="text/plain")
    form = {"name": "Friday", "ruleset": "upwords-10", "lexicon": "CLUB", "challenge_mode": "auto",
            "rounds": "3", "bye_spread": "50", "tfile": upload}  # fmt: skip
    response = client.post(f"/clubs/{director.slug}/tournaments/new", form)
    assert response.status_code == 400 and "Line 1 is not" in response.content.decode()
    assert not Tournament.objects.exists()


def test_a_number_out_of_range_is_refused_with_a_sentence(client, director):
    form = {"name": "Friday", "ruleset": "upwords-10", "lexicon": "CLUB", "challenge_mode": "auto",
            "rounds": "3", "bye_spread": "50", "players": "Ann 1500 99999999999"}  # fmt: skip
    response = client.post(f"/clubs/{director.slug}/tournaments/new", form)
    assert (
        response.status_code == 400
        and "Career games are 0 to 100,000." in response.content.decode()
    )
    form["players"] = "Ann 99999"
    response = client.post(f"/clubs/{director.slug}/tournaments/new", form)
    assert (
        response.status_code == 400
        and "A rating is 0 (unrated) to 3000." in response.content.decode()
    )
    assert not Tournament.objects.exists()


def test_find_my_table_takes_a_surname_or_a_part_of_a_name_in_any_case(client, director):
    tournament = made(director)
    do_pair_round(tournament, "manual", manual=[("Ann Archer", "Ben Baker"), ("Cy Cole", "Di Dunn")])  # fmt: skip
    client.logout()
    table = Pairing.objects.get(table=2)
    seat = "first" if table.first.player.name == "Di Dunn" else "second"
    for asked in ("dunn", "DUNN", "di", "Du"):
        page = client.get(f"/tournaments/{tournament.pk}/?name={asked}").content.decode()
        assert f"<strong>table 2</strong>, you go <strong>{seat}</strong> against Cy Cole" in page
    page = client.get(f"/tournaments/{tournament.pk}/?name=c").content.decode()  # Cy Cole alone
    assert "against Di Dunn" in page and page.count('class="found"') == 1
    page = client.get(f"/tournaments/{tournament.pk}/?name=b").content.decode()  # Ben Baker
    assert page.count('class="found"') == 1
    page = client.get(f"/tournaments/{tournament.pk}/?name=a").content.decode()  # Ann Archer
    assert page.count('class="found"') == 1 and "against Ben Baker" in page
    page = client.get(f"/tournaments/{tournament.pk}/?name=d").content.decode()  # Di Dunn only
    assert page.count('class="found"') == 1
    page = client.get(f"/tournaments/{tournament.pk}/?name=ann+b").content.decode()
    assert "has no table in the latest round" in page  # every word must fit a part


def test_a_partial_name_that_fits_several_players_lists_each_by_name(client, director):
    tournament = made(director, "Ann Archer\nAnn Baker\nCy Cole\nDi Dunn")
    do_pair_round(tournament, "manual", manual=[("Ann Archer", "Cy Cole"), ("Ann Baker", "Di Dunn")])  # fmt: skip
    page = client.get(f"/tournaments/{tournament.pk}/?name=ann").content.decode()
    assert page.count('class="found"') == 2
    assert "Ann Archer, round 1:" in page and "Ann Baker, round 1:" in page


def test_the_events_page_shows_each_tables_result_in_the_round(client, director):
    tournament = made(director)
    do_pair_round(tournament, "manual", manual=[("Ann Archer", "Ben Baker"), ("Cy Cole", "Di Dunn")])  # fmt: skip
    do_enter_result(tournament, 1, "Ann Archer", 412, "Ben Baker", 377)
    do_forfeit(tournament, 1, "Cy Cole")
    one = Pairing.objects.get(table=1)
    shown = "412–377" if one.first.player.name == "Ann Archer" else "377–412"
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert f'<strong class="table-result">{shown}</strong>' in page
    assert '<strong class="table-result">Cy Cole absent</strong>' in page


def test_the_standings_csv_marks_a_withdrawn_player(client, director):
    tournament = made(director)
    do_withdraw(tournament.entrants.get(player__name="Di Dunn"))
    lines = client.get(f"/tournaments/{tournament.pk}/standings.csv").content.decode().splitlines()
    assert lines[0].endswith(",rating_change,withdrawn")
    withdrawn = {line.split(",")[1]: line.rsplit(",", 1)[1] for line in lines[1:]}
    assert withdrawn == {"Ann Archer": "no", "Ben Baker": "no", "Cy Cole": "no", "Di Dunn": "yes"}
