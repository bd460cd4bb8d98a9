"""Whose record an imported game lands on, and a record of a game already here.

An upload can't add to a player's record unless the importer speaks for that player (their
own account, a director of a club whose roster has them); every other name of the record is a
new player of its own, in no ranking. A record of a game already here is refused, naming it.
"""

from __future__ import annotations

import io
import threading
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client

from config.sqlite import base as sqlite_base
from scorekeeper.games import domain
from scorekeeper.models import Game, Player
from scorekeeper.records import duplicates, gcg_import
from scorekeeper.records.gcg_export import game_to_gcg
from tests.factories import account, make_club

pytestmark = pytest.mark.django_db

# RULES.md §4: HOUSE at (7,3)–(7,7), then X A M down making EXAM.
HOUSE = [(7, 3, "H"), (7, 4, "O"), (7, 5, "U"), (7, 6, "S"), (7, 7, "E")]
XAM = [(8, 7, "X"), (9, 7, "A"), (10, 7, "M")]
AH = [(6, 3, "A")]  # AH down through the H


def finished(players: list[str], plays: list[list[tuple[int, int, str]]], **fields: Any) -> Game:
    """A Letter UP game of these plays, then passes to the end and the racks left."""
    game = domain.check_create_game(
        ruleset="letterup-classic", lexicon="CLUB", players=players, challenge_mode="manual",
        **fields,
    )  # fmt: skip
    for tiles in plays:
        domain.act(game.pk, domain.TurnCommand("play", tiles=tiles))
    while Game.objects.get(pk=game.pk).status == Game.Status.IN_PROGRESS:
        domain.act(game.pk, domain.TurnCommand("pass"))
    domain.act(game.pk, domain.TurnCommand("finish", racks={0: "AEGINRT", 1: "BCJKQVZ"}))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def record_of_a_game_gone(players: list[str], plays: list[list[tuple[int, int, str]]]) -> str:
    """The GCG of a finished game that is then deleted: a record of a game not here."""
    game = finished(players, plays)
    text = game_to_gcg(game)
    game.delete()
    return text


def upload(client: Client, text: str):  # type: ignore[no-untyped-def]
    return client.post("/games/import", {"text": text})


def standing(client: Client, players: list[Player]) -> dict[str, Any]:
    """What the rankings and the pages of ``players`` say."""
    seen: dict[str, Any] = {}
    for words in ("checked", "honour"):
        page = client.get(f"/rankings/?ruleset=letterup-classic&words={words}")
        assert page.status_code == 200
        seen[words] = [
            (r["player__name"], r["games"], r["best"], r["wins"], r["losses"])
            for r in page.context["rows"]
        ]
    for player in players:
        page = client.get(f"/players/{player.pk}/")
        assert page.status_code == 200
        seen[player.name] = (
            [row["game"].pk for row in page.context["games"]],
            page.context["record"],
            page.context["best_turn"],
        )
    return seen


def seat_players(game_id: object) -> list[Player]:
    game = Game.objects.get(pk=game_id)
    return [seat.player for seat in game.seats.select_related("player").order_by("order")]


def imported_game() -> Game:
    return Game.objects.latest("created_at")


# The app's own export, imported again ----------------------------------------------------------
def test_the_export_of_a_finished_club_game_imported_again_changes_no_ranking_or_player_page():
    director = account("dee")
    club = make_club(directors=[director], roster=("Ann", "Ben"))
    game = finished(["Ann", "Ben"], [HOUSE, XAM], club=club)
    text = game_to_gcg(game)
    players = list(Player.objects.order_by("pk"))
    before = standing(Client(), players)
    games = Game.objects.count()

    anonymous, signed_in = Client(), Client()
    signed_in.force_login(director)
    for client in (anonymous, signed_in):
        response = upload(client, text)
        assert response.status_code == 409
        assert f"/games/{game.pk}/" in response.content.decode()
    api = Client().post("/api/games/import", {"gcg": text}, content_type="application/json")
    assert api.status_code == 409 and api.json()["error"]["code"] == "game_exists"

    assert Game.objects.count() == games
    assert standing(Client(), players) == before


