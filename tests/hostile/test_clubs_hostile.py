"""Hostile requests to accounts and clubs: a forged club in the new-game form, an open
redirect through sign-in's ``next``, forged roster changes and voids, missing CSRF tokens."""

from __future__ import annotations

import pytest
from django.test import Client

from scorekeeper import domain
from scorekeeper.models import Club, Game, Player, clubs_of
from tests.scorekeeper.club_factories import PASSWORD, account, finished_game, make_club

pytestmark = pytest.mark.django_db

NEW_GAME = {
    "ruleset": "upwords-10", "lexicon": "CLUB", "challenge_mode": "auto", "starter": "1",
    "player_1": "Ann", "player_2": "Ben",
}  # fmt: skip


@pytest.mark.parametrize("forged", ["riverside", "1", "0", "-1", "riverside' OR 1=1 --", "\x00"])
def test_a_forged_club_from_a_signed_in_non_member_is_refused(hostile, forged):
    make_club()
    make_club("Hilltop", directors=[account("mallory")])
    hostile.force_login(Club.objects.get(slug="hilltop").directors.get())
    response = hostile.post("/games/new", {**NEW_GAME, "club": forged})
    assert response.status_code == 400
    page = response.content.decode()
    assert "You are not a member of that club." in page or "Null characters" in page
    assert not Game.objects.exists()


def test_a_forged_club_from_a_visitor_makes_a_casual_game(hostile):
    make_club()
    response = hostile.post("/games/new", {**NEW_GAME, "club": "riverside"})
    assert response.status_code == 302
    assert Game.objects.get().club is None


@pytest.mark.parametrize(
    "next_url",
    [
        "https://evil.example/",
        "//evil.example/",
        "/\\evil.example/",
        "\\\\evil.example",
        "https:evil.example",
        "javascript:alert(1)",
        " https://evil.example",
    ],
)
def test_sign_in_never_redirects_off_the_site(hostile, next_url):
    account("ann")
    response = hostile.post(
        "/accounts/login/", {"username": "ann", "password": PASSWORD, "next": next_url}
    )
    assert response.status_code == 302
    assert response["Location"] == "/clubs/"
    response = hostile.post("/accounts/logout/", {"next": next_url})
    assert response["Location"] == "/"


@pytest.mark.parametrize(
    "name", ["<script>alert(1)</script>", "W" * 5_000, "\x00", "\u202eAnn", ""]
)
def test_hostile_roster_names_are_refused_or_escaped(hostile, name):
    ann = account("ann")
    club = make_club(directors=[ann], roster=[])
    hostile.force_login(ann)
    response = hostile.post("/clubs/riverside/roster", {"change": "add", "name": name}, follow=True)
    assert response.status_code == 200
    assert "<script>alert(1)</script>" not in response.content.decode()
    if club.roster.exists():
        assert [p.name for p in club.roster.all()] == ["<script>alert(1)</script>"]


@pytest.mark.parametrize(
    "body",
    [
        {"change": "remove", "player": "1 OR 1=1"},
        {"change": "remove", "player": "99999999999999999999"},
        {"change": "link", "player": "-1", "username": "ann"},
        {"change": "drop_table"},
        {},
    ],
)
def test_forged_roster_changes_change_nothing(hostile, body):
    ann = account("ann")
    club = make_club(directors=[ann], roster=["Ben"])
    hostile.force_login(ann)
    assert hostile.post("/clubs/riverside/roster", body).status_code == 302
    assert [p.name for p in club.roster.all()] == ["Ben"]
    assert Player.objects.get(name="Ben").user is None


def test_voids_of_games_that_are_not_there_are_404(hostile):
    ann = account("ann")
    make_club(directors=[ann])
    hostile.force_login(ann)
    body = {"reason": "x", "confirm": "yes"}
    assert hostile.post("/games/00000000-0000-0000-0000-000000000000/void", body).status_code == 404
    assert hostile.post("/games/not-a-uuid/void", body).status_code == 404


