"""What a page sends: htmx only where the page uses it."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import ApiGame

pytestmark = pytest.mark.django_db

HTMX = "django_htmx/htmx"


def test_htmx_is_loaded_only_by_the_pages_that_use_it():
    client = Client()
    game = ApiGame(client)
    client.get(f"/games/{game.id}/score/{game.token}/")
    for page in (f"/games/{game.id}/score/", f"/games/{game.id}/watch", f"/games/{game.id}/"):
        html = client.get(page).content.decode()
        assert "hx-" in html and HTMX in html, page
    for page in ("/", "/games/new", "/judge/", "/rankings/", "/clubs/"):
        html = client.get(page).content.decode()
        assert "hx-" not in html.replace("hx-headers", ""), page
        assert HTMX not in html, page