def test_a_refusal_names_the_game_already_here_and_links_to_it():
    game = finished(["Ann", "Ben"], [HOUSE, XAM])
    response = upload(Client(), game_to_gcg(game))
    page = response.content.decode()
    assert response.status_code == 409
    assert "This game is already here: Ann v Ben, Letter UP Classic" in page
    assert f'<a href="/games/{game.pk}/">Open that game</a>' in page


def test_the_same_turns_players_and_date_are_recognised_without_the_id_line():
    game = finished(["Ann", "Ben"], [HOUSE, XAM])
    text = "".join(line for line in io.StringIO(game_to_gcg(game)) if not line.startswith("#id"))
    api = Client().post("/api/games/import", {"gcg": text}, content_type="application/json")
    assert api.status_code == 409
    assert f"/games/{game.pk}/" in api.json()["error"]["message"]


def test_a_record_imported_twice_is_refused_the_second_time():
    text = record_of_a_game_gone(["Ann", "Ben"], [HOUSE, XAM])
    first = Client().post("/api/games/import", {"gcg": text}, content_type="application/json")
    assert first.status_code == 201
    again = Client().post("/api/games/import", {"gcg": text}, content_type="application/json")
    assert again.status_code == 409
    error = again.json()["error"]
    assert error["code"] == "game_exists"
    assert error["message"].startswith("This game is already here: Ann v Ben, Letter UP Classic")
    assert f"/games/{first.json()['id']}/" in error["message"]
    assert Game.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_same_record_imported_twice_at_once_is_stored_once(monkeypatch):
    """The first import is held just after finding the game is not here, until the second is
    on its way in: the second must wait for the first's game and be refused, not store a copy.
    """
    text = record_of_a_game_gone(["Ann", "Ben"], [HOUSE, XAM])
    checked, second_waits = threading.Event(), threading.Event()
    check = duplicates.check_not_here

    def held_check(*args, **kwargs):  # type: ignore[no-untyped-def]
        check(*args, **kwargs)
        if threading.current_thread().name == "first":
            checked.set()
            assert second_waits.wait(30)

    monkeypatch.setattr(gcg_import, "check_not_here", held_check)
    if connection.vendor == "sqlite":
        acquire = sqlite_base._Writers.acquire

        def queued(self, timeout):  # type: ignore[no-untyped-def]
            if threading.current_thread().name == "second":
                second_waits.set()
            return acquire(self, timeout)

        monkeypatch.setattr(sqlite_base._Writers, "acquire", queued)
    answers: dict[str, int] = {}

    def post() -> None:
        try:
            response = Client().post(
                "/api/games/import", {"gcg": text}, content_type="application/json"
            )
            answers[threading.current_thread().name] = response.status_code
        finally:
            connection.close()

    first = threading.Thread(target=post, name="first")
    second = threading.Thread(target=post, name="second")
    first.start()
    assert checked.wait(30)
    second.start()
    if connection.vendor == "postgresql":  # the second waits on the lock, or is done
        with connection.cursor() as cursor:
            for _ in range(300):
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND wait_event_type = 'Lock'"
                )
                if cursor.fetchone()[0] or not second.is_alive():
                    break
                second.join(0.1)
        second_waits.set()
    first.join(30)
    second.join(30)
    assert answers == {"first": 201, "second": 409}
    assert Game.objects.count() == 1


def test_another_game_of_the_same_players_is_not_taken_for_the_one_here():
    finished(["Ann", "Ben"], [HOUSE, XAM])
    text = record_of_a_game_gone(["Ann", "Ben"], [HOUSE, XAM, AH])
    assert upload(Client(), text).status_code == 302


# Whose record the game lands on ----------------------------------------------------------------
def test_an_anonymous_import_with_known_names_lands_on_no_one_s_record():
    club = make_club(roster=("Ann", "Ben"))
    finished(["Ann", "Ben"], [HOUSE, XAM], club=club)
    text = record_of_a_game_gone(["Ann", "Ben"], [HOUSE])
    ann, ben = Player.objects.get(name="Ann"), Player.objects.get(name="Ben")
    before = standing(Client(), [ann, ben])

    assert upload(Client(), text).status_code == 302
    seats = seat_players(imported_game().pk)
    assert [p.name for p in seats] == ["Ann", "Ben"]
    assert standing(Client(), [ann, ben]) == before
    assert all(p.pk not in (ann.pk, ben.pk) and p.from_record for p in seats)
    # The name is the imported game's own: its page lists that game alone.
    page = Client().get(f"/players/{seats[0].pk}/")
    assert [row["game"] for row in page.context["games"]] == [imported_game()]
    assert "linked to no player" in page.content.decode()


