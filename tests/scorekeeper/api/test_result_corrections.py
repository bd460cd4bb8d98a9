"""Corrections with a trace (issue 45): a result of a game played without the app set or
corrected through ``PUT /api/tournaments/<id>/results/``, a forfeit voided or corrected, each
correction kept with who, when and the old scores; standings, ratings, the CSV and the .t
follow at once; a game played in the app is refused (its own log corrects it). And the event
itself: its date, archived, deleted while it has no result, tonight's on the screen."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from scorekeeper.api.accounts import new_account_token
from scorekeeper.events.entries import do_create_tournament
from scorekeeper.events.reads import running_event, standings
from scorekeeper.events.results import do_forfeit
from scorekeeper.events.rounds import do_pair_round
from scorekeeper.models import Game, ResultCorrection, Tournament
from tests.factories import account
from tests.scorekeeper.club_events import FOUR, play_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def bearer(client):
    token = new_account_token(account("dora"))
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


def send(client, bearer, method, path, body=None):
    return getattr(client, method)(path, body, content_type="application/json", **bearer)


@pytest.fixture
def made(client, bearer) -> Tournament:
    assert send(client, bearer, "post", "/api/clubs/", {"name": "Riverside"}).status_code == 201
    players = [{"name": e.name, "rating": e.rating} for e in FOUR]
    body = {"name": "Friday", "ruleset": "upwords-10", "lexicon": "CLUB", "rounds": 3,
            "players": players}  # fmt: skip
    number = send(client, bearer, "post", "/api/clubs/riverside/tournaments/", body).json()["id"]
    tournament = Tournament.objects.get(pk=number)
    do_pair_round(tournament, "manual", manual=[("Ann Archer", "Ben Baker"), ("Cy Cole", "Di Dunn")])  # fmt: skip
    return tournament


def result(round_, player1, score1, player2, score2):
    return {"round": round_, "player1": player1, "score1": score1, "player2": player2,
            "score2": score2}  # fmt: skip


def line_of(client, made, player):
    lines = client.get(f"/api/tournaments/{made.pk}/results/").json()
    return next(line for line in lines if player in (line["player1"], line["player2"]))


def test_a_typed_result_is_corrected_with_who_when_and_the_old_scores(client, bearer, made):
    path = f"/api/tournaments/{made.pk}/results/"
    assert send(client, bearer, "put", path, result(1, "Ann Archer", 412, "Ben Baker", 377)).status_code == 200  # fmt: skip
    before = {row.entrant.player.name: row for row in standings(made)}
    assert before["Ann Archer"].standing.spread == 35
    corrected = send(client, bearer, "put", path, result(1, "Ben Baker", 420, "Ann Archer", 402))
    assert corrected.status_code == 200, corrected.content
    body = corrected.json()
    ann_first = body["player1"] == "Ann Archer"
    assert body["kind"] == "typed"
    assert (body["score1"], body["score2"]) == ((402, 420) if ann_first else (420, 402))
    (trace,) = body["corrections"]
    assert trace["by"] == "dora" and trace["at"]
    assert (trace["before"]["score1"], trace["before"]["score2"]) == ((412, 377) if ann_first else (377, 412))  # fmt: skip
    assert line_of(client, made, "Ann Archer")["corrections"] == [trace]
    # Standings, ratings, the CSV and the .t follow at once.
    after = {row.entrant.player.name: row for row in standings(made)}
    assert after["Ann Archer"].standing.spread == -18 and after["Ben Baker"].standing.wins == 1
    assert after["Ann Archer"].rating_after != before["Ann Archer"].rating_after
    csv = client.get(f"/tournaments/{made.pk}/standings.csv").content.decode()
    assert "Ben Baker" in csv.splitlines()[1]  # Ben leads now
    assert "420" in client.get(f"/tournaments/{made.pk}/export.t").content.decode()
    # The event's page shows it.
    page = client.get(f"/tournaments/{made.pk}/").content.decode()
    assert "became" in page and "(by dora)" in page


def test_a_forfeit_is_voided_and_then_corrected_to_scores(client, bearer, made):
    do_forfeit(made, 1, "Cy Cole")
    voided = send(client, bearer, "post", f"/api/tournaments/{made.pk}/results/void",
                  {"round": 1, "player": "Di Dunn"})  # fmt: skip
    assert voided.status_code == 200, voided.content
    assert voided.json()["kind"] == "waiting"
    assert voided.json()["corrections"][0]["before"]["absent"] == "Cy Cole"
    assert voided.json()["corrections"][0]["after"] == {"score1": None, "score2": None, "absent": None}  # fmt: skip
    do_forfeit(made, 1, "Di Dunn")
    fixed = send(client, bearer, "put", f"/api/tournaments/{made.pk}/results/",
                 result(1, "Cy Cole", 300, "Di Dunn", 350))  # fmt: skip
    assert fixed.status_code == 200 and fixed.json()["kind"] == "typed"
    assert [c["before"]["absent"] for c in fixed.json()["corrections"]] == ["Cy Cole", "Di Dunn"]
    assert ResultCorrection.objects.count() == 2
    again = send(client, bearer, "post", f"/api/tournaments/{made.pk}/results/void",
                 {"round": 1, "player": "Ann Archer"})  # fmt: skip
    assert again.status_code == 409 and "no result to void" in again.json()["error"]["message"]


def test_a_game_played_in_the_app_is_corrected_through_its_own_log(client, bearer, made):
    table = made.round_set.get().pairings.get(table=1)
    play_out(table.game)
    refused = send(client, bearer, "put", f"/api/tournaments/{made.pk}/results/",
                   result(1, "Ann Archer", 400, "Ben Baker", 300))  # fmt: skip
    assert refused.status_code == 422
    assert refused.json()["error"]["code"] == "played_in_app"
    assert "correct it through its own log" in refused.json()["error"]["message"]
    assert Game.objects.get(pk=table.game_id).status == Game.Status.FINISHED
    assert not ResultCorrection.objects.exists()
    assert line_of(client, made, "Ann Archer")["kind"] == "game"


def test_a_correction_leaves_later_rounds_as_paired(client, bearer, made):
    path = f"/api/tournaments/{made.pk}/results/"
    send(client, bearer, "put", path, result(1, "Ann Archer", 400, "Ben Baker", 300))
    send(client, bearer, "put", path, result(1, "Cy Cole", 400, "Di Dunn", 300))
    second = do_pair_round(made, "swiss")
    tables = sorted((p.first_id, p.second_id) for p in second.pairings.all())
    send(client, bearer, "put", path, result(1, "Ann Archer", 300, "Ben Baker", 400))
    assert sorted((p.first_id, p.second_id) for p in second.pairings.all()) == tables


def test_an_event_has_a_date_is_archived_and_deleted_only_without_results(client, bearer, made):
    path = f"/api/tournaments/{made.pk}"
    assert client.patch(path, {"archived": True}, content_type="application/json").status_code == 401  # fmt: skip
    changed = send(client, bearer, "patch", path, {"date": "2026-12-04", "archived": True})
    assert changed.status_code == 200
    assert changed.json() == {"id": made.pk, "name": "Friday", "date": "2026-12-04",
                              "archived": True, "tonight": False}  # fmt: skip
    page = client.get("/clubs/riverside/").content.decode()
    assert f'href="/tournaments/{made.pk}/"' not in page  # archived: off the club's list
    send(client, bearer, "put", f"{path}/results/", result(1, "Ann Archer", 400, "Ben Baker", 300))
    refused = send(client, bearer, "delete", path)
    assert refused.status_code == 409 and "archive it instead" in refused.json()["error"]["message"]
    fresh = do_create_tournament(made.club, name="Test", ruleset="upwords-10",
                                        lexicon="CLUB", rounds=1, players=FOUR)  # fmt: skip
    games = [p.game_id for p in do_pair_round(fresh, "swiss").pairings.all() if p.game_id]
    assert send(client, bearer, "delete", f"/api/tournaments/{fresh.pk}").status_code == 204
    assert not Tournament.objects.filter(pk=fresh.pk).exists()
    assert not Game.objects.filter(pk__in=games).exists()


def test_a_director_marks_tonights_event_through_the_api(client, bearer, made):
    other = do_create_tournament(made.club, name="Saturday", ruleset="upwords-10",
                                        lexicon="CLUB", rounds=1, players=FOUR)  # fmt: skip
    do_pair_round(other, "swiss")
    marked = send(client, bearer, "patch", f"/api/tournaments/{other.pk}", {"tonight": True})
    assert marked.json()["tonight"] is True
    assert running_event(made.club) == other
    made.refresh_from_db()
    assert made.tonight is None


def test_an_event_is_made_with_its_date_through_the_api_and_the_form(client, bearer):
    assert send(client, bearer, "post", "/api/clubs/", {"name": "Riverside"}).status_code == 201
    players = [{"name": e.name} for e in FOUR]
    body = {"name": "Saturday", "ruleset": "upwords-10", "lexicon": "CLUB", "rounds": 2,
            "players": players, "date": "2026-12-05"}  # fmt: skip
    made = send(client, bearer, "post", "/api/clubs/riverside/tournaments/", body)
    assert made.status_code == 201 and made.json()["date"] == "2026-12-05"
    client.force_login(get_user_model().objects.get(username="dora"))
    form = {"name": "Sunday", "date": "2026-12-06", "ruleset": "upwords-10", "lexicon": "CLUB",
            "challenge_mode": "auto", "rounds": "2", "bye_spread": "50", "players": "Ann\nBen\n"}  # fmt: skip
    assert client.post("/clubs/riverside/tournaments/new", form).status_code == 302
    assert str(Tournament.objects.get(name="Sunday").date) == "2026-12-06"
