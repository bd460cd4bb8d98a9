"""The pages of a director's hand in a running event: divisions in the form and on the
event's page, a round taken back or swapped from the director's page, and the running event
on the club's director's screen."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scorekeeper.events.entries import Entry, do_add_players, do_create_tournament
from scorekeeper.events.lifecycle import do_change_event, do_mark_tonight
from scorekeeper.events.results import do_correct_result, do_enter_result, do_forfeit, do_withdraw
from scorekeeper.events.rounds import do_pair_round, do_swap
from scorekeeper.games import domain
from scorekeeper.models import Pairing, Tournament
from tests.factories import PASSWORD, account, make_club
from tests.scorekeeper.club_events import FOUR, SEVEN, event, play_out

pytestmark = pytest.mark.django_db


def test_the_form_takes_divisions_and_the_events_page_shows_each(client):
    club = make_club(directors=[account("dora")], roster=())
    client.login(username="dora", password=PASSWORD)
    form = {"name": "Friday", "ruleset": "upwords-10", "lexicon": "CLUB", "challenge_mode": "auto",
            "rounds": "3", "bye_spread": "50", "gibson": "on",
            "players": "A:\nAnn Archer 1700\nBen Baker 1600\nB:\nCy Cole\nDi Dunn\n"}  # fmt: skip
    assert client.post(f"/clubs/{club.slug}/tournaments/new", form).status_code == 302
    made = Tournament.objects.get()
    assert [(e.player.name, e.division) for e in made.entrants.all()] == [
        ("Ann Archer", "A"), ("Ben Baker", "A"), ("Cy Cole", "B"), ("Di Dunn", "B")
    ]  # fmt: skip
    client.post(f"/tournaments/{made.pk}/pair", {"method": "swiss", "round": "1"})
    page = client.get(f"/tournaments/{made.pk}/").content.decode()
    assert page.count('class="division-name"') == 2
    assert "Standings, division A" in page and "Standings, division B" in page
    direct = client.get(f"/tournaments/{made.pk}/direct").content.decode()
    assert "export.t?division=B" in direct


def test_the_directors_page_takes_back_and_swaps_a_round_not_started(client):
    club = make_club(directors=[account("dora")], roster=())
    client.login(username="dora", password=PASSWORD)
    made = do_create_tournament(
        club, name="Friday", ruleset="upwords-10", lexicon="CLUB", rounds=3, players=FOUR
    )
    do_pair_round(made, "swiss")
    page = client.get(f"/tournaments/{made.pk}/direct").content.decode()
    assert "Change round 1 before it starts" in page
    swapped = {"one": "Cy Cole", "other": "Di Dunn", "confirm": "1"}
    client.post(f"/tournaments/{made.pk}/rounds/1/swap", swapped)
    assert made.round_set.get().method == "manual"
    response = client.post(f"/tournaments/{made.pk}/rounds/1/unpair", {"confirm": "1"})
    assert response.status_code == 302 and not made.round_set.exists()
    assert "Pair round 1" in client.get(f"/tournaments/{made.pk}/direct").content.decode()


def test_the_directors_screen_shows_the_events_round_and_standings_and_changes_its_etag(client):
    made = event(players=SEVEN[:5])
    paired = do_pair_round(made, "swiss")
    slug = made.club.slug
    page = client.get(f"/clubs/{slug}/live").content.decode()
    assert "Friday: round 1 of 3" in page
    assert page.count('class="live-card event-table') == 3  # two tables and the bye
    assert "Standings, division A" in page and "Standings, division B" in page
    assert "No game of" not in page  # the event's games are at its tables
    part = client.get(f"/clubs/{slug}/live/tables")
    etag = part["ETag"]
    assert client.get(f"/clubs/{slug}/live/tables", HTTP_IF_NONE_MATCH=etag).status_code == 304
    play_out(paired.pairings.get(table=1).game)
    ended = client.get(f"/clubs/{slug}/live/tables", HTTP_IF_NONE_MATCH=etag)
    assert ended.status_code == 200
    html = ended.content.decode()
    assert html.count(">final<") == 1 and ">1–0<" in html  # the winner's record
    projector = client.get(f"/clubs/{slug}/live/projector").content.decode()
    assert "Friday: round 1 of 3" in projector
    assert projector.count("live-card event-table") == 3
    # The event's standings alone: not alternating with the club's running standings.
    assert "event-projector-standings" in projector
    assert '<table class="projector-standings">' not in projector
    do_add_players(made, [Entry("Hal Hunt", division="B")])  # no game changes
    assert (
        client.get(f"/clubs/{slug}/live/tables", HTTP_IF_NONE_MATCH=ended["ETag"]).status_code
        == 200
    )


def test_the_directors_screen_shows_a_clocked_events_tables_waiting_then_running(client):
    made = event(players=FOUR, clock={"kind": "player", "minutes": 20})
    paired = do_pair_round(made, "swiss")
    first = paired.pairings.get(table=1)
    page = client.get(f"/clubs/{made.club.slug}/live/tables").content.decode()
    assert page.count('class="live-clocks" data-clock="player"') == 2  # a table each
    assert 'class="player-clock running"' not in page  # no table has sat down yet
    assert page.count(">waiting for the table<") == 2
    assert f"{first.first.player.name}'s clock, waiting for the table to start it:" in page
    assert page.count('<span class="clock-time">20:00</span>') == 4  # the event's 20 minutes
    domain.act(first.game_id, domain.TurnCommand("clock", clock="start"))
    page = client.get(f"/clubs/{made.club.slug}/live/tables").content.decode()
    assert page.count('class="player-clock running"') == 1  # table 1's first player's
    assert f"{first.first.player.name}'s clock, running:" in page
    assert page.count(">waiting for the table<") == 1


def test_an_event_of_another_day_is_not_on_the_directors_screen(client):
    made = event(players=FOUR)
    made.date = made.date.replace(year=made.date.year - 1)
    made.save(update_fields=["date"])
    do_pair_round(made, "swiss")
    page = client.get(f"/clubs/{made.club.slug}/live").content.decode()
    assert "Friday: round" not in page and page.count("live-card") == 2  # its games, as any


def test_the_screen_shows_the_event_marked_tonight_and_no_other_made_today(client):
    made = event(players=FOUR)
    do_pair_round(made, "swiss")  # the night's first event paired: tonight's
    test = do_create_tournament(made.club, name="Test run", ruleset="upwords-10",
                                       lexicon="CLUB", rounds=2, players=FOUR)  # fmt: skip
    do_pair_round(test, "swiss")
    page = client.get(f"/clubs/{made.club.slug}/live").content.decode()
    assert "Friday: round 1 of 3" in page and "Test run" not in page
    do_mark_tonight(test)
    page = client.get(f"/clubs/{made.club.slug}/live").content.decode()
    assert "Test run: round 1 of 2" in page and "Friday: round" not in page
    do_change_event(test, archived=True)  # archived: off the screen
    page = client.get(f"/clubs/{made.club.slug}/live").content.decode()
    assert "Test run: round" not in page and "Friday: round" not in page


def test_the_directors_screen_costs_as_many_queries_for_8_players_as_for_16(client):
    def queries_for(size: int) -> int:
        players = [Entry(f"Player {size} {chr(65 + i)}") for i in range(size)]
        made = do_create_tournament(
            make_club(roster=(), name=f"Club {size}"), name="Friday", ruleset="upwords-10",
            lexicon="CLUB", rounds=3, players=players,
        )  # fmt: skip
        paired = do_pair_round(made, "swiss")
        play_out(paired.pairings.get(table=1).game)
        with CaptureQueriesContext(connection) as seen:
            assert client.get(f"/clubs/{made.club.slug}/live/tables").status_code == 200
        return len(seen.captured_queries)

    assert queries_for(16) == queries_for(8)


def test_the_standings_csv_of_an_event_of_divisions_names_each_line_s_division(client):
    made = event(players=SEVEN[:2] + SEVEN[4:6])
    do_pair_round(made, "swiss")
    lines = client.get(f"/tournaments/{made.pk}/standings.csv").content.decode().splitlines()
    assert lines[0].startswith("division,rank,name,")
    assert [line.split(",")[0] for line in lines[1:]] == ["A", "A", "B", "B"]
    one = event(players=FOUR)
    assert client.get(f"/tournaments/{one.pk}/standings.csv").content.decode().startswith("rank,")


def test_the_directors_page_costs_as_many_queries_for_8_players_as_for_16(client):
    dora = account("dora")
    client.force_login(dora)

    def queries_for(size: int) -> int:
        players = [Entry(f"Player {size} {chr(65 + i)}") for i in range(size)]
        club = make_club(roster=(), name=f"Club {size}", directors=[dora])
        made = do_create_tournament(
            club, name="Friday", ruleset="upwords-10", lexicon="CLUB", rounds=3, players=players
        )
        do_pair_round(made, "swiss")
        with CaptureQueriesContext(connection) as seen:
            assert client.get(f"/tournaments/{made.pk}/direct").status_code == 200
        return len(seen.captured_queries)

    assert queries_for(16) == queries_for(8)


# No traps ------------------------------------------------------------------------------------
def directed(client, players=FOUR, **rules) -> Tournament:
    made = event(players=players, **rules)
    made.club.directors.add(account("dora"))
    client.login(username="dora", password=PASSWORD)
    return made


def said(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def test_a_pair_form_sent_twice_is_refused_as_the_api_refuses_a_twin(client):
    made = directed(client)
    form = client.get(f"/tournaments/{made.pk}/direct").content.decode()
    assert '<input type="hidden" name="round" value="1"' in form
    sent = {"method": "swiss", "round": "1"}
    assert client.post(f"/tournaments/{made.pk}/pair", sent).status_code == 302
    twin = client.post(f"/tournaments/{made.pk}/pair", sent)
    assert twin.status_code == 409
    assert "Round 1 is paired already." in twin.content.decode()
    assert made.round_set.count() == 1  # no round 2 behind the director's back


def test_pairing_while_a_round_is_played_asks_first_and_offers_the_round_before(client):
    made = directed(client)
    paired = do_pair_round(made, "swiss")
    play_out(paired.pairings.get(table=1).game)  # table 2 is still playing
    asked = client.post(f"/tournaments/{made.pk}/pair", {"method": "swiss", "round": "2"})
    assert asked.status_code == 200 and made.round_set.count() == 1
    page = asked.content.decode()
    assert "Round 1 is still being played: 1 table has no result yet." in page
    assert '<input type="radio" name="based_on" value="0" checked>' in page
    assert '<input type="hidden" name="confirm" value="1">' in page
    sent = {"method": "swiss", "round": "2", "based_on": "0", "confirm": "1"}
    response = client.post(f"/tournaments/{made.pk}/pair", sent, follow=True)
    assert said(response) == ["Round 2 is paired: 2 tables."]
    assert made.round_set.get(number=2).based_on == 0


def test_take_back_withdraw_and_swap_each_ask_first_and_change_nothing_until_confirmed(client):
    made = directed(client)
    do_pair_round(made, "manual", manual=[("Ann Archer", "Ben Baker"), ("Cy Cole", "Di Dunn")])  # fmt: skip
    path = f"/tournaments/{made.pk}"
    asked = client.post(f"{path}/rounds/1/unpair")
    assert asked.status_code == 200 and "Take back round 1?" in asked.content.decode()
    ann = made.entrants.get(player__name="Ann Archer")
    asked = client.post(f"{path}/withdraw", {"entrant": ann.pk})
    assert "Withdraw Ann Archer?" in asked.content.decode()
    asked = client.post(f"{path}/rounds/1/swap", {"one": "Ann Archer", "other": "Cy Cole"})
    assert "Swap Ann Archer and Cy Cole in round 1?" in asked.content.decode()
    assert "rematch" not in asked.content.decode()  # nobody has met yet
    assert made.round_set.get().method == "manual" and ann.__class__.objects.get(pk=ann.pk).active
    assert Pairing.objects.filter(round__tournament=made, table=1).get().first.player.name in (
        "Ann Archer", "Ben Baker")  # fmt: skip


def test_a_swap_that_makes_a_rematch_says_so(client):
    made = directed(client)
    do_pair_round(made, "manual", manual=[("Ann Archer", "Ben Baker"), ("Cy Cole", "Di Dunn")])  # fmt: skip
    do_enter_result(made, 1, "Ann Archer", 400, "Ben Baker", 300)
    do_enter_result(made, 1, "Cy Cole", 400, "Di Dunn", 300)
    do_pair_round(made, "manual", manual=[("Ann Archer", "Cy Cole"), ("Ben Baker", "Di Dunn")])  # fmt: skip
    asked = client.post(f"/tournaments/{made.pk}/rounds/2/swap", {"one": "Cy Cole", "other": "Ben Baker"})  # fmt: skip
    page = asked.content.decode()
    assert "Ann Archer and Ben Baker met in round 1: the swap makes a rematch." in page
    assert "Cy Cole and Di Dunn met in round 1: the swap makes a rematch." in page


def test_an_old_qr_code_of_a_round_taken_back_says_where_the_tables_game_is_now(client):
    made = directed(client)
    first = do_pair_round(made, "manual", manual=[("Ann Archer", "Ben Baker"), ("Cy Cole", "Di Dunn")])  # fmt: skip
    old = first.pairings.get(table=1).game
    client.post(f"/tournaments/{made.pk}/rounds/1/unpair", {"confirm": "1"})
    client.logout()
    page = client.get(f"/games/{old.pk}/score/{old.token}/")
    assert page.status_code == 410
    text = page.content.decode()
    assert "round was taken back before the game began" in text
    assert "Round 1 is not paired again yet: ask the director." in text
    do_pair_round(made, "manual", manual=[("Ann Archer", "Cy Cole"), ("Ben Baker", "Di Dunn")])  # fmt: skip
    text = client.get(f"/games/{old.pk}/score/{old.token}/").content.decode()
    assert "Table 1 is now" in text and "Ben Baker now has table 2 against Di Dunn." in text
    assert f'href="/tournaments/{made.pk}/"' in text
    assert client.get(f"/games/{old.pk}/").status_code == 410  # its watch page too


# Corrections and the event, from the director's page ------------------------------------------
def test_the_directors_page_corrects_and_voids_a_result_and_keeps_the_old_one(client):
    made = directed(client)
    do_pair_round(made, "manual", manual=[("Ann Archer", "Ben Baker"), ("Cy Cole", "Di Dunn")])  # fmt: skip
    do_enter_result(made, 1, "Ann Archer", 400, "Ben Baker", 300)
    form = {"correct-round": "1", "correct-player1": "Ann Archer", "correct-score1": "390",
            "correct-player2": "Ben Baker", "correct-score2": "300"}  # fmt: skip
    response = client.post(f"/tournaments/{made.pk}/correct", form, follow=True)
    assert said(response) == [
        "Round 1 corrected: Ann Archer 390, Ben Baker 300. The old result is kept."
    ]
    void = {"correct-round": "1", "correct-player1": "Ben Baker", "void": "1"}
    response = client.post(f"/tournaments/{made.pk}/correct", void, follow=True)
    assert said(response) == ["Round 1: Ben Baker's game has no result now; it waits for one."]
    page = client.get(f"/tournaments/{made.pk}/").content.decode()
    assert page.count("(by dora)") == 2 and "became no result" in page


def test_the_directors_page_dates_archives_and_deletes_an_event(client):
    made = directed(client)
    response = client.post(f"/tournaments/{made.pk}/event", {"date": "2026-12-04", "archived": "on"}, follow=True)  # fmt: skip
    assert said(response) == ["Friday is dated 4 December 2026, archived."]
    made.refresh_from_db()
    assert made.archived and str(made.date) == "2026-12-04"
    bad = client.post(f"/tournaments/{made.pk}/event", {"date": "soon"}, follow=True)
    assert said(bad) == ["Give the event's date as YYYY-MM-DD."]
    asked = client.post(f"/tournaments/{made.pk}/delete")
    assert asked.status_code == 200 and "Delete Friday?" in asked.content.decode()
    assert Tournament.objects.filter(pk=made.pk).exists()
    response = client.post(f"/tournaments/{made.pk}/delete", {"confirm": "1"}, follow=True)
    assert said(response) == ["Friday is deleted."]
    assert not Tournament.objects.filter(pk=made.pk).exists()


def test_an_event_with_a_result_is_not_deleted(client):
    made = directed(client)
    do_pair_round(made, "manual", manual=[("Ann Archer", "Ben Baker"), ("Cy Cole", "Di Dunn")])  # fmt: skip
    do_forfeit(made, 1, "Cy Cole")
    assert "Delete the event" not in client.get(f"/tournaments/{made.pk}/direct").content.decode()
    response = client.post(f"/tournaments/{made.pk}/delete", {"confirm": "1"}, follow=True)
    assert "archive it instead" in said(response)[0]
    assert Tournament.objects.filter(pk=made.pk).exists()


def test_an_old_qr_code_of_a_swapped_table_says_where_its_players_are(client):
    made = directed(client)
    paired = do_pair_round(made, "manual", manual=[("Ann Archer", "Ben Baker"), ("Cy Cole", "Di Dunn")])  # fmt: skip
    old = paired.pairings.get(table=2).game
    kept = paired.pairings.get(table=1).game_id
    do_swap(made, 1, "Ben Baker", "Cy Cole")
    assert paired.pairings.get(table=1).game_id != kept  # both tables got new games
    text = client.get(f"/games/{old.pk}/score/{old.token}/").content.decode()
    assert "the round was changed by a swap before the game began" in text
    assert "Cy Cole now has table 1 against Ann Archer." in text
    assert "Table 2 is now" in text


def test_the_directors_screen_and_projector_mark_a_withdrawn_player(client):
    made = event(players=FOUR)
    do_pair_round(made, "swiss")
    do_withdraw(made.entrants.get(player__name="Di Dunn"))
    page = client.get(f"/clubs/{made.club.slug}/live/tables").content.decode()
    assert 'Di Dunn <span class="tag">withdrawn</span>' in page
    projector = client.get(f"/clubs/{made.club.slug}/live/projector").content.decode()
    assert "Di Dunn (withdrawn)" in projector


def test_a_correction_or_tonights_mark_changes_the_directors_screens_etag(client):
    made = event(players=FOUR)
    do_pair_round(made, "manual", manual=[("Ann Archer", "Ben Baker"), ("Cy Cole", "Di Dunn")])  # fmt: skip
    do_enter_result(made, 1, "Ann Archer", 400, "Ben Baker", 300)
    path = f"/clubs/{made.club.slug}/live/tables"
    etag = client.get(path)["ETag"]
    do_correct_result(made, 1, "Ann Archer", 300, "Ben Baker", 400)
    corrected = client.get(path, HTTP_IF_NONE_MATCH=etag)
    assert corrected.status_code == 200 and ">0–1<" in corrected.content.decode()
    do_mark_tonight(made, False)
    gone = client.get(path, HTTP_IF_NONE_MATCH=corrected["ETag"])
    assert gone.status_code == 200 and "Friday: round" not in gone.content.decode()
