"""Club pages: making a club, its page, and the roster its directors manage (403 for anyone
else)."""

from __future__ import annotations

import re

import pytest

from scorekeeper.models import Club, Player

from .club_factories import account, make_club

pytestmark = pytest.mark.django_db


def test_making_a_club_needs_an_account(client):
    response = client.get("/clubs/new")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/clubs/new"
    assert client.post("/clubs/new", {"name": "Riverside"}).status_code == 302
    assert not Club.objects.exists()


def test_whoever_makes_a_club_is_its_director(client):
    ann = account("ann")
    client.force_login(ann)
    response = client.post("/clubs/new", {"name": "Riverside Word Club"}, follow=True)
    assert response.redirect_chain[-1] == ("/clubs/riverside-word-club/", 302)
    club = Club.objects.get()
    assert club.name == "Riverside Word Club" and list(club.directors.all()) == [ann]
    assert "you are its director" in response.content.decode()


def test_a_club_name_taken_or_unusable_is_refused(client):
    client.force_login(account("ann"))
    make_club("Riverside")
    response = client.post("/clubs/new", {"name": "riverside"})
    assert response.status_code == 400
    assert "already a club called riverside" in response.content.decode()
    assert client.post("/clubs/new", {"name": "New"}).status_code == 400
    assert client.post("/clubs/new", {"name": "!!!"}).status_code == 400
    assert Club.objects.count() == 1


def test_the_club_list_and_page_are_public(client):
    make_club("Riverside")
    assert "Riverside" in client.get("/clubs/").content.decode()
    page = client.get("/clubs/riverside/").content.decode()
    assert "Ann" in page and "Ben" in page and "Cy" in page
    assert 'name="change"' not in page  # no roster forms for a visitor
    assert client.get("/clubs/nowhere/").status_code == 404


def test_a_director_adds_a_known_player_by_name_in_any_case(client):
    ann = account("ann")
    club = make_club(directors=[ann], roster=[])
    known = Player.objects.create(name="Dee Ramos")
    client.force_login(ann)
    page = client.get("/clubs/riverside/").content.decode()
    assert 'value="add"' in page
    response = client.post("/clubs/riverside/roster", {"change": "add", "name": "dee  RAMOS"})
    assert response.status_code == 302 and response["Location"] == "/clubs/riverside/"
    assert list(club.roster.all()) == [known]
    assert Player.objects.count() == 1


def test_a_director_adds_a_new_player_and_removes_one(client):
    ann = account("ann")
    club = make_club(directors=[ann], roster=["Ben"])
    client.force_login(ann)
    client.post("/clubs/riverside/roster", {"change": "add", "name": "Eve"})
    assert sorted(p.name for p in club.roster.all()) == ["Ben", "Eve"]
    ben = Player.objects.get(name="Ben")
    response = client.post(
        "/clubs/riverside/roster", {"change": "remove", "player": ben.pk}, follow=True
    )
    assert "Ben is off Riverside&#x27;s roster." in response.content.decode()
    assert [p.name for p in club.roster.all()] == ["Eve"]
    assert Player.objects.filter(name="Ben").exists()  # off the roster, not out of history


def test_a_bad_name_is_refused_by_name(client):
    ann = account("ann")
    club = make_club(directors=[ann], roster=[])
    client.force_login(ann)
    response = client.post(
        "/clubs/riverside/roster", {"change": "add", "name": "A\u200bnn"}, follow=True
    )
    assert "Not added." in response.content.decode()
    assert not club.roster.exists()


def test_a_director_links_a_roster_player_to_an_account(client):
    ann, ben_account = account("ann"), account("ben")
    make_club(directors=[ann], roster=["Ben"])
    client.force_login(ann)
    ben = Player.objects.get(name="Ben")
    client.post("/clubs/riverside/roster", {"change": "link", "player": ben.pk, "username": "ben"})
    ben.refresh_from_db()
    assert ben.user == ben_account
    response = client.post(
        "/clubs/riverside/roster",
        {"change": "link", "player": ben.pk, "username": "nobody"},
        follow=True,
    )
    assert "there is no account called nobody" in response.content.decode()
    client.post("/clubs/riverside/roster", {"change": "link", "player": ben.pk, "username": ""})
    ben.refresh_from_db()
    assert ben.user is None


def test_an_account_is_linked_to_one_player_only(client):
    ann = account("ann")
    account("ben")
    make_club(directors=[ann], roster=["Ben", "Cy"])
    client.force_login(ann)
    ben, cy = Player.objects.get(name="Ben"), Player.objects.get(name="Cy")
    client.post("/clubs/riverside/roster", {"change": "link", "player": ben.pk, "username": "ben"})
    response = client.post(
        "/clubs/riverside/roster",
        {"change": "link", "player": cy.pk, "username": "ben"},
        follow=True,
    )
    assert "ben is already Ben" in response.content.decode()
    cy.refresh_from_db()
    assert cy.user is None


