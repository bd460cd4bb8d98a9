"""The admin is for staff: everything is registered, and nobody else gets in."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tests.factories import ApiGame

pytestmark = pytest.mark.django_db


def test_the_admin_needs_a_staff_login(client):
    response = client.get("/admin/scorekeeper/game/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    User.objects.create_user("ann", password="pw-for-tests-only")
    client.login(username="ann", password="pw-for-tests-only")
    assert client.get("/admin/scorekeeper/game/").status_code == 302  # not staff


@pytest.mark.parametrize("model", ["player", "game", "seat", "turn"])
def test_staff_see_every_model(admin_client, client, model):
    ApiGame(client)
    response = admin_client.get(f"/admin/scorekeeper/{model}/")
    assert response.status_code == 200


def test_a_game_in_the_admin_shows_its_seats_and_turns(admin_client, client):
    game = ApiGame(client)
    game.play([(4, 3, "M"), (4, 4, "O"), (4, 5, "O"), (4, 6, "D")])
    html = admin_client.get(f"/admin/scorekeeper/game/{game.id}/change/").content.decode()
    assert "5D MOOD" in html and "Ann" in html


def test_staff_cannot_edit_a_score_a_board_or_a_status(admin_client, client):
    from scorekeeper.games.consistency import audit_game
    from scorekeeper.models import Game, Seat

    game = ApiGame(client)
    game.play([(4, 3, "M"), (4, 4, "O"), (4, 5, "O"), (4, 6, "D")])
    seat = Seat.objects.get(game_id=game.id, order=0)
    response = admin_client.post(
        f"/admin/scorekeeper/seat/{seat.pk}/change/",
        {"game": game.id, "player": seat.player_id, "order": 0, "score": 999, "final_score": 999},
    )
    assert response.status_code == 403
    response = admin_client.post(
        f"/admin/scorekeeper/game/{game.id}/change/", {"status": "finished", "bag_count": 0}
    )
    assert response.status_code == 403
    assert admin_client.get("/admin/scorekeeper/turn/add/").status_code == 403
    page = admin_client.get(f"/admin/scorekeeper/game/{game.id}/change/").content.decode()
    assert game.token not in page  # the scorer's secret is not shown, even to staff
    stored = Game.objects.get(pk=game.id)
    assert [s.score for s in stored.seats.order_by("order")] == [8, 0]
    assert audit_game(stored) == []


def test_a_correction_in_the_admin_goes_through_the_domain_and_is_logged(admin_client, client):
    from scorekeeper.games.consistency import audit_game
    from scorekeeper.models import Game, Turn

    game = ApiGame(client)
    game.play([(4, 3, "M"), (4, 4, "O"), (4, 5, "O"), (4, 6, "D")])
    response = admin_client.post(
        "/admin/scorekeeper/game/",
        {"action": "undo_last_turn", "_selected_action": [game.id]},
        follow=True,
    )
    assert "Turn 1 was undone" in response.content.decode()
    undo = Turn.objects.get(game_id=game.id, number=2)
    assert undo.action == "undo" and undo.entered_by == "admin: admin"
    assert Turn.objects.get(game_id=game.id, number=1).undone_by == "admin: admin"
    stored = Game.objects.get(pk=game.id)
    assert stored.board[4][3] == [] and audit_game(stored) == []


def test_a_correction_the_rules_refuse_is_reported_and_changes_nothing(admin_client, client):
    from scorekeeper.models import Game

    game = ApiGame(client)
    response = admin_client.post(
        "/admin/scorekeeper/game/",
        {"action": "undo_last_turn", "_selected_action": [game.id]},
        follow=True,
    )
    assert "There is no turn to undo." in response.content.decode()
    assert Game.objects.get(pk=game.id).last_entry_number == 0


def staff(username: str, *codenames: str) -> User:
    """A staff account with only the given permissions of the scorekeeper app."""
    from django.contrib.auth.models import Permission

    user = User.objects.create_user(username, password="pw-for-tests-only", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(codename__in=codenames))
    return user


ACTIONS = ["undo_last_turn", "finish_now"]
VIEW = ["view_game", "view_seat", "view_turn"]  # staff who may look at games, nothing more


@pytest.mark.parametrize("action", ACTIONS)
def test_staff_who_may_only_view_games_get_no_action(client, action):
    """The attack: a "view game" staff account forges the action's POST. Nothing changes."""
    from django.test import Client

    from scorekeeper.models import Game

    game = ApiGame(client)
    game.play([(4, 3, "M"), (4, 4, "O"), (4, 5, "O"), (4, 6, "D")])
    viewer = Client()
    viewer.force_login(staff("vera", *VIEW))
    response = viewer.post(
        "/admin/scorekeeper/game/", {"action": action, "_selected_action": [game.id]}, follow=True
    )
    assert response.status_code == 200  # the list again: Django runs no action it didn't offer
    stored = Game.objects.get(pk=game.id)
    assert stored.last_entry_number == 1 and stored.status == Game.Status.IN_PROGRESS
    assert not stored.turns.filter(entered_by__startswith="admin:").exists()
    changelist = viewer.get("/admin/scorekeeper/game/")
    assert changelist.status_code == 200
    page = changelist.content.decode()
    assert game.id in page  # she sees the game ...
    assert f'value="{action}"' not in page  # ... and no action
    assert "5D MOOD" in viewer.get(f"/admin/scorekeeper/game/{game.id}/change/").content.decode()


def test_staff_who_may_change_games_undo_through_the_domain(client):
    from django.test import Client

    from scorekeeper.games.consistency import audit_game
    from scorekeeper.models import Game, Turn

    game = ApiGame(client)
    game.play([(4, 3, "M"), (4, 4, "O"), (4, 5, "O"), (4, 6, "D")])
    changer = Client()
    changer.force_login(staff("carl", *VIEW, "change_game"))
    page = changer.get("/admin/scorekeeper/game/").content.decode()
    assert all(f'value="{action}"' in page for action in ACTIONS)
    response = changer.post(
        "/admin/scorekeeper/game/",
        {"action": "undo_last_turn", "_selected_action": [game.id]},
        follow=True,
    )
    assert "Turn 1 was undone" in response.content.decode()
    assert Turn.objects.get(game_id=game.id, number=2).entered_by == "admin: carl"
    stored = Game.objects.get(pk=game.id)
    assert stored.board[4][3] == [] and audit_game(stored) == []


def test_the_change_permission_edits_no_game_in_a_form(client):
    """Games stay read-only for staff who may change them: the page shows no field to edit
    and refuses a POST; no game is added or deleted."""
    from django.test import Client

    from scorekeeper.models import Game

    game = ApiGame(client)
    changer = Client()
    changer.force_login(staff("carl", *VIEW, "change_game", "add_game", "delete_game"))
    page = changer.get(f"/admin/scorekeeper/game/{game.id}/change/").content.decode()
    assert 'name="status"' not in page and 'name="bag_count"' not in page
    response = changer.post(
        f"/admin/scorekeeper/game/{game.id}/change/", {"status": "finished", "bag_count": 0}
    )
    assert response.status_code == 403
    assert changer.get("/admin/scorekeeper/game/add/").status_code == 403
    assert changer.post(f"/admin/scorekeeper/game/{game.id}/delete/").status_code == 403
    assert Game.objects.get(pk=game.id).status == Game.Status.IN_PROGRESS