def test_an_api_import_with_known_names_lands_on_no_one_s_record():
    finished(["Ann", "Ben"], [HOUSE, XAM])
    ann = Player.objects.get(name="Ann")
    text = record_of_a_game_gone(["Ann", "Ben"], [HOUSE])
    response = Client().post("/api/games/import", {"gcg": text}, content_type="application/json")
    assert response.status_code == 201
    assert ann.seats.count() == 1
    assert all(p.from_record for p in seat_players(response.json()["id"]))


def test_a_director_of_the_players_club_links_them_and_no_one_else():
    director = account("dee")
    make_club(directors=[director], roster=("Ann",))
    make_club("Hillside", roster=("Zed",))  # Zed's club is not the director's
    finished(["Ann", "Zed"], [HOUSE, XAM])
    known_ann, known_zed = Player.objects.get(name="Ann"), Player.objects.get(name="Zed")
    text = record_of_a_game_gone(["Ann", "Zed"], [HOUSE])
    client = Client()
    client.force_login(director)

    assert upload(client, text).status_code == 302
    ann, zed = seat_players(imported_game().pk)
    assert ann == known_ann
    assert zed != known_zed and zed.from_record
    page = Client().get(f"/players/{ann.pk}/")
    assert imported_game() in [row["game"] for row in page.context["games"]]


def test_a_player_s_own_account_links_them_alone():
    ann_account = account("ann")
    finished(["Ann", "Ben"], [HOUSE, XAM])
    Player.objects.filter(name="Ann").update(user=ann_account)
    known_ann, known_ben = Player.objects.get(name="Ann"), Player.objects.get(name="Ben")
    text = record_of_a_game_gone(["Ann", "Ben"], [HOUSE])
    client = Client()
    client.force_login(ann_account)

    assert upload(client, text).status_code == 302
    ann, ben = seat_players(imported_game().pk)
    assert ann == known_ann
    assert ben != known_ben and ben.from_record


def test_the_operator_s_command_links_the_names_only_when_asked(tmp_path):
    finished(["Ann", "Ben"], [HOUSE, XAM])
    ann = Player.objects.get(name="Ann")
    unlinked, linked = tmp_path / "a.gcg", tmp_path / "b.gcg"
    unlinked.write_text(record_of_a_game_gone(["Ann", "Ben"], [HOUSE]))
    linked.write_text(record_of_a_game_gone(["Ann", "Ben"], [HOUSE, XAM, AH]))

    call_command("import_game", str(unlinked), stdout=io.StringIO())
    assert seat_players(imported_game().pk)[0] != ann
    call_command("import_game", str(linked), "--link", stdout=io.StringIO())
    assert seat_players(imported_game().pk)[0] == ann
    assert ann.seats.count() == 2


def test_a_name_from_a_record_is_never_the_one_a_roster_or_a_new_game_finds():
    text = record_of_a_game_gone(["Ann", "Ben"], [HOUSE])
    Player.objects.all().delete()
    assert upload(Client(), text).status_code == 302
    recorded = seat_players(imported_game().pk)[0]
    player = domain.player_named("Ann")
    assert player != recorded
    assert recorded.from_record and not player.from_record
    assert domain.known_player("ann") == player


def test_a_director_importing_a_record_uploaded_anonymously_links_the_game_here():
    director = account("dee")
    make_club(directors=[director], roster=("Ann", "Ben"))
    known = [Player.objects.get(name="Ann"), Player.objects.get(name="Ben")]
    text = record_of_a_game_gone(["Ann", "Ben"], [HOUSE])
    assert upload(Client(), text).status_code == 302
    game = imported_game()
    client = Client()
    client.force_login(director)

    response = upload(client, text)
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert Game.objects.count() == 1
    assert seat_players(game.pk) == known
    assert not Player.objects.filter(from_record=True).exists()