@pytest.mark.parametrize(
    "body",
    [
        {"change": "add", "name": "Mallory"},
        {"change": "remove", "player": "1"},
        {"change": "link", "player": "1", "username": "mallory"},
        {"change": "account", "player": "1", "username": "mallory"},
    ],
)
def test_only_a_director_changes_the_roster(client, body):
    club = make_club(directors=[account("ann")], roster=["Ben"])
    before = list(club.roster.values_list("pk", flat=True))
    assert client.post("/clubs/riverside/roster", body).status_code == 403  # a visitor
    client.force_login(account("mallory"))
    response = client.post("/clubs/riverside/roster", body)
    assert response.status_code == 403
    assert "Only a director of Riverside can change its roster." in response.content.decode()
    assert list(club.roster.values_list("pk", flat=True)) == before
    assert not Player.objects.filter(name="Mallory").exists()
    assert not Player.objects.filter(user__username="mallory").exists()


def test_the_roster_form_takes_only_posts(client):
    ann = account("ann")
    make_club(directors=[ann])
    client.force_login(ann)
    assert client.get("/clubs/riverside/roster").status_code == 405


def test_a_player_not_on_the_roster_cant_be_removed_or_linked(client):
    ann = account("ann")
    club = make_club(directors=[ann], roster=["Ben"])
    outsider = Player.objects.create(name="Zed")
    client.force_login(ann)
    response = client.post(
        "/clubs/riverside/roster", {"change": "remove", "player": outsider.pk}, follow=True
    )
    assert "That player is not on Riverside&#x27;s roster." in response.content.decode()
    assert club.roster.count() == 1


def test_staff_edit_a_club_in_the_admin(admin_client):
    club = make_club(roster=["Ben"])
    assert admin_client.get("/admin/scorekeeper/club/").status_code == 200
    response = admin_client.post(
        f"/admin/scorekeeper/club/{club.pk}/change/",
        {"name": "Riverside WC", "slug": "riverside", "roster": [p.pk for p in club.roster.all()]},
    )
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.name == "Riverside WC"


def test_a_director_makes_an_account_for_a_roster_player_and_sees_its_password_once(client):
    from django.contrib.auth import authenticate

    ann = account("ann")
    make_club(directors=[ann], roster=["Ben"])
    client.force_login(ann)
    ben = Player.objects.get(name="Ben")
    response = client.post(
        "/clubs/riverside/roster", {"change": "account", "player": ben.pk, "username": "ben"}
    )
    assert response.status_code == 302
    page = client.get("/clubs/riverside/")
    password = re.search(r'<code class="password">([^<]+)</code>', page.content.decode())[1]
    assert "no-store" in page["Cache-Control"]
    ben.refresh_from_db()
    assert ben.user is not None and ben.user.username == "ben"
    assert authenticate(username="ben", password=password) is not None
    assert password not in client.get("/clubs/riverside/").content.decode()  # once


def test_an_account_is_not_made_twice_or_with_a_taken_or_bad_username(client):
    ann = account("ann")
    make_club(directors=[ann], roster=["Ben", "Cy"])
    client.force_login(ann)
    ben, cy = Player.objects.get(name="Ben"), Player.objects.get(name="Cy")
    post = lambda player, username: client.post(  # noqa: E731
        "/clubs/riverside/roster",
        {"change": "account", "player": player.pk, "username": username},
        follow=True,
    ).content.decode()
    assert "choose another username than “ann”" in post(ben, "ann")
    assert "a username is letters, digits" in post(ben, "b e n")
    assert "give the account a username" in post(ben, "")
    post(ben, "ben")
    assert "Ben already has an account" in post(ben, "ben2")
    assert Player.objects.get(pk=cy.pk).user is None
    from django.contrib.auth import get_user_model

    assert sorted(get_user_model().objects.values_list("username", flat=True)) == ["ann", "ben"]


def test_every_club_page_works_at_a_glance(client):
    """One h1, captioned tables with scoped headers, every form field labelled."""
    from .club_factories import finished_game

    ann = account("ann")
    club = make_club(directors=[ann])
    game = finished_game(["Ann", "Ben"], club=club)
    finished_game(["Ann", "Ben"], club=club, lexicon="honour")
    urls = ["/accounts/login/", "/clubs/", "/clubs/riverside/"]
    for url in urls:
        page = client.get(url).content.decode()
        assert page.count("<h1") == 1, url
    client.force_login(ann)
    for url in [*urls[1:], "/clubs/new", f"/games/{game.pk}/"]:
        page = client.get(url).content.decode()
        assert page.count("<h1") == 1, url
        assert page.count("<table") == page.count("<caption"), url
        assert "<th>" not in page, url
        for field_id in re.findall(r'<(?:input|select)[^>]* id="([^"]+)"', page):
            assert f'for="{field_id}"' in page, (url, field_id)
    assert 'for="id_club"' in client.get("/games/new").content.decode()
