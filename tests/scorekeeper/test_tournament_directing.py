"""A director's hand in a running event: divisions paired and ranked each on their own, a
round taken back or changed before it starts, a forfeit for a player who is absent."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bench.sequences import HASBRO
from referee import IllegalAction, InputError
from scorekeeper.api.accounts import new_account_token
from scorekeeper.game import domain
from scorekeeper.game import tournaments as events
from scorekeeper.game.refusals import Conflict
from scorekeeper.game.tournaments import Entry
from scorekeeper.models import Club, Game, Tournament
from tests.factories import PASSWORD, account, make_club

pytestmark = pytest.mark.django_db

SEVEN = [Entry("Ann Archer", 1700, division="A"), Entry("Ben Baker", 1600, division="A"),
         Entry("Cy Cole", 1500, division="A"), Entry("Di Dunn", 1400, division="A"),
         Entry("Ed Eng", 1300, division="B"), Entry("Flo Fox", 1200, division="B"),
         Entry("Gus Gray", 1100, division="B")]  # fmt: skip


def event(players=SEVEN, **rules):
    club = make_club(f"Riverside {Club.objects.count() + 1}", roster=())
    fields = {"name": "Friday", "ruleset": "upwords-10", "lexicon": "CLUB", "rounds": 3}
    return events.do_create_tournament(club, players=players, **(fields | rules))


def play_out(game: Game) -> None:
    """Two plays of 8 points each and a third of 10 for the first seat, then the end."""
    for triples, _ in HASBRO[:3]:
        domain.act(game.pk, "play", tiles=triples)
    domain.act(game.pk, "finish")


def division_of(made, name):
    return {e.player.name: e.division for e in made.entrants.select_related("player")}[name]


def test_each_division_is_paired_on_its_own_with_its_own_bye_and_tables_running_on():
    made = event()
    paired = events.do_pair_round(made, "swiss")
    pairings = list(paired.pairings.select_related("first__player", "second__player"))
    tables = [(p.table, p.first.division, p.second.division) for p in pairings if p.table]
    assert sorted(tables) == [(1, "A", "A"), (2, "A", "A"), (3, "B", "B")]
    byes = [p.first.player.name for p in pairings if p.second is None]
    assert byes == ["Gus Gray"]  # B's lowest rated; A is even and has none
    assert sorted(p.game.table_number for p in pairings if p.game) == [1, 2, 3]


def test_each_division_has_its_own_standings_and_t_file():
    made = event()
    paired = events.do_pair_round(made, "swiss")
    for pairing in paired.pairings.filter(game__isnull=False):
        play_out(pairing.game)
    divided = events.division_standings(made)
    assert [name for name, _ in divided] == ["A", "B"]
    a_rows, b_rows = divided[0][1], divided[1][1]
    assert [row.standing.rank for row in a_rows] == ["1=", "1=", "3=", "3="]
    assert {row.entrant.division for row in a_rows} == {"A"}
    # B: the winner of table 3 (+10) and the bye (+50) share 1 win; the bye's spread leads.
    assert [(row.standing.player.name, row.standing.spread) for row in b_rows][0] == (
        "Gus Gray",
        50,
    )
    assert [row.standing.player.name for row in events.standings(made, "b")] == [
        row.standing.player.name for row in b_rows
    ]
    with pytest.raises(InputError, match="name one \\(A or B\\)"):
        events.standings(made)
    lines = events.export_t(made, "B").splitlines()
    assert [line.split(" ")[0] for line in lines] == ["Eng,", "Fox,", "Gray,"]
    assert lines[2].startswith("Gray, Gus") and " 1100 0; 50;" in lines[2]  # the bye: 0, +50
    with pytest.raises(InputError, match="no division C"):
        events.export_t(made, "C")


def test_swiss_pairs_the_next_round_within_each_division():
    made = event(players=SEVEN[:6])  # A: 4, B: 2
    first = events.do_pair_round(made, "swiss")
    for pairing in first.pairings.filter(game__isnull=False):
        play_out(pairing.game)
    second = events.do_pair_round(made, "swiss")
    for pairing in second.pairings.select_related("first", "second"):
        assert pairing.first.division == pairing.second.division


def test_pairing_by_hand_across_divisions_is_refused_and_nothing_is_stored():
    made = event(players=SEVEN[:6])
    couples = [("Ann Archer", "Ed Eng"), ("Ben Baker", "Cy Cole"), ("Di Dunn", "Flo Fox")]
    with pytest.raises(IllegalAction, match="Ann Archer and Ed Eng are in different divisions"):
        events.do_pair_round(made, "manual", manual=couples)
    assert not made.round_set.exists() and not Game.objects.exists()


def test_an_event_without_divisions_is_one_division_named_by_nobody():
    made = event(players=[Entry("Ann"), Entry("Ben")])
    assert events.divisions_of(events.entrants_of(made)) == [""]
    assert [row.standing.player.name for row in events.standings(made)] == ["Ann", "Ben"]


# Through the API and the pages ---------------------------------------------------------------
@pytest.fixture
def bearer(client):
    token = new_account_token(account("dora"))
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


def api_post(client, bearer, path, body):
    return client.post(path, body, content_type="application/json", **bearer)


def test_the_api_enters_players_in_divisions_and_answers_each_divisions_standings(client, bearer):
    assert api_post(client, bearer, "/api/clubs/", {"name": "Riverside"}).status_code == 201
    players = [{"name": e.name, "rating": e.rating, "division": e.division} for e in SEVEN]
    body = {"name": "Friday", "ruleset": "upwords-10", "lexicon": "CLUB", "rounds": 3,
            "players": players}  # fmt: skip
    number = api_post(client, bearer, "/api/clubs/riverside/tournaments/", body).json()["id"]
    paired = api_post(client, bearer, f"/api/tournaments/{number}/rounds/", {"method": "swiss"})
    assert paired.status_code == 201 and paired.json()["byes"] == ["Gus Gray"]
    assert [table["table"] for table in paired.json()["pairings"]] == [1, 2, 3]
    rows = client.get(f"/api/tournaments/{number}/standings?division=B").json()
    assert [row["name"] for row in rows] == ["Gus Gray", "Ed Eng", "Flo Fox"]
    assert rows[0]["rank"] == "1" and rows[0]["spread"] == 50
    unnamed = client.get(f"/api/tournaments/{number}/standings")
    assert unnamed.status_code == 400
    assert unnamed.json()["error"]["message"] == "Friday has divisions: name one (A or B)."
    moved = client.get(f"/api/tournaments/{number}/export.t?division=B")
    assert moved["Location"] == f"/tournaments/{number}/export.t?division=B"
    assert client.get(moved["Location"]).content.decode().count("\n") == 3


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
    client.post(f"/tournaments/{made.pk}/pair", {"method": "swiss"})
    page = client.get(f"/tournaments/{made.pk}/").content.decode()
    assert page.count('class="division-name"') == 2
    assert "Standings, division A" in page and "Standings, division B" in page
    direct = client.get(f"/tournaments/{made.pk}/direct").content.decode()
    assert "export.t?division=B" in direct


# Pairing a round again ---------------------------------------------------------------------
FOUR = SEVEN[:4]


def test_a_round_not_started_is_taken_back_its_games_removed_and_paired_again():
    made = event(players=FOUR)
    first = events.do_pair_round(made, "swiss")
    games = [p.game_id for p in first.pairings.all()]
    assert events.can_pair_again(made, 1)
    assert events.do_unpair_round(made, 1) == 2
    assert not made.round_set.exists() and not Game.objects.filter(pk__in=games).exists()
    again = events.do_pair_round(made, "koth")
    assert (again.number, again.method, again.pairings.count()) == (1, "koth", 2)


def test_a_round_with_a_turn_at_one_table_cant_be_taken_back_and_keeps_everything():
    made = event(players=FOUR)
    paired = events.do_pair_round(made, "swiss")
    table2 = paired.pairings.get(table=2)
    domain.act(table2.game_id, "pass")
    assert not events.can_pair_again(made, 1)
    with pytest.raises(Conflict, match="Table 2's game in round 1 has begun"):
        events.do_unpair_round(made, 1)
    with pytest.raises(Conflict, match="has begun"):
        events.do_swap(made, 1, "Ann Archer", "Ben Baker")
    assert paired.pairings.filter(game__isnull=False).count() == 2 and Game.objects.count() == 2


def test_only_the_latest_round_is_taken_back():
    made = event(players=FOUR)
    first = events.do_pair_round(made, "swiss")
    for pairing in first.pairings.all():
        play_out(pairing.game)
    events.do_pair_round(made, "swiss", based_on=0)
    with pytest.raises(IllegalAction, match="Round 2 is paired after round 1: take it back first"):
        events.do_unpair_round(made, 1)
    with pytest.raises(IllegalAction, match="Round 3 is not paired"):
        events.do_unpair_round(made, 3)


def test_a_swap_before_the_round_starts_moves_two_players_and_makes_the_games_again():
    made = event(players=FOUR)
    paired = events.do_pair_round(made, "swiss")  # 1 v 3, 2 v 4 by rating
    before = {frozenset((p.first.player.name, p.second.player.name)) for p in paired.pairings.all()}
    assert before == {frozenset(("Ann Archer", "Cy Cole")), frozenset(("Ben Baker", "Di Dunn"))}
    old_games = set(paired.pairings.values_list("game_id", flat=True))
    swapped = events.do_swap(made, 1, "Cy Cole", "Di Dunn")
    after = {frozenset((p.first.player.name, p.second.player.name)) for p in swapped.pairings.all()}
    assert after == {frozenset(("Ann Archer", "Di Dunn")), frozenset(("Ben Baker", "Cy Cole"))}
    assert (swapped.number, swapped.method) == (1, "manual")
    games = list(Game.objects.filter(pairing__round=swapped).prefetch_related("seats__player"))
    assert len(games) == 2 and not old_games & {g.pk for g in games}
    for game in games:
        assert {s.player.name for s in game.seats.all()} in after
    with pytest.raises(IllegalAction, match="at the same table already"):
        events.do_swap(made, 1, "Ann Archer", "Di Dunn")


def test_the_api_takes_a_round_back_and_swaps_refusing_once_begun(client, bearer):
    assert api_post(client, bearer, "/api/clubs/", {"name": "Riverside"}).status_code == 201
    players = [{"name": e.name, "rating": e.rating} for e in FOUR]
    body = {"name": "Friday", "ruleset": "upwords-10", "lexicon": "CLUB", "rounds": 3,
            "players": players}  # fmt: skip
    number = api_post(client, bearer, "/api/clubs/riverside/tournaments/", body).json()["id"]
    rounds = f"/api/tournaments/{number}/rounds/"
    assert api_post(client, bearer, rounds, {"method": "swiss"}).status_code == 201
    assert client.delete(f"{rounds}1").status_code == 401  # a change is a director's
    taken = client.delete(f"{rounds}1", **bearer)
    assert taken.status_code == 200 and taken.json() == {"round": 1, "games_removed": 2}
    paired = api_post(client, bearer, rounds, {"method": "swiss"}).json()
    swapped = api_post(client, bearer, f"{rounds}1/swap", {"players": ["Cy Cole", "Di Dunn"]})
    assert swapped.status_code == 200, swapped.content
    tables = {frozenset((t["first"], t["second"])) for t in swapped.json()["pairings"]}
    assert frozenset(("Ann Archer", "Di Dunn")) in tables
    game = swapped.json()["pairings"][0]["game"]
    turn = api_post(client, {"HTTP_AUTHORIZATION": f"Bearer {game['token']}"},
                    f"/api/games/{game['id']}/turns/", {"action": "pass"})  # fmt: skip
    assert turn.status_code == 201, turn.content
    refused = client.delete(f"{rounds}1", **bearer)
    assert refused.status_code == 409 and "has begun" in refused.json()["error"]["message"]
    assert paired["round"] == 1 and Game.objects.count() == 2


def test_the_directors_page_takes_back_and_swaps_a_round_not_started(client):
    club = make_club(directors=[account("dora")], roster=())
    client.login(username="dora", password=PASSWORD)
    made = events.do_create_tournament(
        club, name="Friday", ruleset="upwords-10", lexicon="CLUB", rounds=3, players=FOUR
    )
    events.do_pair_round(made, "swiss")
    page = client.get(f"/tournaments/{made.pk}/direct").content.decode()
    assert "Change round 1 before it starts" in page
    client.post(f"/tournaments/{made.pk}/rounds/1/swap", {"one": "Cy Cole", "other": "Di Dunn"})
    assert made.round_set.get().method == "manual"
    response = client.post(f"/tournaments/{made.pk}/rounds/1/unpair")
    assert response.status_code == 302 and not made.round_set.exists()
    assert "Pair round 1" in client.get(f"/tournaments/{made.pk}/direct").content.decode()


# A forfeit -----------------------------------------------------------------------------------
def test_an_absent_player_loses_by_the_forfeit_margin_and_the_tables_game_is_closed():
    made = event(players=FOUR, forfeit_spread=60)
    paired = events.do_pair_round(made, "swiss")  # Ann v Cy, Ben v Di
    table = paired.pairings.get(table=1)
    domain.act(table.game_id, "pass")  # begun: a player may leave a game already started
    events.do_forfeit(made, 1, "cy cole", by="dora")
    table.refresh_from_db()
    assert table.absent.player.name == "Cy Cole"
    assert Game.objects.get(pk=table.game_id).status == Game.Status.ABANDONED
    rows = {r.standing.player.name: r.standing for r in events.standings(made)}
    assert (rows["Ann Archer"].wins, rows["Ann Archer"].spread) == (1, 60)
    assert (rows["Cy Cole"].losses, rows["Cy Cole"].spread) == (1, -60)
    assert rows["Ann Archer"].scorecard[0].kind == "forfeit win"
    with pytest.raises(Conflict, match="Ann Archer's game in round 1 has its result already"):
        events.do_forfeit(made, 1, "Ann Archer")
    with pytest.raises(IllegalAction, match="Ben Baker has no game in round 2"):
        events.do_forfeit(made, 2, "Ben Baker")
    assert not events.can_pair_again(made, 1)  # a round with a result has begun


def test_a_finished_game_cant_be_forfeited():
    made = event(players=FOUR)
    paired = events.do_pair_round(made, "swiss")
    play_out(paired.pairings.get(table=2).game)
    with pytest.raises(Conflict, match="has its result already"):
        events.do_forfeit(made, 1, "Di Dunn")


def test_the_api_and_the_page_mark_a_player_absent(client, bearer):
    assert api_post(client, bearer, "/api/clubs/", {"name": "Riverside"}).status_code == 201
    players = [{"name": e.name, "rating": e.rating} for e in FOUR]
    body = {"name": "Friday", "ruleset": "upwords-10", "lexicon": "CLUB", "rounds": 3,
            "players": players}  # fmt: skip
    number = api_post(client, bearer, "/api/clubs/riverside/tournaments/", body).json()["id"]
    api_post(client, bearer, f"/api/tournaments/{number}/rounds/", {"method": "swiss"})
    forfeits = f"/api/tournaments/{number}/forfeits/"
    marked = api_post(client, bearer, forfeits, {"round": 1, "absent": "Di Dunn"})
    assert marked.status_code == 201, marked.content
    assert marked.json() == {"round": 1, "table": 2, "absent": "Di Dunn", "present": "Ben Baker",
                             "spread": 50}  # fmt: skip
    again = api_post(client, bearer, forfeits, {"round": 1, "absent": "Ben Baker"})
    assert again.status_code == 409 and again.json()["error"]["code"] == "has_result"
    rows = client.get(f"/api/tournaments/{number}/standings").json()
    assert (rows[0]["name"], rows[0]["spread"]) == ("Ben Baker", 50)

    client.login(username="dora", password=PASSWORD)
    page = client.get(f"/tournaments/{number}/direct").content.decode()
    assert "Absent in round 1" in page and "<option>Cy Cole</option>" in page
    assert "<option>Di Dunn</option>" not in page  # has its result
    client.post(f"/tournaments/{number}/forfeit", {"round": "1", "absent": "Cy Cole"})
    rows = client.get(f"/api/tournaments/{number}/standings").json()
    assert (rows[0]["name"], rows[0]["spread"]) == ("Ann Archer", 50)
    assert "forfeit: Cy Cole absent" in client.get(f"/tournaments/{number}/direct").content.decode()


# The director's screen -----------------------------------------------------------------------
def test_the_directors_screen_shows_the_events_round_and_standings_and_changes_its_etag(client):
    made = event(players=SEVEN[:5])
    paired = events.do_pair_round(made, "swiss")
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
    events.do_add_players(made, [Entry("Hal Hunt", division="B")])  # no game changes
    assert (
        client.get(f"/clubs/{slug}/live/tables", HTTP_IF_NONE_MATCH=ended["ETag"]).status_code
        == 200
    )


def test_an_event_of_another_day_is_not_on_the_directors_screen(client):
    made = event(players=FOUR)
    events.do_pair_round(made, "swiss")
    made.date = made.date.replace(year=made.date.year - 1)
    made.save(update_fields=["date"])
    page = client.get(f"/clubs/{made.club.slug}/live").content.decode()
    assert "Friday: round" not in page and page.count("live-card") == 2  # its games, as any


def test_an_event_of_one_division_refuses_a_division_by_name():
    made = event(players=[Entry("Ann"), Entry("Ben")])
    with pytest.raises(InputError, match="Friday has no divisions"):
        events.standings(made, "A")


def test_the_directors_screen_costs_as_many_queries_for_8_players_as_for_16(client):
    def queries_for(size: int) -> int:
        players = [Entry(f"Player {size} {chr(65 + i)}") for i in range(size)]
        made = events.do_create_tournament(
            make_club(roster=(), name=f"Club {size}"), name="Friday", ruleset="upwords-10",
            lexicon="CLUB", rounds=3, players=players,
        )  # fmt: skip
        paired = events.do_pair_round(made, "swiss")
        play_out(paired.pairings.get(table=1).game)
        with CaptureQueriesContext(connection) as seen:
            assert client.get(f"/clubs/{made.club.slug}/live/tables").status_code == 200
        return len(seen.captured_queries)

    assert queries_for(16) == queries_for(8)


def test_divisions_are_spelt_as_first_entered_and_every_player_is_in_one_or_none_is():
    made = event(players=[Entry("Ann", division="A"), Entry("Ben", division="a"),
                          Entry("Cy", division="B"), Entry("Di", division="b")])  # fmt: skip
    assert events.divisions_of(events.entrants_of(made)) == ["A", "B"]
    with pytest.raises(InputError, match="Put every player in a division, or none"):
        event(players=[Entry("Ann", division="A"), Entry("Ben")])
    with pytest.raises(InputError, match="Name each player's division: A or B"):
        events.do_add_players(made, [Entry("Ed")])
    (late,) = events.do_add_players(made, [Entry("Ed", division="b")])
    assert late.division == "B"
    one = event(players=[Entry("Ann"), Entry("Ben")])
    with pytest.raises(InputError, match="Put every player in a division, or none"):
        events.do_add_players(one, [Entry("Cy", division="A")])


def test_a_round_by_hand_takes_a_bye_in_each_odd_division():
    made = event(players=SEVEN[:3] + SEVEN[4:])  # A: 3, B: 3
    paired = events.do_pair_round(
        made, "manual", manual=[("Ann Archer", "Ben Baker"), ("Ed Eng", "Flo Fox")],
        manual_byes=["Cy Cole", "Gus Gray"],
    )  # fmt: skip
    byes = sorted(p.first.player.name for p in paired.pairings.filter(second__isnull=True))
    assert byes == ["Cy Cole", "Gus Gray"]
    events.do_unpair_round(made, 1)
    with pytest.raises(IllegalAction, match="at most one bye a round"):
        events.do_pair_round(
            made, "manual", manual=[("Ed Eng", "Flo Fox")],
            manual_byes=["Ann Archer", "Ben Baker", "Gus Gray"],
        )  # fmt: skip
