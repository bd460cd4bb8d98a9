"""The admin is for staff: everything is registered, and nobody else gets in."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from .factories import ApiGame

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