def test_a_director_of_another_club_cant_void_this_clubs_game(hostile):
    game = finished_game(["Ann", "Ben"], club=make_club(directors=[account("ann")]))
    make_club("Hilltop", directors=[account("mallory")], roster=[])
    hostile.force_login(Club.objects.get(slug="hilltop").directors.get())
    response = hostile.post(f"/games/{game.pk}/void", {"reason": "x", "confirm": "yes"})
    assert response.status_code == 403
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_club_forms_need_their_csrf_token():
    ann = account("ann")
    club = make_club(directors=[ann], roster=[])
    game = finished_game(["Ann", "Ben"], club=make_club("Hilltop", directors=[ann]))
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(ann)
    assert (
        browser.post("/clubs/riverside/roster", {"change": "add", "name": "Eve"}).status_code == 403
    )
    assert (
        browser.post(f"/games/{game.pk}/void", {"reason": "x", "confirm": "yes"}).status_code == 403
    )
    assert browser.post("/clubs/new", {"name": "Sneaky"}).status_code == 403
    assert browser.post("/accounts/logout/").status_code == 403
    assert not club.roster.exists() and not Club.objects.filter(slug="sneaky").exists()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_a_director_cant_take_over_a_player_another_club_shares(hostile):
    """Mallory puts Ann (on Riverside's roster) on her own club's roster, then tries to link
    Ann to her own account, or make one for Ann: that would make her a Riverside member."""
    ann_account = account("ann")
    make_club(directors=[ann_account], roster=["Ann"])
    mallory = account("mallory")
    hilltop = make_club("Hilltop", directors=[mallory], roster=[])
    hostile.force_login(mallory)
    hostile.post("/clubs/hilltop/roster", {"change": "add", "name": "ann"})
    ann = Player.objects.get(name="Ann")
    assert list(hilltop.roster.all()) == [ann]
    for change in ("link", "account"):
        response = hostile.post(
            "/clubs/hilltop/roster",
            {
                "change": change,
                "player": ann.pk,
                "username": "mallory2" if change == "account" else "mallory",
            },
            follow=True,
        )
        assert (
            "Ann is also on Riverside&#x27;s roster, which you don&#x27;t direct"
            in response.content.decode()
        )
    ann.refresh_from_db()
    assert ann.user is None
    offered = hostile.get("/games/new").content.decode()
    assert 'value="hilltop"' in offered and 'value="riverside"' not in offered
    # Taking Ann off Mallory's own roster is still hers to do.
    hostile.post("/clubs/hilltop/roster", {"change": "remove", "player": ann.pk})
    assert not hilltop.roster.exists()


def test_a_made_up_club_cant_link_a_player_first_and_bring_the_account_in(hostile):
    """Mallory makes a club, puts Ann (a known casual player) on it and links Ann to her own
    account; when Riverside's director then adds Ann, Mallory must not become a Riverside
    member: the add is refused, naming why."""
    riverside_director = account("rita")
    riverside = make_club(directors=[riverside_director], roster=["Ben"])
    domain.player_named("Ann")  # a casual player with a history
    mallory = account("mallory")
    hostile.force_login(mallory)
    hostile.post("/clubs/new", {"name": "Shadow"})
    hostile.post("/clubs/shadow/roster", {"change": "add", "name": "Ann"})
    ann = Player.objects.get(name="Ann")
    hostile.post(
        "/clubs/shadow/roster", {"change": "link", "player": ann.pk, "username": "mallory"}
    )
    ann.refresh_from_db()
    assert ann.user == mallory  # her own club: hers to link
    director = Client()
    director.force_login(riverside_director)
    response = director.post(
        "/clubs/riverside/roster", {"change": "add", "name": "Ann"}, follow=True
    )
    page = response.content.decode()
    assert "Not added: Ann is linked to an account through Shadow" in page
    assert not riverside.roster.filter(pk=ann.pk).exists()
    assert [c.slug for c in clubs_of(mallory)] == ["shadow"]
    assert 'value="riverside"' not in hostile.get("/games/new").content.decode()


def test_a_director_of_every_club_of_a_linked_player_brings_the_account_in(hostile):
    ann_account = account("ann")
    both = account("boss")
    make_club("Hilltop", directors=[both], roster=["Ann"])
    ann = Player.objects.get(name="Ann")
    ann.user = ann_account
    ann.save()
    riverside = make_club(directors=[both], roster=[])
    hostile.force_login(both)
    response = hostile.post(
        "/clubs/riverside/roster", {"change": "add", "name": "ann"}, follow=True
    )
    assert "with the account ann, now a member" in response.content.decode()
    assert riverside.roster.filter(pk=ann.pk).exists()
    assert {c.slug for c in clubs_of(ann_account)} == {"hilltop", "riverside"}
