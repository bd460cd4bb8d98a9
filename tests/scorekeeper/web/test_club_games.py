"""Games for a club: started by a signed-in member with roster players only; declared void by
a director (through the domain, logged, undoable); casual games as before."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from referee.errors import GameOver, IllegalAction
from scorekeeper.games import domain
from scorekeeper.games.consistency import audit_game
from scorekeeper.games.turn_kinds import describe
from scorekeeper.models import Game, Player
from tests.factories import account, finished_game, make_club

pytestmark = pytest.mark.django_db

NEW_GAME = {"ruleset": "upwords-10", "lexicon": "CLUB", "challenge_mode": "auto", "starter": "1"}


def new_game(client, *names: str, **fields: str):
    players = {f"player_{n}": name for n, name in enumerate(names, 1)}
    return client.post("/games/new", {**NEW_GAME, **players, **fields})


# Starting a club game ---------------------------------------------------------------------------
def test_the_club_choice_is_shown_only_to_a_signed_in_member(client):
    make_club(directors=[account("ann")])
    account("zed")
    assert "For the club" not in client.get("/games/new").content.decode()
    client.login(username="zed", password="pw-for-tests-only")
    assert "For the club" not in client.get("/games/new").content.decode()
    client.login(username="ann", password="pw-for-tests-only")
    page = client.get("/games/new").content.decode()
    assert "For the club" in page and '<option value="riverside">Riverside</option>' in page


def test_a_roster_player_linked_to_an_account_is_a_member(client):
    make_club(roster=["Ben"])
    ben = account("ben")
    Player.objects.filter(name="Ben").update(user=ben)
    client.force_login(ben)
    assert "For the club" in client.get("/games/new").content.decode()


def test_a_member_starts_a_game_for_the_club(client):
    ann = account("ann")
    club = make_club(directors=[ann])
    client.force_login(ann)
    response = new_game(client, "ann", "BEN", club="riverside")
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.club == club
    assert [s.player.name for s in game.seats.order_by("order")] == ["Ann", "Ben"]


def test_a_club_game_is_given_its_table_number_and_a_casual_game_none(client):
    ann = account("ann")
    make_club(directors=[ann])
    client.force_login(ann)
    assert 'name="table_number"' in client.get("/games/new").content.decode()
    assert new_game(client, "Ann", "Ben", club="riverside", table_number="4").status_code == 302
    assert Game.objects.get().table_number == 4
    casual = new_game(client, "Ann", "Zed", club="", table_number="5")
    assert casual.status_code == 400
    assert "A table number is for a club game" in casual.content.decode()
    assert new_game(client, "Ann", "Ben", club="riverside", table_number="0").status_code == 400
    assert Game.objects.count() == 1


def test_a_club_game_refuses_a_player_not_on_the_roster(client):
    ann = account("ann")
    make_club(directors=[ann])
    client.force_login(ann)
    response = new_game(client, "Ann", "Zed", club="riverside")
    assert response.status_code == 400
    assert "Zed is not on Riverside&#x27;s roster." in response.content.decode()
    assert not Game.objects.exists()


def test_a_member_can_still_start_a_casual_game_with_anyone(client):
    ann = account("ann")
    make_club(directors=[ann])
    client.force_login(ann)
    assert new_game(client, "Ann", "Zed", club="").status_code == 302
    assert Game.objects.get().club is None


def test_casual_games_without_an_account_are_as_before(client):
    make_club()
    assert new_game(client, "Ann", "Zed").status_code == 302
    assert Game.objects.get().club is None


def test_the_domain_refuses_a_club_game_with_a_player_off_the_roster():
    club = make_club(roster=["Ann", "Ben"])
    with pytest.raises(IllegalAction, match="Zed is not on Riverside's roster."):
        domain.check_create_game(ruleset="upwords-10", players=["Ann", "Zed"], club=club)
    assert not Game.objects.exists()
    game = domain.check_create_game(
        ruleset="upwords-10", players=["ann", "Ben"], lexicon="CLUB", club=club
    )
    assert game.club == club


# Void ------------------------------------------------------------------------------------------
def test_a_director_voids_a_club_game_through_the_domain_and_the_log_says_so():
    ann = account("ann")
    club = make_club(directors=[ann])
    game = finished_game(["Ann", "Ben"], club=club)
    applied = domain.act(
        game.pk,
        domain.TurnCommand(
            "void", by="director: ann", note="Ben played from a second bag", director=ann
        ),
    )
    game.refresh_from_db()
    assert game.status == Game.Status.VOID
    assert (
        describe(applied.turn)
        == "Voided after turn 2 by director: ann — Ben played from a second bag."
    )
    assert [s.result for s in game.seats.all()] == ["", ""]
    assert [s.final_score for s in game.seats.all()] == [None, None]
    assert audit_game(game) == []


def test_a_void_game_refuses_further_turns():
    ann = account("ann")
    game = domain.check_create_game(
        ruleset="upwords-10",
        players=["Ann", "Ben"],
        lexicon="CLUB",
        club=make_club(directors=[ann]),
    )
    domain.act(game.pk, domain.TurnCommand("play", notation="5D MOOD"))
    domain.act(
        game.pk, domain.TurnCommand("void", by="director: ann", note="wrong table", director=ann)
    )
    with pytest.raises(GameOver, match="declared void"):
        domain.act(game.pk, domain.TurnCommand("pass"))
    # Nor can a turn be corrected behind the void, to come back changed when it is undone.
    with pytest.raises(GameOver, match="void"):
        domain.act(game.pk, domain.TurnCommand("correct", target=1, notation="5D MOOD"))
    assert game.turns.count() == 2


def test_a_director_undoes_a_void_and_the_game_is_finished_again():
    ann = account("ann")
    game = finished_game(["Ann", "Ben"], club=make_club(directors=[ann]))
    finals = [s.final_score for s in game.seats.all()]
    domain.act(game.pk, domain.TurnCommand("void", by="director: ann", note="oops", director=ann))
    domain.act(game.pk, domain.TurnCommand("undo", by="director: ann", director=ann))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert [s.final_score for s in game.seats.all()] == finals
    assert audit_game(game) == []


def test_only_a_director_of_the_club_voids_or_undoes_a_void():
    ann, zed = account("ann"), account("zed")
    game = finished_game(["Ann", "Ben"], club=make_club(directors=[ann]))
    for director in (None, zed):
        with pytest.raises(IllegalAction, match="Only a director of Riverside"):
            domain.act(game.pk, domain.TurnCommand("void", by="api", note="x", director=director))
    domain.act(game.pk, domain.TurnCommand("void", by="director: ann", note="x", director=ann))
    with pytest.raises(IllegalAction, match="Only a director of Riverside can undo a void"):
        domain.act(game.pk, domain.TurnCommand("undo", by="scorer page"))
    game.refresh_from_db()
    assert game.status == Game.Status.VOID


def test_a_casual_game_cant_be_voided():
    ann = account("ann")
    make_club(directors=[ann])
    game = finished_game(["Ann", "Ben"], club=None)
    with pytest.raises(IllegalAction, match="Only a club game can be declared void"):
        domain.act(game.pk, domain.TurnCommand("void", by="director: ann", note="x", director=ann))


def test_a_void_needs_a_reason():
    ann = account("ann")
    game = finished_game(["Ann", "Ben"], club=make_club(directors=[ann]))
    with pytest.raises(Exception, match="Say why the game is void"):
        domain.act(game.pk, domain.TurnCommand("void", by="director: ann", note="  ", director=ann))


def test_the_api_cant_void_a_club_game(client):
    ann = account("ann")
    game = finished_game(["Ann", "Ben"], club=make_club(directors=[ann]))
    response = client.post(
        f"/api/games/{game.pk}/turns/",
        {"action": "void", "by": "director: ann"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {game.token}",
    )
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "not_a_director"
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_check_games_passes_with_void_games(capsys):
    ann = account("ann")
    club = make_club(directors=[ann])
    game = finished_game(["Ann", "Ben"], club=club)
    domain.act(game.pk, domain.TurnCommand("void", by="director: ann", note="x", director=ann))
    live = domain.check_create_game(
        ruleset="upwords-10", players=["Ann"], lexicon="CLUB", club=club
    )
    domain.act(live.pk, domain.TurnCommand("void", by="director: ann", note="y", director=ann))
    call_command("check_games")
    assert "2 agree with their logs, 0 do not" in capsys.readouterr().out


# Void from the game page -------------------------------------------------------------------------
def test_the_game_page_offers_the_void_to_a_director_only(client):
    ann = account("ann")
    game = finished_game(["Ann", "Ben"], club=make_club(directors=[ann]))
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Declare void" not in page and "Riverside" in page
    client.force_login(ann)
    assert "Declare void" in client.get(f"/games/{game.pk}/").content.decode()


def test_a_director_voids_from_the_game_page_with_a_reason(client):
    ann = account("ann")
    game = finished_game(["Ann", "Ben"], club=make_club(directors=[ann]))
    client.force_login(ann)
    response = client.post(
        f"/games/{game.pk}/void", {"reason": "wrong tile set", "confirm": "yes"}, follow=True
    )
    assert response.redirect_chain[0] == (f"/games/{game.pk}/", 302)
    html = response.content.decode()
    assert "Voided after turn 2 by director: ann — wrong tile set." in html
    game.refresh_from_db()
    assert game.status == Game.Status.VOID
    response = client.post(f"/games/{game.pk}/void", {"undo": "yes"}, follow=True)
    assert "The void is undone: the game is Finished." in response.content.decode()


def test_the_void_asks_for_confirmation(client):
    ann = account("ann")
    game = finished_game(["Ann", "Ben"], club=make_club(directors=[ann]))
    client.force_login(ann)
    response = client.post(f"/games/{game.pk}/void", {"reason": "x"}, follow=True)
    assert "Not voided: tick the box" in response.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_a_non_director_cant_void_from_the_page(client):
    game = finished_game(["Ann", "Ben"], club=make_club(directors=[account("ann")]))
    body = {"reason": "x", "confirm": "yes"}
    assert client.post(f"/games/{game.pk}/void", body).status_code == 403
    client.force_login(account("ben"))
    response = client.post(f"/games/{game.pk}/void", body)
    assert response.status_code == 403
    assert "Only a director of Riverside" in response.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_a_casual_game_cant_be_voided_from_the_page(client):
    ann = account("ann")
    make_club(directors=[ann])
    game = finished_game(["Ann", "Ben"], club=None)
    client.force_login(ann)
    response = client.post(f"/games/{game.pk}/void", {"reason": "x", "confirm": "yes"}, follow=True)
    assert "a casual game can&#x27;t be declared void" in response.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_a_club_games_record_names_its_club_and_imports_as_a_casual_game():
    from scorekeeper.records.json_record import export_record, import_record

    game = finished_game(["Ann", "Ben"], club=make_club())
    record = export_record(game)
    assert record["game"]["club"] == "riverside"
    copy = import_record(record, new_id=True)
    assert copy.club is None and copy.status == Game.Status.FINISHED


def test_the_scorer_page_of_a_void_game_says_so_and_its_undo_is_refused(client):
    from tests.factories import hold, scorer, turn

    ann = account("ann")
    game = domain.check_create_game(
        ruleset="upwords-10",
        players=["Ann", "Ben"],
        lexicon="CLUB",
        club=make_club(directors=[ann]),
    )
    domain.act(
        game.pk, domain.TurnCommand("void", by="director: ann", note="wrong table", director=ann)
    )
    hold(client, game)
    page = client.get(scorer(game)).content.decode()
    assert "A director of Riverside declared this game void" in page
    turn(client, game, action="undo")
    game.refresh_from_db()
    assert game.status == Game.Status.VOID
