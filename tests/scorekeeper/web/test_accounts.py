"""Accounts: signing in and out with Django's views, and the ``account`` command that makes
accounts and resets passwords where no mail is set up."""

from __future__ import annotations

import io
import re

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.core.management import CommandError, call_command

from tests.factories import PASSWORD, account

pytestmark = pytest.mark.django_db


def printed_password(out: str) -> str:
    found = re.search(r"Password \(shown this once\): (\S+)", out)
    assert found, out
    return found[1]


def test_the_sign_in_page_signs_in_and_the_nav_names_the_account(client):
    account("ann")
    assert client.get("/accounts/login/").status_code == 200
    response = client.post(
        "/accounts/login/", {"username": "ann", "password": PASSWORD}, follow=True
    )
    html = response.content.decode()
    assert response.redirect_chain[0] == ("/clubs/", 302)
    assert '<span class="who">ann</span>' in html and "Sign out" in html


def test_a_wrong_password_is_refused_on_the_page(client):
    account("ann")
    response = client.post("/accounts/login/", {"username": "ann", "password": "nope"})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session
    assert "enter a correct username and password" in response.content.decode()


def test_the_nav_offers_sign_in_to_a_visitor(client):
    html = client.get("/").content.decode()
    assert 'href="/accounts/login/"' in html and "Sign out" not in html
    assert 'href="/clubs/"' in html


def test_sign_out_is_a_post(client):
    client.force_login(account("ann"))
    assert client.get("/accounts/logout/").status_code == 405
    response = client.post("/accounts/logout/")
    assert response.status_code == 302 and response["Location"] == "/"
    assert "_auth_user_id" not in client.session


def test_sign_in_keeps_a_next_page_on_this_site(client):
    account("ann")
    response = client.post(
        "/accounts/login/?next=/clubs/new", {"username": "ann", "password": PASSWORD}
    )
    assert response["Location"] == "/clubs/new"


def test_sign_in_attempts_are_throttled(client, settings):
    settings.RATE_LIMIT_LOGINS = 2
    tries = [
        client.post("/accounts/login/", {"username": "x", "password": f"g{i}"}).status_code
        for i in range(3)
    ]
    assert tries == [200, 200, 429]


def test_there_is_no_sign_up_page(client):
    assert client.get("/accounts/signup/").status_code == 404
    assert client.get("/accounts/register/").status_code == 404


# The account command -----------------------------------------------------------------------
def test_account_add_with_a_piped_password():
    out = io.StringIO()
    call_command("account", "add", "ann", stdin=io.StringIO("tile-rack-bingo-42\n"), stdout=out)
    assert "Made the account ann." in out.getvalue()
    assert "shown this once" not in out.getvalue()
    assert authenticate(username="ann", password="tile-rack-bingo-42") is not None


def test_account_add_without_a_password_prints_a_random_one_once():
    out = io.StringIO()
    call_command("account", "add", "ben", stdin=io.StringIO(""), stdout=out)
    password = printed_password(out.getvalue())
    assert len(password) >= 12
    assert authenticate(username="ben", password=password) is not None


def test_account_add_refuses_a_weak_password_and_a_taken_name():
    with pytest.raises(CommandError, match="won't do"):
        call_command("account", "add", "ann", stdin=io.StringIO("123\n"), stdout=io.StringIO())
    assert not get_user_model().objects.filter(username="ann").exists()
    account("ann")
    with pytest.raises(CommandError, match="already an account called ann"):
        call_command("account", "add", "ann", stdin=io.StringIO(""), stdout=io.StringIO())


def test_account_reset_prints_a_new_password_and_the_old_one_stops_working():
    account("ann")
    out = io.StringIO()
    call_command("account", "reset", "ann", stdout=out)
    password = printed_password(out.getvalue())
    assert authenticate(username="ann", password=PASSWORD) is None
    assert authenticate(username="ann", password=password) is not None


def test_account_reset_of_nobody_is_an_error():
    with pytest.raises(CommandError, match="no account called zed"):
        call_command("account", "reset", "zed", stdout=io.StringIO())
